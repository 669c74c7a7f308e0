/**
 * How far apart two colours look, to people with common colour vision and to those with the common deficiencies:
 * Machado et al.'s (2009) full-severity simulations in linear sRGB, then Oklab distances (×100, about one just
 * noticeable difference per 1). Used to check the contenders' palette, never at run time.
 */

/** Normal vision, and the full dichromacies: protanopia and deuteranopia (red–green), tritanopia (blue–yellow). */
export const VISIONS = ['normal', 'protanopia', 'deuteranopia', 'tritanopia'] as const;
export type Vision = (typeof VISIONS)[number];

type Matrix = readonly [readonly number[], readonly number[], readonly number[]];

const SIMULATION: Readonly<Record<Vision, Matrix>> = {
  normal: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

type Rgb = readonly [number, number, number];

/** `#rrggbb` as linear sRGB, each channel 0–1. */
export function linearRgb(hex: string): Rgb {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) throw new Error(`not a #rrggbb colour: ${JSON.stringify(hex)}`);
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return [channel(1), channel(3), channel(5)];
}

/** The linear colour as someone with `vision` sees it. */
export function simulate(rgb: Rgb, vision: Vision): Rgb {
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  const [r, g, b] = rgb;
  const row = (m: readonly number[]) => clamp(m[0]! * r + m[1]! * g + m[2]! * b);
  const m = SIMULATION[vision];
  return [row(m[0]), row(m[1]), row(m[2])];
}

/** Oklab (L, a, b) of a linear sRGB colour, each ×100. */
export function oklab([r, g, b]: Rgb): Rgb {
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [
    100 * (0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s),
    100 * (1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s),
    100 * (0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s),
  ];
}

/** How far apart two `#rrggbb` colours look to someone with `vision` (Oklab ×100). */
export function colourDistance(a: string, b: string, vision: Vision): number {
  const [x, y] = [a, b].map((hex) => oklab(simulate(linearRgb(hex), vision)));
  return Math.hypot(x![0] - y![0], x![1] - y![1], x![2] - y![2]);
}

/** A colour's perceived lightness, 0 (black) to 100 (white): Oklab's L ×100. */
export function lightness(hex: string): number {
  return oklab(linearRgb(hex))[0];
}

/** The WCAG contrast ratio of a colour on white (3 and more for lines and bold text, 4.5 for body text). */
export function contrastOnWhite(hex: string): number {
  const [r, g, b] = linearRgb(hex);
  return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05);
}
