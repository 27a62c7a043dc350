#!/usr/bin/env bash
# npm run bench:against -- COMMIT [ROUNDS]: builds this tree and COMMIT (exported into build/against/,
# with a copy of node_modules), then measures both in one run, interleaved (bench/against.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
ref=${1:?usage: npm run bench:against -- COMMIT [ROUNDS]}
rounds=${2:-3}
bash scripts/setup.sh test
bash scripts/build.sh
other="build/against/$(git rev-parse --short "$ref")"
if [ ! -f "$other/dist/nw.js" ]; then
  echo "bench: building $ref in $other"
  rm -rf "$other"
  mkdir -p "$other"
  git archive "$ref" | tar -x -C "$other"
  # A copy, not a link: the other tree's setup would otherwise run npm ci into this tree's node_modules.
  cp -a node_modules "$other/"
  (cd "$other" && bash scripts/build.sh)
fi
node bench/against.mjs "$other" "$rounds"
