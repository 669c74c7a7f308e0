import type { Client } from '@temporalio/client';
import { ConfigError } from '../errors.ts';

/** A protobuf timestamp or duration as the API returns it. */
type ProtoTime =
  { seconds?: number | { toNumber(): number } | null; nanos?: number | null } | null | undefined;

/** Milliseconds of a protobuf timestamp or duration; undefined when absent. */
export function protoMs(t: ProtoTime): number | undefined {
  if (!t) return undefined;
  const s = t.seconds ?? 0;
  return (typeof s === 'number' ? s : s.toNumber()) * 1000 + (t.nanos ?? 0) / 1e6;
}

/** `INDEXED_VALUE_TYPE_KEYWORD` in Temporal's API. */
const KEYWORD = 2;

/** How long the embedded server keeps a closed run, so a monthly schedule still finds its previous runs. */
export const EMBEDDED_RETENTION_DAYS = 90;

/**
 * Registers a Keyword search attribute the namespace lacks: a server started by an older llm-evals has the others
 * from its flags, not the ones added since (`LlmEvalsSchedule`).
 */
export async function ensureSearchAttribute(client: Client, name: string): Promise<void> {
  const namespace = client.options.namespace;
  const operator = client.connection.operatorService;
  const { customAttributes } = await operator.listSearchAttributes({ namespace });
  if (customAttributes && name in customAttributes) return;
  await operator.addSearchAttributes({ namespace, searchAttributes: { [name]: KEYWORD } });
}

/**
 * Refuses a namespace the server does not have (TEMPORAL_NAMESPACE, or a profile's), as bad input before anything is
 * sent into it: the server's own words are "Namespace not found" at the first call, a stack under -v.
 */
export async function ensureNamespace(client: Client, address: string): Promise<void> {
  const namespace = client.options.namespace;
  try {
    // A server that does not answer is the command's own calls' to say: this look waits 10 s at most.
    await client.connection.withDeadline(Date.now() + 10_000, () =>
      client.workflowService.describeNamespace({ namespace }),
    );
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    // gRPC's NOT_FOUND (5). Anything else (a key that may not describe it) is left to the command's own calls.
    if (code !== 5 && !/namespace.*not found/i.test(String(message))) return;
    throw new ConfigError(
      undefined,
      `TEMPORAL_NAMESPACE=${namespace}`,
      `the Temporal server at ${address} has no such namespace; create it ` +
        `(temporal operator namespace create --namespace ${namespace}) or name one it has`,
      { cause: error },
    );
  }
}

/** How many days the namespace keeps a closed workflow before deleting it. */
export async function retentionDays(client: Client): Promise<number> {
  const { config } = await client.workflowService.describeNamespace({ namespace: client.options.namespace });
  return (protoMs(config?.workflowExecutionRetentionTtl) ?? 0) / 86_400_000;
}

/** Raises the namespace's retention to `days` when it is shorter (the dev server's default is one day). */
export async function ensureRetention(client: Client, days: number): Promise<void> {
  if ((await retentionDays(client)) >= days) return;
  // protobufjs encodes a plain number into an int64 field; the generated request type only names Long.
  const request = {
    namespace: client.options.namespace,
    config: { workflowExecutionRetentionTtl: { seconds: days * 86_400 } },
  } as unknown as Parameters<Client['workflowService']['updateNamespace']>[0];
  await client.workflowService.updateNamespace(request);
}
