#!/usr/bin/env bash
# npm run bench: builds dist/ and the long-double reference, then measures every speed target in one run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/setup.sh bench
bash scripts/build.sh
mkdir -p build/bench
echo "bench: compiling the long-double reference"
g++ -O2 -std=c++17 -Icpp/include bench/reference.cpp cpp/src/data.cpp cpp/src/portable_math.cpp \
  cpp/src/random.cpp cpp/src/validate.cpp -ffp-contract=off -o build/bench/reference
echo "bench: measuring (about two minutes; the 100,000 x 100,000 prediction takes most of it)"
node bench/bench.mjs build/bench/reference
