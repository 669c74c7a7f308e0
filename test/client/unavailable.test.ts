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

  it('gives a ServiceError the server’s reason, which its title leaves out', () => {
    const error = new Error('Failed to start Workflow', {
      cause: Object.assign(new Error('3 INVALID_ARGUMENT: Blob data size exceeds limit.'), {
        code: 3,
        details: 'Blob data size exceeds limit.',
      }),
    });
    error.name = 'ServiceError';
    const said = inOurWords(error);
    expect(said?.exitCode).toBe(1);
    expect(said?.message).toMatch(
      /^Failed to start Workflow: the Temporal server refused it \(invalid argument\): Blob data size exceeds limit\.\. The run is over what the server takes/,
    );
  });

  it.each([
    ['another error', new Error('HTTP 500')],
    ['a ServiceError without a cause', Object.assign(new Error('Failed'), { name: 'ServiceError' })],
    [
      'a namespace that does not exist (not a server gone)',
      new Error('Namespace nope was not found: Status { code: NotFound'),
    ],
    ['not an error', 'text'],
  ])('leaves %s alone', (_, error) => {
    expect(inOurWords(error)).toBeUndefined();
  });
});
