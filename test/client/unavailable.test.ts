import { describe, expect, it } from 'vitest';
import { inOurWords } from '../../src/client/unavailable.ts';

// Never a wrong word (issue 28): a server stopped while a compare was starting showed the worker's raw words.
const RAW =
  'Namespace default was not found or otherwise could not be described: Status { code: Unavailable, message: ' +
  '"tcp connect error", details: [], metadata: MetadataMap { headers: {} }, source: Some(tonic::transport::Error(Transport, ConnectError(ConnectError("tcp connect error", Os { code: 111, kind: ConnectionRefused, message: "Connection refused" })))) }';

describe('inOurWords', () => {
  it('says a server that stopped answering as the command began in our words, exit 1', () => {
    const said = inOurWords(new Error(RAW));
    expect(said?.exitCode).toBe(1);
    expect(said?.message).toBe(
      'the Temporal server stopped answering while this command was starting: namespace default could not be read ' +
        '(tcp connect error). Start it again (llm-evals server start, or let the next command start the embedded ' +
        'one) and run the command again; a run already started goes on where it stopped.',
    );
    expect(said?.message).not.toContain('Status {');
  });

  it.each([
    ['another error', new Error('HTTP 500')],
    [
      'a namespace that does not exist (not a server gone)',
      new Error('Namespace nope was not found: Status { code: NotFound'),
    ],
    ['not an error', 'text'],
  ])('leaves %s alone', (_, error) => {
    expect(inOurWords(error)).toBeUndefined();
  });
});
