// What the page's step texts tell the reader (web/index.html), computed from the module through the
// page's own Session at the page's settings, over the chapter's seed and nine more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { estimator, lineDash } from '../../web/src/charts/colors.js';
import { AIC_MAX_TRAIN, landscapeCurve, landscapeNote } from '../../web/src/model/landscape.js';
import { Session } from '../../web/src/model/session.js';
import { defaults } from '../../web/src/model/settings.js';
import { translator } from '../../web/src/i18n/all.js';
import { createNW } from '../module/module.mjs';

const nw = await createNW();
const html = readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');
const text = (id) => html.match(new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</p>`))[1].replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');

function trained(seed) {
  const session = new Session(nw);
  const settings = { ...defaults(), seed };
  session.generate(settings);
  for (let i = 0; i < settings.epochs; i++) session.step();
  return session;
}

// Sum of |f(x_k+1) - f(x_k)| over the test queries: how much a line wiggles.
function wiggle(session, w) {
  const { xTest, xTrain, yTrain } = session.data;
  const line = nw.predict(xTest, xTrain, yTrain, { w });
  let sum = 0;
  for (let i = 1; i < line.length; i++) sum += Math.abs(line[i] - line[i - 1]);
  return sum;
}

test('step 3: training lowers the loss, the first step usually overshoots the best w, the line ends less smooth', () => {
  const claim = text('parametricText');
  assert.match(claim, /watch the loss fall/);
  assert.match(claim, /the first step usually overshoots past the best w/);
  assert.match(claim, /less smooth than the nonparametric one at w ?= ?1/);
  const seeds = Array.from({ length: 10 }, (_, i) => i + 1);
  let overshoots = 0;
  for (const seed of seeds) {
    const session = trained(seed);
    const { losses, ws } = session;
    for (let i = 1; i < losses.length; i++) assert.ok(losses[i] < losses[i - 1], `seed ${seed}: epoch ${i + 1} lowers the loss`);
    if (ws[1] > session.bestBandwidth().w) overshoots += 1;
    assert.ok(wiggle(session, session.learnedW) > wiggle(session, 1), `seed ${seed}: the learned line wiggles more`);
  }
  assert.ok(overshoots >= 8, `"usually": ${overshoots} of ${seeds.length} seeds overshoot`);
  const chapter = trained(1);
  assert.ok(chapter.ws[1] > chapter.bestBandwidth().w, 'and the chapter\'s own seed does');
});

test('the colours and line styles the texts name are the charts\' own', async () => {
  assert.match(text('dataText'), /the black line, white on a dark screen, is the truth/);
  assert.equal(estimator.truth, '#000000');
  // The same module in a browser that prefers dark (a fresh instance: the query makes a new module URL).
  globalThis.matchMedia = (query) => ({ matches: query === '(prefers-color-scheme: dark)' });
  const darkColors = await import('../../web/src/charts/colors.js?scheme=dark');
  delete globalThis.matchMedia;
  assert.equal(darkColors.ink.background, '#121212', 'the dark theme');
  assert.match(darkColors.estimator.truth, /^#f[0-9a-f]f[0-9a-f]f[0-9a-f]$/, 'near-white');
  assert.match(text('dataText'), /the grey dashed line/);
  assert.match(estimator.average, /^#([0-9a-f]{2})\1\1$/, 'grey');
  assert.ok(lineDash.average.length > 0, 'dashed');
  assert.match(text('nonparametricText'), /\(the blue line\)/);
  assert.equal(estimator.nonparametric, '#0072b2', 'Okabe-Ito blue');
  assert.match(text('parametricText'), /the vermillion line/);
  assert.equal(estimator.parametric, '#d55e00', 'Okabe-Ito vermillion');
});

test('step 2: a larger w is a narrower kernel, so a query attends to fewer, nearer keys', () => {
  assert.match(text('nonparametricText'), /a larger w is a narrower kernel \(its bandwidth is 1 ?\/ ?w\)/);
  const { xTrain } = nw.generateData({ seed: 1 });
  // The keys that hold 95% of the query's attention: fewer as w grows.
  const keysFor95 = (w) => {
    const weights = Array.from(nw.attentionWeights([2.5], xTrain, { w }).data).sort((a, b) => b - a);
    let sum = 0;
    return weights.findIndex((a) => (sum += a) >= 0.95) + 1;
  };
  const counts = [0.5, 1, 2, 4, 8].map(keysFor95);
  for (let i = 1; i < counts.length; i++) assert.ok(counts[i] < counts[i - 1], `keys holding 95%: ${counts}`);
});

test('beyond the chapter: the landscape note names the w of the lowest test MSE on its curve', () => {
  for (const seed of [1, 2, 3]) {
    const settings = { ...defaults(), seed };
    const session = new Session(nw);
    session.generate(settings);
    const curve = landscapeCurve(session, settings);
    const note = landscapeNote(session, curve);
    const [, edge, named] = /on this curve it is (still falling at the curve's right edge|lowest at), w = ([\d.]+)\./.exec(note.replace('lowest at w', 'lowest at, w'));
    // Independently: each w's predictions against the truth, the squared errors summed here.
    const { xTest, xTrain, yTrain, yTruth } = session.data;
    let bestW = 0;
    let bestMse = Infinity;
    for (const w of curve.ws) {
      const predicted = nw.predict(xTest, xTrain, yTrain, { w });
      let sum = 0;
      for (let i = 0; i < predicted.length; i++) sum += (predicted[i] - yTruth[i]) ** 2;
      const mse = sum / predicted.length;
      if (mse < bestMse) [bestW, bestMse] = [w, mse];
    }
    assert.equal(Number(named), Number(bestW.toFixed(2)), `seed ${seed}: ${note}`);
    assert.equal(edge !== 'lowest at', bestW === curve.ws[curve.ws.length - 1], `seed ${seed}: the right edge is named as such`);
  }
  // Your own data has no truth: no test MSE, and the note says nothing of it.
  const own = new Session(nw);
  own.useOwnData({ x: [0, 1, 2, 3, 4], y: [1, 3, 2, 5, 4] }, defaults());
  const ownCurve = landscapeCurve(own, defaults());
  assert.equal(ownCurve.testMses, null);
  assert.doesNotMatch(landscapeNote(own, ownCurve), /test MSE/);
});

test('beyond the chapter: the landscape note names both minimisers (leave-one-out and AICc) and where AICc is searched', () => {
  for (const estimator of ['nadarayaWatson', 'localLinear']) {
    for (const [seed, kernel] of [[1, 'gaussian'], [2, 'gaussian'], [3, 'epanechnikov']]) {
      const settings = { ...defaults(), seed, kernel, estimator };
      const session = new Session(nw);
      session.generate(settings);
      const curve = landscapeCurve(session, settings);
      const { xTrain, yTrain } = session.data;
      const note = landscapeNote(session, curve);
      const [, aicW, looW, limit] = /its minimiser \(the diamond\), as selectBandwidth finds it with criterion aic, is w = ([\d.]+), beside leave-one-out's w\* = ([\d.]+)\. AICc is searched only where tr\(H\) < n − 2 = (\d+): /.exec(note);
      const aic = nw.selectBandwidth(xTrain, yTrain, { kernel, estimator, criterion: 'aic' });
      const loo = nw.selectBandwidth(xTrain, yTrain, { kernel, estimator });
      const what = `${estimator}, seed ${seed}, ${kernel}: ${note}`;
      assert.equal(aicW, aic.w.toFixed(4), what);
      assert.equal(looW, loo.w.toFixed(4), what);
      assert.equal(Number(limit), xTrain.length - 2);
      // The minimiser lies below the pole, and the curve is the module's AICc at each of its w.
      assert.ok(nw.aicLoss(xTrain, yTrain, { w: aic.w, kernel, estimator }).trace < xTrain.length - 2, what);
      assert.deepEqual(curve.aicBest, aic);
      assert.deepEqual(curve.aics, curve.ws.map((w) => nw.aicLoss(xTrain, yTrain, { w, kernel, estimator }).loss));
      assert.ok(curve.wMax >= aic.w, 'the diamond is on the curve');
      const zh = landscapeNote(session, curve, translator('zh'));
      assert.ok(zh.includes(`找到的最小值点（菱形）是 w = ${aicW}，留一法的则是 w* = ${looW}。AICc 只在 tr(H) < n − 2 = ${limit} 处搜索`), zh);
    }
  }
  // Past the pole the AICc is Infinity: a larger w on the chapter's data, where tr(H) passes n - 2.
  const { xTrain, yTrain } = nw.generateData({ seed: 1 });
  const past = nw.aicLoss(xTrain, yTrain, { w: 200 });
  assert.ok(past.trace >= xTrain.length - 2 && past.loss === Infinity, `tr(H) = ${past.trace}`);
  // Where the AIC does not apply, the landscape has no AICc and the note does not speak of it: leave-one-out
  // off (AIC takes no leaveOneOut), or a kernel that cannot be trained.
  for (const changes of [{ loo: 'off' }, { kernel: 'boxcar' }]) {
    const settings = { ...defaults(), ...changes };
    const session = new Session(nw);
    session.generate(settings);
    const curve = landscapeCurve(session, settings);
    assert.equal(curve.aics, null);
    assert.equal(curve.aicBest, null);
    assert.doesNotMatch(landscapeNote(session, curve), /AIC/);
  }
  // An exact fit (constant y: sigma2 = 0 at every w) has AICc = -infinity everywhere: no curve, no
  // minimiser, and the note says the AIC does not apply (rather than speak of a pole).
  const flat = new Session(nw);
  flat.useOwnData({ x: [0, 1, 2, 3, 4, 5], y: [2, 2, 2, 2, 2, 2] }, defaults());
  assert.equal(nw.selectBandwidth(flat.data.xTrain, flat.data.yTrain, { criterion: 'aic' }).loss, -Infinity);
  const flatCurve = landscapeCurve(flat, defaults());
  assert.equal(flatCurve.aics, null);
  assert.equal(flatCurve.aicBest, null);
  const flatNote = landscapeNote(flat, flatCurve);
  assert.match(flatNote, /The corrected AIC \(AICc\) does not apply to these data: the fit is exact at every w/);
  assert.doesNotMatch(flatNote, /pole/);
  // Its cost is bounded: above AIC_MAX_TRAIN samples it is not drawn, and the note says so.
  for (const nTrain of [AIC_MAX_TRAIN, AIC_MAX_TRAIN + 1]) {
    const settings = { ...defaults(), nTrain };
    const session = new Session(nw);
    session.generate(settings);
    const curve = landscapeCurve(session, settings);
    const note = landscapeNote(session, curve);
    assert.equal(curve.aics === null, nTrain > AIC_MAX_TRAIN, `${nTrain} samples`);
    assert.equal(note.endsWith(`The corrected AIC (AICc) is drawn beside it for up to ${AIC_MAX_TRAIN} training samples.`), nTrain > AIC_MAX_TRAIN, note);
  }
  // The half loss keeps leave-one-out on: the AICc (which takes no loss option) is the same.
  const half = new Session(nw);
  half.generate({ ...defaults(), loss: 'halfSquared' });
  assert.deepEqual(landscapeCurve(half, { ...defaults(), loss: 'halfSquared' }).aicBest, nw.selectBandwidth(xTrain, yTrain, { criterion: 'aic' }));
});
