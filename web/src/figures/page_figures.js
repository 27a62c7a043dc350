// What the page shows of a session: the predictions chart, the heatmaps, the training charts, the kernel
// panels and the loss landscape (each drawn by its figure module, shared with <nw-figure>), with the
// words and tables beside them (page_text.js). When each is drawn is scheduler.js's.
import { t } from '../i18n/i18n.js';
import { problemText } from '../i18n/problem_text.js';
import { lazy } from '../charts/lazy.js';
import { byId, setText } from '../lib/dom.js';
import { drawKernelPanel, kernelPanels } from './kernels.js';
import { LandscapeFigure } from './landscape.js';
import { describeCharts, showApproximation, showDataNote, showEpochs, showErrors, showPredictionsTable, showStatus } from './page_text.js';
import { DragPreview } from './drag_preview.js';
import { PredictionsFigure } from './predictions.js';
import { FigureScheduler, sameInputs } from './scheduler.js';
import { boundaryNote, formatW, weightsEstimatorNote } from './texts.js';
import { drawLoss, drawW, lossChart, wChart } from './training.js';
import { blocksAt, drawHeatmap, heatmapW, pageHeatmaps } from './weights.js';

// Whether an element takes part in the layout (one-figure embeds hide the others: they are not drawn).
const shown = (id) => byId(id).getClientRects().length > 0;
// A line asked of the worker alone (see requestLine) has this slot: its part's name and this suffix.
const LINE_SLOT = 'Line';
const partOf = (slot) => (slot.endsWith(LINE_SLOT) ? slot.slice(0, -LINE_SLOT.length) : slot);

class Figures extends FigureScheduler {
  // onQuery(x): the pointer chose a query on the predictions chart or a row of a heatmap; onProblem(message):
  // a drawing failed.
  constructor({ onQuery, onProblem }) {
    super({ onProblem });
    this.lastPredictions = null;
    byId('predictionsTableBox').addEventListener('toggle', () => showPredictionsTable(this.lastPredictions));
    this.predictions = new PredictionsFigure(byId('predictionsChart'), { onQuery });
    // Every chart but the predictions chart is created when first drawn (see charts/lazy.js): the first
    // paint does not wait for the charts of figures the reader has not scrolled to.
    const heatmaps = pageHeatmaps((part) => ({ canvas: byId(`${part}Heatmap`), legend: byId(`${part}Legend`), note: byId(`${part}Note`) }), onQuery);
    this.heatmaps = heatmaps.charts;
    this.markQuery = heatmaps.markQuery;
    this.planHeatmapNote = heatmaps.planNote;
    lazy(this, 'lossChart', () => lossChart(byId('lossChart')));
    lazy(this, 'wChart', () => wChart(byId('wChart')));
    lazy(this, 'landscape', () => new LandscapeFigure(byId('landscapeChart')));
    this.kernelPanels = kernelPanels(byId('kernelPanels'));
    this.dragPreview = new DragPreview(this); // (what w's slider shows while it moves)
    // [file name, label, the Chart.js chart (a function: created when asked)] of each chart offered as PNG.
    this.pngCharts = [
      ['predictions', t('png.predictions'), () => this.predictions.chart.chart],
      ['nonparametric-weights', t('png.nonparametricWeights'), () => this.heatmaps.nonparametric.chart],
      ['parametric-weights', t('png.parametricWeights'), () => this.heatmaps.parametric.chart],
      ['training-loss', t('lossChart.title'), () => this.lossChart.chart],
      ['learned-w', t('wChart.title'), () => this.wChart.chart],
      ['loss-landscape', t('png.landscape'), () => this.landscape.chart.chart],
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
      const owed = new Set(['nonparametric', 'parametric'].map((part) => [part, heatmapW(part, session, s)])
        .filter(([part, w]) => w !== null && session.estimator === 'nadarayaWatson' && !session.hasLine(part, w)
          && (this.offloaded.has(part) || this.requestLine(part, session, w)))
        .map(([part]) => part));
      this.lineOwed = owed.size ? { session, s, parts: owed } : null;
      if (!owed.size) this.showPredictions(session, s);
      for (const part of ['nonparametric', 'parametric']) {
        this.planHeatmapNote(part, heatmapW(part, session, s) === null ? null : { rows: session.data.xTest.length, cols: session.data.xTrain.length });
      }
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
      this.onProblem(problemText(error));
    }
    // The other figures near the view: what fits in this task, the rest in the next ones.
    this.drawSlice(started, { mayWait: true });
    showStatus(session, s);
    showDataNote(session, s);
  }

