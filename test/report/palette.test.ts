import { describe, expect, it } from 'vitest';
import {
  colourDistance,
  contrastOnWhite,
  lightness,
  VISIONS,
  type Vision,
} from '../../src/report/colour-vision.ts';
import { CONTENDER_HEX } from '../../src/report/palette.ts';

/** Apart by this much (Oklab ×100) two colours are told apart at a glance on a chart's thin line; 2–3 is barely. */
const APART = 12;
/** Neighbours differ this much in lightness, so they stay apart in grey and to any colour vision. */
const LIGHTER = 12;
/** The provider's blue in the stylesheet (`--prov`), which no contender wears. */
const PROVIDER = '#0550ae';

const n = CONTENDER_HEX.length;
const neighbours = CONTENDER_HEX.map((hex, i) => [i, (i + 1) % n, hex, CONTENDER_HEX[(i + 1) % n]!] as const);
const firstFour = [0, 1, 2, 3].flatMap((i) =>
  [0, 1, 2, 3].filter((j) => j > i).map((j) => [i, j, CONTENDER_HEX[i]!, CONTENDER_HEX[j]!] as const),
);
const under = (pairs: readonly (readonly [number, number, string, string])[]) =>
  pairs.flatMap(([i, j, a, b]) => VISIONS.map((v) => [i, j, v, a, b] as const));

describe('colour-vision simulations', () => {
  it.each<[string, string, Vision, number, number]>([
    // What the simulation must get right: red and green merge for red–green blindness, stay apart otherwise.
    ['#d62728', '#2ca02c', 'normal', 25, 100],
    ['#d62728', '#2ca02c', 'deuteranopia', 0, 8],
    // Red and the dark olive it looks like to protanopes: one colour to them, two to everyone else.
    ['#d62728', '#615725', 'protanopia', 0, 2],
    ['#d62728', '#615725', 'normal', 15, 100],
    ['#d62728', '#2ca02c', 'tritanopia', 20, 100],
    // Blue and yellow stay apart for red–green blindness, and a colour is at 0 from itself.
    ['#1f77b4', '#ffbf00', 'deuteranopia', 30, 100],
    ['#1b7c83', '#1b7c83', 'protanopia', 0, 0],
  ])('%s vs %s under %s: between %d and %d', (a, b, vision, low, high) => {
    const d = colourDistance(a, b, vision);
    expect(d).toBeGreaterThanOrEqual(low);
    expect(d).toBeLessThanOrEqual(high);
  });

  it.each([
    ['#000000', 0, 21],
    ['#ffffff', 100, 1],
  ])('%s: lightness %d, contrast on white %d', (hex, l, contrast) => {
    expect(lightness(hex)).toBeCloseTo(l, 0);
    expect(contrastOnWhite(hex)).toBeCloseTo(contrast, 1);
  });
});

describe("the contenders' palette", () => {
  it.each(under(neighbours))('c%d and c%d are apart under %s vision (%s, %s)', (_i, _j, vision, a, b) => {
    expect(colourDistance(a, b, vision)).toBeGreaterThanOrEqual(APART);
  });

  it.each(neighbours)('c%d and c%d differ in lightness (%s, %s)', (_i, _j, a, b) => {
    expect(Math.abs(lightness(a) - lightness(b))).toBeGreaterThanOrEqual(LIGHTER);
  });

  // A run of up to four contenders (the usual lineup) shows no two alike, neighbours or not.
  it.each(under(firstFour))('c%d and c%d are apart under %s vision (%s, %s)', (_i, _j, vision, a, b) => {
    expect(colourDistance(a, b, vision)).toBeGreaterThanOrEqual(APART);
  });

  it.each(CONTENDER_HEX.map((hex, i) => [i, hex] as const))(
    'c%d (%s) is readable on white as a line or bold text, and is not the provider blue',
    (_i, hex) => {
      expect(contrastOnWhite(hex)).toBeGreaterThanOrEqual(3);
      expect(colourDistance(hex, PROVIDER, 'normal')).toBeGreaterThanOrEqual(APART);
    },
  );
});
