import { defineSuite, FieldScorer } from 'llm-evals';
import { fakeProviders } from '../lib/fake-models.ts';
import { IntakeAdapter } from '../lib/intake-adapter.ts';

export default defineSuite({
  name: 'intake-extraction',
  root: import.meta.dirname,
  description: "Which model turns a lead's free text into an intake form's answers, scored field by field.",
  cases: 'datasets/*/cases/**/input.txt',
  adapter: new IntakeAdapter(import.meta.dirname),
  scorer: new FieldScorer(),
  providers: fakeProviders(import.meta.dirname),
});
