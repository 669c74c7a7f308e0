import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fromSnapshot } from '../../src/trackers/from-snapshot.ts';
import { logfireTracker } from '../../src/trackers/otlp.ts';
import { sendExperiment } from '../../src/trackers/send.ts';
import { closedPort } from '../providers/chat-server.ts';
import { contextFor, FAKE_OPENROUTER_KEY, SECRET_REPLY, trackerSnapshot } from './fixture.ts';
import { OtlpReceiver, printTree, type ReceivedSpan } from './otlp-receiver.ts';

const LOGFIRE_TOKEN = 'pylf_v1_us_FAKEtoken0123456789';
const receiver = new OtlpReceiver();
let base = '';

beforeAll(async () => {
  base = await receiver.start();
});
afterAll(() => receiver.stop());
beforeEach(() => {
  receiver.exports.length = 0;
  receiver.status = 200;
});

/** Sends every experiment of the fixture through a fresh logfire tracker pointed at the receiver. */
async function sendAll(config: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  const tracker = logfireTracker.create(
    contextFor(
      { LOGFIRE_TOKEN, LOGFIRE_BASE_URL: base, OPENROUTER_API_KEY: FAKE_OPENROUTER_KEY, ...env },
      { config },
    ),
  );
  const outcomes = [];
  for (const tracked of fromSnapshot(trackerSnapshot(), { project: 'toy-evals' })) {
    outcomes.push(await sendExperiment(tracker, tracked));
  }
  return outcomes;
}

const brief = (s: ReceivedSpan) => {
  const a = s.attributes;
  const facts = [
    `${s.start.slice(11, 23)}→${s.end.slice(11, 23)}`,
    a.model !== undefined && `model=${a.model}`,
    a['mean.score'] !== undefined && `mean.score=${a['mean.score']}`,
    a.status !== undefined && `status=${a.status}`,
    a.score !== undefined && `score=${a.score}`,
    s.events.length > 0 && `exception="${s.events[0]!.attributes['exception.message']}"`,
  ];
  return facts.filter(Boolean).join(' ');
};

