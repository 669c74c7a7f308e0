#!/usr/bin/env node
// The gate's one comment on a pull request: `node action/post-comment.mjs REPORT.md` posts the report, or updates
// the comment an earlier run posted (found by a hidden marker), so a pull request carries one comment however many
// times it is pushed. Reads GITHUB_TOKEN, GITHUB_API_URL, GITHUB_REPOSITORY and the pull request's number from
// GITHUB_EVENT_PATH, as GitHub's runner sets them. Without a token or a pull request it does nothing; a comment
// refused (a fork's read-only token) is a warning, never the job's failure: the gate's verdict is the job's exit code.
import { readFileSync } from 'node:fs';
import process from 'node:process';

/** The hidden line that marks the gate's comment. */
const MARKER = '<!-- llm-evals-gate -->';

const env = process.env;
const say = (line) => process.stderr.write(`${line}\n`);

/** One call of GitHub's REST API: the parsed body, or an error naming the call and its status. */
async function github(method, path, body) {
  const api = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/$/, '');
  const response = await globalThis.fetch(`${api}${path}`, {
    method,
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${env.GITHUB_TOKEN}`,
      'x-github-api-version': '2022-11-28',
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

/** The pull request's number from the event that started the workflow, if it was a pull request's. */
function pullRequest() {
  if (!env.GITHUB_EVENT_PATH) return undefined;
  const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
  return event.pull_request?.number ?? (event.issue?.pull_request ? event.issue.number : undefined);
}

/** The gate's earlier comment on the pull request, looked for page by page. */
async function findComment(repo, number) {
  for (let page = 1; ; page++) {
    const comments = await github(
      'GET',
      `/repos/${repo}/issues/${number}/comments?per_page=100&page=${page}`,
    );
    const found = comments.find((c) => typeof c.body === 'string' && c.body.includes(MARKER));
    if (found || comments.length < 100) return found;
  }
}

async function main(file) {
  if (!env.GITHUB_TOKEN) return say('llm-evals: no github-token, no comment');
  const number = pullRequest();
  if (!number) return say('llm-evals: not a pull request, no comment');
  const repo = env.GITHUB_REPOSITORY;
  const body = `${MARKER}\n${readFileSync(file, 'utf8')}`;
  try {
    const earlier = await findComment(repo, number);
    const comment = earlier
      ? await github('PATCH', `/repos/${repo}/issues/comments/${earlier.id}`, { body })
      : await github('POST', `/repos/${repo}/issues/${number}/comments`, { body });
    say(`llm-evals: ${earlier ? 'updated' : 'posted'} ${comment.html_url ?? `comment ${comment.id}`}`);
  } catch (error) {
    say(`::warning::llm-evals: could not comment on #${number}: ${error.message}`);
  }
}

await main(process.argv[2]);
