#!/usr/bin/env bash
# Builds dist/ and serves it on localhost (PORT, default 8080).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
exec node scripts/serve.mjs dist "${PORT:-8080}"
