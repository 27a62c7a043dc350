// The page's entry point (bundled into dist/page.js): puts the page in the reader's language, starts the
// WebAssembly module, then the app. page.js runs before nw.js (see index.html), so the words are replaced
// before the browser has more to do; nw.js, loaded by its own <script> so that the page and the drag
// preview's worker share one copy of it in the browser's cache, defines the global createNW.
/* global createNW */
import { App, createFigures } from './page/controller.js';
import { Chart } from './charts/chart.js';
import { THEME_CHOICES } from './charts/colors.js';
import { pageDebug } from './page/debug.js';
import { nextTask, warmUpCharts, warmUpNumbers } from './charts/warmup.js';
import { warmUpModule } from './compute/module_warmup.js';
import { HTML_LANG, registerDictionary, setLanguage, t, translateTree } from './i18n/i18n.js';
import { showLanguageSwitch } from './page/language_switch.js';
import { startTheme } from './page/theme.js';
import { chooseLanguage } from './model/settings.js';
import { WEBASSEMBLY_BROWSERS, runsWebAssembly } from './lib/webassembly.js';

const loading = document.getElementById('loading');
const browserLanguages = navigator.languages?.length ? navigator.languages : [navigator.language];

// The colours first: the charts made below take them (a bad ?theme= is named once the app has started).
const badTheme = startTheme();

// A language other than English comes as its own script (i18n-zh.js, beside page.js): only its readers
// download it, and it loads while nw.js does. Resolves with null, or why the page stays English.
function loadDictionary(lang) {
  return new Promise((resolve) => {
    const script = document.createElement('script');
    script.src = `i18n-${lang}.js`;
    script.onload = () => {
      const dictionary = globalThis.nwDictionaries?.[lang];
      if (dictionary) registerDictionary(lang, dictionary);
      resolve(dictionary ? null : `i18n-${lang}.js has no dictionary: the page stays in English`);
    };
    script.onerror = () => resolve(`i18n-${lang}.js could not be loaded: the page stays in English`);
    document.head.append(script);
  });
}

// ?lang=en|zh, else the browser's language. The page's English (index.html's) shows until the chosen
// dictionary is here; then every marked text is replaced and <html lang> set. A bad ?lang= is named in
// a message (in the language chosen instead) once the app has started.
const wanted = chooseLanguage(location.search, browserLanguages).lang;
const languageReady = (wanted === 'en' ? Promise.resolve(null) : loadDictionary(wanted)).then((dictionaryProblem) => {
  const { lang, problem } = chooseLanguage(location.search, browserLanguages);
  const shown = dictionaryProblem ? 'en' : lang;
  setLanguage(shown);
  document.documentElement.lang = HTML_LANG[shown];
  translateTree(document);
  showLanguageSwitch(document.getElementById('languageSwitch'), location.hash);
  const themeProblem = badTheme === null ? null : t('problem.theme', { name: 'theme', value: badTheme, choices: THEME_CHOICES.join(', '), fallback: 'auto' });
  return [problem, dictionaryProblem, themeProblem].filter(Boolean);
});

// Chart.js's number formatting, made ready while the module compiles (see charts/warmup.js).
warmUpNumbers(HTML_LANG[wanted]);

// nw.js runs after this bundle: by DOMContentLoaded it has. createNW runs in a task after that event's,
// which also lays the page out and fires its load event (together 60-120 ms otherwise).
const domReady = document.readyState === 'loading'
  ? new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }))
  : Promise.resolve();
// Without WebAssembly (or its SIMD) the module is not even tried: the reader is told what to do instead.
const NO_WEBASSEMBLY = Symbol('no WebAssembly');
const moduleReady = domReady.then(nextTask).then(() => {
  if (!runsWebAssembly()) throw NO_WEBASSEMBLY;
  if (typeof createNW !== 'function') throw new Error('nw.js did not load');
  return createNW();
}).then((nw) => {
  // The module is compiled and ready: `npm run bench` compares the first chart's time with this one.
  performance.mark('nw:module-ready');
  return nw;
});

// The charts are created while the module compiles, in tasks of their own once the page is in its
// language (Chart.js warmed up first, see charts/warmup.js): then the app's first task only computes and
// draws.
const figuresReady = Promise.all([domReady, languageReady])
  .then(() => warmUpCharts())
  .then(() => createFigures());

const describe = (error) => (error && error.message ? error.message : String(error));
// A failure to make the figures is the page's, said once the module's own fate is known.
const figuresMade = figuresReady.then((made) => ({ made }), (error) => ({ error }));
// The app starts two tasks after the module's (whose instantiation and bindings take tens of ms): the
// first of them makes the module's first calls (see module_warmup.js).
const moduleThenTask = moduleReady
  .then((nw) => nextTask().then(() => warmUpModule(nw)).then(nextTask).then(() => nw));
Promise.all([moduleThenTask, languageReady, figuresMade])
  .then(([nw, languageProblems, { made: madeFigures, error: figuresError }]) => {
    // A failure from here on is the page's own (a bug), not the module's: it is said so, and rethrown so
    // that it also shows in the browser's console.
    try {
      if (figuresError) throw figuresError;
      const app = new App(nw, { languageProblems });
      // One handle for the browser's console, the browser tests and the bench: the page's test surface
      // (page/debug.js) and Chart.js (whose Chart.getChart(canvas) gives a figure's chart). Nothing in the
      // page reads it.
      window.nwPage = { debug: pageDebug(app), Chart, lang: t.lang };
      app.start(madeFigures);
    } catch (error) {
      loading.textContent = t('problem.pageStart', { message: describe(error) });
      throw error;
    }
  }, (error) => languageReady.then(() => {
    if (error !== NO_WEBASSEMBLY) {
      loading.textContent = t('problem.moduleStart', { message: describe(error) });
      return;
    }
    // The chapter's text stays; the controls and empty figures go (style.css, body.no-webassembly).
    loading.hidden = true;
    const message = document.getElementById('message');
    message.textContent = t('problem.noWebAssembly', { safari: 'Safari', browsers: WEBASSEMBLY_BROWSERS });
    message.hidden = false;
    document.body.classList.add('no-webassembly');
  }));
