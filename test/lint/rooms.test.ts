import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Each probe is a file placed in a room that breaks (or keeps) one rule of ARCHITECTURE.md, linted with the project's
 * own eslint.config.js. Probes are not on disk, so the type-aware parser is turned off for them alone; the rooms rule
 * needs no types.
 */
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({
    cwd: process.cwd(),
    overrideConfig: [
      {
        files: ['**/lint-probe.ts'],
        ...tseslint.configs.disableTypeChecked,
        languageOptions: { parserOptions: { projectService: false, project: null } },
      },
    ],
  });
});

async function lint(room: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${room}/lint-probe.ts` });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the rooms rule', () => {
  it.each<[string, string, string]>([
    [
      'src/core',
      "import { runPlanned } from '../session/run.ts';",
      'src/core may not import values from src/session',
    ],
    [
      'src/core',
      "import { loadSuite } from '../suite/load.ts';",
      'src/core may not import values from src/suite',
    ],
    ['src/core', "import { renderTable } from '../report/table.ts';", 'from src/report'],
    ['src/core', "import { Runs } from '../client/runs.ts';", 'from src/client'],
    ['src/core', "import { save } from '../output/save.ts';", 'from src/output'],
    ['src/core', "import { readFileSync } from 'node:fs';", "may not import 'node:fs'"],
    ['src/core', "import { readFileSync } from 'fs';", "may not import 'fs'"],
    ['src/core', "import OpenAI from 'openai';", "may not import 'openai'"],
    ['src/core', "export { runPlanned } from '../session/run.ts';", 'from src/session'],
    ['src/core', "export const load = () => import('node:fs');", "may not import 'node:fs'"],
    [
      'src/judge',
      "import { loadSuite } from '../suite/load.ts';",
      'src/judge may not import values from src/suite',
    ],
    ['src/judge', "import { readFileSync } from 'node:fs';", "may not import 'node:fs'"],
    [
      'src/core',
      "import { parseVerdict } from '../judge/verdict.ts';",
      'src/core may not import values from src/judge',
    ],
    ['workflows', "import { readFileSync } from 'node:fs';", "may not import 'node:fs'"],
    [
      'workflows',
      "import { runPlanned } from '../src/session/run.ts';",
      'workflows may not import values from src/session',
    ],
    ['workflows', "import { createActivities } from '../activities/index.ts';", 'from activities'],
    ['workflows', "import { Client } from '@temporalio/client';", "may not import '@temporalio/client'"],
    ['src/gate', "import { writeFileSync } from 'node:fs';", "src/gate may not import 'node:fs'"],
    ['src/gate', "import { renderTable } from '../report/table.ts';", 'from src/report'],
    ['src/gate', "import { Runs } from '../client/runs.ts';", 'from src/client'],
    ['src/report', "import { readFileSync } from 'fs';", "src/report may not import 'fs'"],
    ['src/report', "import { writeFile } from 'node:fs/promises';", "may not import 'node:fs/promises'"],
    ['src/report', "import { present } from '../session/present.ts';", 'from src/session'],
    ['src/report', "import { Runs } from '../client/runs.ts';", 'from src/client'],
    [
      'activities',
      "import { compare } from '../src/commands/compare.ts';",
      'activities may not import values from src/commands',
    ],
    ['activities', "import { Runs } from '../src/client/runs.ts';", 'from src/client'],
    ['activities', "import { runPlanned } from '../src/session/run.ts';", 'from src/session'],
    [
      'src/client',
      "import { runPlanned } from '../session/run.ts';",
      'src/client may not import values from src/session',
    ],
    ['src/client', "import { renderTable } from '../report/table.ts';", 'from src/report'],
    ['src/commands', "import { Client } from '@temporalio/client';", "may not import '@temporalio/client'"],
    ['src/commands', "import { compareRun } from '../../workflows/compare-run.ts';", 'from workflows'],
    ['src/session', "import { compare } from '../commands/compare.ts';", 'from src/commands'],
    [
      'src/cli',
      "import { runPlanned } from '../session/run.ts';",
      'src/cli may not import values from src/session',
    ],
    [
      'src/suite',
      "import { Runs } from '../client/runs.ts';",
      'src/suite may not import values from src/client',
    ],
    ['src/providers', "import { Client } from '@temporalio/client';", "may not import '@temporalio/client'"],
    [
      'temporal',
      "import { runPlanned } from '../src/session/run.ts';",
      'temporal may not import values from src/session',
    ],
    ['src/agent/core', "import { readFileSync } from 'node:fs';", "src/agent/core may not import 'node:fs'"],
    ['src/agent/core', "import { runAgent } from '../run-agent.ts';", 'may not import values from src/agent'],
    ['src/agent/core', "import { loadSuite } from '../../suite/load.ts';", 'from src/suite'],
    [
      'src/agent',
      "import { runPlanned } from '../session/run.ts';",
      'src/agent may not import values from src/session',
    ],
    ['src/agent', "import { Client } from '@temporalio/client';", "may not import '@temporalio/client'"],
    [
      'src/session',
      "import type { RunFlags } from '../cli/options.ts';",
      'src/session may not import from src/cli/options.ts',
    ],
    [
      'src/suite',
      "import type { SuiteFlags } from '../cli/options.ts';",
      'below the commands nothing knows a flag',
    ],
    ['src/view', "import type { RunFlags } from '../cli/options.ts';", 'from src/cli/options.ts'],
    ['src/cache', "import { type RunFlags } from '../cli/options.ts';", 'from src/cli/options.ts'],
    ['src/nowhere', 'export const x = 1;', 'is in no room'],
  ])('%s: %s fails', async (room, code, expected) => {
    const messages = await lint(room, `${code}\nexport const keep = 1;\n`);
    expect(messages.join('\n')).toContain(expected);
  });

  it.each<[string, string]>([
    ['src/core', "import type { Io } from '../cli/io.ts';"],
    ['src/commands', "import type { RunFlags } from '../cli/options.ts';"],
    ['src/core', "import type { RunRequest } from './request.ts';"],
    [
      'src/core',
      "import { z } from 'zod';\nimport { UsageSchema } from '../api/types.ts';\nexport const y = [z, UsageSchema];",
    ],
    [
      'workflows',
      "import { proxyActivities } from '@temporalio/workflow';\nimport { experimentsAtOnce } from '../src/core/run-order.ts';\nexport const y = [proxyActivities, experimentsAtOnce];",
    ],
    ['workflows', "import type { PoolInput } from '../activities/run-cases.ts';"],
    [
      'src/agent/core',
      "import { z } from 'zod';\nimport { lnGamma } from '../../core/stats.ts';\nexport const y = [z, lnGamma];",
    ],
    [
      'src/agent',
      "import { matchTrajectory } from './core/trajectory.ts';\nimport { UsageSchema } from '../api/types.ts';\nexport const y = [matchTrajectory, UsageSchema];",
    ],
    ['src/core', "import type { ToolCall } from '../agent/core/trajectory.ts';"],
    ['src/report', "import { createHash } from 'node:crypto';\nexport const y = createHash;"],
    ['src/session', "import { Runs } from '../client/runs.ts';\nexport const y = Runs;"],
    [
      'src/judge',
      "import { z } from 'zod';\nimport { meanSkippingNull } from '../core/aggregate.ts';\nexport const y = [z, meanSkippingNull];",
    ],
  ])('%s: %s passes', async (room, code) => {
    const messages = await lint(room, `${code}\nexport const keep = 1;\n`);
    expect(messages.filter((m) => m.startsWith('rooms/'))).toEqual([]);
  });
});

describe('the circles rule', () => {
  // coordinator.ts imports a type from matrix.ts: matrix.ts importing coordinator.ts back closes a circle.
  it('refuses an import that closes a circle, naming the files around it', async () => {
    const [result] = await eslint.lintText(
      "import { grantSlot } from './coordinator.ts';\nvoid grantSlot;\n",
      {
        filePath: 'src/core/matrix.ts',
      },
    );
    const circles = result!.messages.filter((m) => m.ruleId === 'circles/none').map((m) => m.message);
    expect(circles).toEqual([
      expect.stringContaining(
        'import circle: src/core/matrix.ts → src/core/coordinator.ts → src/core/matrix.ts',
      ),
    ]);
  });

  it('lets an import through that leads nowhere back', async () => {
    const [result] = await eslint.lintText("import { groupBy } from './group.ts';\nvoid groupBy;\n", {
      filePath: 'src/core/matrix.ts',
    });
    expect(result!.messages.filter((m) => m.ruleId === 'circles/none')).toEqual([]);
  });
});
