import { formatCost, formatCount, formatPercent, formatSeconds, formatTemperature } from './format.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { versusText } from './significance.ts';
import type { Standing } from './standings.ts';
import { withoutRepeat } from '../core/matrix.ts';
import { comparedMetric } from '../core/comparisons.ts';

/** A column of a standings table, shared by the TUI and the HTML report so both say the same. */
export interface ReportColumn {
  id: string;
  description: string;
  align: 'left' | 'right';
  /** What a sortable table sorts by; `null` sorts last. */
  value(row: Standing): number | string | null;
  /** The cell as plain text. */
  text(row: Standing): string;
}

/** ` ±2.1` after a mean: half its 95 % interval in points, when `--repeat` measured one. */
export function intervalText(r: Standing, id: string): string {
  const interval = r.intervals?.[id];
  return interval ? ` ±${(((interval.high - interval.low) / 2) * 100).toFixed(1)}` : '';
}

/** ` (93/100)` after a mean: the results it stands on, when some of the row's results have no value. */
export function valuedText(r: Pick<Standing, 'summary'>, id: string): string {
  const valued = r.summary.valued[id];
  return valued !== undefined && valued < r.summary.cases ? ` (${valued}/${r.summary.cases})` : '';
}

const percent = (id: string, description: string, get: (r: Standing) => number | null | undefined) => ({
  id,
  description,
  align: 'right' as const,
  value: (r: Standing) => get(r) ?? null,
  text: (r: Standing) => {
    const value = get(r);
    return (
      formatPercent(value) +
      (value === null || value === undefined ? '' : intervalText(r, id)) +
      valuedText(r, id)
    );
  },
});

/** What a mean counts: said once, in the first mean's description. */
const COUNTING =
  ' In score and the primary metric a failed case (a failed reply, or a call that failed after its retries) counts ' +
  '0, as the paired tests count it; in the other metrics a failed reply counts as the scorer scores a failure and a ' +
  'failed call is left out. A case without a value is left out, and `(93/100)` then says over how many of the ' +
  "row's results (its cases, times the repeats) the mean stands.";

/** A mean of counts (an agent's steps) to one decimal; blank when no case had one. */
const countText = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : Number.isInteger(value) ? String(value) : value.toFixed(1);

const seconds = (id: string, description: string, get: (r: Standing) => number | null) => ({
  id,
  description,
  align: 'right' as const,
  value: get,
  text: (r: Standing) => formatSeconds(get(r)),
});

/**
 * The standings columns: model, effort, temp, max_tokens (when a contender sets it), wscore (with weights), the
 * scorer's metrics, errors, truncated (when a reply was cut), time, tokens, cost. `all` adds score, latency and p95
 * always (the HTML report has room); the TUI shows them when weighted.
 */
