import pc from 'picocolors';

const COLOURS = [pc.cyan, pc.magenta, pc.yellow, pc.green, pc.blue, pc.red];

/** The colour of a contender by its index: its progress bar and its model id share it. */
export function contenderColour(index: number): (text: string) => string {
  return COLOURS[index % COLOURS.length]!;
}
