// The page's controller: settings from the URL -> session (WebAssembly) -> figures.js, and back to the URL;
// edits, training, your data and session files.
import { Controls } from './controls.js';
import { ConsistencyFigure } from '../figures/consistency.js';
import { Converger } from '../compute/converger.js';
import { parseCsv } from '../io/csv.js';
import { HeatmapClient } from '../compute/heatmap_client.js';
import { EpochRows, poolStopped } from '../compute/epoch_rows.js';
import { exercises } from '../model/exercises.js';
import { dataCsv, downloadText, downloadUrl, downloadsMayBeBlocked, parseSession, predictionsCsv, sessionJson } from '../io/exports.js';
import { Figures } from '../figures/page_figures.js';
import { ownData } from '../io/own_data.js';
import { Player } from '../compute/player.js';
import { createRowPool } from '../compute/row_pool.js';
import { createSlicedRows } from '../compute/sliced_rows.js';
import { Session } from '../model/session.js';
import { startEmbed } from '../embed/frame.js';
import { t } from '../i18n/i18n.js';
import { showLanguageSwitch } from './language_switch.js';
import { dataKeys, objectiveKeys, parse, serialize } from '../model/settings.js';

const byId = (id) => document.getElementById(id);
const QUERY_URL_DELAY_MS = 300;
// While w is dragged with no worker, the page's thread computes the heatmap at most this many cells a side.
const PAGE_THREAD_DRAG_CELLS = 100;
// "Train to convergence" shows its progress bar (and Cancel) once it has run this long.
const CONVERGE_PROGRESS_AFTER_MS = 200;
// Up to this many trained epochs are replayed at once (within the render's task) on small data.
const REPLAY_HERE_MAX_EPOCHS = 10;
// After the last live change of w, the full redraw (kernel panels, tables, landscape) waits this long.
const DRAG_SETTLE_MS = 150;

