import { fitLine, stripAnsi } from '../report/table.ts';

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
