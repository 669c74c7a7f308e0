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
