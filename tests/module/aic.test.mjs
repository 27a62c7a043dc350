// Bandwidth by the corrected AIC through the module: against the smoother matrix written out, the
// selection against a scan, below the pole, and its options' errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNW } from './module.mjs';

const nw = await createNW();

const kernels = {
  gaussian: (d) => Math.exp(-d * d / 2),
  epanechnikov: (d) => Math.max(0, 1 - d * d),
  triangular: (d) => Math.max(0, 1 - Math.abs(d)),
};

// H written out (row i: the weights of the fit at x_i, its own key in), then AICc from H y and tr(H).
function referenceAic(x, y, w, kernel, localLinear) {
  const n = x.length;
  let rss = 0;
  let trace = 0;
  for (let i = 0; i < n; i++) {
    const k = x.map((xj) => kernels[kernel]((xj - x[i]) * w));
    const d = x.map((xj) => xj - x[i]);
    const s0 = k.reduce((a, b) => a + b, 0);
    const s1 = k.reduce((a, kj, j) => a + kj * d[j], 0);
    const s2 = k.reduce((a, kj, j) => a + kj * d[j] * d[j], 0);
    // A singular design (docs/api.md's rule: relative determinant <= 1e-10) fits as Nadaraya-Watson.
    const line = localLinear && (s0 * s2 - s1 * s1) / (s0 * s2) > 1e-10;
    const row = k.map((kj, j) => (line ? kj * (s2 - s1 * d[j]) / (s0 * s2 - s1 * s1) : kj / s0));
    const fitted = row.reduce((a, h, j) => a + h * y[j], 0);
    rss += (y[i] - fitted) ** 2;
    trace += row[i];
  }
  const sigma2 = rss / n;
  return { loss: trace < n - 2 ? Math.log(sigma2) + (1 + trace / n) / (1 - (trace + 2) / n) : Infinity, sigma2, trace };
}

test('aicLoss matches the AICc of the smoother matrix written out', () => {
  const data = nw.generateData({ seed: 6, nTrain: 40 });
  const x = Array.from(data.xTrain);
  const y = Array.from(data.yTrain);
  let compared = 0;
  for (const kernel of Object.keys(kernels)) {
    for (const estimator of ['nadarayaWatson', 'localLinear']) {
      for (const w of [0, 0.5, 1.5, 3]) {
        const got = nw.aicLoss(x, y, { w, kernel, estimator });
        const ref = referenceAic(x, y, w, kernel, estimator === 'localLinear');
        for (const key of ['trace', 'sigma2', 'loss']) {
          const scale = Math.max(Math.abs(ref[key]), 1);
          assert.ok(Math.abs(got[key] - ref[key]) <= 1e-10 * scale, `${kernel} ${estimator} w = ${w} ${key}: ${got[key]} vs ${ref[key]}`);
        }
        compared++;
      }
    }
  }
  assert.equal(compared, 24);
});

test('aicLoss is Infinity past the pole, where tr(H) >= n - 2', () => {
  const { loss, trace } = nw.aicLoss([0, 1, 2, 3, 4, 5], [1, 0, 2, 1, 3, 0], { w: 100 });
  assert.ok(trace >= 4);
  assert.equal(loss, Infinity);
});

test('the AICc gradient matches central finite differences', () => {
  const data = nw.generateData({ seed: 2 });
  for (const estimator of ['nadarayaWatson', 'localLinear']) {
    for (const w of [0.4, 1.1, 2.7]) {
      const h = 1e-6 * w;
      const { grad } = nw.aicLoss(data.xTrain, data.yTrain, { w, estimator });
      const numeric = (nw.aicLoss(data.xTrain, data.yTrain, { w: w + h, estimator }).loss - nw.aicLoss(data.xTrain, data.yTrain, { w: w - h, estimator }).loss) / (2 * h);
      assert.ok(Math.abs(grad - numeric) <= 1e-6 * Math.abs(numeric) + 1e-9, `${estimator} w = ${w}: ${grad} vs ${numeric}`);
    }
  }
});

test('selectBandwidth by AIC is never above the AICc of a scan and ends below the pole, for both estimators', () => {
  const data = nw.generateData({ seed: 1 });
  const n = data.xTrain.length;
  for (const estimator of ['nadarayaWatson', 'localLinear']) {
    const best = nw.selectBandwidth(data.xTrain, data.yTrain, { criterion: 'aic', estimator });
    assert.equal(best.atLimit, 'none');
    const at = nw.aicLoss(data.xTrain, data.yTrain, { w: best.w, estimator });
    assert.equal(best.loss, at.loss);
    assert.ok(at.trace < n - 2, `tr(H) = ${at.trace}`);
    for (let i = 0; i <= 600; i++) {
      const w = 0.01 * 20000 ** (i / 600);
      assert.ok(best.loss <= nw.aicLoss(data.xTrain, data.yTrain, { w, estimator }).loss * (1 + 1e-9), `${estimator}: w = ${w}`);
    }
    // Not the leave-one-out choice: a different criterion (both near the chapter's noise level).
    assert.notEqual(best.w, nw.selectBandwidth(data.xTrain, data.yTrain, { estimator }).w);
  }
});

test('criterion errors name the parameter', () => {
  const x = [0, 1, 2, 3, 4, 5];
  const y = [1, 0, 2, 1, 3, 0];
  const cases = [
    [() => nw.selectBandwidth(x, y, { criterion: 'AIC' }), /^criterion must be one of looCv, aic, got 'AIC'$/],
    [() => nw.selectBandwidth(x, y, { criterion: 3 }), /^criterion must be a string, got number$/],
    [() => nw.selectBandwidth(x, y, { criterion: 'aic', leaveOneOut: false }), /^leaveOneOut applies only to criterion looCv/],
    [() => nw.selectBandwidth(x, y, { criterion: 'aic', loss: 'halfSquared' }), /^loss applies only to criterion looCv/],
    [() => nw.selectBandwidth([0, 1, 2, 3], [1, 2, 3, 4], { criterion: 'aic' }), /^xTrain must have at least 5 points for criterion aic/],
    [() => nw.aicLoss(x, y, { criterion: 'aic' }), /^options: unknown option 'criterion' \(expected w, kernel, estimator\)$/],
    [() => nw.aicLoss(x, y, { w: NaN }), /^w must be a finite number, got NaN$/],
    [() => nw.aicLoss([1], [1]), /^xTrain must have at least 2 points/],
  ];
  for (const [call, message] of cases) assert.throws(call, (error) => error instanceof nw.NWError && message.test(error.message));
  // looCv options still work with the default criterion, and looCv by name is the default.
  assert.deepEqual(nw.selectBandwidth(x, y, { criterion: 'looCv', leaveOneOut: false }), nw.selectBandwidth(x, y, { leaveOneOut: false }));
});
