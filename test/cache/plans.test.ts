import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { datasetDigest, plansDir, PlanStore } from '../../src/cache/plans.ts';
import type { PlannedCases } from '../../src/core/run-input.ts';
import { createPlanCases } from '../../activities/plan-cases.ts';
import type { Case } from '../../src/api/types.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const store = () => {
  const dir = mkdtempSync(join(tmpdir(), 'llm-evals-plans-'));
  dirs.push(dir);
  return new PlanStore(join(dir, 'plans'));
};
const cases = (n: number, dataset = 'north', hash = (i: number) => `h${i}`): PlannedCases => ({
  [dataset]: Array.from({ length: n }, (_, i): [string, string] => [`${dataset}/v/${i}`, hash(i)]),
});

describe('PlanStore', () => {
  it('keeps a plan under its digest and gives back the same lists, leaving no temporary file', () => {
    const plans = store();
    const planned = { ...cases(3), ...cases(2, 'south') };
    const ref = plans.put(planned);
    expect(ref.datasets).toEqual({
      north: { size: 3, digest: datasetDigest(planned.north!) },
      south: { size: 2, digest: datasetDigest(planned.south!) },
    });
    expect(plans.get(ref.digest)).toEqual(planned);
    expect(readdirSync(plans.dir)).toEqual([`${ref.digest}.json`]);
    expect(plans.get('0'.repeat(64))).toBeUndefined();
  });

  it.each<[string, PlannedCases]>([
    ['a hash changed', cases(3, 'north', (i) => (i === 1 ? 'edited' : `h${i}`))],
    ['a case fewer', cases(2)],
    ['the same cases in another order', { north: [...cases(3).north!].reverse() }],
    ['another dataset name', cases(3, 'south')],
  ])('gives another digest when %s', (_, other) => {
    const plans = store();
    expect(plans.put(other).digest).not.toBe(plans.put(cases(3)).digest);
  });

  it('lives beside the embedded server state', () => {
    expect(plansDir({ LLM_EVALS_STATE_DIR: '/s' })).toBe('/s/plans');
  });
});

describe('createPlanCases: a pool finds a case by its index', () => {
  const suite = (planned: PlannedCases, hash?: (key: string) => string) =>
    new Map(
      Object.entries(planned).flatMap(([dataset, list]) =>
        list.map(([key, h]): [string, Case & { hash: string }] => [
          key,
          {
            key,
            id: key,
            dataset,
            variant: 'v',
            path: key,
            input: '',
            expected: null,
            metadata: {},
            hash: hash?.(key) ?? h,
          },
        ]),
      ),
    );

  it('reads the plan file', () => {
    const plans = store();
    const ref = plans.put(cases(5));
    const found = createPlanCases({ cases: new Map() }, plans);
    expect(
      found.caseAt({ plan: ref.digest, dataset: 'north', digest: ref.datasets.north!.digest }, 3),
    ).toEqual(['north/v/3', 'h3']);
  });

  it('without the plan file, takes the suite on disk when it is the one planned', () => {
    const planned = cases(4);
    const ref = store().put(planned);
    const found = createPlanCases({ cases: suite(planned) }, store());
    expect(
      found.caseAt({ plan: ref.digest, dataset: 'north', digest: ref.datasets.north!.digest }, 2),
    ).toEqual(['north/v/2', 'h2']);
  });

  it('without the plan file, refuses a suite that changed since, naming the plan file (after reading it again)', () => {
    const planned = cases(4);
    const ref = store().put(planned);
    let refreshed = 0;
    const other = store();
    const found = createPlanCases(
      {
        cases: suite(planned, (key) => (key === 'north/v/1' ? 'edited' : key)),
        refreshCases: () => refreshed++,
      },
      other,
    );
    expect(() =>
      found.caseAt({ plan: ref.digest, dataset: 'north', digest: ref.datasets.north!.digest }, 0),
    ).toThrow(`its plan (${other.fileOf(ref.digest)}) is not on this machine`);
    expect(refreshed).toBe(1);
  });
});
