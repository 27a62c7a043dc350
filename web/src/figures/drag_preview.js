// What the page's figures show while "Distance scale w" is dragged: the nonparametric line and heatmap
// at the dragged w (and the query's attention if it follows that w), nothing else. The preview asks the
// heatmap client for its own blocks and draws them when they come: the path of one live w is
// controls -> App.edit -> DragPreview.to -> heatmap client (a worker, or the page's thread) ->
// DragPreview.show. The full render after the drag is the controller's (page/drag.js times it).
import { problemText } from '../i18n/problem_text.js';
import { byId } from '../lib/dom.js';
import { formatW } from './texts.js';
import { blocksAt } from './weights.js';

// Where no worker computes the preview, the page's thread computes the heatmap at most this many cells a side.
const PAGE_THREAD_CELLS = 100;

class DragPreview {
  // figures: the page's Figures (page_figures.js), whose charts, scheduler and heatmap client it uses.
  constructor(figures) {
    this.figures = figures;
    this.nextFrame = null; // a page-thread preview waiting for the next animation frame (see to)
  }

  // One live value of w under settings s. The request carries what the preview needs: the
  // nonparametric heatmap's blocks at its chart's resolution with the line's predictions (one block,
  // the line alone, while the heatmap is not near the view: its chart is then not created). A worker
  // gets it at once. The page's thread computes the newest asked for in the next animation frame: an
  // arrow key on w fires input and change in one task, and the change's full render then makes the
  // preview moot (both at once made one task of 50 to 70 ms at 2000 samples); several inputs within a
  // frame are computed once.
  to(session, s, w) {
    const { figures } = this;
    const client = figures.heatmapClient;
    const onPage = client === null || client.where !== 'worker';
    const near = figures.isNear('nonparametric');
    const capacity = near ? figures.heatmaps.nonparametric.capacity() : { rows: 1, cols: 1 };
    const side = onPage ? PAGE_THREAD_CELLS : Infinity;
    const { data, kernel } = session;
    const request = {
      w, kernel, maxCells: { rows: Math.min(capacity.rows, side), cols: Math.min(capacity.cols, side) },
      xTest: data.xTest, xTrain: data.xTrain, yTrain: data.yTrain, approximate: session.approximation, compute: blocksAt(session, w),
      session, s, generation: figures.generation, started: performance.now(),
      onResult: (blocks) => this.show(request, blocks),
    };
    if (!onPage) {
      client.request(request);
      return;
    }
    const waiting = this.nextFrame;
    this.nextFrame = request;
    if (waiting) return;
    requestAnimationFrame(() => {
      const newest = this.nextFrame;
      this.nextFrame = null;
      if (newest.generation !== figures.generation) return;
      // (Its "nw:drag-update" starts when it is computed.)
      newest.started = performance.now();
      if (figures.heatmapClient) figures.heatmapClient.request(newest);
      else this.show(newest, newest.compute(newest.maxCells));
    });
  }

  // Draws one preview, unless a render has happened since it was asked for. The user timings
  // "nw:drag-update" (from the input, or the frame that computed it, to the drawn preview) and
  // "nw:drag-draw" (the drawing alone) show in the browser's performance tools and are what
  // `npm run bench` reports.
  show({ session, s, w, maxCells, generation, started }, blocks) {
    const { figures } = this;
    if (generation !== figures.generation) return;
    const drawStart = performance.now();
    // (The preview draws the line and this heatmap; the render after the drag, the rest.)
    figures.supersede(session, s, 'nonparametric');
    try {
      // The blocks' predictions are Nadaraya-Watson's: a local-linear line is the module's predict.
      figures.predictions.setDragged(session, s, w, session.estimator === 'nadarayaWatson' ? blocks.predictions : session.line('nonparametric', w));
      figures.predictions.draw();
      if (figures.isNear('nonparametric')) {
        const heatmap = figures.heatmaps.nonparametric;
        const capacity = heatmap.capacity();
        heatmap.setBlocks(blocks, session.data.xTest, session.data.xTrain);
        heatmap.draw();
        // Full-resolution blocks are the render's own (same module, same size): the render after the
        // drag need not compute them again.
        if (maxCells.rows === capacity.rows && maxCells.cols === capacity.cols) figures.drawnWith.nonparametric = [session.data, w, session.kernel];
      }
      byId('nonparametricTitleW').textContent = `(w = ${formatW(w)})`;
    } catch (error) {
      figures.onProblem(problemText(error));
    }
    performance.measure('nw:drag-draw', { start: drawStart });
    performance.measure('nw:drag-update', { start: started });
  }
}

export { DragPreview };
