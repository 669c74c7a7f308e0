import type {
  Json,
  Message,
  Model,
  ModelRequest,
  Reply,
  ToolCallMade,
  ToolDefinition,
  Usage,
} from '../api/types.ts';
import { addUsage } from '../core/results.ts';
import { ConfigError } from '../errors.ts';

/** A tool an agent may call: what it does, its arguments' JSON schema, and the function that runs it. */
export interface AgentTool {
  description?: string;
  parameters: Record<string, unknown>;
  run(args: Record<string, unknown>): unknown;
}

/** What `runAgent` runs: the conversation so far, the tools by name, and how many model steps it may take. */
export interface AgentOptions {
  messages: Message[];
  system?: string;
  tools: Record<string, AgentTool>;
  /** Model steps before the loop gives up with a named failure; 10 unless set. */
  maxSteps?: number;
  toolChoice?: ModelRequest['toolChoice'];
}

/** How one tool call ended: run, a tool the case does not define (invented), or a tool that threw. */
export type ToolRunStatus = 'ok' | 'invented' | 'error';

/** One tool call of a step with the text sent back to the model. */
export interface ToolRun {
  call: ToolCallMade;
  result: string;
  status: ToolRunStatus;
}

/** How a model step ended: it called tools, it answered, or it called tools on the last step allowed. */
export type StepStatus = 'tool_calls' | 'answer' | 'max_steps';

/** One model step of a trajectory: what it sent (the messages added since the step before), what came back, what ran. */
export interface AgentStep {
  index: number;
  request: { messages: Message[] };
  reply: { text: string; toolCalls: ToolCallMade[] };
  toolRuns: ToolRun[];
  usage: Usage;
  /** Seconds the model step took (a reply from the cache takes next to none). */
  latency: number;
  status: StepStatus;
}

/** An agent's reply: the final answer as any Reply, and its trajectory beside it. */
export interface AgentReply extends Reply {
  trajectory: AgentStep[];
}

/** The name of the failure of a loop that reached `maxSteps` with the model still calling tools. */
export const MAX_STEPS = 'max_steps';

const NO_USAGE: Usage = { inputTokens: null, outputTokens: null, costUsd: null };

/** A tool's result as the text the model reads: strings as they are, anything else as JSON. */
export function resultText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
}

/** The final answer as a Reply's output: parsed JSON where the text is JSON, else the text. */
export function answerOf(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
}

function definitions(tools: Record<string, AgentTool>): ToolDefinition[] {
  return Object.entries(tools).map(([name, tool]) => {
    const { parameters } = tool as Partial<AgentTool>;
    if (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters))
      throw new ConfigError(
        undefined,
        `tools.${name}.parameters`,
        'missing: a tool needs a JSON schema of its arguments',
      );
    return { name, ...(tool.description !== undefined ? { description: tool.description } : {}), parameters };
  });
}

async function runTool(tools: Record<string, AgentTool>, call: ToolCallMade): Promise<ToolRun> {
  const tool = Object.hasOwn(tools, call.name) ? tools[call.name] : undefined;
  if (!tool)
    return {
      call,
      status: 'invented',
      result: `error: there is no tool named ${JSON.stringify(call.name)} (tools: ${Object.keys(tools).join(', ')})`,
    };
  try {
    return { call, status: 'ok', result: resultText(await tool.run(call.arguments)) };
  } catch (error) {
    return {
      call,
      status: 'error',
      result: `error: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/**
 * Runs a step's tool call, or reads its result back where the run recorded it (a resumed case): a tool that ran is
 * recorded the moment it returns, so a finished step never runs its tools again. An invented call runs nothing.
 */
async function runRecordedTool(
  model: Model,
  asked: ModelRequest,
  tools: Record<string, AgentTool>,
  call: ToolCallMade,
): Promise<ToolRun> {
  const log = model.toolResults;
  const known = Object.hasOwn(tools, call.name);
  if (log && known) {
    const recorded = await log.get(asked, call.id);
    if (recorded) return { call, ...recorded };
  }
  const run = await runTool(tools, call);
  if (log && run.status !== 'invented')
    await log.put(asked, call.id, { status: run.status, result: run.result });
  return run;
}

/**
 * Runs an agent: model step → tool calls → tool results → next step, until the model answers without calling a
 * tool or `maxSteps` steps are taken. Each step is one `model.complete` with the conversation so far, so in a run
 * (a gated, cached model) a resumed case replays its finished steps from the reply cache. A call to a tool the case
 * does not define is recorded as invented and answered with an error the model can read; a model failure throws, for
 * the run's retries. Returns the final answer as `output` and `raw`, the usage summed over steps, and the trajectory.
 */
export async function runAgent(model: Model, options: AgentOptions): Promise<AgentReply> {
  const maxSteps = options.maxSteps ?? 10;
  const tools = definitions(options.tools);
  const messages = [...options.messages];
  const trajectory: AgentStep[] = [];
  let usage = NO_USAGE;
  let sent = 0;
  for (let index = 0; index < maxSteps; index++) {
    const started = performance.now();
    const asked: ModelRequest = {
      ...(options.system !== undefined ? { system: options.system } : {}),
      messages: [...messages],
      tools,
      ...(options.toolChoice !== undefined ? { toolChoice: options.toolChoice } : {}),
    };
    const response = await model.complete(asked);
    const latency = (performance.now() - started) / 1000;
    usage = addUsage(usage, response.usage);
    const toolCalls = response.toolCalls ?? [];
    const request = { messages: messages.slice(sent) };
    sent = messages.length;
    const reply = { text: response.text, toolCalls };
    if (toolCalls.length === 0) {
      trajectory.push({
        index,
        request,
        reply,
        toolRuns: [],
        usage: response.usage,
        latency,
        status: 'answer',
      });
      return { output: answerOf(response.text), raw: response.text, usage, trajectory };
    }
    // The last step allowed runs no tool: no model would read its results.
    const last = index === maxSteps - 1;
    const toolRuns: ToolRun[] = [];
    if (!last)
      for (const call of toolCalls) toolRuns.push(await runRecordedTool(model, asked, options.tools, call));
    const status: StepStatus = last ? 'max_steps' : 'tool_calls';
    trajectory.push({ index, request, reply, toolRuns, usage: response.usage, latency, status });
    messages.push(
      { role: 'assistant', ...(response.text ? { content: response.text } : {}), toolCalls },
      ...toolRuns.map((run): Message => ({ role: 'tool', content: run.result, toolCallId: run.call.id })),
    );
  }
  const raw = trajectory.at(-1)?.reply.text ?? '';
  return {
    error: `${MAX_STEPS}: the model was still calling tools after ${maxSteps} steps (maxSteps ${maxSteps})`,
    raw,
    usage,
    trajectory,
  };
}
