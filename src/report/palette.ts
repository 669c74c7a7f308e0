import pc from 'picocolors';
import type { Snapshot } from '../core/snapshot.ts';

/** Blue is the provider's alone, so a model id never wears the provider's colour. */
const PROVIDER = pc.blue;

const COLOURS = [
  pc.cyan,
  pc.magenta,
  pc.yellow,
  pc.green,
  pc.cyanBright,
  pc.magentaBright,
  pc.yellowBright,
  pc.greenBright,
];

/**
 * The contenders' colours in HTML (`.c0`–`.c7`: model ids, the value picture's points, the schedule's trend lines),
 * on white. Neighbours alternate dark and light and differ in hue, so two contenders side by side stay apart also in
 * grey, and to people with red–green or blue–yellow colour blindness: test/report/palette.test.ts checks each pair
 * of neighbours, and every pair of the first four, with the simulations of src/report/colour-vision.ts. None is the
 * provider's blue (`--prov`).
 */
export const CONTENDER_HEX = [
  '#0a5561',
  '#d96c00',
  '#8040b8',
  '#3b95d6',
  '#8f1d4e',
  '#2e9e5b',
  '#5c4a00',
  '#d45a9a',
] as const;

/** The stylesheet's rules for the contenders' colours, `.c0 { color: … }` up to `.c7`. */
export function contenderColourCss(): string {
  return CONTENDER_HEX.map((hex, i) => `.c${i} { color: ${hex}; }`).join(' ');
}

/** The colour of a contender by its index: its progress bar and its model id share it. */
export function contenderColour(index: number): (text: string) => string {
  return COLOURS[index % COLOURS.length]!;
}

/** Splits an id into its provider (or vendor) part and the model's own name: `fake/` and `echo`. */
export function splitId(id: string): [string, string] {
  const slash = id.indexOf('/');
  return slash < 0 ? ['', id] : [id.slice(0, slash + 1), id.slice(slash + 1)];
}

/** The provider in blue, the model in its progress bar's colour; a bare id is preceded by its provider. */
export function contenderLabel(
  c: Pick<Snapshot['contenders'][number], 'id' | 'provider'>,
  index: number,
): string {
  const [prefix, name] = splitId(c.id);
  const colour = contenderColour(index);
  return prefix ? PROVIDER(prefix) + colour(name) : `${PROVIDER(c.provider)} ${colour(name)}`;
}
