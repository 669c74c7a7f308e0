import {
  runAgent,
  type AgentTool,
  type Case,
  type CompletionRequest,
  type FakeAnswer,
  type Json,
  type Message,
  type Model,
  type Reply,
  type ToolCallMade,
} from 'llm-evals';

/** The dataset of free-text answers the judge grades, and the one of tool calls the trajectory scorer grades. */
export const JUDGED = 'capitals';
export const AGENT = 'weather';

/** The keyword a free-text case's answer must name: its metadata's `keyword`. */
export const keywordOf = (kase: Case): string => {
  const keyword = kase.metadata.keyword;
  return typeof keyword === 'string' ? keyword : '';
};

/** The rubric the judge grades a free-text answer by. */
export const rubricOf = (kase: Case): string =>
  `Pass the reply if it names ${keywordOf(kase)}; fail it otherwise.`;

const between = (text: string, tag: string) =>
  new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(text)?.[1] ?? '';

/**
 * The stand-in judge: reads the reply and the rubric from its prompt and passes the reply when it names the rubric's
 * keyword, as a verdict JSON. A real judge weighs the rubric; this one applies it by rule, so it gives the same verdict
 * every run and needs no key.
 */
export function judgeVerdict(request: CompletionRequest): string {
  const reply = between(request.user, 'reply');
  const keyword = /names (.+); fail it otherwise\./.exec(between(request.user, 'rubric'))?.[1] ?? '';
  const pass = keyword !== '' && reply.toLowerCase().includes(keyword.toLowerCase());
  return JSON.stringify({
    reasoning: pass ? `the reply names ${keyword}` : `the reply does not name ${keyword || 'the keyword'}`,
    score: pass ? 'pass' : 'fail',
  });
}

/** What the toy's weather tool knows, in degrees Celsius. */
const TEMPERATURES: Record<string, number> = { Oslo: 4, Lisbon: 19, Cairo: 31 };

/** The toy agent's tools: a weather lookup and a unit conversion, answered from a table. */
export const TOOLS: Record<string, AgentTool> = {
  weather: {
    description: "Today's temperature in a city, in degrees Celsius.",
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    run: ({ city }) => {
      const t = TEMPERATURES[String(city)];
      if (t === undefined) throw new Error(`no weather for ${String(city)}`);
      return { city, celsius: t };
    },
  },
  to_fahrenheit: {
    description: 'Converts degrees Celsius to degrees Fahrenheit.',
    parameters: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
    run: ({ celsius }) => ({ fahrenheit: (Number(celsius) * 9) / 5 + 32 }),
  },
};

/** The system message that hands the stand-in agent its plan, as the toy hands the echoing fakes their answer. */
export const PLAN = 'Make these tool calls, one a step, then answer from their results:\n';

/**
 * The stand-in agent's step: the next call of the plan its system message holds (one a step), then, with every call
 * made, an answer that quotes the tools' results. A real model decides its calls; this one repeats them, as the
 * toy's fakes repeat the expected answer.
 */
export function agentStep(request: CompletionRequest): FakeAnswer {
  const plan = JSON.parse(request.system?.slice(PLAN.length) ?? '[]') as Omit<ToolCallMade, 'id'>[];
  const messages = request.messages ?? [];
  const made = messages.filter((m) => m.role === 'assistant' && m.toolCalls?.length).length;
  const next = plan[made];
  if (next) return { text: '', toolCalls: [{ id: `call_${made + 1}`, ...next }] };
  const results = messages.filter((m) => m.role === 'tool').map((m) => m.content);
  return { text: `From the tools: ${results.join('; ')}.` };
}

/** Runs a conversation case as an agent with the toy's tools, its plan the case's expected calls. */
export function runToyAgent(messages: Message[], expected: Json, model: Model): Promise<Reply> {
  const calls = (expected as { tool_calls?: Json } | null)?.tool_calls ?? [];
  return runAgent(model, { system: PLAN + JSON.stringify(calls), messages, tools: TOOLS, maxSteps: 5 });
}
