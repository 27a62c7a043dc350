// Makes dist/nw.js from the Emscripten build's glue and wasm: the wasm goes inside, gzipped and base64
// (see cpp/bindings/inline_wasm.js), and the glue is minified. Usage: node assemble_module.mjs GLUE WASM OUT
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { transform } from 'esbuild';

const [gluePath, wasmPath, outPath] = process.argv.slice(2);
const PLACEHOLDER = '__NW_WASM_GZIP_BASE64__';

const glue = readFileSync(gluePath, 'utf8');
if (glue.split(PLACEHOLDER).length !== 2) throw new Error(`${gluePath} must hold the placeholder ${PLACEHOLDER} once`);
const wasm = readFileSync(wasmPath);
const payload = gzipSync(wasm, { level: 9 }).toString('base64');
// A function as the replacement, so that '$' in the payload is taken literally.
const inlined = glue.replace(PLACEHOLDER, () => payload);
// Minified as a classic script: top-level names (createNW) stay as they are, locals are shortened.
const { code } = await transform(inlined, { minify: true, target: 'es2020', legalComments: 'none' });
writeFileSync(outPath, code);
console.log(`build: ${outPath} ${(code.length / 1024).toFixed(1)} KiB (wasm ${(wasm.length / 1024).toFixed(1)} KiB, gzipped inside)`);