// The page's figures and their charts, which need neither the module nor the app: page.js creates them
// while the module compiles (Chart.js's first chart, cold, is the longest piece of the page's start).
// Until the app has started, the pointer's query and a drawing's problem go nowhere (hooks).
function createFigures() {
  const hooks = { onQuery: () => {}, onProblem: () => {} };
  const figures = new Figures({ onQuery: (x) => hooks.onQuery(x), onProblem: (message) => hooks.onProblem(message) });
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
    this.renderGeneration = 0; // counts full renders: a drag preview asked for before one is dropped
    this.heatmapClient = null;
    this.framePreview = null; // a page-thread drag preview waiting for the next frame (previewInNextFrame)
    this.epochRows = new EpochRows(); // training epochs' rows from the row pool (see start)
    this.pendingEpoch = null; // a Step or Train epoch whose rows the pool is computing
  }

  // madeFigures: createFigures()'s result if page.js made the charts while the module compiled.
  start(madeFigures = createFigures()) {
    this.embed = startEmbed(this);
    this.useFigures(madeFigures);
    this.controls = new Controls({
      onEdit: (name, value, options) => this.edit(name, value, options),
      onProblem: (message) => this.showProblems([message]),
    });
    this.player = new Player({
      step: () => this.trainOneEpoch(),
      onChange: (playing) => this.showPlaying(playing),
    });
    this.converger = new Converger({
      session: this.session,
      epochRows: this.epochRows,
      onProgress: (progress) => this.showConvergeProgress(progress),
      onDone: (result) => this.convergeDone(result),
    });
    this.consistency = new ConsistencyFigure({ nw: this.nw, seed: () => this.settings.seed });
    this.bindButtons();
    this.showExercises();
    window.addEventListener('popstate', () => this.loadFromUrl());
    this.loadFromUrl();
    if (this.embed.problem) this.showProblems([this.embed.problem]);
    this.showProblems(this.languageProblems);
    byId('loading').hidden = true;
    // The first full render is drawn: `npm run bench` reads this user timing (time to the first chart).
    performance.mark('nw:first-render');
    // Started after the first render, so that its worker's module loads while the reader looks.
    // It also computes the large heatmaps of later renders (requests with a slot: see Figures.drawHeatmap).
    this.heatmapClient = new HeatmapClient({
      computeHere: (request) => (request.compute ? request.compute(request.maxCells) : this.session.blocks(request.w, { maxCells: request.maxCells, withPredictions: true })),
      onResult: (request, blocks) => (request.slot ? this.figures.showOffloaded(request, blocks) : this.showDragPreview(request, blocks)),
      onError: (request, message) => (request.slot ? this.figures.offloadFailed(request, message) : this.showProblems([message])),
    });
    // Workers that compute large training epochs' rows (over http; none from file://), started only
    // once the data are large enough to need them.
    this.epochRows.createPool = () => createRowPool(this.nw);
    this.epochRows.createSliced = () => createSlicedRows(this.nw);
    this.epochRows.prepare(this.session);
    const available = () => this.heatmapClient.where === 'worker';
    this.figures.offload = {
      available,
      request: (request) => {
        if (!available()) return false;
        this.heatmapClient.request(request);
        return true;
      },
    };
  }

  useFigures({ figures, hooks }) {
    this.figures = figures;
    hooks.onQuery = (x) => this.edit('query', Math.round(x * 100) / 100, { live: true });
    hooks.onProblem = (message) => this.showProblems([message]);
    byId('pngChart').replaceChildren(...this.figures.pngCharts.map(([value, label]) => new Option(label, value)));
  }

  bindButtons() {
    const on = (id, handler) => byId(id).addEventListener('click', handler);
    on('regenerate', () => this.edit('seed', (this.settings.seed + 1) % Number.MAX_SAFE_INTEGER));
    // The skip link moves focus without touching the URL's hash, which holds the settings.
    on('skipToFigures', (event) => {
      event.preventDefault();
      byId('figures').focus();
    });
    on('train', () => this.player.play(this.settings.epochs));
    on('step', () => { this.player.pause(); this.trainOneEpoch(); });
    on('pause', () => this.player.pause());
    on('reset', () => { this.player.pause(); this.edit('trained', 0); });
    on('converge', () => { this.player.pause(); this.trainToConvergence(); });
    on('cancelConverge', () => this.converger.cancel());
    on('useCsv', () => this.useCsv());
    on('clearData', () => {
      ownData.clear();
      byId('csvText').value = '';
      this.edit('data', 'generated');
    });
    byId('csvFile').addEventListener('change', () => this.readFile(byId('csvFile'), (text) => {
      byId('csvText').value = text;
      this.useCsv();
    }));
    on('exportData', () => this.exportText('nadaraya-watson-data.csv', 'text/csv', dataCsv(this.session.data)));
    on('exportPredictions', () => this.exportText('nadaraya-watson-predictions.csv', 'text/csv',
      predictionsCsv(this.session.data, this.session.predictions(this.settings.w))));
    on('exportSession', () => this.exportText('nadaraya-watson-session.json', 'application/json',
      sessionJson(this.settings, this.session, ownData.load())));
    on('exportPng', () => {
      const [name, , chartOf] = this.figures.pngCharts.find(([value]) => value === byId('pngChart').value);
      this.figures.renderLazy(this.session, this.settings, { all: true }); // a figure not yet scrolled to
      this.exportImage(`nadaraya-watson-${name}.png`, chartOf().toBase64Image('image/png', 1));
    });
    byId('importSession').addEventListener('change', () => this.readFile(byId('importSession'), (text) => this.importSession(text)));
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
    this.clearProblems();
    this.apply({ ...this.settings, ...exercise.settings }, 'push');
    if (exercise.then === 'train') this.player.play(this.settings.epochs);
    if (exercise.then === 'converge') this.trainToConvergence();
  }

  loadFromUrl() {
    this.stopConverging();
    this.player.pause();
    const { state, problems } = parse(location.hash);
    this.clearProblems();
    this.showProblems(problems);
    this.apply(state, 'replace', { byReader: false });
  }

  // Settings from an embed's host (nw:set), as URL text: checked like URL values, over the current ones.
  applyText(text) {
    this.stopConverging();
    this.player.pause();
    const { state, problems } = parse(text, this.settings);
    this.clearProblems();
    this.showProblems(problems);
    this.apply(state, 'replace', { byReader: false });
  }

  // One setting changed by the reader. Live edits (slider drags, hovering a query) redraw without
  // adding a history entry; committed edits add one, so back and forward step through them.
  edit(name, value, { live = false } = {}) {
    this.stopConverging();
    this.clearProblems();
    if (value === undefined) {
      this.controls.show(this.settings);
      return;
    }
    if (dataKeys.includes(name) || objectiveKeys.includes(name) || name === 'trained') this.player.pause();
    if (live && name === 'w') {
      this.dragW(value);
      return;
    }
    const history = name === 'query' ? 'delayed' : live ? 'none' : 'push';
    this.apply({ ...this.settings, [name]: value }, history);
  }

  // While "Distance scale w" is dragged, redraw only what w changes at once (the nonparametric line and
  // heatmap, computed by the drag preview) so each update fits in a frame; the rest follows when the
  // drag pauses.
  dragW(w) {
    this.settings = { ...this.settings, w };
    this.controls.show(this.settings);
    const { data, kernel } = this.session;
    // A worker computes the heatmap at full resolution; the page's own thread, which also draws, at most
    // PAGE_THREAD_DRAG_CELLS a side (the full one follows when the drag pauses).
    const capacity = this.figures.heatmaps.nonparametric.capacity();
    const onPage = this.heatmapClient.where !== 'worker';
    const cap = (count) => (onPage ? Math.min(count, PAGE_THREAD_DRAG_CELLS) : count);
    const request = {
      w, kernel, maxCells: { rows: cap(capacity.rows), cols: cap(capacity.cols) }, xTest: data.xTest, xTrain: data.xTrain, yTrain: data.yTrain,
      generation: this.renderGeneration, started: performance.now(),
    };
    if (onPage) this.previewInNextFrame(request);
    else this.heatmapClient.request(request);
    clearTimeout(this.dragTimer);
    this.dragTimer = setTimeout(() => this.render(), DRAG_SETTLE_MS);
  }

  // The page's thread computes a preview in the next animation frame, the newest one asked for: an arrow
  // key on w fires input and change in one task, and the change's full render then makes the preview
  // moot (computed at once, both made one task of 50 to 70 ms at 2000 samples); several inputs within a
  // frame are computed once. Its "nw:drag-update" starts when it is computed.
  previewInNextFrame(request) {
    const waiting = this.framePreview;
    this.framePreview = request;
    if (waiting) return;
    requestAnimationFrame(() => {
      const newest = this.framePreview;
      this.framePreview = null;
      if (newest.generation === this.renderGeneration) this.heatmapClient.request({ ...newest, started: performance.now() });
    });
  }

  // Draws one drag preview, unless a full render has happened since it was asked for. The user timings
  // "nw:drag-update" (from the input to the drawn preview; on the page's thread, from the frame that
  // computes it: see previewInNextFrame) and "nw:drag-draw" (the drawing alone) show in the browser's
  // performance tools and are what `npm run bench` reports.
  showDragPreview(request, blocks) {
    if (request.generation !== this.renderGeneration) return;
    const drawStart = performance.now();
    const { maxCells } = request;
    const capacity = this.figures.heatmaps.nonparametric.capacity();
    const full = maxCells.rows === capacity.rows && maxCells.cols === capacity.cols;
    this.figures.showDragPreview(this.session, this.settings, request.w, blocks, { full });
    // (The render after the drag then draws this w's line without computing it again.)
    if (request.xTrain === this.session.data.xTrain) this.session.rememberBlockPredictions(request.w, request.kernel, blocks);
    performance.measure('nw:drag-draw', { start: drawStart });
    performance.measure('nw:drag-update', { start: request.started });
  }

  // Brings the session in line with `next` (new data or a new training run only when needed) and
  // redraws. On an error the previous settings and charts stay as they were.
  // Trained epochs to replay (a link's, or the same count on new data) run at once when they are few on
  // small data; else (see replaysLater) after the render, in the background like "Train to convergence"
  // (the row pool, or slices), unless replayNow (an imported session, compared at once).
  apply(next, history, { byReader = true, replayNow = false } = {}) {
    const previous = this.settings;
    const problems = [];
    let replayLater = null; // the epoch to replay to after the render
    next = { ...next };
    try {
      if (!previous || dataKeys.some((key) => next[key] !== previous[key])) {
        this.loadData(next, problems);
      } else if (objectiveKeys.some((key) => next[key] !== previous[key]) || next.trained < this.session.epoch) {
        this.session.resetTraining(next);
      }
      const { target, problem } = this.session.replayPlan(next.trained);
      if (!replayNow && this.replaysLater(target - this.session.epoch)) {
        replayLater = target;
      } else {
        this.session.replay(next.trained);
      }
      if (problem) problems.push(problem);
    } catch (error) {
      problems.push(error.message);
    }
    if (!this.session.data) {
      this.showProblems(problems);
      return;
    }
    // (While epochs are replayed, the settings and the URL keep the count they will reach.)
    this.settings = { ...next, trained: replayLater ?? this.session.epoch };
    this.render();
    this.writeUrl(history, { byReader });
    this.showProblems(problems);
    if (replayLater !== null) this.converger.start(replayLater, { replay: true });
  }

  // Whether replaying this many epochs is left to the Converger: for data the row pool takes, or
  // epochs enough to take the page's thread longer than a frame or two (each, with its test MSE line,
  // costs about a millisecond even at 50 samples).
  replaysLater(epochs) {
    return epochs > 0 && (this.epochRows.wanted(this.session) || epochs > REPLAY_HERE_MAX_EPOCHS);
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

  // One epoch for the player or the Step button; false stops the player, null means the last epoch is
  // still on its way (the player skips a tick). A large epoch's rows come from the row pool and are
  // summed here when they arrive (rows for a trainer or w that has changed meanwhile are dropped).
  trainOneEpoch() {
    if (this.pendingEpoch) return null;
    const pending = this.session.epoch < this.session.maxEpochs ? this.epochRows.request(this.session) : null;
    if (!pending) return this.showEpoch(this.session.tryStep());
    this.pendingEpoch = pending;
    pending.then(({ request, rows }) => {
      if (this.pendingEpoch !== pending) return;
      this.pendingEpoch = null;
      if (this.session.fits(request) && !this.showEpoch(this.session.tryStep(rows))) this.player.pause();
    }, (error) => {
      if (this.pendingEpoch !== pending) return;
      this.pendingEpoch = null;
      if (poolStopped(error)) {
        if (!this.showEpoch(this.session.tryStep())) this.player.pause(); // the pool is gone: here
      } else {
        this.showProblems([error.message]);
        this.player.pause();
      }
    });
    return true;
  }

  // The page after an epoch (or the problem that kept it from running); whether it ran.
  showEpoch({ stepped, problem }) {
    if (problem) this.showProblems([problem]);
    if (!stepped) return false;
    this.settings = { ...this.settings, trained: this.session.epoch };
    this.render();
    this.writeUrl('replace');
    return true;
  }

  // A download, or where downloads may be blocked (a sandboxed frame), the text to copy instead.
  exportText(filename, type, text) {
    if (!downloadsMayBeBlocked()) {
      downloadText(filename, type, text);
      return;
    }
    this.showExportFallback(t('export.fallbackText', { filename }));
    byId('exportFallbackText').hidden = false;
    byId('exportFallbackText').value = text;
    byId('exportFallbackImage').hidden = true;
  }

  exportImage(filename, dataUrl) {
    if (!downloadsMayBeBlocked()) {
      downloadUrl(filename, dataUrl);
      return;
    }
    this.showExportFallback(t('export.fallbackImage', { filename }));
    byId('exportFallbackText').hidden = true;
    byId('exportFallbackImage').hidden = false;
    byId('exportFallbackImage').src = dataUrl;
  }

  showExportFallback(note) {
    byId('exportFallback').hidden = false;
    byId('exportFallbackNote').textContent = note;
  }

  // Train is disabled while playing: the keyboard focus moves to Pause and back, rather than falling
  // to the page's body where a keyboard user would have to start again from the top.
  showPlaying(playing) {
    const train = byId('train');
    const pause = byId('pause');
    train.disabled = playing || !this.session.canTrain;
    const focus = document.activeElement;
    if (playing && focus === train) pause.focus();
    if (!playing && (focus === pause || focus === document.body || focus === null) && !train.disabled) train.focus();
  }

  // Steps until w stops moving (or the epoch limit) in slices that leave the page responsive, then draws
  // once. Past about 200 ms a progress bar with Cancel shows; while it runs, the training buttons wait.
  trainToConvergence() {
    if (!this.session.canTrain) return;
    this.converger.start(this.session.maxEpochs);
  }

  // A run under way ends with the epochs it reached, before new settings are read from this.settings.
  stopConverging() {
    this.converger.cancel('superseded');
  }

  showConvergeProgress({ epoch, maxEpochs, elapsed }) {
    if (elapsed < CONVERGE_PROGRESS_AFTER_MS && byId('convergeProgress').hidden) return;
    const wasHidden = byId('convergeProgress').hidden;
    byId('convergeProgress').hidden = false;
    byId('convergeBar').max = maxEpochs;
    byId('convergeBar').value = epoch;
    const values = { epoch, maxEpochs, w: this.session.learnedW.toFixed(4) };
    byId('convergeText').textContent = this.converger.replaying ? t('training.replayProgress', values) : t('training.convergeProgress', values);
    this.showTrainingButtons();
    // The button pressed is disabled now: the keyboard focus goes to Cancel, not to the page's top.
    // (Not for a replay, which the reader did not start from here: a link's would scroll the page.)
    const pressed = document.activeElement === byId('converge') || document.activeElement === document.body;
    if (wasHidden && pressed && !this.converger.replaying) byId('cancelConverge').focus();
  }

  // A replay (see apply) says nothing unless it failed; superseded by new settings, it leaves them the
  // trained count to replay.
  convergeDone({ outcome, epochs, problem, replay }) {
    const hadFocus = byId('convergeProgress').contains(document.activeElement);
    byId('convergeProgress').hidden = true;
    if (problem) this.showProblems([problem]);
    if (replay && outcome === 'superseded') return;
    if (!replay && outcome === 'limit') this.showProblems([t('training.convergeLimit', { epochs: this.session.epoch })]);
    if (!replay && (outcome === 'cancelled' || outcome === 'superseded')) this.showProblems([t.plural('training.convergeCancelled', epochs)]);
    if (!this.settings) return;
    this.settings = { ...this.settings, trained: this.session.epoch };
    this.render();
    this.writeUrl(epochs > 0 && !replay ? 'push' : 'replace');
    if (hadFocus && !byId('converge').disabled) byId('converge').focus();
  }

  useCsv() {
    this.stopConverging();
    try {
      const points = parseCsv(byId('csvText').value);
      ownData.save(points);
      this.player.pause();
      this.clearProblems();
      // Always reload: the stored data may have changed even if the setting has not.
      this.settings = { ...this.settings, data: 'generated' };
      this.apply({ ...this.settings, data: 'own', trained: 0, query: points.x[0] }, 'push');
    } catch (error) {
      this.showProblems([error.message]);
    }
  }

  readFile(input, onText) {
    const file = input.files && input.files[0];
    if (!file) return;
    if (file.size > 1_000_000) {
      this.showProblems([t('problem.fileTooLarge', { name: file.name.slice(0, 60) })]);
      input.value = '';
      return;
    }
    file.text().then(onText, (error) => this.showProblems([t('problem.fileUnreadable', { message: error.message })]));
    input.value = '';
  }

  importSession(text) {
    this.stopConverging();
    let session;
    try {
      session = parseSession(text);
    } catch (error) {
      this.showProblems([error.message]);
      return;
    }
    this.player.pause();
    const { state, problems } = parse(session.settings);
    if (session.ownData) ownData.save(session.ownData);
    this.clearProblems();
    this.showProblems(problems);
    this.settings = { ...this.settings, data: state.data === 'own' ? 'generated' : 'own' }; // forces a reload
    this.apply(state, 'push', { replayNow: true });
    const same = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
    if (!same(this.session.ws, session.training.ws) || !same(this.session.losses, session.training.losses)) {
      this.showProblems([t('problem.replayDiffers')]);
    }
  }

  render() {
    clearTimeout(this.dragTimer);
    this.renderGeneration += 1;
    const { settings: s, session } = this;
    this.figures.render(session, s);
    this.epochRows.prepare(session);
    this.controls.show(s);
    this.showTrainingButtons();
    for (const id of ['nTrain', 'noiseSd', 'seed', 'regenerate']) byId(id).disabled = s.data === 'own';
  }

  showTrainingButtons() {
    const { session } = this;
    const converging = this.converger.running;
    for (const id of ['train', 'step', 'reset', 'converge']) byId(id).disabled = !session.canTrain || converging || (id === 'train' && this.player.isPlaying);
  }

  // In an embed every change replaces the embed's own history entry: a Back in the host leaves the lesson
  // instead of stepping through the reader's edits. A reader's change is also sent to the host (nw:change).
  writeUrl(history, { byReader = true } = {}) {
    clearTimeout(this.queryUrlTimer);
    if (history === 'none') return;
    if (byReader) this.embed.notify(this.settings);
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

  showProblems(problems) {
    if (problems.length === 0) return;
    const box = byId('message');
    box.textContent = [box.hidden ? '' : box.textContent, ...problems].filter(Boolean).join('\n');
    box.hidden = false;
  }

  clearProblems() {
    byId('message').textContent = '';
    byId('message').hidden = true;
  }
}

export { App, createFigures };
