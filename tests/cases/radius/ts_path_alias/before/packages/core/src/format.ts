export function format(x: number): string { return String(x); }
