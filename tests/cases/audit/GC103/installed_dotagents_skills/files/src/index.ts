export const wizard = 1
