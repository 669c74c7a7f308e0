import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { FaultServer, warmCache } from '../helpers/fault-server.ts';
import { cliEnv, providerSuite } from '../providers/cli-suite.ts';

// Bad judge input the first slice's tests left out, through the real CLI: refused before any call by compare and by
// verify, exit 2, naming the file, the key and the value.

const { dirs, servers } = cliFixtures();

describe('a bad judge section', () => {
  it.each([
    ['a model no provider of the lineup serves', 'model: nowhere', 'judge.model', '"nowhere"'],
    ['a panel member no provider serves', 'models: [toy/judge, nowhere]', 'judge.models[1]', '"nowhere"'],
    [
      'a rubric file that is not there',
      'model: toy/judge\n  rubric_file: gone.md',
      'judge.rubric_file',
      '"gone.md"',
    ],
    [
      'an empty rubric file',
      'model: toy/judge\n  rubric_file: empty.md',
      'judge.rubric_file',
      '"empty.md" is empty',
    ],
    ['no verdict asked', 'model: toy/judge\n  rubric: r\n  samples: 0', 'judge.samples', 'samples'],
  ])(
    '%s: exit 2 in compare and verify, no call',
    async (_what, lines, key, named) => {
      const server = new FaultServer({});
      servers.push(server);
      const url = await server.start();
      const rubric = lines.includes('rubric') ? '' : '\n  rubric: r';
      const project = providerSuite(
        dirs,
        `toy:\n  base_url: ${url}\n  models: [m]\njudge:\n  ${lines}${rubric}\n  scale: pass_fail\n`,
      );
      writeFileSync(join(project, 'evals/empty.md'), '  \n');
      const env = cliEnv(await warmCache(), {});
      for (const args of [['compare', '--display', 'none', '-y'], ['verify']]) {
        const run = await runCli(args, { cwd: project, env });
        const text = run.stdout + run.stderr;
        expect(run.code, text).toBe(2);
        expect(text).toContain('.llm-evals.config.yml');
        expect(text).toContain(key);
        expect(text).toContain(named);
      }
      expect(server.hits).toHaveLength(0);
    },
    60_000,
  );
});
