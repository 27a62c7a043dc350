// When the page's figures are drawn (what each shows is page_figures.js's): only near the view
// (IntersectionObserver), only when what a part shows changed, in slices of at most SLICE_MS so that the
// browser paints and takes input between them, and with large heatmaps offloaded to the heatmap worker.
// Figures (page_figures.js) extends it with drawLazy(part, ...) and partInputs(part, ...).
import { SLICE_MS, WORKER_MIN_PAIRS } from '../compute/budget.js';
import { problemText } from '../i18n/problem_text.js';
import { byId } from '../lib/dom.js';
import { FOUR_KERNELS } from './kernels.js';

// The figures drawn only near the view, in the order a render draws them. Each kernel panel is a part of
// its own (kernel0 to kernel3): with many samples each is a pass over every weight.
const LAZY_PARTS = ['nonparametric', 'parametric', 'loss', 'w', ...FOUR_KERNELS.map((_, i) => `kernel${i}`), 'landscape'];
// The figure (IntersectionObserver target) a lazy part belongs to, by its element's id.
const PART_ELEMENTS = {
  nonparametric: 'nonparametricHeatmap', parametric: 'parametricHeatmap', loss: 'lossChart', w: 'wChart', kernels: 'kernelPanels', landscape: 'landscapeChart',
};
const partView = (part) => (part.startsWith('kernel') ? 'kernels' : part);
// A render draws its lazy parts in tasks of about SLICE_MS (a part started is finished), so that with
// many samples no task keeps the browser from painting or taking input for long; a heatmap of at least
// WORKER_MIN_PAIRS weights is computed by the worker where there is one (compute/budget.js).

const sameInputs = (last, inputs) => Boolean(last) && last.length === inputs.length && last.every((value, i) => Object.is(value, inputs[i]));

