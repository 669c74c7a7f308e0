import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  FakeProvider,
  readSchema,
  SchemaValidator,
  type CheckedField,
  type CompletionRequest,
  type Json,
  type ModelSettings,
  type ProviderResponse,
} from 'llm-evals';

type Answer = Record<string, Json>;
/** How a persona spoils a correct answer. */
type Spoiler = (answer: Answer, schema: Record<string, CheckedField>) => Answer | string;
/** Per dataset and variant, what a persona gets wrong; anything unlisted it answers right. */
type Persona = Record<string, Record<string, Spoiler[]>>;

/** Fills the first `n` fields the text leaves open with a plausible guess: the mistake the field scorer fears most. */
const hallucinate =
  (n: number): Spoiler =>
  (answer, schema) => {
    const open = Object.keys(schema)
      .filter((f) => answer[f] === null)
      .slice(0, n);
    const guess = (s: CheckedField): Json => {
      if (s.type === 'enum') return s.values![1] ?? s.values![0]!;
      if (s.type === 'multi_enum') return [s.values![0]!];
      if (s.type === 'boolean') return true;
      return s.type === 'string' ? 'unknown' : 1;
    };
    return { ...answer, ...Object.fromEntries(open.map((f) => [f, guess(schema[f]!)])) };
  };

/** Leaves the first `n` answered fields empty. */
const miss =
  (n: number): Spoiler =>
  (answer) => {
    const answered = Object.keys(answer)
      .filter((f) => answer[f] !== null)
      .slice(0, n);
    return { ...answer, ...Object.fromEntries(answered.map((f) => [f, null])) };
  };

/** Picks the next allowed value for the first answered enum field. */
const confuse: Spoiler = (answer, schema) => {
  const field = Object.keys(schema).find((f) => schema[f]!.type === 'enum' && answer[f] !== null);
  if (!field) return answer;
  const values = schema[field]!.values!;
  return { ...answer, [field]: values[(values.indexOf(answer[field] as string) + 1) % values.length]! };
};

/** Answers the first answered yes/no field with text the schema does not allow. */
const invalidate: Spoiler = (answer, schema) => {
  const field = Object.keys(schema).find((f) => schema[f]!.type === 'boolean' && answer[f] !== null);
  return field ? { ...answer, [field]: 'yes' } : answer;
};

/** Chats instead of answering in JSON: the adapter marks the reply failed. */
const chatty: Spoiler = (answer) => `Sure! Here is what I found: ${JSON.stringify(answer, null, 2)}`;

/** Three fake vendors whose mistakes differ by dataset, so each dataset crowns its own winner. */
const PERSONAS: Record<string, Persona> = {
  // Careful and dear; over-helpful with roofers.
  'sage/scholar': { roofing: { vague: [hallucinate(2)], partial: [hallucinate(1)] } },
  // Cheap and quick; shaky on taxes and on landscaping prices.
  'swift/flash': {
    'tax-preparation': { vague: [hallucinate(3)], complete: [miss(2)], partial: [hallucinate(1)] },
    landscaping: { estimate: [confuse], complete: [miss(1)] },
  },
  // The cheapest; loses the thread on long roofing and tax texts.
  'pico/mini': {
    roofing: { estimate: [confuse], partial: [miss(1)] },
    'tax-preparation': { estimate: [chatty], complete: [invalidate] },
  },
};

interface KeyEntry {
  dataset: string;
  variant: string;
  expected: Answer;
  schema: Record<string, CheckedField>;
}

/** Every case's expected answer by its input text, read from the suite's datasets (the fakes' "knowledge"). */
function answerKey(root: string): Map<string, KeyEntry> {
  const key = new Map<string, KeyEntry>();
  const datasets = join(root, 'datasets');
  for (const dataset of readdirSync(datasets)) {
    const schemaFile = join(datasets, dataset, 'schema.json');
    if (!existsSync(schemaFile)) continue;
    // The validator's fields carry the allowed values under one name, however the file spells them.
    const schema = new SchemaValidator(readSchema(schemaFile), schemaFile).fields;
    for (const variant of readdirSync(join(datasets, dataset, 'cases'))) {
      const folder = join(datasets, dataset, 'cases', variant);
      const expected = JSON.parse(readFileSync(join(folder, 'expected.json'), 'utf8')) as Answer;
      key.set(readFileSync(join(folder, 'input.txt'), 'utf8').trim(), { dataset, variant, expected, schema });
    }
  }
  return key;
}

/**
 * Milliseconds a persona takes per call (twice that at high effort): latency is what the weights trade against cost.
 * Each is at least 120 ms from the next, so the order of their measured latencies survives a loaded machine: a call
 * measured 50 ms over its sleep there, and with flash at 80 ms mini lost its lead on landscaping (both 0.09 s).
 */
const DELAY_MS: Record<string, number> = { scholar: 300, flash: 160, mini: 40 };

/** A FakeProvider that takes a persona's time to answer, a little longer at high effort. */
class TimedFakeProvider extends FakeProvider {
  override async complete(
    model: ModelSettings & { name: string; id: string },
    request: CompletionRequest,
  ): Promise<ProviderResponse> {
    await sleep((DELAY_MS[model.name] ?? 50) * (model.effort === 'high' ? 2 : 1));
    return super.complete(model, request);
  }
}

/** The example's three fake vendors, answering from the answer key as each persona would. */
export function fakeProviders(root: string): FakeProvider[] {
  let key: Map<string, KeyEntry> | undefined;
  const replyAs = (id: string) => (request: CompletionRequest) => {
    key ??= answerKey(root);
    const entry = key.get(request.user.trim());
    if (!entry) return '{}';
    const spoilers = PERSONAS[id]?.[entry.dataset]?.[entry.variant] ?? [];
    let answer: Answer | string = entry.expected;
    for (const spoil of spoilers) answer = typeof answer === 'string' ? answer : spoil(answer, entry.schema);
    // Indented, as chat models write JSON.
    return typeof answer === 'string' ? answer : JSON.stringify(answer, null, 2);
  };
  // A list of canned replies is used up one per call; this one outlasts any run of the example.
  const forever = (id: string) => Array.from({ length: 100_000 }, () => replyAs(id));
  const vendor = (name: string, model: string, inputPrice: number, outputPrice: number) =>
    new TimedFakeProvider({
      name,
      models: { [model]: forever(`${name}/${model}`) },
      inputPrice,
      outputPrice,
    });
  return [
    vendor('sage', 'scholar', 15e-6, 75e-6),
    vendor('swift', 'flash', 0.5e-6, 2e-6),
    vendor('pico', 'mini', 0.1e-6, 0.4e-6),
  ];
}
