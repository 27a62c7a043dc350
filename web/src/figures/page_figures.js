// Everything the page shows of a session: the predictions chart, the heatmaps, the training charts,
// the kernel panels, the loss landscape, the tables and the notes. The page's controller (page/controller.js)
// decides when; this file decides what is drawn and skips what has not changed.
import { estimator } from '../charts/colors.js';
import { HeatmapChart } from '../charts/heatmap_chart.js';
import { FOUR_KERNELS, KernelPanel } from '../charts/kernel_panel.js';
import { LandscapeChart } from '../charts/landscape_chart.js';
import { PredictionsChart } from '../charts/predictions_chart.js';
import { TrainingChart } from '../charts/training_chart.js';
import { t } from '../i18n/i18n.js';
import { LANDSCAPE_MAX_TRAIN, landscapeCurve, landscapeNote, runReach, runSteps } from '../model/landscape.js';
import { lazy } from '../charts/lazy.js';
import { ownData } from '../io/own_data.js';
import { boundaryNote, describeTraining, formatW, labelLines, lineLabel, stageText, untrainableText, weightsEstimatorNote, weightsShape } from './texts.js';

const byId = (id) => document.getElementById(id);
// Whether an element takes part in the layout (one-figure embeds hide the others: they are not drawn).
const shown = (id) => byId(id).getClientRects().length > 0;
// Writes text only when it differs: rewriting a live region with the same text makes screen readers repeat it.
const setText = (element, text) => { if (element.textContent !== text) element.textContent = text; };

// The figures drawn only near the view, in the order a render draws them. Each kernel panel is a part of
// its own (kernel0 to kernel3): with many samples each is a pass over every weight.
const LAZY_PARTS = ['nonparametric', 'parametric', 'loss', 'w', ...FOUR_KERNELS.map((_, i) => `kernel${i}`), 'landscape'];
// The figure (IntersectionObserver target) a lazy part belongs to.
const partView = (part) => (part.startsWith('kernel') ? 'kernels' : part);
// A render draws its lazy parts in tasks of about this long (a part started is finished), so that with
// many samples no task keeps the browser from painting or taking input for long.
const SLICE_MS = 25;
// A heatmap of at least this many weights is computed by the worker where there is one (see offload):
// each pass over them takes the page's thread tens of milliseconds.
const OFFLOAD_MIN_WEIGHTS = 250_000;

// The worker's slot for a line asked alone (see requestLine), and the heatmap part a slot is for.
const LINE_SLOT = 'Line';
const lineSlot = (part) => `${part}${LINE_SLOT}`;
const partOf = (slot) => (slot.endsWith(LINE_SLOT) ? slot.slice(0, -LINE_SLOT.length) : slot);

const formatNumber = (x, digits) => (x === null || x === undefined ? '–' : x.toFixed(digits));


function tableRow(cells) {
  const row = document.createElement('tr');
  for (const text of cells) {
    const cell = document.createElement('td');
    cell.textContent = text;
    row.append(cell);
  }
  return row;
}

