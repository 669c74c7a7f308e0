/**
 * The slice of node-llama-cpp's API that dev/local-model.ts uses, written out here because the package is installed
 * on demand into dev/real-model/node_modules (dev/setup-real-model.sh): the root type-check runs without it.
 */
export interface NodeLlamaCpp {
  getLlama: (options: {
    gpu: false;
    build: 'never';
    skipDownload: boolean;
    progressLogs: boolean;
    maxThreads: number;
  }) => Promise<Llama>;
  LlamaChat: new (options: { contextSequence: LlamaContextSequence }) => LlamaChat;
}

/** The llama.cpp runtime, bound to its prebuilt CPU binary. */
export interface Llama {
  loadModel(options: { modelPath: string }): Promise<LlamaModel>;
  getGrammarFor(type: 'json'): Promise<LlamaGrammar>;
  dispose(): Promise<void>;
}

/** A loaded GGUF model. */
export interface LlamaModel {
  createContext(options: { threads: number; contextSize: number }): Promise<LlamaContext>;
  dispose(): Promise<void>;
}

/** A model's context, holding the sequence a chat runs in. */
export interface LlamaContext {
  getSequence(): LlamaContextSequence;
  dispose(): Promise<void>;
}

/** Tokens in and out counted by a sequence's meter. */
export interface TokenMeterState {
  usedInputTokens: number;
  usedOutputTokens: number;
}

/** One sequence of a context: its history and its token meter. */
export interface LlamaContextSequence {
  clearHistory(): Promise<void>;
  readonly tokenMeter: { getState(): TokenMeterState; diff(state: TokenMeterState): TokenMeterState };
}

/** A grammar the model's output must follow (JSON mode); opaque here. */
export type LlamaGrammar = object;

/** One message of a chat's history, as node-llama-cpp writes it. */
export type ChatHistoryItem =
  { type: 'system' | 'user'; text: string } | { type: 'model'; response: string[] };

/** A chat session over one context sequence. */
export interface LlamaChat {
  generateResponse(
    history: ChatHistoryItem[],
    options: { maxTokens: number; temperature: number; grammar?: LlamaGrammar },
  ): Promise<{ response: string; metadata: { stopReason: string } }>;
}