export function reportColumns(snapshot: Snapshot, all = false): ReportColumn[] {
  const weighted = (key: string) => all || (snapshot.weights ? key in snapshot.weights : false);
  const metricNames = snapshot.metrics.map((m) => m.name);
  const columns: ReportColumn[] = [
    {
      id: 'model',
      description: 'The provider (or vendor) and the model id, as the lineup names them.',
      align: 'left',
      value: (r) => r.contender.id,
      text: (r) => r.contender.id,
    },
    {
      id: 'effort',
      description: 'The reasoning effort sent; default sends none.',
      align: 'left',
      value: (r) => r.contender.effort,
      text: (r) => r.contender.effort,
    },
    {
      id: 'temp',
      description: 'The temperature sent; default sends none.',
      align: 'left',
      value: (r) => r.contender.temperature,
      text: (r) => formatTemperature(r.contender.temperature),
    },
  ];
  // Two entries of one model may differ only in their token budget: then it names them apart.
  if (snapshot.contenders.some((c) => c.maxTokens !== null)) {
    columns.push({
      id: 'max_tokens',
      description: "The max_tokens sent; default sends none, and the provider's own limit applies.",
      align: 'right',
      value: (r) => r.contender.maxTokens,
      text: (r) => (r.contender.maxTokens === null ? 'default' : String(r.contender.maxTokens)),
    });
  }
  if (snapshot.weights) {
    columns.push(
      percent(
        'wscore',
        'Weighted score: Σ(|weight| × goodness) / Σ|weight| over weighted_score; errors take 20, 25, 30… points off; ' +
          'cost, time, latency and p95 on a log scale within the table. `llm-evals weights` shows each share.',
        (r) => r.wscore,
      ),
    );
  }
  if (weighted('score') && !metricNames.includes('score')) {
    columns.push(percent('score', "The mean of the scorer's score per case.", (r) => r.summary.score));
  }
  for (const m of snapshot.metrics) {
    const description = m.primary ? `${m.description} (primary)` : m.description;
    const mean = (r: Standing) => r.summary.metrics[m.name];
    columns.push(
      m.unit === 'count'
        ? {
            id: m.name,
            description,
            align: 'right',
            value: (r) => mean(r) ?? null,
            text: (r) => countText(mean(r)),
          }
        : percent(m.name, description, mean),
    );
  }
  const firstMean = columns.find((c) => c.id === 'score' || metricNames.includes(c.id));
  if (firstMean) firstMean.description += COUNTING;
  const repeat = snapshot.settings.repeat;
  if (repeat && repeat > 1) {
    const means = new Set(['wscore', 'score', ...metricNames]);
    // The method once, in the first such column; the others point to it.
    columns
      .filter((c) => means.has(c.id))
      .forEach((c, i) => {
        c.description += i
          ? ` Over ${repeat} repeats: mean ± as above.`
          : ` Over ${repeat} repeats: the mean ± half its 95 % t-interval (Student's t on the repeats' means, ${repeat - 1} ${repeat === 2 ? 'degree' : 'degrees'} of freedom).`;
      });
  }
  // A lineup of one contender has no best to differ from.
  if (new Set(snapshot.contenders.map((c) => withoutRepeat(c).key)).size > 1) {
    columns.push({
      id: 'vs_best',
      description:
        `The row's ${comparedMetric(snapshot)} minus the best's, in points, paired on the cases both have a value ` +
        'for, with its 95 % interval and Holm-adjusted p: `worse` (marked < #1) or `better` when p < 0.05, else ' +
        '`tied` (marked = #1: it may be as good as the best). Blank for the best, and where no test was made.',
      align: 'left',
      value: (r) => r.vsBest?.diff ?? null,
      text: (r) => (r.vsBest ? versusText(r.vsBest) : ''),
    });
  }
  columns.push({
    id: 'errors',
    description:
      'Cases that failed: a reply marked failed or a call that failed after its retries; both count 0 in score and the primary metric.',
    align: 'right',
    value: (r) => r.summary.errors,
    text: (r) => String(r.summary.errors),
  });
  // A column of zeros only takes room: it shows when a reply was cut.
  if (snapshot.results.some((r) => r.truncated)) {
    columns.push({
      id: 'truncated',
      description:
        'Replies the provider stopped at the token limit (finish_reason length): raise max_tokens, or the reply is cut.',
      align: 'right',
      value: (r) => r.summary.truncated,
      text: (r) => String(r.summary.truncated),
    });
  }
  columns.push(
    seconds(
      'time',
      "Wall time: seconds while the contender's cases were running (calls in flight together count once), summed " +
        'over datasets; a stop before a resume and waits on rate limits are not counted. Not a time per call: that is latency.',
      (r) => r.summary.time,
    ),
  );
  if (weighted('latency'))
    columns.push(
      seconds(
        'latency',
        'Mean seconds of the calls whose reply was scored: a failed reply or call is left out.',
        (r) => r.summary.latency,
      ),
    );
  if (weighted('p95')) {
    columns.push(
      seconds(
        'p95',
        '95th percentile seconds of the calls whose reply was scored (the mean of each dataset’s).',
        (r) => r.summary.p95,
      ),
    );
  }
  const tokens = (id: string, description: string, get: (r: Standing) => number | null) =>
    columns.push({ id, description, align: 'right', value: get, text: (r) => formatCount(get(r)) });
  tokens('tok_in', 'Tokens sent.', (r) => r.summary.usage.inputTokens);
  tokens('tok_out', 'Tokens received.', (r) => r.summary.usage.outputTokens);
  columns.push({
    id: 'cost',
    description:
      'Dollars the replies cost, as the provider reported or the lineup priced them (? when neither did); a reply ' +
      'from the reply cache counts what its call cost when it was made, and the closing line says what this run paid.',
    align: 'right',
    value: (r) => r.summary.usage.costUsd,
    text: (r) => formatCost(r.summary.usage.costUsd),
  });
  // The judge's dollars are its own: a contender is not made dearer by the model that grades it.
  if (snapshot.results.some((r) => typeof r.diagnostics.judge_usd === 'number'))
    columns.push({
      id: 'judge $',
      description:
        "Dollars the judge's calls on the row's replies cost this run, apart from the contender's cost (a verdict " +
        'from the reply cache costs nothing); blank where no reply went to the judge.',
      align: 'right',
      value: (r) => r.summary.judgeUsd ?? null,
      // A row none of whose replies the judge saw (a dataset the scorer grades by code) cost the judge nothing.
      text: (r) => (r.summary.judgeUsd === undefined ? '' : formatCost(r.summary.judgeUsd)),
    });
  return columns;
}

/** The settings that tell a contender apart from others of its model, such as ` effort=low t=0.7 max=512`; `''` for none. */
export function contenderSettings(
  c: Pick<Snapshot['contenders'][number], 'effort' | 'temperature' | 'maxTokens' | 'repeat'>,
): string {
  const settings = [
    c.effort !== 'default' ? `effort=${c.effort}` : '',
    c.temperature !== null ? `t=${c.temperature}` : '',
    c.maxTokens !== null ? `max=${c.maxTokens}` : '',
    c.repeat !== undefined ? `#${c.repeat}` : '',
  ].filter(Boolean);
  return settings.length ? ` ${settings.join(' ')}` : '';
}

/** A contender as one line of text: its id, then the effort, temperature and token budget that tell it apart. */
export function contenderName(c: Snapshot['contenders'][number]): string {
  return c.id + contenderSettings(c);
}