  // What depends on the lines' predictions: the predictions chart, the errors, the tables, the charts'
  // descriptions and the boundary note.
  showPredictions(session, s) {
    const predictions = session.predictions(s.w);
    const query = this.predictions.set(session, s, predictions);
    if (shown('predictionsChart')) this.predictions.draw();
    this.markQuery(query, session.attentionShown(s));
    const { xMin, xMax } = session.xRange;
    byId('query').min = String(xMin);
    byId('query').max = String(xMax);
    const errors = session.testErrors(predictions);
    showErrors(session, s, errors);
    const bounds = { nonparametric: session.boundsOf(predictions.nonparametric), parametric: session.boundsOf(predictions.parametric) };
    this.lastPredictions = { data: session.data, predictions, bounds };
    showPredictionsTable(this.lastPredictions);
    showApproximation(session, predictions);
    describeCharts(session, s, errors, query);
    setText(byId('estimatorNote'), boundaryNote(session, s.w));
    showEpochs(session); // (its test MSEs are the parametric line's)
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
      this.onProblem(problemText(error));
    }
    // The parts that waited for the lines (the loss chart's test MSE), in a task of their own.
    if (this.sliceTimer === null) this.nextSlice();
  }

  // What a lazy part shows depends on: it is redrawn when one of these changes.
  partInputs(part, session, s) {
    const { data } = session;
    if (part === 'nonparametric' || part === 'parametric') return [data, part === 'parametric' ? session.canTrain && session.learnedW : s.w, session.kernel];
    if (part === 'loss' || part === 'w' || part === 'landscape') return [this.generation];
    return [data, s.w]; // a kernel panel (its kernel is its own)
  }

  // here: compute every heatmap on the page's thread (none by the worker).
  drawLazy(part, session, s, { here }) {
    if (part === 'nonparametric' || part === 'parametric') {
      this.drawHeatmapPart(part, session, heatmapW(part, session, s), session.kernel, { here });
    } else if (part === 'loss') {
      drawLoss(this.lossChart, session);
    } else if (part === 'w') {
      drawW(this.wChart, session);
    } else if (part === 'landscape') {
      byId('landscapeNote').textContent = this.landscape.draw(session, s);
    } else {
      this.drawHeatmapPart(part, session, s.w, this.kernelPanelOf(part).kernel, { here });
    }
  }

  kernelPanelOf(part) { return this.kernelPanels[Number(part.slice('kernel'.length))]; }

  // A heatmap part (a kernel panel's with its predictions) at w (null: emptied): computed here, or by
  // the worker when it is large (then drawn when the reply comes, if the part still shows the same inputs).
  drawHeatmapPart(part, session, w, kernel, { here }) {
    const panel = part.startsWith('kernel') ? this.kernelPanelOf(part) : null;
    const heatmap = panel ? panel.heatmap : this.heatmaps[part];
    if (w !== null && !here && this.offloads(session)) {
      const { data } = session;
      const request = this.workerRequest({ slot: part, session, inputs: this.drawnWith[part], compute: blocksAt(session, w, kernel), w, kernel, maxCells: heatmap.capacity(), xTest: data.xTest, xTrain: data.xTrain, yTrain: data.yTrain, approximate: session.approximation });
      if (this.offload(request)) {
        this.offloaded.add(part);
        return;
      }
    }
    if (panel) drawKernelPanel(panel, session, w);
    else drawHeatmap(heatmap, session, w);
  }

  // A request to the worker whose reply (or failure) comes back to these figures.
  workerRequest(fields) {
    const request = { ...fields };
    request.onResult = (blocks) => this.showOffloaded(request, blocks);
    request.onError = (message) => this.offloadFailed(request, message);
    return request;
  }

  // Has the worker compute a part's line at w alone (a pass over every weight, with one block: nothing
  // to draw), where the session is large and the worker runs; the reply comes to showOffloaded under
  // the slot `${part}Line`. True when the line is on its way (asked now or already).
  requestLine(part, session, w) {
    if (!this.offloads(session)) return false;
    const slot = `${part}${LINE_SLOT}`;
    const { data, kernel } = session;
    const inputs = [data, w, kernel];
    if (this.offloaded.has(slot) && sameInputs(this.drawnWith[slot], inputs)) return true;
    const request = this.workerRequest({ slot, session, inputs, compute: blocksAt(session, w), w, kernel, maxCells: { rows: 1, cols: 1 }, xTest: data.xTest, xTrain: data.xTrain, yTrain: data.yTrain, approximate: session.approximation });
    if (!this.offload(request)) return false;
    this.drawnWith[slot] = inputs;
    this.offloaded.add(slot);
    return true;
  }

  // The worker's blocks for a heatmap part (see drawHeatmapPart), drawn unless a render has since changed
  // what the part shows (the Session has kept their predictions as that w's line: see page/heatmaps.js). A
  // line's reply (requestLine) only brings the line.
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
        // A resized chart asks the worker for blocks of its new size too (4M weights at 2000 samples).
        this.heatmaps[slot].setBlocks(blocks, data.xTest, data.xTrain, compute, () => this.refitByWorker(request));
        // A chart first laid out with these data can have a few pixels fewer than the blocks were asked
        // for (wider tick labels): the worker computes them again for it (here that took 80 ms at 2000
        // samples), once; meanwhile these are drawn.
        if (this.heatmaps[slot].draw({ refitHere: request.refitted === true }) && !this.refitByWorker(request)) {
          this.heatmaps[slot].refit();
        }
      }
    } catch (error) {
      this.drawnWith[slot] = null;
      this.onProblem(problemText(error));
    }
    // After a heatmap, the line's redraws (the predictions chart, up to 2000 points a line) come in a
    // task of their own: both in one task took 70-85 ms at 2000 samples. A render in between owes its
    // own lines: this reply's is then dropped.
    const owed = this.lineOwed;
    if (drawsHere && owed) setTimeout(() => { if (this.lineOwed === owed) this.lineArrived(partOf(slot)); }, 0);
    else this.lineArrived(partOf(slot));
  }

  // Asks the worker for a heatmap part's blocks again at its chart's capacity (the blocks of request no
  // longer fit it), unless the part shows other inputs by now. True when they are on their way.
  refitByWorker(request) {
    const { slot } = request;
    if (this.drawnWith[slot] !== request.inputs) return false;
    const again = this.workerRequest({ ...request, maxCells: this.heatmaps[slot].capacity(), refitted: true });
    if (!this.offload(again)) return false;
    this.offloaded.add(slot);
    return true;
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
}

export { Figures };
