// The page's entry point (bundled into dist/page.js): starts the WebAssembly module, then the app.
// nw.js is loaded by its own <script> before this bundle, so the page and the drag preview's worker
// share one copy of it in the browser's cache; it defines the global createNW.
/* global createNW */
import { App } from './app.js';
import { Chart } from './charts/chart.js';

const loading = document.getElementById('loading');

// The charts take their colours from the scheme at start; when the reader's scheme changes, a reload
// redraws them in the new one (every setting is in the URL, your data in this browser's storage).
if (typeof matchMedia === 'function') {
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => location.reload());
}

createNW()
  .then((nw) => {
    const app = new App(nw);
    // One handle for the browser's console and the browser tests: the running app and Chart.js (whose
    // Chart.getChart(canvas) gives a figure's chart). Nothing in the page reads it.
    window.nwPage = { app, Chart };
    app.start();
  })
  .catch((error) => {
    loading.textContent = `The WebAssembly module could not start: ${error && error.message ? error.message : error}`;
  });
