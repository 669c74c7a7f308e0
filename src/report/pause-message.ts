import pc from 'picocolors';
import { describeFailures, type GateState } from '../core/coordinator.ts';
import { datasetNames, type RunInput } from '../core/run-input.ts';

/** The pause message: how many failed in a row, the messages, and which contenders, datasets and cases. */
export function pauseMessage(gate: GateState, input: RunInput): string {
  const all = { contenders: input.contenders.length, datasets: datasetNames(input).length };
  const f = describeFailures(gate.recent, all);
  const list = (v: string[] | string) => (typeof v === 'string' ? v : v.join(', '));
  // The scorer's throws pause long before a streak would: they are the suite's bug, and say so.
  const scorer = gate.recent.at(-1)?.scorer && gate.streak < gate.pauseAt;
  const headline = scorer
    ? `paused: the scorer threw on ${gate.scorerThrows} replies (a bug in the suite's scorer); nothing new starts.`
    : `paused: ${gate.streak} calls failed in a row; nothing new starts.`;
  return [
    pc.yellow(headline),
    ...f.messages.map((m) => `  error: ${m}`),
    `  models: ${list(f.contenders)}`,
    `  datasets: ${list(f.datasets)}`,
    `  cases: ${f.cases.slice(0, 10).join(', ')}${f.cases.length > 10 ? ', …' : ''}`,
  ].join('\n');
}
