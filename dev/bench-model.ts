/**
 * Measures a chat-completions server one call at a time: latency per call and output tokens per second.
 *
 *   node --import tsx dev/bench-model.ts [--url http://127.0.0.1:8080/v1] [--model smollm2-135m-instruct] [-n 10]
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:8080/v1' },
    model: { type: 'string', default: 'smollm2-135m-instruct' },
    n: { type: 'string', short: 'n', default: '10' },
  },
});

const body = {
  model: values.model,
  messages: [
    {
      role: 'system',
      content:
        'Extract the person\'s name, age and city from the text. Reply with only a JSON object: {"name": string, "age": number or null, "city": string or null}.',
    },
    {
      role: 'user',
      content: 'Tom Becker, a 52-year-old baker from Hamburg, opened his second shop last week.',
    },
  ],
  temperature: 0,
  max_tokens: 80,
  response_format: { type: 'json_object' },
};

interface Call {
  seconds: number;
  prompt: number;
  completion: number;
}

const calls: Call[] = [];
for (let i = 0; i < Number(values.n); i++) {
  const started = performance.now();
  const response = await fetch(`${values.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const reply = (await response.json()) as { usage: { prompt_tokens: number; completion_tokens: number } };
  calls.push({
    seconds: (performance.now() - started) / 1000,
    prompt: reply.usage.prompt_tokens,
    completion: reply.usage.completion_tokens,
  });
}

const sorted = calls.map((c) => c.seconds).sort((a, b) => a - b);
const total = (pick: (c: Call) => number) => calls.reduce((sum, c) => sum + pick(c), 0);
const seconds = total((c) => c.seconds);
console.log(
  [
    `${calls.length} calls to ${values.model}, one at a time`,
    `latency per call: mean ${(seconds / calls.length).toFixed(3)} s, median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(3)} s, min ${sorted[0]!.toFixed(3)} s, max ${sorted.at(-1)!.toFixed(3)} s`,
    `tokens per call: ${(total((c) => c.prompt) / calls.length).toFixed(0)} in, ${(total((c) => c.completion) / calls.length).toFixed(1)} out`,
    `output tokens/s (whole call, prompt included): ${(total((c) => c.completion) / seconds).toFixed(1)}`,
  ].join('\n'),
);
