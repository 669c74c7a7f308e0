import { esc } from '../report/html-escape.ts';
import { categoriesOf, type Label } from '../judge/labels.ts';
import { appendLabel, judgeColumns, readLabels, replySha } from '../session/labels.ts';
import { projectSuite } from './projects.ts';

/** A project's labels as a case page shows them: the judge's scale and each labelled reply's label. */
export interface ProjectLabels {
  /** The labels a person may give, in order: `fail, pass` or the scale's points. */
  categories: string[];
  /** The label of a reply (by case and the sha256 of its text), the newest given. */
  labelOf(caseKey: string, reply: string): string | undefined;
}

/** Where the view reads and writes people's labels: the suite of a run's project. */
export interface ViewLabels {
  /** The project's labels, or `undefined` when its suite has no judge (or no suite loads there). */
  of(project: string): Promise<ProjectLabels | undefined>;
  /** Adds a label on a reply to the project's `labels.jsonl`; the value must be one of its categories. */
  add(project: string, caseKey: string, reply: string, value: string): Promise<void>;
}

/** Labels kept with each project's suite on disk, read at each page (a label given from the CLI shows at once). */
export function suiteLabels(): ViewLabels {
  const judged = async (project: string) => {
    const suite = await projectSuite(project).catch(() => undefined);
    const columns = suite && judgeColumns(suite);
    return suite && columns ? { suite, categories: categoriesOf(columns.scale) } : undefined;
  };
  return {
    of: async (project) => {
      const found = await judged(project);
      if (!found) return undefined;
      const byReply = new Map(
        readLabels(found.suite).map((l) => [`${l.case}\n${l.reply_sha}`, String(l.label)]),
      );
      return {
        categories: found.categories,
        labelOf: (caseKey, reply) => byReply.get(`${caseKey}\n${replySha(reply)}`),
      };
    },
    add: async (project, caseKey, reply, value) => {
      const found = await judged(project);
      if (!found || !found.categories.includes(value)) throw new Error(`no label ${value} in this suite`);
      const label: Label['label'] = value === 'pass' || value === 'fail' ? value : Number(value);
      appendLabel(found.suite, {
        case: caseKey,
        reply_sha: replySha(reply),
        label,
        by: 'view',
        at: new Date().toISOString(),
      });
    },
  };
}

/** A reply's label and the small form that sets it, for a contender's column of a case page. */
export function labelHtml(
  labels: ProjectLabels,
  form: { action: string; csrf: string; caseKey: string; experiment: string },
  caseKey: string,
  reply: string,
): string {
  const label = labels.labelOf(caseKey, reply);
  const shown =
    label === undefined
      ? '<p class="note label" data-label="">not labelled</p>'
      : `<p class="label" data-label="${esc(label)}">labelled <b>${esc(label)}</b></p>`;
  const options = labels.categories.map((c) => `<option value="${esc(c)}">${esc(c)}</option>`).join('');
  return (
    shown +
    `<form class="label-form" method="post" action="${esc(form.action)}">` +
    `<input type="hidden" name="csrf" value="${esc(form.csrf)}">` +
    `<input type="hidden" name="key" value="${esc(form.caseKey)}">` +
    `<input type="hidden" name="experiment" value="${esc(form.experiment)}">` +
    `<select name="label">${options}</select> <button type="submit">label</button></form>`
  );
}
