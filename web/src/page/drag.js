// Dragging "Distance scale w": while the slider moves, only what w changes at once is redrawn (the
// nonparametric line and heatmap, computed by the heatmap client: a worker, or the page's thread at a
// lower resolution); the full render follows when the drag pauses.
import { HeatmapClient } from '../compute/heatmap_client.js';

// While w is dragged with no worker, the page's thread computes the heatmap at most this many cells a side.
const PAGE_THREAD_DRAG_CELLS = 100;
// After the last live change of w, the full render (kernel panels, tables, landscape) waits this long.
const DRAG_SETTLE_MS = 150;

class WDrag {
  // app: the controller (page/controller.js): its session, settings, figures, renders and render().
  constructor(app) {
    this.app = app;
    this.client = null; // the heatmap client, once started (see startClient)
    this.framePreview = null; // a page-thread preview waiting for the next frame (previewInNextFrame)
    this.settleTimer = null;
  }

  // Started after the first render, so that its worker's module loads while the reader looks. The
  // figures also have it compute their large heatmaps (they send their own requests and take their
  // own replies).
  startClient(onProblem) {
    const { app } = this;
    this.client = new HeatmapClient({
      computeHere: (request) => request.compute(request.maxCells),
      // (Session keeps a reply's predictions as its w's line: the one place blocks from elsewhere enter it.)
      onResult: (request, blocks) => {
        app.session.acceptBlocks(request, blocks);
        request.onResult(blocks);
      },
      onError: (request, message) => (request.onError ? request.onError(message) : onProblem(message)),
    });
    app.figures.useHeatmapClient(this.client);
  }

  // One live value of w: the preview is asked for (a worker at once; the page's thread in the next
  // frame) and the full render is put off until the drag pauses.
  move(w) {
    const { app } = this;
    const onPage = this.client === null || this.client.where !== 'worker';
    const request = app.figures.previewRequest(app.session, w, {
      maxSide: onPage ? PAGE_THREAD_DRAG_CELLS : Infinity,
      generation: app.renderGeneration,
      onResult: (blocks) => this.show(request, blocks),
    });
    if (onPage) this.previewInNextFrame(request);
    else this.client.request(request);
    this.cancelSettle();
    this.settleTimer = setTimeout(() => app.render(), DRAG_SETTLE_MS);
  }

  cancelSettle() {
    clearTimeout(this.settleTimer);
    this.settleTimer = null;
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
      if (newest.generation !== this.app.renderGeneration) return;
      const started = { ...newest, started: performance.now() };
      started.onResult = (blocks) => this.show(started, blocks);
      if (this.client) this.client.request(started);
      else started.onResult(started.compute(started.maxCells));
    });
  }

  // Draws one preview, unless a full render has happened since it was asked for. The user timings
  // "nw:drag-update" (from the input to the drawn preview; on the page's thread, from the frame that
  // computes it: see previewInNextFrame) and "nw:drag-draw" (the drawing alone) show in the browser's
  // performance tools and are what `npm run bench` reports.
  show(request, blocks) {
    const { app } = this;
    if (request.generation !== app.renderGeneration) return;
    const drawStart = performance.now();
    app.figures.showDragPreview(app.session, app.settings, request, blocks);
    performance.measure('nw:drag-draw', { start: drawStart });
    performance.measure('nw:drag-update', { start: request.started });
  }
}

export { WDrag };