class FigureScheduler {
  constructor({ onProblem }) {
    this.onProblem = onProblem;
    this.drawnWith = {}; // what each part (and the landscape's curve) was last drawn with (see changed)
    this.charted = new Set(); // the lazy parts drawn at least once (their charts created)
    this.partCost = new Map(); // part -> { ms, weights } of its last draw, if computed here (see expectedMs)
    this.heatmapClient = null; // computes large heatmaps off the page's thread (see useHeatmapClient)
    this.offloaded = new Set(); // the parts waiting for the worker's blocks
    this.lineOwed = null; // { session, s, parts } of a render whose lines the worker's replies bring
    this.sliceTimer = null; // the next slice of lazy parts to draw, if any (see drawSlice)
    this.lastRender = null; // { session, s } of the last render, for a figure that comes into view later
    this.generation = 0; // counts renders: a training chart is drawn once per render while near the view
    this.nearView = new Set();
    // Until the browser's first report of where the figures are, none is known to be near the view: the
    // page is not idle yet (a render before that report draws no lazy figure; the report then does).
    this.nearViewKnown = false;
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const part = entry.target.dataset.lazyPart;
        if (entry.isIntersecting) this.nearView.add(part);
        else this.nearView.delete(part);
      }
      this.nearViewKnown = true;
      if (this.lastRender) this.drawSlice(performance.now());
    }, { rootMargin: '300px 0px' });
    this.figureOf = {}; // view -> its <figure>
    for (const [part, id] of Object.entries(PART_ELEMENTS)) {
      const figure = byId(id).closest('figure');
      this.figureOf[part] = figure;
      figure.dataset.lazyPart = part;
      observer.observe(figure);
    }
  }

  // The heatmap client (compute/heatmap_client.js), once the page has started it: large heatmaps are
  // asked of it while it has a worker.
  useHeatmapClient(client) {
    this.heatmapClient = client;
  }

  // Whether the session's heatmaps are computed by the worker (one runs, and they are large).
  offloads(session) {
    const { data } = session;
    return this.heatmapClient !== null && this.heatmapClient.where === 'worker' && data.xTest.length * data.xTrain.length >= WORKER_MIN_PAIRS;
  }

  // Sends a request to the worker; false where there is none now.
  offload(request) {
    if (this.heatmapClient === null || this.heatmapClient.where !== 'worker') return false;
    this.heatmapClient.request(request);
    return true;
  }

  // True when every figure near the view shows the last render (no slice or worker's reply to come). The
  // browser tests wait for it after each action.
  get idle() { return this.nearViewKnown && this.sliceTimer === null && this.offloaded.size === 0 && this.lineOwed === null; }

  isNear(part) { return this.nearView.has(partView(part)); }

  // Forgets the figures hidden since the browser's last report of where they are (a one-figure embed
  // hides the others after that report can have found them near; the next report says so too, a frame
  // later). Called once, after hiding: asking the layout at every isNear cost a forced layout per render
  // (2 ms of each Step at 50 samples).
  forgetHidden() {
    for (const view of [...this.nearView]) if (this.figureOf[view].getClientRects().length === 0) this.nearView.delete(view);
  }

  // The figures drawn only near the view: all of them at once before a PNG export (all), else in slices.
  renderLazy(session, s, { all = false } = {}) {
    if (!all) {
      this.drawSlice(performance.now());
      return;
    }
    this.cancelSlices();
    // (A heatmap the worker has not answered for yet is computed here: an export cannot wait.)
    for (const part of this.offloaded) this.drawnWith[part] = null;
    for (const part of LAZY_PARTS) this.drawPart(part, session, s, { all });
  }

  // A drawing outside a render (a drag preview) now shows `part` under s: the last render's slices still
  // to come, and a figure scrolled to later, draw under s; the part's owed reply and the lines owed are
  // dropped (the render that follows the drawing owes its own).
  supersede(session, s, part) {
    this.cancelSlices();
    this.lastRender = { session, s };
    this.offloaded.delete(part);
    this.drawnWith[part] = null;
    this.lineOwed = null;
  }

  cancelSlices() {
    clearTimeout(this.sliceTimer);
    this.sliceTimer = null;
  }

  // Draws the lazy parts due for the last render (near the view and changed) while they fit in SLICE_MS
  // after `start`, and the rest in later tasks: with many samples, where one part takes tens of
  // milliseconds, the browser paints and takes the reader's input between them. A part fits when its
  // expected time (expectedMs) would not take the task past SLICE_MS. The first part due always runs,
  // unless the task has done other work already (mayWait: a render's own task, which at 2000 samples from
  // file:// took 20 ms before its first heatmap's 28). A part's first draw creates its chart (40-60 ms in
  // a fresh page on this 2-core machine): it starts a task of its own.
  drawSlice(start, { mayWait = false } = {}) {
    this.cancelSlices();
    if (!this.lastRender) return;
    const { session, s } = this.lastRender;
    let drew = mayWait;
    for (const part of LAZY_PARTS) {
      const fits = performance.now() - start + this.expectedMs(part, session) <= SLICE_MS;
      if (drew && (!fits || !this.charted.has(part)) && this.due(part, session, s)) {
        this.nextSlice();
        return;
      }
      drew = this.drawPart(part, session, s) || drew;
    }
  }

  nextSlice() {
    this.sliceTimer = setTimeout(() => this.drawSlice(performance.now()), 0);
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

  // Whether a lazy part would draw now (near the view and changed since it was drawn).
  due(part, session, s) {
    return this.isNear(part) && !sameInputs(this.drawnWith[part], this.partInputs(part, session, s));
  }

  // Draws one lazy part if it is due (or `all`); true when it drew. A failure is reported, and the part
  // is drawn again next time.
  drawPart(part, session, s, { all = false } = {}) {
    // The loss chart shows the parametric line's test MSE: it waits for a line a worker brings.
    if (part === 'loss' && !all && this.lineOwed?.parts.has('parametric')) return false;
    if (!(all || this.isNear(part)) || !this.changed(part, ...this.partInputs(part, session, s))) return false;
    const started = performance.now();
    // (A reply the worker still owes for this part is for older inputs: it will be dropped.)
    this.offloaded.delete(part);
    try {
      this.drawLazy(part, session, s, { here: all });
      this.charted.add(part);
    } catch (error) {
      this.drawnWith[part] = null;
      this.offloaded.delete(part);
      this.onProblem(problemText(error));
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

  // True (and remembered) when `inputs` differ from those `name` was last drawn with.
  changed(name, ...inputs) {
    if (sameInputs(this.drawnWith[name], inputs)) return false;
    this.drawnWith[name] = inputs;
    return true;
  }
}

export { FigureScheduler, LAZY_PARTS, sameInputs };
