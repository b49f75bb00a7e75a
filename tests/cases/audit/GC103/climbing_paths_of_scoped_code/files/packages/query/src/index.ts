export const q = 1
