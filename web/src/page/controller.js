// The page's controller: one path for every change, in one direction: a control, the URL, an embed's
// host or a file gives new settings -> apply() brings the Session in line (the module computes) ->
// render() has the figures draw -> the URL is written. Training, dragging w and files are its helpers
// (training.js, drag.js, heatmaps.js, files.js).
import { Controls } from './controls.js';
import { DesignSection } from './design.js';
import { bindHeroToggle } from './hero_toggle.js';
import { Files } from './files.js';
import { DragSettle } from './drag.js';
import { startHeatmapClient } from './heatmaps.js';
import { Training } from './training.js';
import { clearProblems, showProblems } from './messages.js';
import { showLanguageSwitch } from './language_switch.js';
import { ConsistencyFigure } from '../figures/consistency.js';
import { Figures } from '../figures/page_figures.js';
import { exercises, exerciseSettings } from '../model/exercises.js';
import { Session } from '../model/session.js';
import { dataKeys, defaults, designKeys, objectiveKeys, parse, serialize, sessionChange } from '../model/settings.js';
import { afterDesignEdit } from '../model/design.js';
import { ownData } from '../io/own_data.js';
import { startEmbed } from '../embed/frame.js';
import { t } from '../i18n/i18n.js';
import { problemText } from '../i18n/problem_text.js';
import { byId } from '../lib/dom.js';

// The query's position is written to the URL this long after it last moved (not on every pointer move).
const QUERY_URL_DELAY_MS = 300;

// The page's figures and their charts, which need neither the module nor the app: page.js creates them
// while the module compiles (Chart.js's first chart, cold, is the longest piece of the page's start).
// Until the app has started, the pointer's query and a drawing's problem go nowhere (hooks).
function createFigures() {
  const hooks = { onQuery: () => {}, onProblem: () => {} };
  const figures = new Figures({ onQuery: (x, heatmap) => hooks.onQuery(x, heatmap), onProblem: (message) => hooks.onProblem(message) });
  return { figures, hooks };
}

class App {
  // languageProblems: what was wrong with ?lang= or its dictionary (page.js chose the language first).
  constructor(nw, { languageProblems = [] } = {}) {
    this.nw = nw;
    this.languageProblems = languageProblems;
    this.session = new Session(nw);
    this.settings = null;
    this.queryUrlTimer = null;
    this.renderCount = 0; // full renders so far (a drag preview is not one)
    this.rendered = null; // the settings (and data) of the last full render
    this.training = new Training(this);
    this.dragSettle = new DragSettle(() => this.render());
    this.heatmapClient = null; // started after the first render (see start)
    this.files = new Files(this);
  }

  // (For the page's test surface, page/debug.js.)
  get player() { return this.training.player; }
  get converger() { return this.training.converger; }
  get epochRows() { return this.training.epochRows; }
  get pendingEpoch() { return this.training.pendingEpoch; }

  // madeFigures: createFigures()'s result if page.js made the charts while the module compiled.
  start(madeFigures = createFigures()) {
    this.embed = startEmbed(this);
    this.useFigures(madeFigures);
    this.figures.forgetHidden(); // (the embed has hidden the figures it does not show)
    this.controls = new Controls({
      onEdit: (name, value, options) => this.edit(name, value, options),
      onProblem: (message) => showProblems([message]),
    });
    this.consistency = new ConsistencyFigure({ nw: this.nw, seed: () => this.settings.seed });
    this.design = new DesignSection(this);
    this.design.bind();
    byId('pngChart').replaceChildren(...this.pngCharts.map(([value, label]) => new Option(label, value)));
    this.bindButtons();
    this.training.bind();
    this.files.bind();
    this.showExercises();
    window.addEventListener('popstate', () => this.loadFromUrl());
    this.loadFromUrl();
    showProblems(this.embed.problems);
    showProblems(this.languageProblems);
    byId('loading').hidden = true;
    // The first full render is drawn: `npm run bench` reads this user timing (time to the first chart).
    performance.mark('nw:first-render');
    this.heatmapClient = startHeatmapClient({ session: this.session, figures: this.figures, onProblem: (message) => showProblems([message]) });
    this.training.startPool(this.nw);
  }

