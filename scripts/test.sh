#!/usr/bin/env bash
# Every test: the Catch2 suite natively, under ASan+UBSan and as wasm under Node (ctest), a bounded
# libFuzzer run (FUZZ_SECONDS, default 60), then the Node tests of the built module, then the browser
# tests of the page in headless Chromium and Firefox ESR, and in WebKit (MiniBrowser on a virtual
# display).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/setup.sh test
jobs=$(nproc)

echo "test: Catch2 suite, native build"
quiet cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release
quiet cmake --build build/native -j "$jobs"
(cd build/native && ctest --output-on-failure -j "$jobs")

echo "test: Catch2 suite under AddressSanitizer and UndefinedBehaviorSanitizer"
quiet cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=Debug -DNW_SANITIZE=ON
quiet cmake --build build/asan --target nw_tests -j "$jobs"
(cd build/asan && ctest --output-on-failure -j "$jobs")

echo "test: fuzzing the core for ${FUZZ_SECONDS:-60} s (libFuzzer, ASan, UBSan) from tests/fuzz/corpus"
quiet cmake -S . -B build/fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DNW_BUILD_TESTS=OFF -DNW_BUILD_FUZZ=ON
quiet cmake --build build/fuzz --target nw_fuzz -j "$jobs"
mkdir -p build/fuzz/work build/fuzz/findings
# New inputs go to build/fuzz/work; the checked-in seed corpus is only read.
if ! build/fuzz/tests/fuzz/nw_fuzz -max_total_time="${FUZZ_SECONDS:-60}" -print_final_stats=1 \
    -artifact_prefix=build/fuzz/findings/ build/fuzz/work tests/fuzz/corpus >build/fuzz/fuzz.log 2>&1; then
  tail -n 40 build/fuzz/fuzz.log
  echo "test: the fuzzer found a failing input in build/fuzz/findings/"
  exit 1
fi
grep -E '^Done|number_of_executed_units' build/fuzz/fuzz.log

echo "test: Catch2 suite, WebAssembly build under Node"
quiet emcmake cmake -S . -B build/wasm-tests -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" -DCatch2_DIR=/usr/lib/cmake/Catch2
quiet cmake --build build/wasm-tests --target nw_tests -j "$jobs"
(cd build/wasm-tests && ctest --output-on-failure -j "$jobs")

bash scripts/build.sh

echo "test: the module's contract under Node"
node --test tests/module/

echo "test: the page's modules under Node (no browser)"
node --test tests/page/

if compgen -G "tests/e2e/*.test.mjs" >/dev/null; then
  echo "test: the page in headless Chromium, Firefox ESR and WebKit"
  node --test --test-concurrency=1 tests/e2e/
fi
