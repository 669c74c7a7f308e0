import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { upgradeConfig } from '../../src/suite/upgrade-config.ts';
import { runCli } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

/** The toy suite's lineup as the old form wrote it, comments included. */
const OLD = `# The toy suite's lineup, in the old form.
project: toy-suite
request_types: [prompt]   # the adapter sends chat prompts

defaults:
  effort: default         # default sends none
  parallelism: 2

# OpenRouter's models, by vendor
vendors:                  # none is called by \`cases\`
  openai:
    - gpt-4.1-mini

# The providers reached directly
direct:
  fake:                   # registered by evals/eval_helper.ts
    - model: echo
      effort: [default, low]
    - parrot
`;

/** A copy of the toy suite whose lineup is in the old form; returns the suite and its lineup file. */
function oldSuite(): { cwd: string; file: string } {
  const cwd = dirs.toySuite();
  const file = join(cwd, 'evals/.llm-evals.config.yml');
  writeFileSync(file, OLD);
  return { cwd, file };
}

describe('llm-evals upgrade-config (C9)', () => {
  it('-n prints the upgraded lineup and writes nothing', async () => {
    const { cwd, file } = oldSuite();
    const result = await runCli(['upgrade-config', '-n'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(upgradeConfig(OLD).text);
    expect(result.stderr).toContain('moved the top-level vendors: under openrouter:');
    expect(readFileSync(file, 'utf8')).toBe(OLD);
    expect(existsSync(`${file}.bak`)).toBe(false);
  });

  it('rewrites the lineup, leaves the old text in .bak, and the suite loads again', async () => {
    const { cwd, file } = oldSuite();
    const before = await runCli(['cases'], { cwd });
    expect(before.code).toBe(2);
    expect(before.stderr).toContain('llm-evals upgrade-config');

    const result = await runCli(['upgrade-config'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^┌ Info/);
    expect(result.stderr).toContain('the old text is in evals/.llm-evals.config.yml.bak');
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe(OLD);
    const upgraded = readFileSync(file, 'utf8');
    expect(upgraded).toBe(upgradeConfig(OLD).text);
    for (const [, comment] of OLD.matchAll(/#(.*)$/gm)) expect(upgraded).toContain(comment!.trim());

    const after = await runCli(['cases'], { cwd });
    expect(after.stderr).not.toContain('llm-evals:');
    expect(after.code).toBe(0);
    expect(after.stdout).toContain('14 cases in 4 datasets');
  });

  it('leaves a lineup in the current form alone, finding it with -C', async () => {
    const cwd = dirs.toySuite();
    const file = join(cwd, 'evals/.llm-evals.config.yml');
    const text = readFileSync(file, 'utf8');
    const result = await runCli(['upgrade-config', '-C', 'evals/.llm-evals.config.yml'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('already in the current form: nothing to change');
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(existsSync(`${file}.bak`)).toBe(false);
  });
});
