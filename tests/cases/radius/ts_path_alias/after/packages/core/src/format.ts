export function format(x: number): string {
  return x.toFixed(2);
}
