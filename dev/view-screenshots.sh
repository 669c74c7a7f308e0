#!/bin/sh
# Regenerates the README's screenshots of `llm-evals view` (docs/view-run.png, docs/view-case.png): the browser test
# takes them from the pages it clicks through, in headless Chromium.
set -e
cd "$(dirname "$0")/.."
mkdir -p docs
LLM_EVALS_README_IMAGES=docs npx vitest run test/view/browser.test.ts
