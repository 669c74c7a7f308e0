import { describe, expect, it } from 'vitest';
import { silenceLines } from '../../src/report/silence-line.ts';

describe('the line of a contender whose provider does not answer', () => {
  it('names it, says since when and how long', () => {
    const since = new Date(2026, 11, 4, 15, 40, 12).getTime();
    const [line] = silenceLines([{ contender: 'lan/m', since, limitMs: 30_000 }], since + 45_000);
    expect(line).toMatch(/^not answering: lan\/m has answered no call since 15:40:12 \(45(\.0)?s\)/);
    expect(line).toContain('its provider may be hanging');
  });

  it('says nothing when every contender answers', () => {
    expect(silenceLines([], Date.now())).toEqual([]);
  });
});
