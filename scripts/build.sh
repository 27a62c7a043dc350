#!/usr/bin/env bash
# Builds dist/: the WebAssembly module (dist/nw.js, wasm inside; nw.mjs, its ES module entry; its types), the page (index.html,
# style.css) and the page's bundled scripts (page.js, nw-figure.js, the workers heatmap_worker.js, rows_worker.js and consistency_worker.js, with source maps).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/setup.sh build

echo "build: compiling the WebAssembly module"
quiet emcmake cmake -S . -B build/module -DCMAKE_BUILD_TYPE=Release -DNW_BUILD_TESTS=OFF
quiet cmake --build build/module --target nw_module -j "$(nproc)"

echo "build: assembling dist/"
rm -rf dist
mkdir -p dist
node scripts/assemble_module.mjs build/module/cpp/bindings/nw.js build/module/cpp/bindings/nw.wasm dist/nw.js
cp cpp/bindings/nw.d.ts dist/nw.d.ts
# The module is a CommonJS factory; this ES module lets `import createNW from 'nadaraya-watson'` work
# in Node and in bundlers that prefer the package's "import" condition.
printf "import createNW from './nw.js';\nexport default createNW;\n" > dist/nw.mjs
cp web/index.html web/style.css web/favicon.svg web/robots.txt web/embed.js dist/
mkdir -p dist/examples && cp web/examples/tutorial.html web/examples/tutorial.css dist/examples/
node scripts/bundle.mjs dist
echo "build: done ($(du -sh dist | cut -f1) in dist/)"
