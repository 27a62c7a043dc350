// How tight binnedPredict's bounds are: on random data sets (uniform and clumped keys, a lone far key,
// an outlier, values offset or scaled), the ratio of each prediction's error to its bound, against
// predict's exact sums. A bound must never be exceeded (the tests check that against long-double
// references); here the question is how much it overstates: #31 asks how often it is within 100x.
// Run alone with `node bench/binned_bounds.mjs`; npm run bench adds its row to the table.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// A small deterministic generator (the bench needs no module randomness to be repeatable).
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function dataSet(kind, random) {
  const n = 200 + Math.floor(random() * 3000);
  const keys = Array.from({ length: n }, (_, i) => (kind === 'clumped' ? (i % 2 ? 1 : 3.5) + 0.05 * (random() - 0.5) : 5 * random()));
  if (kind === 'lone key') keys[0] = 12;
  const scale = kind === 'scaled' ? 1e-12 : 1;
  const offset = kind === 'offset' ? 1e9 : 0;
  const values = keys.map((k) => offset + scale * (2 * Math.sin(k) + k ** 0.8 + 0.5 * (random() - 0.5)));
  if (kind === 'outlier') values[n >> 1] = 1e6;
  return { keys, values };
}

// Ratios error / bound over every finite bound whose error is above predict's own rounding (below it,
// the exact reference cannot tell the error).
export function measureBoundTightness(nw, { dataSets = 30 } = {}) {
  const random = generator(31);
  const kinds = ['uniform', 'clumped', 'lone key', 'outlier', 'offset', 'scaled'];
  const ratios = [];
  let exceeded = 0;
  for (let s = 0; s < dataSets; s++) {
    const { keys, values } = dataSet(kinds[s % kinds.length], random);
    const queries = Array.from({ length: 200 }, () => -0.5 + 6 * random());
    const w = 10 ** (-0.5 + 2 * random());
    const binned = nw.binnedPredict(queries, keys, values, { w });
    const exact = nw.predict(queries, keys, values, { w });
    const magnitude = Math.max(...values.map(Math.abs));
    for (let i = 0; i < queries.length; i++) {
      if (!Number.isFinite(binned.bounds[i])) continue;
      const error = Math.abs(binned.predictions[i] - exact[i]);
      if (error > binned.bounds[i] + 1e-13 * magnitude) exceeded++;
      if (error > 1e-13 * magnitude) ratios.push(error / binned.bounds[i]);
    }
  }
  ratios.sort((a, b) => a - b);
  const within100 = ratios.filter((r) => r >= 0.01).length;
  return {
    dataSets,
    compared: ratios.length,
    exceeded,
    median: ratios[Math.floor(ratios.length / 2)],
    within100: within100 / ratios.length,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const nw = await createRequire(import.meta.url)('../dist/nw.js')();
  console.log(measureBoundTightness(nw));
}
