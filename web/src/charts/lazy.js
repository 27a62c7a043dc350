// A property built on first use: Chart.js lays out and formats its ticks when a chart is created (tens of
// milliseconds each on a slow phone), so the charts of figures the reader has not scrolled to wait.
export function lazy(object, name, build) {
  let value;
  let built = false;
  Object.defineProperty(object, name, {
    get() {
      if (!built) {
        value = build();
        built = true;
      }
      return value;
    },
    configurable: true,
  });
}
