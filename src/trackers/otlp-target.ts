import type { Env } from './types.ts';

/** Logfire's regions; a write token names its own (`pylf_v1_eu_…`), and an unknown one goes to the US. */
const LOGFIRE_REGIONS: Record<string, string> = {
  us: 'https://logfire-us.pydantic.dev',
  eu: 'https://logfire-eu.pydantic.dev',
};

const TOKEN_REGION = /^pylf_v[0-9]+_([a-z]+)_[A-Za-z0-9]+$/;

/** Where an OTLP tracker sends its traces, the headers it sends, and the sentence `-v` prints about it. */
export interface OtlpTarget {
  url: string;
  headers: Record<string, string>;
  reason: string;
}

const set = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);

/** Logfire's base URL: `LOGFIRE_BASE_URL`, else the region the token names, else the US region. */
export function logfireBaseUrl(env: Env): string {
  const explicit = set(env.LOGFIRE_BASE_URL);
  if (explicit) return explicit.replace(/\/+$/, '');
  const region = TOKEN_REGION.exec(set(env.LOGFIRE_TOKEN) ?? '')?.[1];
  return LOGFIRE_REGIONS[region ?? 'us'] ?? LOGFIRE_REGIONS.us!;
}

/** `OTEL_EXPORTER_OTLP_HEADERS` as the OpenTelemetry spec writes it: `k=v,k2=v2`, values percent-encoded. */
export function parseOtlpHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    const raw = pair.slice(at + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // A value that is not valid percent-encoding is sent as written, as the spec's reference exporters do.
    }
    if (key) headers[key] = value;
  }
  return headers;
}

/**
 * Resolves the OTLP/HTTP traces endpoint. When any `OTEL_EXPORTER_OTLP_*` endpoint or headers variable is set,
 * those win and `LOGFIRE_TOKEN` is not sent, so a Logfire token never reaches another backend; otherwise traces go
 * to Logfire with the token as the `Authorization` header.
 */
export function otlpTarget(env: Env): OtlpTarget {
  const tracesEndpoint = set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const endpoint = set(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const otelHeaders = set(env.OTEL_EXPORTER_OTLP_HEADERS);
  if (tracesEndpoint || endpoint || otelHeaders) {
    const url = tracesEndpoint ?? `${(endpoint ?? logfireBaseUrl(env)).replace(/\/+$/, '')}/v1/traces`;
    const names = [
      tracesEndpoint && 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      !tracesEndpoint && endpoint && 'OTEL_EXPORTER_OTLP_ENDPOINT',
      otelHeaders && 'OTEL_EXPORTER_OTLP_HEADERS',
    ].filter(Boolean);
    const unused = set(env.LOGFIRE_TOKEN) ? '; LOGFIRE_TOKEN is not sent' : '';
    return {
      url,
      headers: otelHeaders ? parseOtlpHeaders(otelHeaders) : {},
      reason: `${names.join(' and ')} ${names.length > 1 ? 'are' : 'is'} set: traces go to ${url}${unused}`,
    };
  }
  const url = `${logfireBaseUrl(env)}/v1/traces`;
  const token = set(env.LOGFIRE_TOKEN);
  return {
    url,
    headers: token ? { Authorization: token } : {},
    reason: `traces go to ${url}${token ? ' with LOGFIRE_TOKEN' : ''}`,
  };
}

/** The variable the logfire tracker lacks: none when a token or an OTLP endpoint or headers variable is set. */
export function missingOtlpKey(env: Env): string | undefined {
  const keys = [
    'LOGFIRE_TOKEN',
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    'OTEL_EXPORTER_OTLP_HEADERS',
  ];
  return keys.some((k) => set(env[k])) ? undefined : 'LOGFIRE_TOKEN';
}
