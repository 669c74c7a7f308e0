import { existsSync } from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import { join } from 'node:path';
import type { ChatHistoryItem, LlamaGrammar, NodeLlamaCpp } from './real-model/llama-types.ts';

/** Where dev/setup-real-model.sh installs node-llama-cpp, away from the root install. */
export const REAL_MODEL_MODULES = join(import.meta.dirname, 'real-model', 'node_modules');

/** Whether dev/setup-real-model.sh has installed node-llama-cpp. */
export function llamaInstalled(): boolean {
  return existsSync(join(REAL_MODEL_MODULES, 'node-llama-cpp', 'package.json'));
}

/** node-llama-cpp from dev/real-model/node_modules, or an error that says how to install it. */
async function importLlama(): Promise<NodeLlamaCpp> {
  if (!llamaInstalled()) {
    throw new Error(
      `node-llama-cpp is not in ${REAL_MODEL_MODULES}: run dev/setup-real-model.sh (about 85 MB)`,
    );
  }
  return (await import(new URL('./real-model/llama.mjs', import.meta.url).href)) as NodeLlamaCpp;
}

/** The GGUF file dev/fetch-model.sh puts in the cache: SmolLM2-135M-Instruct, 4-bit. */
export function defaultModelPath(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME || join(env.HOME ?? homedir(), '.cache');
  return join(cache, 'llm-evals', 'models', 'SmolLM2-135M-Instruct.Q4_1.gguf');
}

/** One chat message as the chat-completions protocol sends it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What one generation produced, with the token counts a `usage` reports. */
export interface Generation {
  text: string;
  promptTokens: number;
  completionTokens: number;
  finishReason: 'stop' | 'length';
}

/** A GGUF model loaded on the CPU, answering one chat at a time from a clean context. */
export interface LocalModel {
  threads: number;
  chat(
    messages: ChatMessage[],
    options: { maxTokens?: number; temperature?: number; json?: boolean },
  ): Promise<Generation>;
  close(): Promise<void>;
}

/** Loads a GGUF file with node-llama-cpp's prebuilt CPU binary; it never downloads or builds anything. */
export async function loadLocalModel(modelPath: string): Promise<LocalModel> {
  const { getLlama, LlamaChat } = await importLlama();
  // node-llama-cpp defaults to 4 threads; on a 2-core machine that oversubscription is ~50× slower.
  const threads = availableParallelism();
  const llama = await getLlama({
    gpu: false,
    build: 'never',
    skipDownload: true,
    progressLogs: false,
    maxThreads: threads,
  });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ threads, contextSize: 2048 });
  const sequence = context.getSequence();
  const chat = new LlamaChat({ contextSequence: sequence });
  let json: LlamaGrammar | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const generate = async (
    messages: ChatMessage[],
    options: { maxTokens?: number; temperature?: number; json?: boolean },
  ): Promise<Generation> => {
    const history: ChatHistoryItem[] = messages.map((m): ChatHistoryItem =>
      m.role === 'assistant' ? { type: 'model', response: [m.content] } : { type: m.role, text: m.content },
    );
    history.push({ type: 'model', response: [] });
    // A clean context per request: answers do not depend on earlier ones, and the meter counts the whole prompt.
    await sequence.clearHistory();
    const before = sequence.tokenMeter.getState();
    if (options.json) json ??= await llama.getGrammarFor('json');
    const result = await chat.generateResponse(history, {
      maxTokens: options.maxTokens ?? 512,
      temperature: options.temperature ?? 0,
      ...(options.json ? { grammar: json } : {}),
    });
    const used = sequence.tokenMeter.diff(before);
    return {
      text: result.response,
      promptTokens: used.usedInputTokens,
      completionTokens: used.usedOutputTokens,
      finishReason: result.metadata.stopReason === 'maxTokens' ? 'length' : 'stop',
    };
  };

  return {
    threads,
    chat(messages, options) {
      // One context sequence: requests wait their turn.
      const next = queue.then(() => generate(messages, options));
      queue = next.catch(() => undefined);
      return next;
    },
    async close() {
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}
