#!/usr/bin/env bash
# Rewrites tests/golden/seed1.txt from the native build. Only for a deliberate change of the data or model.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
quiet cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release
quiet cmake --build build/native --target nw_golden -j "$(nproc)"
build/native/tests/cpp/nw_golden > tests/golden/seed1.txt
echo "golden: wrote tests/golden/seed1.txt"
