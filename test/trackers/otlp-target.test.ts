import { describe, expect, it } from 'vitest';
import { caseAttributes, cutUtf8 } from '../../src/trackers/otlp-attributes.ts';
import { logfireBaseUrl, otlpTarget, parseOtlpHeaders } from '../../src/trackers/otlp-target.ts';
import { fromSnapshot } from '../../src/trackers/from-snapshot.ts';
import { SECRET_REPLY, trackerSnapshot } from './fixture.ts';

describe('otlpTarget', () => {
  it.each<[string, Record<string, string>, string, Record<string, string>, string]>([
    [
      'a US token',
      { LOGFIRE_TOKEN: 'pylf_v1_us_abc123' },
      'https://logfire-us.pydantic.dev/v1/traces',
      { Authorization: 'pylf_v1_us_abc123' },
      'traces go to https://logfire-us.pydantic.dev/v1/traces with LOGFIRE_TOKEN',
    ],
    [
      'an EU token',
      { LOGFIRE_TOKEN: 'pylf_v1_eu_abc123' },
      'https://logfire-eu.pydantic.dev/v1/traces',
      { Authorization: 'pylf_v1_eu_abc123' },
      'traces go to https://logfire-eu.pydantic.dev/v1/traces with LOGFIRE_TOKEN',
    ],
    [
      'an older token',
      { LOGFIRE_TOKEN: 'old-style' },
      'https://logfire-us.pydantic.dev/v1/traces',
      { Authorization: 'old-style' },
      'traces go to https://logfire-us.pydantic.dev/v1/traces with LOGFIRE_TOKEN',
    ],
    [
      'LOGFIRE_BASE_URL',
      { LOGFIRE_TOKEN: 'pylf_v1_eu_abc', LOGFIRE_BASE_URL: 'https://lf.example/' },
      'https://lf.example/v1/traces',
      { Authorization: 'pylf_v1_eu_abc' },
      'traces go to https://lf.example/v1/traces with LOGFIRE_TOKEN',
    ],
    [
      'an OTLP endpoint',
      { LOGFIRE_TOKEN: 't', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' },
      'http://collector:4318/v1/traces',
      {},
      'OTEL_EXPORTER_OTLP_ENDPOINT is set: traces go to http://collector:4318/v1/traces; LOGFIRE_TOKEN is not sent',
    ],
    [
      'a traces endpoint, used as written',
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c/x', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored' },
      'http://c/x',
      {},
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set: traces go to http://c/x',
    ],
    [
      'OTLP headers alone, to Logfire',
      { OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=pylf_v1_eu_x' },
      'https://logfire-us.pydantic.dev/v1/traces',
      { Authorization: 'pylf_v1_eu_x' },
      'OTEL_EXPORTER_OTLP_HEADERS is set: traces go to https://logfire-us.pydantic.dev/v1/traces',
    ],
    [
      'both OTLP variables',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_HEADERS: 'a=1' },
      'http://c/v1/traces',
      { a: '1' },
      'OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_HEADERS are set: traces go to http://c/v1/traces',
    ],
  ])('%s', (_, env, url, headers, reason) => {
    expect(otlpTarget(env)).toEqual({ url, headers, reason });
  });

  it.each([
    ['a=1,b=2', { a: '1', b: '2' }],
    [' Authorization = Bearer%20tok , x=y=z', { Authorization: 'Bearer tok', x: 'y=z' }],
    ['broken=%E0%A4%A,=novalue,plain', { broken: '%E0%A4%A' }],
  ])('parseOtlpHeaders(%j)', (text, headers) => {
    expect(parseOtlpHeaders(text)).toEqual(headers);
  });

  it.each([
    [{}, 'https://logfire-us.pydantic.dev'],
    [{ LOGFIRE_TOKEN: 'pylf_v2_eu_Z9' }, 'https://logfire-eu.pydantic.dev'],
    [{ LOGFIRE_TOKEN: 'pylf_v1_mars_Z9' }, 'https://logfire-us.pydantic.dev'],
  ])('logfireBaseUrl(%j) = %s', (env, url) => {
    expect(logfireBaseUrl(env)).toBe(url);
  });
});

describe('cutUtf8', () => {
  it.each<[string, number, string, boolean]>([
    ['short', 10, 'short', false],
    ['exactly10!', 10, 'exactly10!', false],
    ['abcdefghijk', 10, 'abcdefg…', true],
    ['üüüüüü', 10, 'üüü…', true],
    ['😀😀😀', 8, '😀…', true],
  ])('cutUtf8(%j, %i) = %j', (text, bytes, cut, wasCut) => {
    const result = cutUtf8(text, bytes);
    expect(result).toEqual({ text: cut, cut: wasCut });
    expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(bytes);
  });
});

describe('caseAttributes', () => {
  const record = fromSnapshot(trackerSnapshot())[0]!.records[0]!;

  it.each([
    [false, []],
    [true, ['output', 'reply']],
  ])('with include_replies %s sends the reply keys %j', (includeReplies, keys) => {
    const attributes = caseAttributes(record, { includeReplies });
    expect(
      Object.keys(attributes)
        .filter((k) => k === 'reply' || k === 'output')
        .sort(),
    ).toEqual(keys);
    expect(JSON.stringify(attributes).includes(SECRET_REPLY)).toBe(includeReplies);
  });
});