class Figures {
  // onQuery(x): the pointer chose a query on the predictions chart or a row of a heatmap; onProblem(message):
  // a drawing failed.
  constructor({ onQuery, onProblem }) {
    this.onProblem = onProblem;
    this.drawnWith = {}; // what each heatmap (and the landscape's curve) was last drawn with (see changed)
    this.charted = new Set(); // the lazy parts drawn at least once (their charts created)
    this.partCost = new Map(); // part -> { ms, weights } of its last draw, if computed here (see expectedMs)
    this.landscapeCurve = null;
    this.lastPredictions = null;
    this.lineOwed = null; // { session, s, parts } of a render whose lines the worker's replies bring (see render)
    // Set by the page once it has tried to start its worker: offload.available() says whether a worker
    // computes heatmaps now (none from file:// in Chromium, or after it failed); offload.request(request)
    // has a heatmap's blocks computed off the page's thread and returns true (the reply comes to
    // showOffloaded), or returns false where it cannot.
    this.offload = null;
    this.offloaded = new Set(); // the parts waiting for the worker's blocks
    this.sliceTimer = null; // the next slice of lazy parts to draw, if any (see drawSlice)
    byId('predictionsTableBox').addEventListener('toggle', () => this.showPredictionsTable());
    // Every figure but the predictions chart (always in view, at the top) is computed and drawn once it
    // comes near the view: the first chart does not wait for off-screen ones, and a one-figure embed
    // never draws the figures it hides.
    this.lastRender = null; // { session, s } of the last render, for a figure that comes into view later
    this.generation = 0; // counts renders: a training chart is drawn once per render while near the view
    this.nearView = new Set();
    // Until the browser's first report of where the figures are, none is known to be near the view: the
    // page is not idle yet (a render before that report draws no lazy figure; the report then does).
    this.nearViewKnown = false;
    const lazyFigures = {
      nonparametric: byId('nonparametricHeatmap'), parametric: byId('parametricHeatmap'), loss: byId('lossChart'),
      w: byId('wChart'), kernels: byId('kernelPanels'), landscape: byId('landscapeChart'),
    };
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const part = entry.target.dataset.lazyPart;
        if (entry.isIntersecting) this.nearView.add(part);
        else this.nearView.delete(part);
      }
      this.nearViewKnown = true;
      if (this.lastRender) this.renderLazy(this.lastRender.session, this.lastRender.s);
    }, { rootMargin: '300px 0px' });
    for (const [part, element] of Object.entries(lazyFigures)) {
      const figure = element.closest('figure');
      figure.dataset.lazyPart = part;
      observer.observe(figure);
    }
    this.predictionsChart = new PredictionsChart(byId('predictionsChart'), { xMin: 0, xMax: 5, onQuery });
    // Every chart but the predictions chart is created when first drawn (see lazy.js): the first paint does
    // not wait for the charts of figures the reader has not scrolled to.
    this.heatmaps = {};
    lazy(this.heatmaps, 'nonparametric', () => new HeatmapChart(byId('nonparametricHeatmap'), { legendCanvas: byId('nonparametricLegend'), note: byId('nonparametricNote'), onQuery }));
    lazy(this.heatmaps, 'parametric', () => new HeatmapChart(byId('parametricHeatmap'), { legendCanvas: byId('parametricLegend'), note: byId('parametricNote'), onQuery }));
    lazy(this, 'lossChart', () => new TrainingChart(byId('lossChart'), {
      series: [{ label: t('chart.trainingLoss'), color: estimator.parametric, yTitle: t('chart.loss') }, { label: t('chart.testMse'), color: estimator.query, yTitle: t('chart.testMse') }],
    }));
    lazy(this, 'wChart', () => new TrainingChart(byId('wChart'), { series: [{ label: 'w', color: estimator.parametric, yTitle: 'w' }] }));
    lazy(this, 'landscapeChart', () => new LandscapeChart(byId('landscapeChart')));
    this.kernelPanels = FOUR_KERNELS.map(([kernel, title]) => new KernelPanel(byId('kernelPanels'), { kernel, title: t(title) }));
    // [file name, label, the Chart.js chart (a function: created when asked)] of each chart offered as PNG.
    this.pngCharts = [
      ['predictions', t('png.predictions'), () => this.predictionsChart.chart],
      ['nonparametric-weights', t('png.nonparametricWeights'), () => this.heatmaps.nonparametric.chart],
      ['parametric-weights', t('png.parametricWeights'), () => this.heatmaps.parametric.chart],
      ['training-loss', t('lossChart.title'), () => this.lossChart.chart],
      ['learned-w', t('wChart.title'), () => this.wChart.chart],
      ['loss-landscape', t('png.landscape'), () => this.landscapeChart.chart],
    ];
  }

  // Draws the session under `settings` (s): whatever fails is reported and drawn again next time.
  render(session, s) {
    const started = performance.now();
    try {
      // The heatmaps first if the worker computes them (near the view): their passes also give the
      // lines' predictions. Computed here, they wait for their slices, after the predictions chart: one
      // task drawing both took up to 80 ms at 2000 samples.
      this.generation += 1;
      this.lastRender = { session, s };
      this.lineOwed = null;
      if (this.offloads(session)) {
        this.drawPart('nonparametric', session, s);
        this.drawPart('parametric', session, s);
      }
      // When the worker computes those passes (large heatmaps), their lines come with them: the
      // predictions chart, the errors and the notes wait for them (showOffloaded) rather than compute
      // them here too. A line whose heatmap is not drawn now (far from the view) is asked of the
      // worker alone (requestLine).
      const owed = new Set(Object.entries({ nonparametric: s.w, parametric: session.trainer ? session.learnedW : null })
        .filter(([part, w]) => w !== null && session.estimator === 'nadarayaWatson' && !session.hasLine(part, w)
          && (this.offloaded.has(part) || this.requestLine(part, session, w)))
        .map(([part]) => part));
      this.lineOwed = owed.size ? { session, s, parts: owed } : null;
      if (!owed.size) this.showPredictions(session, s);
      byId('nonparametricTitleW').textContent = `(w = ${formatW(s.w)})`;
      byId('parametricTitleW').textContent = !session.canTrain ? t('weights.cannotTrain')
        : session.epoch === 0 ? t('weights.untrained', { w: formatW(session.learnedW) }) : `(w = ${formatW(session.learnedW)})`;
      byId('kernelNote').textContent = s.kernel === 'constant' ? t('kernel.constantNote') : '';
      setText(byId('weightsEstimatorNote'), weightsEstimatorNote(session));
      byId('kernelsTitleW').textContent = `(w = ${formatW(s.w)})`;
    } catch (error) {
      this.drawnWith = {};
      this.offloaded.clear(); // (their replies are for what failed: all is drawn again next time)
      this.lineOwed = null;
      this.onProblem(error.message);
    }
    // The other figures near the view: what fits in this task, the rest in the next ones.
    this.drawSlice(started, { mayWait: true });
    this.showStatus(session, s);
    this.showDataNote(session, s);
  }

  // What depends on the lines' predictions: the predictions chart, the errors, the table, the charts'
  // descriptions and the boundary note.
  showPredictions(session, s) {
    const { data } = session;
    const predictions = session.predictions(s.w);
    const attendW = session.attentionFollowsW(s) ? s.w : session.learnedW;
    const { xMin, xMax } = session.xRange;
    const query = Math.min(xMax, Math.max(xMin, s.query));
    this.predictionsChart.setRange(xMin, xMax);
    this.predictionsChart.setData(data, predictions);
    labelLines(this.predictionsChart, session);
    this.predictionsChart.setQuery(query, session.queryWeights(query, attendW));
    if (shown('predictionsChart')) this.predictionsChart.draw();
    byId('query').min = String(xMin);
    byId('query').max = String(xMax);
    const errors = session.testErrors(predictions);
    this.showErrors(session, s, errors);
    this.lastPredictions = { data, predictions };
    this.showPredictionsTable();
    this.describeCharts(session, s, errors, query);
    setText(byId('estimatorNote'), boundaryNote(session, s.w));
    this.showEpochs(session); // (its test MSEs are the parametric line's)
  }

  // A heatmap part's pass is done (its reply came, or it ran here, or it failed): when it was the last
  // line the last render waited for, what depends on the lines is shown now (a line that did not come is
  // computed here).
  lineArrived(part) {
    if (!this.lineOwed || !this.lineOwed.parts.has(part)) return;
    this.lineOwed.parts.delete(part);
    if (this.lineOwed.parts.size) return;
    const { session, s } = this.lineOwed;
    this.lineOwed = null;
    try {
      this.showPredictions(session, s);
    } catch (error) {
      this.onProblem(error.message);
    }
    // The parts that waited for the lines (the loss chart's test MSE), in a task of their own.
    if (this.sliceTimer === null) this.sliceTimer = setTimeout(() => this.drawSlice(performance.now()), 0);
  }

  // While w is dragged: the nonparametric line and heatmap (blocks from nw.attentionBlocks with
  // predictions, at the heatmap's full resolution) for w, and the query's attention if it follows that w.
  // full: the blocks are at the heatmap's full resolution (what the render after the drag would compute).
  showDragPreview(session, s, w, blocks, { full }) {
    const { data } = session;
    // The render before the drag drew at the old w: its slices still to come, and a figure scrolled to
    // now, draw at the dragged one (the heatmap's own reply, if owed, is superseded by this preview).
    clearTimeout(this.sliceTimer);
    this.sliceTimer = null;
    this.lastRender = { session, s };
    this.offloaded.delete('nonparametric');
    this.lineOwed = null; // (the preview draws the line; the render after the drag, the rest)
    try {
      // The blocks' predictions are Nadaraya-Watson's: a local-linear line is the module's predict.
      this.predictionsChart.setNonparametric(data.xTest, session.estimator === 'nadarayaWatson' ? blocks.predictions : session.line('nonparametric', w));
      if (session.attentionFollowsW(s)) {
        const query = this.predictionsChart.query;
        this.predictionsChart.setQuery(query, session.queryWeights(query, w));
      }
      this.predictionsChart.draw();
      // Full-resolution blocks are the render's own (same module, same size): the render after the drag
      // need not compute them again.
      this.drawnWith.nonparametric = null;
      if (this.nearView.has('nonparametric')) {
        this.heatmaps.nonparametric.setBlocks(blocks, data.xTest, data.xTrain);
        this.heatmaps.nonparametric.draw();
        if (full) this.drawnWith.nonparametric = [data, w, session.kernel];
      }
      byId('nonparametricTitleW').textContent = `(w = ${formatW(w)})`;
    } catch (error) {
      this.onProblem(error.message);
    }
  }

  // The figures drawn only near the view: all of them at once before a PNG export (all), else in slices
  // (see drawSlice). The heatmaps and kernel panels are most of a render's time: each is redrawn only
  // when what it shows changed (not, say, when the query moves or an epoch leaves w where it was).
  renderLazy(session, s, { all = false } = {}) {
    if (!all) {
      this.drawSlice(performance.now());
      return;
    }
    clearTimeout(this.sliceTimer);
    this.sliceTimer = null;
    // (A heatmap the worker has not answered for yet is computed here: an export cannot wait.)
    for (const part of this.offloaded) this.drawnWith[part] = null;
    for (const part of LAZY_PARTS) this.drawPart(part, session, s, { all });
  }

  // Draws the lazy parts due for the last render (near the view and changed) while they fit in SLICE_MS
  // after `start`, and the rest in later tasks: with many samples, where one part takes tens of
  // milliseconds, the browser paints and takes the reader's input between them. A part fits when its
  // expected time (expectedMs) would not take the task past SLICE_MS. The first part due always runs,
  // unless the task has done other work already (mayWait: a render's own task, which at 2000 samples from
  // file:// took 20 ms before its first heatmap's 28). A part's first draw creates its chart (40-60 ms in
  // a fresh page on this 2-core machine): it starts a task of its own.
  drawSlice(start, { mayWait = false } = {}) {
    clearTimeout(this.sliceTimer);
    this.sliceTimer = null;
    if (!this.lastRender) return;
    const { session, s } = this.lastRender;
    let drew = mayWait;
    for (const part of LAZY_PARTS) {
      const fits = performance.now() - start + this.expectedMs(part, session) <= SLICE_MS;
      if (drew && (!fits || !this.charted.has(part)) && this.due(part, session, s)) {
        this.sliceTimer = setTimeout(() => this.drawSlice(performance.now()), 0);
        return;
      }
      drew = this.drawPart(part, session, s) || drew;
    }
  }

  // How long a part is expected to take here: its last draw computed on the page's thread, scaled to
  // the session's count of weights (a heatmap's pass visits them all); unknown (never computed here, as
  // while a worker computed it) is taken as too long to share a task.
  expectedMs(part, session) {
    const cost = this.partCost.get(part);
    if (!cost) return Infinity;
    const { xTest, xTrain } = session.data;
    return cost.ms * Math.max(1, xTest.length * xTrain.length) / Math.max(1, cost.weights);
  }

  // True when every figure near the view shows the last render (no slice or worker's reply to come). The
  // browser tests wait for it after each action.
  get idle() { return this.nearViewKnown && this.sliceTimer === null && this.offloaded.size === 0 && this.lineOwed === null; }

  // Whether a lazy part would draw now (near the view and changed since it was drawn).
  due(part, session, s) {
    const inputs = this.partInputs(part, session, s);
    const last = this.drawnWith[part];
    return this.nearView.has(partView(part)) && !(last && last.length === inputs.length && last.every((value, i) => Object.is(value, inputs[i])));
  }

  // What a lazy part shows depends on: it is redrawn when one of these changes.
  partInputs(part, session, s) {
    const { data } = session;
    if (part === 'nonparametric') return [data, s.w, session.kernel];
    if (part === 'parametric') return [data, session.canTrain && session.learnedW, session.kernel];
    if (part === 'loss' || part === 'w' || part === 'landscape') return [this.generation];
    return [data, s.w]; // a kernel panel (its kernel is its own)
  }

  // Draws one lazy part if it is due (or `all`); true when it drew. A failure is reported, and the part
  // is drawn again next time.
  drawPart(part, session, s, { all = false } = {}) {
    // The loss chart shows the parametric line's test MSE: it waits for a line a worker brings.
    if (part === 'loss' && !all && this.lineOwed?.parts.has('parametric')) return false;
    if (!(all || this.nearView.has(partView(part))) || !this.changed(part, ...this.partInputs(part, session, s))) return false;
    const started = performance.now();
    // (A reply the worker still owes for this part is for older inputs: it will be dropped.)
    this.offloaded.delete(part);
    try {
      this.drawLazy(part, session, s, { here: all });
      this.charted.add(part);
    } catch (error) {
      this.drawnWith[part] = null;
      this.offloaded.delete(part);
      this.onProblem(error.message);
    }
    // A line the worker owed comes with this pass when it ran here (or must be computed now).
    if (!this.offloaded.has(part)) this.lineArrived(part);
    // The user timing shows in the browser's performance tools: which figure took how long.
    performance.measure(`nw:draw ${part}`, { start: started });
    if (this.offloaded.has(part)) {
      this.partCost.delete(part); // (the worker computes it: its time here is unknown from now on)
    } else {
      const { xTest, xTrain } = session.data;
      this.partCost.set(part, { ms: performance.now() - started, weights: xTest.length * xTrain.length });
    }
    return true;
  }

  // here: compute every heatmap on the page's thread (none by the worker).
  drawLazy(part, session, s, { here }) {
    if (part === 'nonparametric') {
      this.drawHeatmap(part, session, s.w, session.kernel, { withPredictions: true, here });
    } else if (part === 'parametric') {
      // An untrainable kernel has no parametric weights: the heatmap is emptied, not left stale.
      if (session.canTrain) {
        this.drawHeatmap(part, session, session.learnedW, session.kernel, { withPredictions: true, here });
      } else {
        this.heatmaps.parametric.clear();
        this.heatmaps.parametric.draw();
      }
    } else if (part === 'loss') {
      this.lossChart.setSeries(0, session.losses, 1);
      this.lossChart.setSeries(1, session.testMses, 0);
      this.lossChart.draw();
    } else if (part === 'w') {
      this.wChart.setSeries(0, session.ws, 0);
      this.wChart.draw();
    } else if (part === 'landscape') {
      this.renderLandscape(session, s);
    } else {
      this.drawHeatmap(part, session, s.w, this.kernelPanelOf(part).kernel, { withPredictions: true, here });
    }
  }

  kernelPanelOf(part) { return this.kernelPanels[Number(part.slice('kernel'.length))]; }

  // Whether the session's heatmaps are computed by the worker (one runs, and they are large).
  offloads(session) {
    const { data } = session;
    return this.offload !== null && this.offload.available() && data.xTest.length * data.xTrain.length >= OFFLOAD_MIN_WEIGHTS;
  }

  // A heatmap part (a kernel panel's with its predictions) at w: computed here, or by the worker when it
  // is large (then drawn when the reply comes, if the part still shows the same inputs).
  drawHeatmap(part, session, w, kernel, { withPredictions, here }) {
    const { data } = session;
    const compute = (maxCells) => session.blocks(w, { kernel, maxCells, withPredictions });
    const panel = part.startsWith('kernel') ? this.kernelPanelOf(part) : null;
    const heatmap = panel ? panel.heatmap : this.heatmaps[part];
    if (!here && this.offloads(session)) {
      const request = { slot: part, session, inputs: this.drawnWith[part], compute, w, kernel, maxCells: heatmap.capacity(), xTest: data.xTest, xTrain: data.xTrain, yTrain: data.yTrain };
      if (this.offload.request(request)) {
        this.offloaded.add(part);
        return;
      }
    }
    if (panel) {
      panel.set(data, session.xRange, compute);
      panel.draw();
    } else {
      heatmap.show(compute, data.xTest, data.xTrain);
      heatmap.draw();
    }
  }

  // Has the worker compute a part's line at w alone (a pass over every weight, with one block: nothing
  // to draw), where the session is large and the worker runs; the reply comes to showOffloaded under
  // the slot `${part}Line`. True when the line is on its way (asked now or already).
  requestLine(part, session, w) {
    if (!this.offloads(session)) return false;
    const slot = lineSlot(part);
    const { data, kernel } = session;
    const inputs = [data, w, kernel];
    const last = this.drawnWith[slot];
    if (this.offloaded.has(slot) && last.every((value, i) => Object.is(value, inputs[i]))) return true;
    const maxCells = { rows: 1, cols: 1 };
    const compute = () => session.blocks(w, { maxCells, withPredictions: true });
    const request = { slot, session, inputs, compute, w, kernel, maxCells, xTest: data.xTest, xTrain: data.xTrain, yTrain: data.yTrain };
    if (!this.offload.request(request)) return false;
    this.drawnWith[slot] = inputs;
    this.offloaded.add(slot);
    return true;
  }

  // The worker's blocks for a heatmap part (see drawHeatmap), drawn unless a render has since changed what
  // the part shows. Their predictions are kept as that w's line (see Session.rememberBlockPredictions).
  // A line's reply (requestLine) only brings the line.
  showOffloaded(request, blocks) {
    const { slot, session, inputs, compute } = request;
    if (this.drawnWith[slot] !== inputs || !this.offloaded.has(slot)) return;
    this.offloaded.delete(slot);
    const { data } = session;
    const drawsHere = !slot.endsWith(LINE_SLOT);
    try {
      if (!drawsHere) {
        // (drawn by the heatmap part itself when it comes into view)
      } else if (slot.startsWith('kernel')) {
        const panel = this.kernelPanelOf(slot);
        panel.setBlocks(data, session.xRange, blocks, compute);
        panel.draw();
      } else {
        this.heatmaps[slot].setBlocks(blocks, data.xTest, data.xTrain, compute);
        // A chart first laid out with these data can have a few pixels fewer than the blocks were asked
        // for (wider tick labels): the worker computes them again for it (here that took 80 ms at 2000
        // samples), once; meanwhile these are drawn.
        if (this.heatmaps[slot].draw({ refitHere: request.refitted === true })) {
          const again = { ...request, maxCells: this.heatmaps[slot].capacity(), refitted: true };
          if (this.offload.request(again)) this.offloaded.add(slot);
          else this.heatmaps[slot].refit();
        }
      }
      session.rememberBlockPredictions(request.w, request.kernel, blocks);
    } catch (error) {
      this.drawnWith[slot] = null;
      this.onProblem(error.message);
    }
    // After a heatmap, the line's redraws (the predictions chart, up to 2000 points a line) come in a
    // task of their own: both in one task took 70-85 ms at 2000 samples. A render in between owes its
    // own lines: this reply's is then dropped.
    const owed = this.lineOwed;
    if (drawsHere && owed) setTimeout(() => { if (this.lineOwed === owed) this.lineArrived(partOf(slot)); }, 0);
    else this.lineArrived(partOf(slot));
  }

  // The worker could not compute a heatmap part: it is drawn again by the next render.
  offloadFailed(request, message) {
    if (this.drawnWith[request.slot] === request.inputs) {
      this.drawnWith[request.slot] = null;
      this.offloaded.delete(request.slot);
      this.lineArrived(partOf(request.slot)); // computed here, then
    }
    this.onProblem(message);
  }

  // True (and remembered) when `inputs` differ from those `name` was last drawn with.
  changed(name, ...inputs) {
    const last = this.drawnWith[name];
    if (last && last.length === inputs.length && last.every((value, i) => Object.is(value, inputs[i]))) return false;
    this.drawnWith[name] = inputs;
    return true;
  }

  renderLandscape(session, s) {
    const n = session.data.xTrain.length;
    byId('landscapeChart').parentElement.hidden = n > LANDSCAPE_MAX_TRAIN;
    if (n <= LANDSCAPE_MAX_TRAIN) {
      // The curve depends on the data and the objective only: recomputed when they change or the run leaves it.
      const objectiveChanged = this.changed('landscapeCurve', session.data, session.kernel, session.estimator, session.objective.leaveOneOut, session.objective.loss);
      if (objectiveChanged || runReach(session) > this.landscapeCurve.wMax) this.landscapeCurve = landscapeCurve(session, s);
      this.landscapeChart.set({ curve: this.landscapeCurve, steps: runSteps(session), best: this.landscapeCurve.best });
      this.landscapeChart.draw();
    }
    byId('landscapeNote').textContent = landscapeNote(session, n <= LANDSCAPE_MAX_TRAIN ? this.landscapeCurve : null);
  }

  // Each chart's text alternative carries the numbers it currently shows, for readers who cannot see it.
  describeCharts(session, s, errors, query) {
    const mse = (name) => (errors && errors[name] !== null ? t('describe.mse', { mse: errors[name].toFixed(3) }) : '');
    const learned = session.canTrain ? t('describe.learned', { w: formatW(session.learnedW), stage: stageText(session), mse: mse('parametric') }) : t('describe.noParametric');
    const describe = (id, text) => byId(id).setAttribute('aria-label', text);
    describe('predictionsChart', t('describe.predictions', {
      query: query.toFixed(2), averageMse: mse('average'), w: formatW(s.w), nonparametricMse: mse('nonparametric'), learned,
    }));
    const weights = weightsShape(session);
    describe('nonparametricHeatmap', t('describe.nonparametricWeights', { w: formatW(s.w), shape: weights }));
    describe('parametricHeatmap', session.canTrain ? t('describe.parametricWeights', { w: formatW(session.learnedW), stage: stageText(session), shape: weights }) : t('describe.noParametricWeights'));
    describeTraining(session, byId('lossChart'), byId('wChart'));
  }

  showStatus(session, s) {
    const status = byId('status');
    if (!session.canTrain) {
      setText(status, untrainableText(session));
      delete status.dataset.w;
      return;
    }
    const w = formatW(session.learnedW);
    // A live region: written only when its text changes, so a screen reader hears each change once.
    setText(status, session.epoch === 0
      ? t(s.data === 'own' ? 'status.startOwn' : 'status.start', { w })
      : t('status.epoch', { epoch: session.epoch, loss: session.losses[session.losses.length - 1].toFixed(4), w }));
    status.dataset.w = String(session.learnedW);
  }

  showErrors(session, s, errors) {
    const rows = [
      [t('errors.average'), '–', errors && errors.average],
      [lineLabel(session, t('chart.nonparametric')), formatW(s.w), errors && errors.nonparametric],
      [lineLabel(session, session.canTrain ? t('errors.parametricAt', { stage: stageText(session) }) : t('chart.parametric')), formatW(session.learnedW), errors && errors.parametric],
    ];
    byId('mse').tBodies[0].replaceChildren(...rows.map((cells) => tableRow([cells[0], cells[1], formatNumber(cells[2], 4)])));
    byId('mse').title = errors ? '' : t('errors.noTruth');
  }

  // The predictions chart as numbers; filled only while its panel is open (it can have 2000 rows).
  showPredictionsTable() {
    if (!byId('predictionsTableBox').open || !this.lastPredictions) return;
    const { data, predictions } = this.lastPredictions;
    const column = (values, i) => (values ? values[i].toFixed(4) : '–');
    byId('predictionsTable').tBodies[0].replaceChildren(...Array.from(data.xTest, (x, i) => tableRow([x.toFixed(3),
      column(data.yTruth, i), column(predictions.average, i), column(predictions.nonparametric, i), column(predictions.parametric, i)])));
  }

  showEpochs(session) {
    const { losses, ws, testMses } = session;
    byId('epochTable').tBodies[0].replaceChildren(
      ...losses.map((loss, i) => tableRow([String(i + 1), loss.toFixed(6), ws[i + 1].toFixed(6), formatNumber(testMses[i + 1], 6)])));
  }

  showDataNote(session, s) {
    byId('dataNote').textContent = s.data === 'own'
      ? t(ownData.isPersistent ? 'data.usingOwnKept' : 'data.usingOwnUnkept', { n: session.data.xTrain.length })
      : t('data.hint');
    // Your data lives in a collapsed panel; while it is in use, the panel (with "Clear my data") is open.
    if (s.data === 'own') byId('dataNote').closest('details').open = true;
  }
}

export { Figures };
