// Your own data beyond 2000 points (model/large_data.js, the Session's binned lines and epochs, the CSV
// read in a worker): every number the page would show is the module's, computed here the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CsvClient } from '../../web/src/compute/csv_client.js';
import { CsvError } from '../../web/src/io/csv.js';
import { EXACT_MAX_TRAIN, largeDataSettings } from '../../web/src/model/large_data.js';
import { Session } from '../../web/src/model/session.js';
import { defaults } from '../../web/src/model/settings.js';
import { t } from '../../web/src/i18n/i18n.js';
import { createNW } from '../module/module.mjs';

const nw = await createNW();

// n points of the chapter's function as your own data (no truth), in a shuffled order.
function ownSession(n, settings = {}) {
  const data = nw.generateData({ nTrain: n, seed: 3 });
  const order = Array.from({ length: n }, (_, i) => (i * 7919) % n);
  const session = new Session(nw);
  const s = { ...defaults(), ...settings, data: 'own' };
  session.useOwnData({ x: order.map((i) => data.xTrain[i]), y: order.map((i) => data.yTrain[i]) }, s);
  return { session, s };
}

test('above 2000 points only the Gaussian kernel with Nadaraya-Watson pooling is used, and the reader is told why', () => {
  const s = { ...defaults(), kernel: 'epanechnikov', estimator: 'localLinear' };
  assert.deepEqual(largeDataSettings(EXACT_MAX_TRAIN, s, t), { settings: s, problem: null });
  const large = largeDataSettings(EXACT_MAX_TRAIN + 1, s, t);
  assert.equal(large.settings.kernel, 'gaussian');
  assert.equal(large.settings.estimator, 'nadarayaWatson');
  assert.equal(large.problem, 'Your 2,001 points are more than 2,000: for them the page uses the Gaussian kernel with Nadaraya-Watson pooling, whose sums can be binned (another kernel would take minutes an epoch)');
  const { session } = ownSession(3000, { kernel: 'triangular' });
  const fitted = session.fitToData({ ...defaults(), kernel: 'triangular' });
  assert.equal(fitted.settings.kernel, 'gaussian');
  assert.equal(session.kernel, 'gaussian', 'training starts again with the kernel used');
  // Edits while the data are large keep the Gaussian kernel; once they are small again by the reader's
  // own data action (Clear my data gives the generated data: restore), the kernel and estimator last
  // asked for come back.
  assert.deepEqual(session.fitToData(fitted.settings), { settings: fitted.settings, problem: null });
  const asked = session.fitToData({ ...fitted.settings, kernel: 'epanechnikov', estimator: 'localLinear' });
  assert.equal(asked.settings.kernel, 'gaussian');
  session.generate(defaults());
  const small = session.fitToData(asked.settings, { restore: true });
  assert.deepEqual([small.settings.kernel, small.settings.estimator, small.problem], ['epanechnikov', 'localLinear', null]);
  assert.equal(session.kernel, 'epanechnikov', 'training starts again with the kernel restored');
  assert.deepEqual(session.fitToData({ ...small.settings, kernel: 'boxcar' }, { restore: true }).settings.kernel, 'boxcar', 'restored once only');
  // Small data by other means (an exercise, a link, a session file: no restore) keep what they ask for,
  // and what large data set aside is forgotten.
  const again = ownSession(3000).session;
  again.fitToData({ ...defaults(), kernel: 'triangular' });
  again.generate(defaults());
  const exercise = { ...defaults(), kernel: 'epanechnikov' };
  assert.deepEqual(again.fitToData(exercise), { settings: exercise, problem: null });
  assert.equal(again.fitToData(defaults(), { restore: true }).settings.kernel, 'gaussian', 'nothing set aside any more');
});

test('large data of your own trains from binned epochs; generated data never does', () => {
  const { session } = ownSession(5000, { lr: 0.001 });
  assert.equal(session.trainsApproximately, true);
  const binned = nw.binnedLooLoss(session.data.xTrain, session.data.yTrain, { w: 1 });
  session.step();
  assert.equal(session.losses[0], binned.loss);
  assert.equal(session.learnedW, 1 - 0.001 * binned.grad);
  assert.equal(session.trainer.lossBound, binned.lossBound);
  assert.ok(session.trainer.lossBound > 0, 'a binned step');
  // Binned epochs are priced by their grid too (about 34 ms an epoch here): 20 may be replayed, where
  // 5000^2 pairs an exact epoch would allow 8.
  assert.equal(session.maxEpochs, 20);
  assert.equal(ownSession(1000).session.trainsApproximately, false);
  const generated = new Session(nw);
  generated.generate({ ...defaults(), nTrain: 2000 });
  assert.equal(generated.trainsApproximately, false);
  assert.equal(generated.approximation, 'never');
});

