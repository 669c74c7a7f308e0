import type { Json } from '../api/types.ts';
import { renderTable, type FitOptions } from './table.ts';

/** One row of `cases`. */
export interface CaseRow {
  dataset: string;
  id: string;
  metadata: Record<string, Json>;
  summary: string;
  words: number;
}

/** The `cases` table: dataset, id, difficulty, the scorer's summary and the word count. */
export function renderCases(rows: readonly CaseRow[], fit: FitOptions = {}): string {
  return renderTable(
    [
      { header: 'dataset', key: true },
      { header: 'case', key: true },
      { header: 'difficulty' },
      { header: 'summary' },
      { header: 'words', align: 'right' },
    ],
    rows.map((r) => [
      r.dataset,
      r.id,
      typeof r.metadata.difficulty === 'string' || typeof r.metadata.difficulty === 'number'
        ? String(r.metadata.difficulty)
        : '-',
      r.summary,
      String(r.words),
    ]),
    fit,
  );
}
