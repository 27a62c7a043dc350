// Bundles the page's ES modules (web/src) into classic scripts for dist/: page.js from main.js,
// drag_worker.js, row_worker.js (the row pool's), nw-figure.js (the <nw-figure> element for lessons) and i18n-zh.js (the Chinese texts,
// loaded by the page when needed). Classic (IIFE) output, because Chromium loads no module script from
// file:// and a worker needs importScripts for nw.js. Minified, with source maps that point at web/src.
import { build } from 'esbuild';

const outdir = process.argv[2] || 'dist';

const common = {
  bundle: true,
  format: 'iife',
  platform: 'browser',
  // Every browser that runs WebAssembly SIMD (the module needs it) has ES2020.
  target: ['es2020'],
  minify: true,
  sourcemap: true,
  legalComments: 'linked',
  logLevel: 'warning',
};

const result = await build({
  ...common,
  entryPoints: { page: 'web/src/main.js', drag_worker: 'web/src/drag_worker.js', consistency_worker: 'web/src/consistency_worker.js', row_worker: 'web/src/row_worker.js', 'nw-figure': 'web/src/component/nw_figure.js' },
  outdir,
  metafile: true,
});
// The Chinese dictionary, loaded by the page only for its readers. Written as UTF-8 (half the bytes of
// \u escapes): a classic script without a charset is read in its page's encoding, and index.html is
// UTF-8 (served or from file://); scripts/serve.mjs also sends charset=utf-8.
const dictionaries = await build({
  ...common,
  entryPoints: { 'i18n-zh': 'web/src/i18n/zh_script.js' },
  charset: 'utf8',
  outdir,
  metafile: true,
});
Object.assign(result.metafile.outputs, dictionaries.metafile.outputs);
for (const [file, { bytes }] of Object.entries(result.metafile.outputs)) {
  if (file.endsWith('.js')) console.log(`bundle: ${file} ${(bytes / 1024).toFixed(1)} KiB`);
}