  useFigures({ figures, hooks }) {
    this.figures = figures;
    hooks.onQuery = (x, heatmap) => this.pointAt(Math.round(x * 100) / 100, heatmap);
    hooks.onProblem = (message) => showProblems([message]);
  }

  // [file name, label, the chart, and for the design's a promise that it is drawn] for "Chart PNG".
  get pngCharts() { return [...this.figures.pngCharts, ...this.design.pngCharts]; }

  bindButtons() {
    bindHeroToggle();
    byId('regenerate').addEventListener('click', () => this.edit('seed', (this.settings.seed + 1) % Number.MAX_SAFE_INTEGER));
    // The skip link moves focus without touching the URL's hash, which holds the settings.
    byId('skipToFigures').addEventListener('click', (event) => {
      event.preventDefault();
      byId('figures').focus();
    });
    // The other language keeps every setting: its address is made when it is followed (the query's own
    // address is written a moment after it moves), and kept current for a copied or middle-clicked link.
    byId('languageSwitch').addEventListener('click', () => this.showLanguageSwitch());
  }

  showLanguageSwitch() {
    showLanguageSwitch(byId('languageSwitch'), this.settings ? `#${serialize(this.settings)}` : location.hash);
  }

  showExercises() {
    byId('exerciseList').replaceChildren(...exercises.map((exercise) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = t(exercise.title);
      button.addEventListener('click', () => this.runExercise(exercise));
      const text = document.createElement('p');
      text.textContent = t(exercise.explanation);
      item.append(button, text);
      return item;
    }));
  }

  runExercise(exercise) {
    this.stopConverging();
    this.player.pause();
    this.design.player.pause();
    clearProblems();
    this.apply(exerciseSettings(exercise), 'push');
    if (exercise.then === 'train') this.player.play(this.settings.epochs);
    if (exercise.then === 'converge') this.training.trainToConvergence();
  }

  // The page's address: every setting it does not name is the default.
  loadFromUrl() {
    this.applyText(location.hash, { over: defaults() });
  }

  // Settings as URL text (an embed's host's nw:set), checked like URL values, over the current ones.
  // Returns the values refused ([{ setting, message }]).
  applyText(text, { over = this.settings } = {}) {
    this.stopConverging();
    this.player.pause();
    this.design?.player.pause();
    const { state, problems, refused } = parse(text, over);
    clearProblems();
    showProblems(problems);
    this.apply(state, 'replace', { byReader: false });
    return refused;
  }

  // One setting changed by the reader. Live edits (slider drags, hovering a query) redraw without
  // adding a history entry; committed edits add one, so back and forward step through them.
  edit(name, value, { live = false, restoreKernel = false } = {}) {
    this.stopConverging();
    clearProblems();
    if (value === undefined) {
      this.controls.show(this.settings);
      return;
    }
    if (dataKeys.includes(name) || objectiveKeys.includes(name) || name === 'trained') this.player.pause();
    if (live && name === 'w') {
      // (The slider being dragged already shows w: only its label is written.)
      this.settings = { ...this.settings, w: value };
      this.controls.showW(value);
      this.figures.dragPreview.to(this.session, this.settings, value);
      this.dragSettle.moved();
      return;
    }
    const history = name === 'query' ? 'delayed' : live ? 'none' : 'push';
    this.apply(afterDesignEdit({ ...this.settings, [name]: value }, name), history, { restoreKernel });
  }

  // The pointer chose a query: on the predictions chart, or on a row of a heatmap, whose attention the
  // predictions chart then shows (the reader is looking at it).
  pointAt(query, heatmap) {
    const attend = this.session.attendPointedAt(this.settings, heatmap);
    if (attend === this.settings.attend) {
      this.edit('query', query, { live: true });
      return;
    }
    this.stopConverging();
    clearProblems();
    this.apply({ ...this.settings, query, attend }, 'push');
  }

  // Brings the session in line with `next` (new data or a new training run only when needed) and
  // redraws. On an error the previous settings and charts stay as they were.
  // Trained epochs to replay (a link's, or the same count on new data) run at once when they are few on
  // small data; else (see Training.replaysLater) after the render, in the background like "Train to
  // convergence" (the row pool, or slices), unless replayNow (an imported session, compared at once).
  apply(next, history, { byReader = true, replayNow = false, restoreKernel = false } = {}) {
    const previous = this.settings;
    // Only the design's settings changed, from what is set and from what is drawn (a w dragged live is
    // set before it is drawn): the chapter's session is left as it is (a run to convergence under way
    // goes on), and only the design follows.
    const sameChapter = (other) => other && Object.keys(next).every((key) => designKeys.includes(key) || next[key] === other[key]);
    if (this.session.data && sameChapter(previous) && sameChapter(this.rendered)) {
      this.settings = { ...next };
      if (this.rendered) this.rendered = { ...this.rendered, ...Object.fromEntries(designKeys.map((key) => [key, next[key]])) };
      this.controls.show(this.settings);
      this.design.show();
      this.writeUrl(history, { byReader });
      return;
    }
    const problems = [];
    let replayLater = null; // the epoch to replay to after the render
    next = { ...next };
    try {
      const change = sessionChange(previous, next, this.session.epoch);
      if (change === 'data') this.loadData(next, problems);
      else if (change === 'training') this.session.resetTraining(next);
      const fitted = this.session.fitToData(next, { restore: restoreKernel }); // (large data: the Gaussian kernel only)
      if (fitted.problem) problems.push(fitted.problem);
      next = fitted.settings;
      const { target, problem } = this.session.replayPlan(next.trained);
      if (!replayNow && this.training.replaysLater(target - this.session.epoch)) {
        replayLater = target;
      } else {
        this.session.replay(next.trained);
      }
      if (problem) problems.push(problem);
    } catch (error) {
      problems.push(problemText(error));
    }
    if (!this.session.data) {
      showProblems(problems);
      return;
    }
    // (While epochs are replayed, the settings and the URL keep the count they will reach.)
    this.settings = { ...next, trained: replayLater ?? this.session.epoch };
    // A w released where a paused drag's render already drew it is not drawn again.
    const drawn = this.rendered !== null && serialize(this.rendered) === serialize(this.settings) && this.rendered.session === this.session.data;
    if (!drawn) this.render();
    this.writeUrl(history, { byReader });
    showProblems(problems);
    if (replayLater !== null) this.converger.start(replayLater, { replay: true });
  }

  // Generated data, or the reader's own from local storage (falling back to generated without it).
  loadData(next, problems) {
    if (next.data === 'own') {
      const points = ownData.load();
      if (points) {
        this.session.useOwnData(points, next);
        return;
      }
      problems.push(t('problem.ownDataMissing'));
      next.data = 'generated';
    }
    this.session.generate(next);
  }

  // (For the embed's side, embed/frame.js: a host's bad message.)
  showProblems(problems) {
    showProblems(problems);
  }

  // A run under way ends with the epochs it reached, before new settings are read from this.settings.
  stopConverging() {
    this.converger.cancel('superseded');
  }

  render() {
    this.dragSettle.cancel();
    this.renderCount += 1;
    const { settings: s, session } = this;
    this.rendered = { ...s, session: session.data };
    this.figures.render(session, s);
    this.epochRows.prepare(session);
    this.controls.show(s);
    this.training.showButtons();
    this.design.show();
    for (const id of ['nTrain', 'noiseSd', 'seed', 'regenerate']) byId(id).disabled = s.data === 'own';
  }

  // In an embed every change replaces the embed's own history entry: a Back in the host leaves the lesson
  // instead of stepping through the reader's edits. A reader's change is also sent to the host (nw:change).
  writeUrl(history, { byReader = true } = {}) {
    clearTimeout(this.queryUrlTimer);
    if (history === 'none') return;
    this.embed.notify(this.settings, { byReader });
    if (this.embed.embedded && history === 'push') history = 'replace';
    const hash = `#${serialize(this.settings)}`;
    this.showLanguageSwitch();
    if (history === 'delayed') {
      this.queryUrlTimer = setTimeout(() => window.history.replaceState(null, '', hash), QUERY_URL_DELAY_MS);
    } else if (history === 'push' && hash !== location.hash) {
      window.history.pushState(null, '', hash);
    } else {
      window.history.replaceState(null, '', hash);
    }
  }
}

export { App, createFigures };
