import { describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/report-formats.ts';
import { snapshotFixture } from './fixture.ts';

const plain = snapshotFixture();
const batched = {
  ...plain,
  settings: { ...plain.settings, batch: { poll: [30, 600] as [number, number], discounts: { acme: 0.5 } } },
};

describe('a --batch run says its costs are at the batch price', () => {
  it.each([
    ['tui', 'cost at the batch price (batch, −50 %): acme'],
    ['html', 'Costs at the batch price (batch, −50 %).'],
    ['json', '"discounts": {\n        "acme": 0.5'],
  ] as const)('in %s', (format, text) => {
    expect(renderReport(format, batched)).toContain(text);
    expect(renderReport(format, plain)).not.toContain('batch price');
  });
});
