import { defineSuite } from 'llm-evals';
import { providers, ToySuiteAdapter } from '../lib/toy-suite.ts';
import { ToySuiteScorer } from '../lib/toy-suite-scorer.ts';

export default defineSuite({
  name: 'toy',
  root: import.meta.dirname,
  description:
    'Two fake models repeat the expected answer; a field scorer grades the JSON answers, a stand-in judge the ' +
    'free-text ones (capitals), the trajectory scorer the tool calls of an agent (weather).',
  envFiles: ['../.env'],
  cases: 'datasets/*/cases/**/input.txt',
  adapter: new ToySuiteAdapter(),
  scorer: new ToySuiteScorer(),
  providers,
});