test('a line beyond 1e7 pairs comes from binned sums with its bounds, the same as the heatmaps\' passes; within them, exactly', () => {
  const { session } = ownSession(20_000, { nTest: 600 });
  assert.equal(session.binsLines, true);
  const { xTest, xTrain, yTrain } = session.data;
  const line = session.line('nonparametric', 2);
  const expected = nw.attentionBlocks(xTest, xTrain, yTrain, { w: 2, approximate: 'auto', maxBlockRows: 1, maxBlockCols: 1 });
  assert.deepEqual(Array.from(line), Array.from(expected.predictions));
  assert.deepEqual(Array.from(session.boundsOf(line)), Array.from(expected.predictionBounds));
  const exact = nw.predict(xTest, xTrain, yTrain, { w: 2 });
  line.forEach((p, i) => assert.ok(Math.abs(p - exact[i]) <= session.boundsOf(line)[i]));
  // A heatmap's pass at another w gives that w's line, with its bounds.
  const blocks = session.blocks(3, { maxCells: { rows: 50, cols: 50 }, withPredictions: true });
  assert.equal(blocks.approximate, true);
  assert.equal(session.line('nonparametric', 3), blocks.predictions);
  assert.equal(session.boundsOf(blocks.predictions), blocks.predictionBounds);

  const small = ownSession(20_000, { nTest: 500 }).session;
  assert.equal(small.binsLines, false);
  const exactLine = small.line('nonparametric', 2);
  assert.equal(small.boundsOf(exactLine), null);
  assert.deepEqual(Array.from(exactLine), Array.from(nw.predict(small.data.xTest, small.data.xTrain, small.data.yTrain, { w: 2 })));
});

// A stand-in for the browser's Worker: records what it is sent; the test replies.
class FakeWorker {
  constructor() { this.sent = []; this.terminated = false; }
  postMessage(message) { this.sent.push(message); }
  terminate() { this.terminated = true; }
  reply(data) { this.onmessage({ data }); }
}

test('the CSV client reads in the worker with its progress, puts a refusal in the page\'s words, and a newer read supersedes', async () => {
  const worker = new FakeWorker();
  const client = new CsvClient({ startWorker: () => worker });
  const progress = [];
  const first = client.read('1,2\n3,4', (fraction) => progress.push(fraction));
  assert.deepEqual(worker.sent, [{ id: 1, text: '1,2\n3,4' }]);
  worker.reply({ id: 1, progress: 0.5 });
  worker.reply({ id: 1, points: { x: [1, 3], y: [2, 4] } });
  assert.deepEqual(await first, { x: [1, 3], y: [2, 4] });
  assert.deepEqual(progress, [0.5]);

  const refused = client.read('1,2\n3');
  worker.reply({ id: 2, error: { key: 'csv.twoColumns', params: { line: 2, got: '"3"' } } });
  await assert.rejects(refused, (error) => error instanceof CsvError && error.message === 'Line 2: needs two columns, x and y, got "3"');

  let settled = false;
  client.read('1,2\n3,4').then(() => { settled = true; }, () => { settled = true; });
  const newer = client.read('5,6\n7,8');
  worker.reply({ id: 3, points: { x: [1, 3], y: [2, 4] } }); // (the superseded read's answer)
  worker.reply({ id: 4, points: { x: [5, 7], y: [6, 8] } });
  assert.deepEqual(await newer, { x: [5, 7], y: [6, 8] });
  assert.equal(settled, false, 'a superseded read never settles');

  // A cancelled read (Clear my data, an imported session) never settles and tells no progress.
  const told = [];
  client.read('9,9\n8,8', (fraction) => told.push(fraction)).then(() => { told.push('settled'); }, () => { told.push('settled'); });
  client.cancel();
  worker.reply({ id: 5, progress: 0.5 });
  worker.reply({ id: 5, points: { x: [8, 9], y: [8, 9] } });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(told, []);
});

