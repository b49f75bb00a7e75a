export const auth = 1;
