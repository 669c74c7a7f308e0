import { describe, expect, it } from 'vitest';
import { judgeVariance, type JudgedReply } from '../../src/judge/variance.ts';

const reply = (
  name: string,
  members: Record<string, number | null>,
  panel: number | null,
  samples: number,
  unstable: string[] = [],
): JudgedReply => ({
  reply: name,
  members,
  panel,
  samples: Object.fromEntries(Object.keys(members).map((m) => [m, samples])),
  unstable,
});

describe('judgeVariance', () => {
  it('names the unstable replies in case order, whatever order their verdicts came in', () => {
    const replies = [
      reply('pets/002 by m', { x: 1 }, 1, 3, ['x']),
      reply('pets/001 by m', { x: 1 }, 1, 3, ['x']),
    ];
    expect(judgeVariance(['x'], replies)[0]!.unstable).toEqual(['pets/001 by m', 'pets/002 by m']);
  });

  it('self-agreement over k samples, the unstable replies, the mean and agreement with the panel', () => {
    const replies = [
      reply('c1 by m', { x: 1, y: 1, z: 0 }, 1, 3),
      reply('c2 by m', { x: 1, y: 0, z: 0 }, 0, 3, ['x']),
      reply('c3 by m', { x: 0, y: null, z: 0 }, 0, 3, ['x', 'z']),
    ];
    const [x, y, z] = judgeVariance(['x', 'y', 'z'], replies);
    expect(x).toMatchObject({ sampled: 3, unstable: ['c2 by m', 'c3 by m'], withPanel: 3 });
    expect(x!.selfAgreement).toBeCloseTo(1 / 3, 12);
    expect(x!.mean).toBeCloseTo(2 / 3, 12);
    expect(x!.panelAgreement).toBeCloseTo(2 / 3, 12);
    expect(y).toMatchObject({ selfAgreement: 1, unstable: [], mean: 0.5, withPanel: 2, panelAgreement: 1 });
    expect(z).toMatchObject({ unstable: ['c3 by m'], mean: 0, panelAgreement: 2 / 3 });
  });

  it.each<[string, number, number | null]>([
    ['one sample a reply: no self-agreement to tell', 1, null],
    ['k samples, all alike', 5, 1],
  ])('%s', (_, k, expected) => {
    const [j] = judgeVariance(['j'], [reply('c by m', { j: 1 }, 1, k)]);
    expect(j!.selfAgreement).toBe(expected);
  });

  it('a judge with no verdict has no mean and no panel agreement', () => {
    const [j] = judgeVariance(['j'], [reply('c by m', { j: null }, null, 1)]);
    expect(j).toMatchObject({ mean: null, panelAgreement: null, withPanel: 0 });
  });
});
