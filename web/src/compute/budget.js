// How much work the page's thread takes on at once, shared by everything that splits work into tasks or
// sends it to a worker: one number each, so that the figures' slices, "Train to convergence" and the
// thresholds for workers agree (and the README quotes these values).

// A task of the page's own does at most about this much before it gives the browser the thread to
// paint and take input (the figures' slices, the Converger's epochs).
export const SLICE_MS = 25;

// Work over at least this many (query, key) pairs leaves the page's thread where a worker runs: a
// heatmap's pass (the heatmap worker) and a training epoch's rows (the row pool). Below it the work takes
// the page's thread a millisecond or two, less than a round trip to a worker; at 2000 x 2000 pairs,
// tens of milliseconds.
export const WORKER_MIN_PAIRS = 250_000;
