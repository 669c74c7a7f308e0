import type { Provider } from '../api/types.ts';
import { OpenRouterProvider } from './openrouter.ts';
import { TypeSafeProvider } from './typesafe.ts';

/** The providers every suite has before its helper registers more. */
export function builtinProviders(): Provider[] {
  return [new OpenRouterProvider(), new TypeSafeProvider()];
}
