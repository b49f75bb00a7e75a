export const storage = 1;
