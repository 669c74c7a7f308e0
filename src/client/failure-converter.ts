import { DefaultFailureConverter } from '@temporalio/common';

// A failure's message and stack trace can quote a case or a reply (a provider's error, an adapter's): with
// `encodeCommonAttributes` they travel in the failure's encodedAttributes, a payload the codec encrypts like any other,
// and the server keeps only "Encoded failure" in clear. Loaded three ways, all the same converter: bundled into the
// workflows (bundle.ts), required by path by every client and worker for its activities' failures (connect.ts, built
// to dist/failure-converter.cjs), so it imports nothing the workflow sandbox refuses.

/** How every client, worker and workflow of llm-evals turns errors into Temporal failures and back. */
export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
