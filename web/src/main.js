// The page's entry point (bundled into dist/page.js): puts the page in the reader's language, then
// starts the WebAssembly module and the app. page.js runs before nw.js (see index.html), so the words
// are replaced before the browser has more to do; nw.js, loaded by its own <script> so that the page
// and the drag preview's worker share one copy of it in the browser's cache, defines the global createNW.
/* global createNW */
import { App } from './app.js';
import { Chart } from './charts/chart.js';
import { HTML_LANG, setLanguage, t, translateTree } from './i18n/i18n.js';
import { chooseLanguage } from './state.js';

const loading = document.getElementById('loading');

// ?lang=en|zh, else the browser's language; a bad value is shown (by the app) once it has started.
const language = chooseLanguage(location.search, navigator.languages?.length ? navigator.languages : [navigator.language]);
setLanguage(language.lang);
document.documentElement.lang = HTML_LANG[language.lang];
translateTree(document);

// The charts take their colours from the scheme at start; when the reader's scheme changes, a reload
// redraws them in the new one (every setting is in the URL, your data in this browser's storage).
if (typeof matchMedia === 'function') {
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => location.reload());
}

function start() {
  if (typeof createNW !== 'function') {
    loading.textContent = t('problem.moduleStart', { message: 'nw.js did not load' });
    return;
  }
  createNW()
    .then((nw) => {
      const app = new App(nw, { languageProblem: language.problem });
      // One handle for the browser's console and the browser tests: the running app and Chart.js (whose
      // Chart.getChart(canvas) gives a figure's chart). Nothing in the page reads it.
      window.nwPage = { app, Chart, lang: language.lang };
      app.start();
    })
    .catch((error) => {
      loading.textContent = t('problem.moduleStart', { message: error && error.message ? error.message : String(error) });
    });
}

// nw.js runs after this bundle: by DOMContentLoaded it has (an older page with it first is fine too).
if (typeof createNW === 'function' || document.readyState !== 'loading') start();
else document.addEventListener('DOMContentLoaded', start, { once: true });