describe('the logfire tracker', () => {
  it('sends a span per experiment with a child per case, at the results own times', async () => {
    const outcomes = await sendAll();
    expect(outcomes).toEqual([{}, {}]);
    expect(receiver.exports.every((e) => e.path === '/v1/traces')).toBe(true);
    expect(receiver.exports[0]!.headers.authorization).toBe(LOGFIRE_TOKEN);
    expect(receiver.exports[0]!.headers['content-type']).toBe('application/x-protobuf');
    const tree = printTree(receiver.spans(), brief);
    expect(tree).toMatchInlineSnapshot(`
      "experiment 001-north 12:00:00.000→12:00:07.000 model=fake/alpha mean.score=0.3
        case north/clear 12:00:00.000→12:00:01.500 status=scored score=0.9
        case north/vague 12:00:02.000→12:00:02.500 status=reply_error score=0 exception="the reply is not JSON"
        case north/long/001 12:00:03.000→12:00:07.000 status=error exception="fake: 503 Service Unavailable <after 5 attempts>"
      experiment 002-north 12:01:40.000→12:01:47.000 model=fake/beta mean.score=0.3
        case north/clear 12:01:40.000→12:01:41.500 status=scored score=0.9
        case north/vague 12:01:42.000→12:01:42.500 status=reply_error score=0 exception="the reply is not JSON"
        case north/long/001 12:01:43.000→12:01:47.000 status=error exception="fake: 503 Service Unavailable <after 5 attempts>""
    `);
  });

  it('names the suite, contender, settings and means on the experiment, and every figure on each case', async () => {
    await sendAll();
    const spans = receiver.spans();
    const experiment = spans.find((s) => s.name === 'experiment 001-north')!;
    expect(experiment.attributes).toEqual({
      run_id: '20261130-120000-trk1',
      experiment_id: '001-north',
      suite: 'toy',
      project: 'toy-evals',
      dataset: 'north',
      contender: 'fake:fake/alpha effort=low t=0.2 max=512',
      model: 'fake/alpha',
      provider: 'fake',
      effort: 'low',
      temperature: 0.2,
      max_tokens: 512,
      case_count: 3,
      'mean.score': 0.3,
      'mean.exact': 0,
      'mean.tokens_per_field': 12,
      cases_recorded: 3,
      errors: 2,
      // Its cases ran 0–1.5 s, 2–2.5 s and 3–7 s: 6 s of calls.
      time_s: 6,
      // The scored case's 1.5 s: a failed reply's latency is left out, as it is from every other metric.
      latency_s: 1.5,
      p95_s: 1.5,
      'tokens.input': 190,
      'tokens.output': 25,
      cost_usd: 0.0006000000000000001,
    });
    const clear = spans.find((s) => s.name === 'case north/clear' && s.parentSpanId === experiment.spanId)!;
    expect(clear.attributes).toEqual({
      idempotency_id: '20261130-120000-trk1/001-north/north/clear',
      'case.key': 'north/clear',
      'case.id': 'clear',
      dataset: 'north',
      variant: 'clear',
      status: 'scored',
      score: 0.9,
      attempts: 1,
      duration_s: 1.5,
      latency_s: 1.5,
      'tokens.input': 100,
      'tokens.output': 20,
      cost_usd: 0.0004,
      diagnostics: '{"colour":{"want":"blue","got":"teal"}}',
      'metric.score': 0.9,
      'metric.exact': 0,
      'metric.tokens_per_field': 12,
      'outcome.correct': 3,
      'outcome.missed': 1,
    });
    expect(clear.traceId).toBe(experiment.traceId);
    const failed = spans.find((s) => s.name === 'case north/long/001')!;
    expect(failed.status).toEqual({ code: 2, message: 'fake: 503 Service Unavailable <after 5 attempts>' });
    expect(failed.events).toEqual([
      {
        name: 'exception',
        time: '2026-11-30T12:00:07.000Z',
        attributes: {
          'exception.type': 'error',
          'exception.message': 'fake: 503 Service Unavailable <after 5 attempts>',
        },
      },
    ]);
  });

  it('cuts the diagnostics at 4 KB on a character boundary', async () => {
    await sendAll();
    const vague = receiver.spans().find((s) => s.name === 'case north/vague')!;
    const diagnostics = vague.attributes.diagnostics as string;
    expect(Buffer.byteLength(diagnostics)).toBeLessThanOrEqual(4096);
    expect(Buffer.byteLength(diagnostics)).toBeGreaterThan(4090);
    expect(diagnostics).toMatch(/^\{"fields":\[\{"field":"f0","want":"ü+.*…$/);
    expect(diagnostics).not.toContain('\uFFFD');
    expect(vague.attributes['diagnostics.truncated']).toBe(true);
  });

  it('sends no reply text unless the section says include_replies: true', async () => {
    await sendAll();
    expect(receiver.exports.some((e) => e.body.includes(SECRET_REPLY))).toBe(false);
    expect(receiver.spans().some((s) => 'reply' in s.attributes || 'output' in s.attributes)).toBe(false);

    receiver.exports.length = 0;
    await sendAll({ include_replies: true });
    const clear = receiver.spans().find((s) => s.name === 'case north/clear')!;
    expect(clear.attributes.reply).toBe(`${SECRET_REPLY} {"colour":"teal"}`);
    expect(clear.attributes.output).toBe('{"colour":"teal"}');
  });

  it('sends no secret from the env: the provider key never, the token only as the Authorization header', async () => {
    await sendAll({ include_replies: true });
    for (const e of receiver.exports) {
      const headers = JSON.stringify(e.headers);
      expect(e.body.includes(FAKE_OPENROUTER_KEY)).toBe(false);
      expect(headers).not.toContain(FAKE_OPENROUTER_KEY);
      expect(e.body.includes(LOGFIRE_TOKEN)).toBe(false);
      expect(headers.split(LOGFIRE_TOKEN).length - 1).toBe(1);
    }
  });

  it('gives a resend the same trace and span ids', async () => {
    await sendAll();
    const first = receiver.spans().map((s) => `${s.traceId}/${s.spanId}/${s.parentSpanId}`);
    receiver.exports.length = 0;
    await sendAll();
    expect(receiver.spans().map((s) => `${s.traceId}/${s.spanId}/${s.parentSpanId}`)).toEqual(first);
    expect(new Set(first).size).toBe(8);
  });

  it('lets OTEL_EXPORTER_OTLP_ENDPOINT and _HEADERS win, and keeps LOGFIRE_TOKEN to itself', async () => {
    const outcomes = await sendAll(
      {},
      {
        LOGFIRE_BASE_URL: 'http://127.0.0.1:9/never',
        OTEL_EXPORTER_OTLP_ENDPOINT: `${base}/collector/`,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-team=evals,Authorization=Bearer%20other',
      },
    );
    expect(outcomes).toEqual([{}, {}]);
    expect(receiver.exports[0]!.path).toBe('/collector/v1/traces');
    expect(receiver.exports[0]!.headers.authorization).toBe('Bearer other');
    expect(receiver.exports[0]!.headers['x-team']).toBe('evals');
  });

  it('leaves the global tracer provider alone', async () => {
    const before = trace.getTracerProvider();
    await sendAll();
    expect(trace.getTracerProvider()).toBe(before);
    expect(trace.getTracer('anyone').startSpan('probe').isRecording()).toBe(false);
  });

  it('returns a problem, never throws, when the endpoint answers 500 or refuses the connection', async () => {
    receiver.status = 500;
    const outcomes = await sendAll();
    expect(outcomes).toEqual([
      {
        problem: {
          tracker: 'logfire',
          experiment: '001-north',
          message: expect.stringContaining('/v1/traces') as unknown,
        },
      },
      {
        problem: {
          tracker: 'logfire',
          experiment: '002-north',
          message: expect.stringContaining('failed') as unknown,
        },
      },
    ]);

    const refused = await sendAll({}, { LOGFIRE_BASE_URL: (await closedPort()).replace(/\/v1$/, '') });
    expect(refused.map((o) => o.problem?.experiment)).toEqual(['001-north', '002-north']);
  });
});
