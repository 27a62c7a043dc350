// Plain JavaScript as a careful JS developer writes it, the bench's JS peer: typed arrays, one buffer,
// a max-shifted softmax and, for sorted keys, the module's own window: bisection to the nearest key
// and only the keys whose weight is above 2^-60 / n of its weight (the rest cannot change a double sum).
import { naiveEpoch } from './naive.mjs';

// Index of the first key >= q in sorted keys.
export function lowerBound(keys, q) {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < q) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Predictions at the queries for sorted keys.
export function carefulPredict(queries, keys, values, w) {
  const n = keys.length;
  const out = new Float64Array(queries.length);
  // Scores below this (relative to the nearest key's 0) have weights below 2^-60 / n.
  const cutoff = -(60 * Math.LN2 + Math.log(n));
  for (let q = 0; q < queries.length; q++) {
    const x = queries[q];
    const at = lowerBound(keys, x);
    const nearest = at === n || (at > 0 && x - keys[at - 1] <= keys[at] - x) ? at - 1 : at;
    const dNear = (x - keys[nearest]) * w;
    const shift = (dNear * dNear) / 2; // the largest score is -shift
    let z = 0;
    let acc = 0;
    // Outward from the nearest key, right then left, until the weights fall below the cutoff.
    for (let step = 1; step >= -1; step -= 2) {
      for (let i = step > 0 ? nearest : nearest - 1; i >= 0 && i < n; i += step) {
        const d = (x - keys[i]) * w;
        const s = shift - (d * d) / 2;
        if (s < cutoff) break;
        const e = Math.exp(s);
        z += e;
        acc += e * values[i];
      }
    }
    out[q] = acc / z;
  }
  return out;
}

// An epoch has no window to use at the chapter's w = 1 on [0, 5) (every key is within reach): the
// careful version is the plain one, which already keeps its scores in one typed array.
export const carefulEpoch = naiveEpoch;
