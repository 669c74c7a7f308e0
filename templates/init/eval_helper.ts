// The suite's helper: llm-evals finds it from anywhere in this project and loads it without a build step.
// Make it yours: call your real prompt builder and parser in the adapter, put your own cases under
// datasets/<dataset>/cases/<variant>/, and name real models in .llm-evals.config.yml.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  Adapter,
  defineSuite,
  FakeProvider,
  FieldScorer,
  readSchema,
  type Case,
  type CompletionRequest,
  type Json,
  type Model,
  type Reply,
  type Schema,
} from 'llm-evals';

const root = import.meta.dirname;

/** Sends a case's text with its dataset's schema, and parses the JSON reply; a reply that is not JSON fails. */
class ExtractionAdapter extends Adapter {
  private readonly schemas = new Map<string, Schema>();

  async call(kase: Case, model: Model): Promise<Reply> {
    const system = [
      'Extract the fields below from the customer message. Leave a field null when the message does not say.',
      'Reply with one JSON object with exactly these fields:',
      JSON.stringify(this.schemaOf(kase.dataset), null, 2),
    ].join('\n');
    const response = await model.complete({ system, user: kase.input, json: true });
    try {
      return { output: JSON.parse(response.text) as Json, raw: response.text, usage: response.usage };
    } catch {
      return { error: `not JSON: ${response.text.slice(0, 80)}`, raw: response.text, usage: response.usage };
    }
  }

  /** The field scorer grades each reply against the schema it finds here. */
  override context(kase: Case): Json {
    return { schema: this.schemaOf(kase.dataset) as Json };
  }

  /** `llm-evals verify` reports a broken schema.json, naming the file and the field. */
  override verify(dataset: string): string[] {
    try {
      this.schemaOf(dataset);
      return [];
    } catch (error) {
      return [(error as Error).message];
    }
  }

  private schemaOf(dataset: string): Schema {
    let schema = this.schemas.get(dataset);
    if (!schema) {
      schema = readSchema(join(root, 'datasets', dataset, 'schema.json'));
      this.schemas.set(dataset, schema);
    }
    return schema;
  }
}

/** Every case's expected answer by its text: what the stand-in models "know". */
function answerKey(): Map<string, Record<string, Json>> {
  const key = new Map<string, Record<string, Json>>();
  const datasets = join(root, 'datasets');
  for (const file of readdirSync(datasets, { recursive: true, encoding: 'utf8' })) {
    if (basename(file) !== 'input.txt') continue;
    const folder = join(datasets, dirname(file));
    const expected = JSON.parse(readFileSync(join(folder, 'expected.json'), 'utf8')) as Record<string, Json>;
    key.set(readFileSync(join(folder, 'input.txt'), 'utf8').trim(), expected);
  }
  return key;
}

/**
 * Two stand-in models, so `compare` runs before any key is set: `fake/careful` answers every case exactly, and
 * `fake/hasty` leaves out the last answer it knows. Delete them once a real model is in the lineup.
 */
function standInModels(): FakeProvider {
  // Indented, as chat models write JSON: the tokens they are billed come near what `compare -n` estimates.
  const asChatModelsWrite = (reply: Record<string, Json>) => JSON.stringify(reply, null, 2);
  let key: Map<string, Record<string, Json>> | undefined;
  const answer = (request: CompletionRequest) => {
    key ??= answerKey();
    return { ...(key.get(request.user.trim()) ?? {}) };
  };
  const hasty = (request: CompletionRequest) => {
    const reply = answer(request);
    const last = Object.keys(reply)
      .reverse()
      .find((field) => reply[field] !== null);
    if (last) reply[last] = null;
    return asChatModelsWrite(reply);
  };
  return new FakeProvider({
    name: 'fake',
    models: { careful: (request) => asChatModelsWrite(answer(request)), hasty },
    inputPrice: 1e-6, // dollars per token
    outputPrice: 4e-6,
  });
}

export default defineSuite({
  root,
  description: 'Which model turns a customer message into a support ticket, scored field by field.',
  envFiles: ['../.env'], // loaded without overriding variables already exported
  adapter: new ExtractionAdapter(),
  scorer: new FieldScorer(),
  providers: [standInModels()],
});
