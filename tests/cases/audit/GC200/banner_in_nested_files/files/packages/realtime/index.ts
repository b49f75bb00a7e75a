export const realtime = 1;
