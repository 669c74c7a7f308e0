import type { Json } from '../api/types.ts';
import type { CaseResult } from '../core/results.ts';
import { formatCount, formatSeconds } from './format.ts';
import { esc } from './html-escape.ts';

/** A per-call verdict as TrajectoryScorer leaves it in the diagnostics (`calls`). */
interface Verdict {
  status: string;
  name: string;
  actual: number | null;
  expected: number | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The scorer's per-call verdicts of a result, where it left them. */
function verdictsOf(result: CaseResult): Verdict[] {
  const calls = result.diagnostics.calls;
  if (!Array.isArray(calls)) return [];
  return (calls as unknown[]).filter(isObject).map((c) => ({
    status: String(c.status),
    name: String(c.name),
    actual: typeof c.actual === 'number' ? c.actual : null,
    expected: typeof c.expected === 'number' ? c.expected : null,
  }));
}

/** The case's expected calls, where its expected answer lists them. */
function expectedCallsOf(expected: Json | undefined): { name: string; arguments: unknown }[] {
  if (!isObject(expected) || !Array.isArray(expected.tool_calls)) return [];
  return (expected.tool_calls as unknown[])
    .filter(isObject)
    .map((c) => ({ name: String(c.name), arguments: c.arguments }));
}

const callText = (name: string, args: unknown) => `${name}(${JSON.stringify(args ?? {})})`;
const badge = (status: string) => `<span class="call-${esc(status)}">${esc(status.replace('_', ' '))}</span>`;

/**
 * An agent result's trajectory as a step-by-step timeline beside the case's expected calls: each step's status,
 * latency and tokens, the calls it made with their verdicts (matched, wrong arguments, invented) and tool results,
 * its reply text; the expected calls with theirs (matched, wrong arguments, missing). Arguments and results as text,
 * escaped. Empty for a result without a trajectory.
 */
export function trajectoryHtml(result: CaseResult, expected: Json | undefined): string {
  const steps = result.trajectory;
  if (!steps) return '';
  const verdicts = verdictsOf(result);
  let made = 0;
  const items = steps.map((step) => {
    const calls = step.calls.map((call) => {
      const at = made++;
      const verdict = verdicts.find((v) => v.actual === at);
      const ran =
        call.status && call.status !== 'ok' ? ` <span class="note">(tool ${esc(call.status)})</span>` : '';
      const result = call.result !== undefined ? `<pre class="tool-result">→ ${esc(call.result)}</pre>` : '';
      return `<li>${verdict ? badge(verdict.status) : ''} <code>${esc(callText(call.name, call.arguments))}</code>${ran}${result}</li>`;
    });
    const tokens = `${formatCount(step.usage.inputTokens)} → ${formatCount(step.usage.outputTokens)} tokens`;
    const text = step.text ? `<pre>${esc(step.text)}</pre>` : '';
    return (
      `<li class="step step-${esc(step.status)}"><span class="step-head">step ${step.index + 1} · ${esc(step.status.replace('_', ' '))} · ` +
      `${esc(formatSeconds(step.latency))} · ${esc(tokens)} · ${step.sent} messages sent</span>` +
      `${calls.length ? `<ul class="calls">${calls.join('')}</ul>` : ''}${text}</li>`
    );
  });
  const cut = result.trajectoryCut ? `<p class="note">${result.trajectoryCut} more steps not kept</p>` : '';
  const wanted = expectedCallsOf(expected).map((call, i) => {
    const verdict = verdicts.find((v) => v.expected === i);
    return `<li>${verdict ? badge(verdict.status) : ''} <code>${esc(callText(call.name, call.arguments))}</code></li>`;
  });
  const expectedList = wanted.length
    ? `<ol class="expected-calls">${wanted.join('')}</ol>`
    : '<p class="note">none listed</p>';
  return (
    `<div class="io trajectory"><div><h4>Trajectory (${steps.length} steps)</h4><ol class="timeline">${items.join('')}</ol>${cut}</div>` +
    `<div><h4>Expected calls</h4>${expectedList}</div></div>`
  );
}
