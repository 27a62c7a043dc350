// The plain JavaScript a tutorial author would write: nested loops, Math.exp, a max-shifted softmax.
// The benchmark's baseline.

export function naivePredict(queries, keys, values, w) {
  const out = new Float64Array(queries.length);
  const scores = new Float64Array(keys.length);
  for (let q = 0; q < queries.length; q++) {
    let max = -Infinity;
    for (let i = 0; i < keys.length; i++) {
      const d = (queries[q] - keys[i]) * w;
      scores[i] = -(d * d) / 2;
      if (scores[i] > max) max = scores[i];
    }
    let z = 0;
    let acc = 0;
    for (let i = 0; i < keys.length; i++) {
      const e = Math.exp(scores[i] - max);
      z += e;
      acc += e * values[i];
    }
    out[q] = acc / z;
  }
  return out;
}

// One epoch's leave-one-out loss and its gradient dL/dw (df/dw = -w Cov_alpha(y, d^2)).
export function naiveEpoch(x, y, w) {
  const n = x.length;
  const scores = new Float64Array(n);
  let loss = 0;
  let grad = 0;
  for (let j = 0; j < n; j++) {
    let max = -Infinity;
    for (let i = 0; i < n; i++) {
      if (i === j) continue;
      const d = (x[j] - x[i]) * w;
      scores[i] = -(d * d) / 2;
      if (scores[i] > max) max = scores[i];
    }
    let z = 0;
    let acc = 0;
    let accD2 = 0;
    let accYD2 = 0;
    for (let i = 0; i < n; i++) {
      if (i === j) continue;
      const e = Math.exp(scores[i] - max);
      const d2 = (x[j] - x[i]) * (x[j] - x[i]);
      z += e;
      acc += e * y[i];
      accD2 += e * d2;
      accYD2 += e * y[i] * d2;
    }
    const f = acc / z;
    const r = f - y[j];
    loss += r * r;
    grad += 2 * r * (-w * (accYD2 / z - (f * accD2) / z));
  }
  return { loss, grad };
}
