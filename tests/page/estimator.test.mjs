// The estimator setting (local-linear attention pooling) through the page's own Session: the lines and
// training are the module's with the estimator, the boundary note under the predictions chart states
// numbers computed here independently, and a bad URL value gets the message naming the setting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Session } from '../../web/src/model/session.js';
import { defaults, objectiveKeys, parse } from '../../web/src/model/settings.js';
import { translator } from '../../web/src/i18n/all.js';
import { boundaryNote, weightsEstimatorNote } from '../../web/src/figures/texts.js';
import { createNW } from '../module/module.mjs';

const nw = await createNW();
const en = translator('en');
const zh = translator('zh');
const localLinear = { ...defaults(), estimator: 'localLinear' };

function started(settings) {
  const session = new Session(nw);
  session.generate(settings);
  return session;
}

// The test MSE over the queries within 0.5 of either end of the x range, summed here (not by the module).
function edgeMse(data, predictions) {
  const xMin = Math.min(data.xTrain[0], data.xTest[0]);
  const xMax = Math.max(data.xTrain[data.xTrain.length - 1], data.xTest[data.xTest.length - 1]);
  let sum = 0;
  let count = 0;
  data.xTest.forEach((x, i) => {
    if (x - xMin <= 0.5 || xMax - x <= 0.5) {
      sum += (predictions[i] - data.yTruth[i]) ** 2;
      count += 1;
    }
  });
  return { mse: sum / count, count };
}

const allMse = (data, predictions) => predictions.reduce((sum, p, i) => sum + (p - data.yTruth[i]) ** 2, 0) / predictions.length;

test('the estimator is a checked URL setting that restarts training like the kernel', () => {
  assert.equal(defaults().estimator, 'nadarayaWatson');
  assert.equal(parse('estimator=localLinear').state.estimator, 'localLinear');
  const bad = parse('estimator=ll');
  assert.equal(bad.state.estimator, 'nadarayaWatson');
  assert.deepEqual(bad.problems, ['Estimator must be one of nadarayaWatson, localLinear']);
  assert.deepEqual(parse('estimator=ll', defaults(), zh).problems, ['估计器必须是以下之一：nadarayaWatson, localLinear']);
  assert.ok(objectiveKeys.includes('estimator'));
});

test('with local-linear on, every line, loss, minimiser and training step is the module\'s with the estimator', () => {
  const session = started(localLinear);
  const { xTest, xTrain, yTrain, w0, yTruth } = session.data;
  const ll = { estimator: 'localLinear' };
  assert.deepEqual(Array.from(session.predictions(2).nonparametric), Array.from(nw.predict(xTest, xTrain, yTrain, { w: 2, ...ll })));
  const trainer = new nw.Trainer(xTrain, yTrain, { w0, ...ll });
  for (let i = 0; i < 3; i++) {
    assert.equal(session.step(), trainer.step());
    assert.equal(session.learnedW, trainer.w);
  }
  assert.deepEqual(Array.from(session.predictions(2).parametric), Array.from(nw.predict(xTest, xTrain, yTrain, { w: trainer.w, ...ll })));
  assert.equal(session.testMses[3], nw.meanSquaredError(nw.predict(xTest, xTrain, yTrain, { w: trainer.w, ...ll }), yTruth));
  assert.deepEqual(session.objectiveAt([0.5, 3]), [0.5, 3].map((w) => nw.looLoss(xTrain, yTrain, { w, ...ll }).loss));
  assert.deepEqual(session.testMseAt([3]), [nw.meanSquaredError(nw.predict(xTest, xTrain, yTrain, { w: 3, ...ll }), yTruth)]);
  assert.deepEqual(session.bestBandwidth(), nw.selectBandwidth(xTrain, yTrain, ll));
  trainer.delete();
  // Switching back: Nadaraya-Watson's line again, not the kept local-linear one.
  session.resetTraining(defaults());
  assert.deepEqual(Array.from(session.predictions(2).nonparametric), Array.from(nw.predict(xTest, xTrain, yTrain, { w: 2 })));
  // The heatmap's pass gives Nadaraya-Watson's predictions: never kept as a local-linear line.
  session.resetTraining(localLinear);
  session.blocks(4, { maxCells: { rows: 50, cols: 50 }, withPredictions: true });
  assert.deepEqual(Array.from(session.predictions(4).nonparametric), Array.from(nw.predict(xTest, xTrain, yTrain, { w: 4, ...ll })));
});

