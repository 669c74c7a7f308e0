import { join } from 'node:path';
import { Adapter, readSchema, type Case, type Json, type Model, type Reply, type Schema } from 'llm-evals';

/** The system prompt of an extraction step: the schema, and the rule that an unanswered field stays null. */
export function systemPrompt(schema: Schema): string {
  return [
    "Extract the lead's answers to an intake form from their description.",
    'Fill a field only when the text genuinely supports it; leave anything the writer did not say as null.',
    'Reply with one JSON object with exactly these fields:',
    JSON.stringify(schema, null, 2),
  ].join('\n');
}

/** Sends a lead's description with its dataset's schema and parses the JSON reply; a reply that is not JSON fails. */
export class IntakeAdapter extends Adapter {
  private readonly schemas = new Map<string, Schema>();

  constructor(private readonly root: string) {
    super();
  }

  override prepare(dataset: string): void {
    this.schemaOf(dataset);
  }

  async call(kase: Case, model: Model): Promise<Reply> {
    const schema = this.schemaOf(kase.dataset);
    const response = await model.complete({ system: systemPrompt(schema), user: kase.input, json: true });
    try {
      return { output: JSON.parse(response.text) as Json, raw: response.text, usage: response.usage };
    } catch {
      return { error: `not JSON: ${response.text.slice(0, 60)}`, raw: response.text, usage: response.usage };
    }
  }

  /** The field scorer reads the schema from here, so one scorer serves every dataset. */
  override context(kase: Case): Json {
    return { schema: this.schemaOf(kase.dataset) as Json };
  }

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
      // readSchema checks the file, so a broken schema names its file and field before any call.
      schema = readSchema(join(this.root, 'datasets', dataset, 'schema.json'));
      this.schemas.set(dataset, schema);
    }
    return schema;
  }
}
