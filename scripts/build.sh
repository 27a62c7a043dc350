#!/usr/bin/env bash
# Builds dist/: the WebAssembly module (dist/nw.js, wasm inside), the page and its Chart.js files.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/setup.sh build

echo "build: compiling the WebAssembly module"
quiet emcmake cmake -S . -B build/module -DCMAKE_BUILD_TYPE=Release -DNW_BUILD_TESTS=OFF
quiet cmake --build build/module --target nw_module -j "$(nproc)"

echo "build: assembling dist/"
rm -rf dist
mkdir -p dist/vendor
cp build/module/cpp/bindings/nw.js dist/nw.js
if [ -d web ]; then cp -R web/. dist/; fi
cp node_modules/chart.js/dist/chart.umd.min.js dist/vendor/chart.umd.min.js
cp node_modules/chartjs-chart-matrix/dist/chartjs-chart-matrix.min.js dist/vendor/chartjs-chart-matrix.min.js
echo "build: done ($(du -sh dist | cut -f1) in dist/)"
