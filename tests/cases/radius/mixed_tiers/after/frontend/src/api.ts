export async function fetchUser() {
  return {};
}

export function helper0(x: number): number {
  return x + 0;
}

export function helper1(x: number): number {
  return x + 1;
}

export function helper2(x: number): number {
  return x + 2;
}

export function helper3(x: number): number {
  return x + 3;
}

export function helper4(x: number): number {
  return x + 4;
}

export function helper5(x: number): number {
  return x + 5;
}

export function helper6(x: number): number {
  return x + 6;
}

export function helper7(x: number): number {
  return x + 7;
}

export function helper8(x: number): number {
  return x + 8;
}

export function helper9(x: number): number {
  return x + 9;
}

export function helper10(x: number): number {
  return x + 10;
}

export function helper11(x: number): number {
  return x + 11;
}

export function helper12(x: number): number {
  return x + 12;
}

export function helper13(x: number): number {
  return x + 13;
}

export function helper14(x: number): number {
  return x + 14;
}

export function helper15(x: number): number {
  return x + 15;
}

export function helper16(x: number): number {
  return x + 16;
}

export function helper17(x: number): number {
  return x + 17;
}

export function helper18(x: number): number {
  return x + 18;
}

export function helper19(x: number): number {
  return x + 19;
}

export function helper20(x: number): number {
  return x + 20;
}

export function helper21(x: number): number {
  return x + 21;
}

export function helper22(x: number): number {
  return x + 22;
}

export function helper23(x: number): number {
  return x + 23;
}

export function helper24(x: number): number {
  return x + 24;
}

export function helper25(x: number): number {
  return x + 25;
}

export function helper26(x: number): number {
  return x + 26;
}

export function helper27(x: number): number {
  return x + 27;
}

export function helper28(x: number): number {
  return x + 28;
}

export function helper29(x: number): number {
  return x + 29;
}

export function helper30(x: number): number {
  return x + 30;
}

export function helper31(x: number): number {
  return x + 31;
}

export function helper32(x: number): number {
  return x + 32;
}

export function helper33(x: number): number {
  return x + 33;
}

export function helper34(x: number): number {
  return x + 34;
}

export function helper35(x: number): number {
  return x + 35;
}

export function helper36(x: number): number {
  return x + 36;
}

export function helper37(x: number): number {
  return x + 37;
}

export function helper38(x: number): number {
  return x + 38;
}

export function helper39(x: number): number {
  return x + 39;
}

export function helper40(x: number): number {
  return x + 40;
}

export function helper41(x: number): number {
  return x + 41;
}

export function helper42(x: number): number {
  return x + 42;
}

export function helper43(x: number): number {
  return x + 43;
}

export function helper44(x: number): number {
  return x + 44;
}

export function helper45(x: number): number {
  return x + 45;
}

export function helper46(x: number): number {
  return x + 46;
}

export function helper47(x: number): number {
  return x + 47;
}

export function helper48(x: number): number {
  return x + 48;
}

export function helper49(x: number): number {
  return x + 49;
}

export function helper50(x: number): number {
  return x + 50;
}

export function helper51(x: number): number {
  return x + 51;
}
