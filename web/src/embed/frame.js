// Embedding in a lesson: which figure an iframe shows (?embed=<figure>, or ?embed=1 for all of them),
// its content height for the host (nw:resize), and the host's control of its settings (nw:set in,
// nw:change out). The protocol is in the README; dist/embed.js (web/embed.js) is the host's side of it.

import { ownData } from '../io/own_data.js';
import { textOf } from '../model/settings.js';
import { t } from '../i18n/i18n.js';
import { authorOptions } from '../model/author_options.js';
import { showCaption, showControls } from './embed_options.js';

// The figures one embed can show; each element of the page that belongs to a figure lists it in its
// data-embed attribute.
const FIGURES = ['predictions', 'weights', 'training', 'design', 'landscape', 'kernels'];

// From the page's query string: { mode: 'page' } (not embedded), { mode: 'all' } (?embed=1), or
// { mode: 'figure', figure }; an unknown figure is { mode: 'page', problem } (the whole page is shown,
// with a message naming the valid figures).
function embedMode(search) {
  const value = new URLSearchParams(search).get('embed');
  if (value === null) return { mode: 'page' };
  if (value === '1') return { mode: 'all' };
  if (FIGURES.includes(value)) return { mode: 'figure', figure: value };
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return { mode: 'page', problem: t('problem.unknownEmbed', { name: shown, figures: FIGURES.join(', ') }) };
}

// Shows only what belongs to `figure`: the hero and each step's parts are shown when their data-embed
// lists the figure, and hidden otherwise; a step with nothing left to show is hidden as a whole.
function showOnly(figure) {
  document.body.classList.add('embed', 'embed-figure', `embed-${figure}`);
  const belongs = (element) => (element.dataset.embed ?? '').split(/\s+/).includes(figure);
  const hero = document.getElementById('figures');
  hero.hidden = !belongs(hero);
  for (const step of document.querySelectorAll('.step')) {
    for (const part of step.children) part.hidden = !belongs(part);
    step.hidden = [...step.children].every((part) => part.hidden);
  }
  // The steps' headings (h2) are hidden: the figures' titles (h3) come next under the page's title (h1).
  for (const title of document.querySelectorAll('.step h3')) title.setAttribute('aria-level', '2');
}

// Tells the host the content's height whenever it changes (and once now); returns report(), which sends
// it again if it changed. (A frame out of view may not run its ResizeObserver until scrolled to: the
// host's embed.js then asks, with nw:measure, when the frame's width changes.)
function reportHeight(target) {
  let last = -1;
  const report = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    target.postMessage({ type: 'nw:resize', height }, '*');
  };
  new ResizeObserver(report).observe(document.documentElement);
  report();
  return report;
}

// Settings from the host, as the strings a URL would carry, so they are checked exactly like URL values.
function settingsText(settings) {
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) return null;
  return textOf(settings);
}

// Starts embed mode for this page. app: { applyText(text), showProblems(messages) }; returns
// { embedded, problems, notify } where problems are the messages about ?embed=, ?controls= and
// ?caption=, and notify(settings, { byReader }) is told of every settings shown and sends nw:change to
// the host when the reader changed them.
function startEmbed(app, search = location.search) {
  const mode = embedMode(search);
  if (mode.mode === 'page') return { embedded: false, problems: mode.problem ? [mode.problem] : [], notify: () => {} };
  // Your own data is this embed's alone: keyed by its id= parameter, or by its address as first loaded.
  const params = new URLSearchParams(search);
  ownData.setScope(params.get('id') ?? `${search}${location.hash}`);
  if (mode.mode === 'figure') showOnly(mode.figure);
  else document.body.classList.add('embed');
  // The author's options: the controls shown and the caption.
  const { controls, caption, problems } = authorOptions((name) => params.get(name));
  showControls(controls);
  showCaption(caption);
  const messages = problems.map(({ message }) => message);
  const host = window.parent !== window ? window.parent : null;
  if (!host) return { embedded: true, problems: messages, notify: () => {} };
  // (Also told to the host, by option name, as a refused nw:set's values are.)
  for (const { option, message } of problems) host.postMessage({ type: 'nw:error', setting: option, message }, '*');
  // (A host that is not ours may also send messages: only nw:set from the parent window is read.)
  const report = reportHeight(host);
  window.addEventListener('message', (event) => {
    if (event.source !== host || !event.data) return;
    if (event.data.type === 'nw:measure') report();
    if (event.data.type !== 'nw:set') return;
    // What is refused is also told to the host, by setting (null: the message itself was not settings).
    const text = settingsText(event.data.settings);
    const refused = text === null ? [{ setting: null, message: t('problem.nwSet') }] : app.applyText(text);
    if (text === null) app.showProblems([refused[0].message]);
    for (const { setting, message } of refused) host.postMessage({ type: 'nw:error', setting, message }, '*');
  });
  // One nw:change per change of the settings the reader makes (a hover and a click on the same row are
  // one change); told of every settings shown, the host's and the address's too.
  let shown = null;
  const notify = (settings, { byReader }) => {
    const text = textOf(settings);
    const changed = text !== shown;
    shown = text;
    if (byReader && changed) host.postMessage({ type: 'nw:change', settings: { ...settings } }, '*');
  };
  return { embedded: true, problems: messages, notify };
}

export { FIGURES, embedMode, startEmbed };
