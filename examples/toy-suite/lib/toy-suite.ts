import {
  EchoAdapter,
  FakeProvider,
  Scorer,
  type Case,
  type CompletionRequest,
  type Json,
  type Metric,
  type Model,
  type Reply,
  type Score,
} from 'llm-evals';
import { agentStep, AGENT, JUDGED, judgeVerdict, runToyAgent } from './toy-models.ts';

type Fields = Record<string, Json>;

const asFields = (value: Json | undefined): Fields =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};

/** Grades a reply field by field against the expected object. */
export class ToyScorer extends Scorer {
  metrics(): Metric[] {
    return [
      { name: 'field_accuracy', description: 'Share of expected fields the reply got right.', primary: true },
      { name: 'exact_match', description: '1 when every field is right.' },
      { name: 'restraint', description: 'Of the fields the text never answers, the share left null.' },
    ];
  }

  call(kase: Case, reply: Reply): Score {
    const expected = asFields(kase.expected);
    const got = asFields(reply.output);
    const names = Object.keys(expected);
    const right = names.filter((n) => JSON.stringify(got[n] ?? null) === JSON.stringify(expected[n]));
    const unanswered = names.filter((n) => expected[n] === null);
    const accuracy = names.length ? right.length / names.length : 1;
    const wrong = names.filter((n) => !right.includes(n));
    return {
      value: accuracy,
      metrics: {
        field_accuracy: accuracy,
        exact_match: wrong.length === 0 ? 1 : 0,
        restraint: unanswered.length
          ? unanswered.filter((n) => (got[n] ?? null) === null).length / unanswered.length
          : null,
      },
      outcomes: { correct: right.length, wrong: wrong.length },
      diagnostics: Object.fromEntries(
        wrong.map((n) => [n, { want: expected[n] ?? null, got: got[n] ?? null }]),
      ),
    };
  }

  override verify(kase: Case): string[] {
    return Object.keys(asFields(kase.expected)).length ? [] : ['expected.json has no fields'];
  }

  override summary(kase: Case): string {
    const fields = Object.values(asFields(kase.expected));
    return `${fields.filter((v) => v !== null).length}/${fields.length} answered`;
  }
}

/**
 * The toy adapter: asks the model to repeat the expected answer, written as chat models write JSON (indented), so the
 * echoing fakes reply as long as a real model would and `compare -n`'s estimate means the same here as for one.
 */
export class ToyAdapter extends EchoAdapter {
  override async call(kase: Case, model: Model): Promise<Reply> {
    const response = await model.complete({
      system: 'Repeat the JSON object you are given, exactly.',
      user: JSON.stringify(kase.expected, null, 2),
      json: true,
    });
    try {
      return { output: JSON.parse(response.text) as Json, raw: response.text, usage: response.usage };
    } catch {
      return { error: `not JSON: ${response.text.slice(0, 80)}`, raw: response.text, usage: response.usage };
    }
  }
}

/**
 * The toy suite's adapter, one way per dataset: a conversation case runs as an agent with the toy's tools, a
 * free-text case asks for its answer as a sentence, any other for its expected JSON (as ToyAdapter).
 */
export class ToySuiteAdapter extends ToyAdapter {
  override async call(kase: Case, model: Model): Promise<Reply> {
    if (kase.dataset === AGENT && kase.messages) return runToyAgent(kase.messages, kase.expected, model);
    if (kase.dataset !== JUDGED) return super.call(kase, model);
    const response = await model.complete({
      system: 'Repeat the answer you are given, exactly.',
      user: typeof kase.expected === 'string' ? kase.expected : '',
    });
    return { output: response.text, raw: response.text, usage: response.usage };
  }
}

/** A fake that repeats: the user text, or with tools offered the calls its plan names (a stand-in agent). */
const repeat = (request: CompletionRequest) => (request.tools?.length ? agentStep(request) : request.user);

/**
 * Registered by a suite that imports this module: two fake models that repeat what they are asked to (`echo`,
 * `parrot`), and the stand-in judge (`judge`) the toy's scorer names as `fake/judge`.
 */
export const providers = [
  new FakeProvider({ name: 'fake', models: { echo: repeat, parrot: repeat, judge: judgeVerdict } }),
];