test('the boundary note states the edge and overall test MSEs of both estimators at w, computed independently', () => {
  for (const [seed, w] of [[1, 1], [1, 3], [2, 1], [3, 0.5]]) {
    const session = started({ ...localLinear, seed });
    const { data } = session;
    const llLine = nw.predict(data.xTest, data.xTrain, data.yTrain, { w, estimator: 'localLinear' });
    const nwLine = nw.predict(data.xTest, data.xTrain, data.yTrain, { w });
    const edgeLl = edgeMse(data, llLine);
    const edgeNw = edgeMse(data, nwLine);
    const note = boundaryNote(session, w, en);
    const [, n, ll, nwm, total, allLl, allNw] = /over the (\d+) test queries within 0\.5 of either end of the data, the test MSE is ([\d.]+), against ([\d.]+) for Nadaraya-Watson at the same w \(over all (\d+) queries: ([\d.]+) against ([\d.]+)\)\.$/.exec(note);
    assert.equal(Number(n), edgeLl.count, note);
    assert.equal(ll, edgeLl.mse.toFixed(4), `seed ${seed}, w ${w}: ${note}`);
    assert.equal(nwm, edgeNw.mse.toFixed(4), note);
    assert.equal(Number(total), data.xTest.length);
    assert.equal(allLl, allMse(data, llLine).toFixed(4), note);
    assert.equal(allNw, allMse(data, nwLine).toFixed(4), note);
    assert.match(note, new RegExp(`^Local-linear pooling at w = ${w.toFixed(2)}:`));
    // The Gaussian kernel reaches every key: no query falls back, and the note says nothing of it.
    assert.doesNotMatch(note, /fell back/);
    assert.match(boundaryNote(session, w, zh), new RegExp(`测试 MSE 为 ${ll}，而同一 w 下的 Nadaraya-Watson 为 ${nwm}`));
  }
  // The chapter's data at w = 1: the local line corrects the boundary (the claim of the issue).
  const chapter = started(localLinear);
  const cmp = chapter.boundaryComparison(1);
  assert.ok(cmp.edge.localLinear < cmp.edge.nadarayaWatson, `edge MSE ${cmp.edge.localLinear} < ${cmp.edge.nadarayaWatson}`);
  // Off: no note, and the heatmaps' note only when local-linear is on.
  const off = started(defaults());
  assert.equal(boundaryNote(off, 1, en), '');
  assert.equal(weightsEstimatorNote(off, en), '');
  assert.match(weightsEstimatorNote(chapter, en), /heatmaps .* show Nadaraya-Watson's attention weights/);
  assert.match(weightsEstimatorNote(chapter, zh), /热图/);
});

test('the boundary note counts the queries that fell back to Nadaraya-Watson, as localLinear marks them', () => {
  const session = started({ ...localLinear, kernel: 'epanechnikov' });
  const { data } = session;
  const w = 20;
  const { fallbackRows } = nw.localLinear(data.xTest, data.xTrain, data.yTrain, { w, kernel: 'epanechnikov' });
  const count = fallbackRows.filter(Boolean).length;
  assert.ok(count > 1, `a narrow compact kernel leaves queries with one key or none: ${count}`);
  assert.match(boundaryNote(session, w, en), new RegExp(` ${count} queries of ${data.xTest.length} fell back to the Nadaraya-Watson value`));
  assert.match(boundaryNote(session, w, zh), new RegExp(`${data.xTest.length} 个查询中有 ${count} 个退回到`));
  // Your own data has no truth: only the fallbacks are stated.
  const own = new Session(nw);
  own.useOwnData({ x: [0, 1, 2, 3, 4, 5], y: [1, 3, 2, 5, 4, 6] }, { ...localLinear, kernel: 'epanechnikov' });
  const ownFallbacks = nw.localLinear(own.data.xTest, own.data.xTrain, own.data.yTrain, { w: 5, kernel: 'epanechnikov' }).fallbackRows.filter(Boolean).length;
  assert.ok(ownFallbacks > 0);
  assert.equal(boundaryNote(own, 5, en), en.plural('estimator.fallbacks', ownFallbacks, { total: own.data.xTest.length }));
  assert.equal(boundaryNote(own, 0.5, en), '', 'no truth and no fallback: nothing to say');
});

test('the numbers the README quotes for the chapter\'s data are the page\'s notes', async () => {
  const { readFileSync } = await import('node:fs');
  const { landscapeCurve, landscapeNote } = await import('../../web/src/model/landscape.js');
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  const session = started(localLinear);
  const note = boundaryNote(session, 1, en);
  const [, ll, nwm] = /the test MSE is ([\d.]+), against ([\d.]+) for Nadaraya-Watson/.exec(note);
  assert.ok(readme.includes(`\`w = 1\`: ${ll} local-linear against ${nwm} Nadaraya-Watson`), note);
  const chapter = started(defaults());
  const landscape = landscapeNote(chapter, landscapeCurve(chapter, defaults()));
  const [, aicW, looW] = /is w = ([\d.]+), beside leave-one-out's w\* = ([\d.]+)\./.exec(landscape);
  assert.ok(readme.includes(`AICc at \`w = ${aicW}\`, leave-one-out at \`w = ${looW}\``), landscape);
});
