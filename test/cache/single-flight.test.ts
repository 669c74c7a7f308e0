import { describe, expect, it } from 'vitest';
import { SingleFlight } from '../../src/cache/single-flight.ts';

/** A call whose settling the test decides, counting how often it was made per key. */
function calls() {
  const made: string[] = [];
  const pending: { key: string; settle: (ok: boolean) => void }[] = [];
  const call = (key: string) => () => {
    made.push(key);
    return new Promise<{ reply: string }>((resolve, reject) => {
      pending.push({
        key,
        settle: (ok) =>
          ok ? resolve({ reply: `${key}#${made.length}` }) : reject(new Error(`${key} failed`)),
      });
    });
  };
  /** Lets every waiting callback run, so that waiters reach the point they wait at. */
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { made, pending, call, tick };
}

type Outcome = { value?: { reply: string }; shared?: boolean; error?: string };
const outcome = (p: Promise<{ value: { reply: string }; shared: boolean }>): Promise<Outcome> =>
  p.then(
    ({ value, shared }) => ({ value, shared }),
    (error: Error) => ({ error: error.message }),
  );

describe('SingleFlight', () => {
  it.each<[string, string[], boolean[], number, Outcome[]]>([
    [
      'two asks of one key at once: one call, the second shares its reply',
      ['k', 'k'],
      [true],
      1,
      [
        { value: { reply: 'k#1' }, shared: false },
        { value: { reply: 'k#1' }, shared: true },
      ],
    ],
    [
      'two keys: a call each',
      ['k', 'j'],
      [true, true],
      2,
      [
        { value: { reply: 'k#2' }, shared: false },
        { value: { reply: 'j#2' }, shared: false },
      ],
    ],
    [
      "a failed call is not shared: its waiter calls on its own and gets the second call's reply",
      ['k', 'k'],
      [false, true],
      2,
      [{ error: 'k failed' }, { value: { reply: 'k#2' }, shared: false }],
    ],
    [
      'after a failure two waiters make one call more, not two: the first to resume leads',
      ['k', 'k', 'k'],
      [false, true],
      2,
      [
        { error: 'k failed' },
        { value: { reply: 'k#2' }, shared: false },
        { value: { reply: 'k#2' }, shared: true },
      ],
    ],
  ])('%s', async (_what, keys, settles, callsMade, want) => {
    const flights = new SingleFlight<{ reply: string }>();
    const { made, pending, call, tick } = calls();
    const asks = keys.map((key) => outcome(flights.run(key, call(key))));
    for (const ok of settles) {
      await tick();
      pending.shift()!.settle(ok);
    }
    expect(await Promise.all(asks)).toEqual(want);
    expect(made).toHaveLength(callsMade);
    expect(flights.size).toBe(0);
  });

  it('keeps nothing once a call returned: an ask after it calls again (the store, not the flight, remembers)', async () => {
    const flights = new SingleFlight<{ reply: string }>();
    const { made, pending, call, tick } = calls();
    const first = flights.run('k', call('k'));
    await tick();
    pending.shift()!.settle(true);
    await first;
    const second = flights.run('k', call('k'));
    await tick();
    pending.shift()!.settle(true);
    expect(await second).toEqual({ value: { reply: 'k#2' }, shared: false });
    expect(made).toEqual(['k', 'k']);
  });
});
