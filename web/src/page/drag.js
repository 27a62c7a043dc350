// Dragging "Distance scale w": the figures preview each live w themselves (figures/drag_preview.js);
// this times the full render (kernel panels, tables, landscape) that follows when the drag pauses.

// After the last live change of w, the full render waits this long.
const DRAG_SETTLE_MS = 150;

class DragSettle {
  // render(): the controller's full render, which cancels a settle still to come (cancel).
  constructor(render) {
    this.render = render;
    this.timer = null;
  }

  // A live w was previewed: the full render follows DRAG_SETTLE_MS after the last one.
  moved() {
    this.cancel();
    this.timer = setTimeout(() => this.render(), DRAG_SETTLE_MS);
  }

  cancel() {
    clearTimeout(this.timer);
    this.timer = null;
  }
}

export { DragSettle };
