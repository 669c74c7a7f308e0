import pc from 'picocolors';
import type { Contender } from '../core/matrix.ts';
import type { RunProgress } from '../core/progress.ts';
import { contenderColour, contenderLabel } from './palette.ts';
import { fitLine, stripAnsi } from './table.ts';

const WIDTH = 24;

/** One line per experiment: a bar in its contender's colour, done/total, errors, model, effort and dataset. */
export function renderProgress(
  progress: RunProgress,
  experiments: readonly { id: string; contender: string; dataset: string }[],
  contenders: readonly Contender[],
): string[] {
  const index = new Map(contenders.map((c, i) => [c.key, i]));
  const byId = new Map(progress.experiments.map((e) => [e.id, e]));
  return experiments.map((e) => {
    const p = byId.get(e.id);
    const i = index.get(e.contender) ?? 0;
    const c = contenders[i]!;
    const done = p?.done ?? 0;
    const total = p?.total ?? 0;
    const filled = total ? Math.round((done / total) * WIDTH) : 0;
    const bar = contenderColour(i)('█'.repeat(filled)) + pc.dim('░'.repeat(WIDTH - filled));
    const errors = p?.errors ? pc.red(` ${p.errors} errors`) : '';
    return `${bar} ${String(done).padStart(String(total).length)}/${total} ${contenderLabel(c, i)} ${c.effort} ${pc.dim(e.dataset)}${errors}`;
  });
}

/** Redraws lines in place on a terminal; elsewhere prints only lines that changed. */
export class LiveLines {
  private drawn = 0;
  private last: string[] = [];

  constructor(
    private readonly out: { write(text: string): unknown },
    private readonly tty: boolean,
    /** The terminal's width: a line wider would wrap, and the redraw would climb too few lines. */
    private readonly width?: number,
  ) {}

  draw(lines: readonly string[]): void {
    if (this.tty) {
      const up = this.drawn ? `\u001b[${this.drawn}A` : '';
      this.out.write(up + lines.map((l) => `\u001b[2K${fitLine(l, this.width)}`).join('\n') + '\n');
      this.drawn = lines.length;
    } else {
      lines.forEach((line, i) => {
        if (line !== this.last[i] && /(\d+)\/\1\b/.test(stripAnsi(line))) this.out.write(line + '\n');
      });
    }
    this.last = [...lines];
  }
}
