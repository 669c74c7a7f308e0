import { defineSuite } from 'llm-evals';
import { providers, ToyAdapter, ToyScorer } from '../lib/toy-suite.ts';

export default defineSuite({
  name: 'toy',
  root: import.meta.dirname,
  description: 'Two fake models repeat the expected answer; a field scorer grades them.',
  envFiles: ['../.env'],
  cases: 'datasets/*/cases/**/input.txt',
  adapter: new ToyAdapter(),
  scorer: new ToyScorer(),
  providers,
});
