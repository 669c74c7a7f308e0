import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Received } from '../providers/chat-server.ts';
import { completion, failure } from '../providers/chat-server.ts';
import { runCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { FaultServer, warmCache, type Rule } from '../helpers/fault-server.ts';
import { cliEnv, providerSuite, savedSnapshot } from '../providers/cli-suite.ts';

// The judge asks for its verdict's JSON schema as the response format, through the real CLI against a server on
// 127.0.0.1 that records each request's body: the schema where the endpoint takes it, a JSON object where the section
// says `structured_outputs: false`, and a JSON object again after the endpoint answered 400 to the schema.

const { dirs, servers } = cliFixtures();

type Format = { type?: string; json_schema?: { name?: string; strict?: boolean; schema?: unknown } };
const formatOf = (request: Received) => request.body.response_format as Format | undefined;

async function judged(judge: Rule, section = '') {
  const formats: (Format | undefined)[] = [];
  const server = new FaultServer({
    judge: (n, request) => {
      formats.push(formatOf(request));
      return judge(n, request);
    },
  });
  servers.push(server);
  const url = await server.start();
  const project = providerSuite(
    dirs,
    `toy:\n  base_url: ${url}\n  models: [m]\n${section}` +
      'judge:\n  model: toy/judge\n  rubric: Is it an animal?\n  scale: 1-5\n',
  );
  const env = cliEnv(await warmCache(), {
    LLM_EVALS_CACHE_DIR: join(dirs.os('llm-evals-judge-cache-'), 'c'),
  });
  const run = await runCli(['compare', '--display', 'none', '-y', '--no-open', '-p', '1'], {
    cwd: project,
    env,
  });
  expect(run.code, run.stderr).toBe(0);
  const { snapshot } = savedSnapshot(project);
  return { formats, snapshot };
}

const verdict = () => completion(JSON.stringify({ reasoning: 'an animal', score: 4 }));
const SCHEMA = {
  type: 'object',
  properties: { reasoning: { type: 'string' }, score: { type: 'integer', minimum: 1, maximum: 5 } },
  required: ['reasoning', 'score'],
  additionalProperties: false,
};

describe("the judge's structured verdict", () => {
  it('asks for the verdict schema as the response format', async () => {
    const { formats, snapshot } = await judged(verdict);
    expect(formats).toHaveLength(2);
    for (const f of formats)
      expect(f).toEqual({
        type: 'json_schema',
        json_schema: { name: 'verdict', strict: true, schema: SCHEMA },
      });
    expect(snapshot.results.map((r) => r.metrics.judge)).toEqual([0.75, 0.75]);
  }, 120_000);

  it('asks for a JSON object where the section says structured_outputs: false', async () => {
    const { formats } = await judged(verdict, '  structured_outputs: false\n');
    expect(formats).toEqual([{ type: 'json_object' }, { type: 'json_object' }]);
  }, 120_000);

  it('falls back to a JSON object once the endpoint answers 400 to the schema', async () => {
    const refuses: Rule = (_n, request) =>
      formatOf(request)?.type === 'json_schema'
        ? failure(400, "response_format 'json_schema' is unsupported")
        : verdict();
    const { formats, snapshot } = await judged(refuses);
    // -p 1: the first verdict is refused once and asked again as a JSON object; the second goes as one at once.
    expect(formats.map((f) => f?.type)).toEqual(['json_schema', 'json_object', 'json_object']);
    expect(snapshot.results.map((r) => [r.status, r.metrics.judge])).toEqual([
      ['scored', 0.75],
      ['scored', 0.75],
    ]);
  }, 120_000);
});
