export type H = 1
