// Bundles the page's ES modules (web/src) into classic scripts for dist/, one per entry point: the files
// at the top of web/src (page.js, nw-figure.js: the <nw-figure> element for lessons, i18n-zh.js: the
// Chinese texts, loaded by the page when needed) and the workers, web/src/compute/*.worker.js
// (NAME.worker.js becomes dist/NAME_worker.js). Classic (IIFE) output, because Chromium loads no module script from
// file:// and a worker needs importScripts for nw.js. Minified, with source maps that point at web/src.
import { readdirSync } from 'node:fs';
import { build } from 'esbuild';

const outdir = process.argv[2] || 'dist';

const common = {
  bundle: true,
  format: 'iife',
  platform: 'browser',
  // The first versions of the browsers that run WebAssembly SIMD (the module needs it): esbuild keeps
  // what they all support (class fields, ??=) and lowers only the rest.
  target: ['chrome91', 'firefox89', 'safari16.4'],
  minify: true,
  sourcemap: true,
  legalComments: 'linked',
  logLevel: 'warning',
};

const workers = Object.fromEntries(readdirSync('web/src/compute').filter((file) => file.endsWith('.worker.js'))
  .map((file) => [`${file.slice(0, -'.worker.js'.length)}_worker`, `web/src/compute/${file}`]));

const result = await build({
  ...common,
  entryPoints: { page: 'web/src/page.js', 'nw-figure': 'web/src/nw-figure.js', ...workers },
  outdir,
  metafile: true,
});
// The Chinese dictionary, loaded by the page only for its readers. Written as UTF-8 (half the bytes of
// \u escapes): a classic script without a charset is read in its page's encoding, and index.html is
// UTF-8 (served or from file://); scripts/serve.mjs also sends charset=utf-8.
const dictionaries = await build({
  ...common,
  entryPoints: { 'i18n-zh': 'web/src/i18n-zh.js' },
  charset: 'utf8',
  outdir,
  metafile: true,
});
Object.assign(result.metafile.outputs, dictionaries.metafile.outputs);
for (const [file, { bytes }] of Object.entries(result.metafile.outputs)) {
  if (file.endsWith('.js')) console.log(`bundle: ${file} ${(bytes / 1024).toFixed(1)} KiB`);
}
