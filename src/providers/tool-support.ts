import type { Provider } from '../api/types.ts';

/** A provider that can ask its endpoint, before a run, whether a model takes tools. */
export interface ProbesTools {
  /**
   * Why the model refuses tools (the endpoint's own words), or undefined when it takes them or the probe says nothing
   * sure (no answer, a key refused, a rate limit): only a plain refusal of tools stops a run.
   */
  refusesTools(model: { id: string; name: string }): Promise<string | undefined>;
}

/** Whether a provider can probe its endpoint for tool support. */
export function probesTools(provider: Provider): provider is Provider & ProbesTools {
  return typeof (provider as Partial<ProbesTools>).refusesTools === 'function';
}

/** The tiny request of a probe: one word, one tool that does nothing, one token of reply. */
export const PROBE_TOOL = {
  type: 'function',
  function: {
    name: 'noop',
    description: 'Does nothing.',
    parameters: { type: 'object', properties: {} },
  },
} as const;

/**
 * Whether an endpoint's answer to the probe is a refusal of tools: a 400, 404, 405, 422 or 501 whose message speaks of
 * tools or functions. The message, else undefined (a 401, a 429, a 5xx, another 400 prove nothing about tools).
 */
export function toolRefusal(status: number | undefined, message: string): string | undefined {
  if (status === undefined || ![400, 404, 405, 422, 501].includes(status)) return undefined;
  return /\btools?\b|tool[_ ]?(calls?|choice|use)|function[_ ]?call/i.test(message)
    ? `HTTP ${status}: ${message.slice(0, 200)}`
    : undefined;
}