test('a worker silent for 10 s is given up, and the CSV read on the page\'s thread', async () => {
  const worker = new FakeWorker();
  const timers = { pending: new Map(), next: 1, setTimeout(fn, ms) { this.pending.set(this.next, { fn, ms }); return this.next++; }, clearTimeout(id) { this.pending.delete(id); } };
  const client = new CsvClient({ startWorker: () => worker, timers });
  const reading = client.read('1,2\n3,4');
  assert.deepEqual([...timers.pending.values()].map(({ ms }) => ms), [10_000]);
  worker.reply({ id: 1, progress: 0.3 }); // (progress restarts the wait)
  assert.equal(timers.pending.size, 1);
  [...timers.pending.values()][0].fn();
  assert.deepEqual(await reading, { x: [1, 3], y: [2, 4] });
  assert.equal(worker.terminated, true);
  assert.equal(timers.pending.size, 0, 'no timer left');
});

test('the predictions CSV gives binned lines\' bounds in two more columns, and only then', async () => {
  const { predictionsCsv } = await import('../../web/src/io/exports.js');
  const data = { xTest: [0, 1], yTruth: null };
  const predictions = { average: [2, 2], nonparametric: [1.5, 2.5], parametric: [1, 3] };
  assert.equal(predictionsCsv(data, predictions), 'x,truth,average,nonparametric,parametric\n0,,2,1.5,1\n1,,2,2.5,3\n');
  assert.equal(predictionsCsv(data, predictions, { nonparametric: [1e-7, 0], parametric: null }),
    'x,truth,average,nonparametric,parametric,nonparametric_bound,parametric_bound\n0,,2,1.5,1,1e-7,\n1,,2,2.5,3,0,\n');
});

test('where no worker starts, or it fails, the CSV is read on the page\'s thread', async () => {
  const none = new CsvClient({ startWorker: () => { throw new Error('file://'); } });
  assert.deepEqual(await none.read('x,y\n1,2\n3,4'), { x: [1, 3], y: [2, 4] });
  await assert.rejects(none.read('1,2'), /at least 2 rows/);
  const worker = new FakeWorker();
  const failing = new CsvClient({ startWorker: () => worker });
  const reading = failing.read('1,2\n3,4');
  worker.onerror({ preventDefault() {} });
  assert.deepEqual(await reading, { x: [1, 3], y: [2, 4] });
  assert.equal(worker.terminated, true);
  assert.deepEqual(await failing.read('5,6\n7,8'), { x: [5, 7], y: [6, 8] });
  assert.equal(worker.sent.length, 1, 'later reads stay on the page');
});

test('a session file\'s own data has the CSV\'s limits: 2 to 100,000 points', async () => {
  const { parseSession } = await import('../../web/src/io/exports.js');
  const file = (n) => JSON.stringify({
    format: 'nadaraya-watson-session', version: 1, settings: { data: 'own' },
    ownData: { x: Array.from({ length: n }, (_, i) => i), y: Array.from({ length: n }, () => 1) }, training: { ws: [], losses: [] },
  });
  assert.equal(parseSession(file(100_000)).ownData.x.length, 100_000);
  assert.throws(() => parseSession(file(100_001)), { message: "The session's own data must have 2 to 100000 points, got 100001" });
  assert.throws(() => parseSession(file(1)), { message: "The session's own data must have 2 to 100000 points, got 1" });
});

test('a session file of 100,000 own points stays within the 5 MB a session file may have, and reads back', async () => {
  const { parseSession, sessionJson } = await import('../../web/src/io/exports.js');
  const data = nw.generateData({ nTrain: 100_000, seed: 9 });
  const own = { x: Array.from(data.xTrain, (x) => -x), y: Array.from(data.yTrain, (y) => y * 1e-7) }; // (17 digits and a sign each)
  const text = sessionJson({ ...defaults(), data: 'own' }, { ws: [1, 2], losses: [3], testMses: [] }, own);
  assert.ok(text.length < 5_000_000, `${text.length} characters`);
  const read = parseSession(text);
  assert.deepEqual(read.ownData, own);
  assert.deepEqual(read.training, { ws: [1, 2], losses: [3] });
  assert.match(text, /\n {2}"training": \{\n/, 'the rest stays indented');
});
