#!/usr/bin/env bash
# Every test: the Catch2 suite natively and as wasm under Node (ctest), then the Node tests of the
# built module, then the browser tests of the page in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/setup.sh test
jobs=$(nproc)

echo "test: Catch2 suite, native build"
quiet cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release
quiet cmake --build build/native -j "$jobs"
(cd build/native && ctest --output-on-failure -j "$jobs")

echo "test: Catch2 suite, WebAssembly build under Node"
quiet emcmake cmake -S . -B build/wasm-tests -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" -DCatch2_DIR=/usr/lib/cmake/Catch2
quiet cmake --build build/wasm-tests --target nw_tests -j "$jobs"
(cd build/wasm-tests && ctest --output-on-failure -j "$jobs")

bash scripts/build.sh

echo "test: the module under Node"
node --test tests/js/

if compgen -G "tests/e2e/*.test.mjs" >/dev/null; then
  echo "test: the page in headless Chromium"
  node --test --test-concurrency=1 tests/e2e/
fi
