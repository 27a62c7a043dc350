// npm run bench: every speed target of the project measured side by side in one run, as ratios.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { carefulPredict } from './careful.mjs';
import { naiveEpoch, naivePredict } from './naive.mjs';
import { measureBandwidthSelection } from './bandwidth.mjs';
import { measureBoundTightness } from './binned_bounds.mjs';
import { measureScoring } from './scoring.mjs';
import { measureLighthouse } from './lighthouse.mjs';
import { measureConsistency, measureDrag, measureFirstChart, measureInteractions, measureLargeDrag } from './page.mjs';
import { CONSISTENCY_NS } from '../web/src/model/consistency_point.js';
import { measurePeers, poolName } from './peers.mjs';
import { measureBrowserPeers } from './browser_peers.mjs';
import { createNodeRowPool } from './node_row_pool.mjs';

const N = 4096;
const SEED = 1;
const W = 1;
const FRAME_MS = 1000 / 60;
const referenceBinary = process.argv[2];
const nw = await createRequire(import.meta.url)('../dist/nw.js')();
const data = nw.generateData({ nTrain: N, nTest: N, seed: SEED });

// Median of `runs` timed calls after three untimed ones, so both WebAssembly (compiled in tiers) and
// JavaScript (optimised after a few calls) are measured in their steady state.
function medianMs(fn, runs = 7) {
  for (let i = 0; i < 3; i++) fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const maxRelativeError = (actual, exact) => Math.max(...Array.from(actual, (a, i) => Math.abs(a - exact[i]) / Math.abs(exact[i])));
const reference = (mode, w = W) => execFileSync(referenceBinary, [mode, String(N), String(SEED), String(w)], { encoding: 'utf8' }).trim().split('\n').map(Number);

const rows = [];
const row = (target, measured, ratio, goal, pass) => rows.push({ target, measured, ratio, goal, pass: goal === 'information' ? '' : pass ? 'pass' : 'FAIL' });

// 1. Dense prediction
const exactPredictions = reference('predict');
let wasmPredicted;
const wasmPredictMs = medianMs(() => { wasmPredicted = nw.predict(data.xTest, data.xTrain, data.yTrain, { w: W }); });
let jsPredicted;
const jsPredictMs = medianMs(() => { jsPredicted = naivePredict(data.xTest, data.xTrain, data.yTrain, W); }, 5);
const wasmPredictError = maxRelativeError(wasmPredicted, exactPredictions);
const jsPredictError = maxRelativeError(jsPredicted, exactPredictions);
row(`predict ${N} x ${N}: WASM vs plain JS`, `${wasmPredictMs.toFixed(1)} ms vs ${jsPredictMs.toFixed(1)} ms`,
  `${(jsPredictMs / wasmPredictMs).toFixed(2)}x`, '>= 2x', jsPredictMs / wasmPredictMs >= 2);
row('predict: max relative error vs long double', `WASM ${wasmPredictError.toExponential(1)}, JS ${jsPredictError.toExponential(1)}`, '', '<= 1e-12', wasmPredictError <= 1e-12);

// 1b. A sharp kernel: with sorted keys each row sums only the keys within reach (weights below 2^-60 / n
// of the nearest key's are skipped); so does the careful JS version (bench/careful.mjs), like for like.
const SHARP_W = 10;
const exactSharp = reference('predict', SHARP_W);
let sharpPredicted;
const sharpMs = medianMs(() => { sharpPredicted = nw.predict(data.xTest, data.xTrain, data.yTrain, { w: SHARP_W }); });
const jsSharpMs = medianMs(() => carefulPredict(data.xTest, data.xTrain, data.yTrain, SHARP_W), 5);
const sharpError = maxRelativeError(sharpPredicted, exactSharp);
row(`predict ${N} x ${N} at w = ${SHARP_W} (only keys within reach): WASM vs careful JS with the same window`, `${sharpMs.toFixed(1)} ms vs ${jsSharpMs.toFixed(1)} ms`,
  `${(jsSharpMs / sharpMs).toFixed(2)}x`, '>= 2x', jsSharpMs / sharpMs >= 2);
row(`predict at w = ${SHARP_W}: max relative error vs long double`, `WASM ${sharpError.toExponential(1)}`, '', '<= 1e-12', sharpError <= 1e-12);

// 2. One training epoch
const [exactLoss, exactGrad] = reference('epoch');
let wasmEpoch;
const wasmEpochMs = medianMs(() => { wasmEpoch = nw.looLoss(data.xTrain, data.yTrain, { w: W }); });
let jsEpoch;
const jsEpochMs = medianMs(() => { jsEpoch = naiveEpoch(data.xTrain, data.yTrain, W); }, 5);
const epochError = Math.max(Math.abs(wasmEpoch.loss - exactLoss) / exactLoss, Math.abs(wasmEpoch.grad - exactGrad) / Math.abs(exactGrad));
const jsEpochError = Math.max(Math.abs(jsEpoch.loss - exactLoss) / exactLoss, Math.abs(jsEpoch.grad - exactGrad) / Math.abs(exactGrad));
row(`epoch (loss + gradient), n = ${N}: WASM vs plain JS`, `${wasmEpochMs.toFixed(1)} ms vs ${jsEpochMs.toFixed(1)} ms`,
  `${(jsEpochMs / wasmEpochMs).toFixed(2)}x`, '>= 2x', jsEpochMs / wasmEpochMs >= 2);
row('epoch: max relative error vs long double', `WASM ${epochError.toExponential(1)}, JS ${jsEpochError.toExponential(1)}`, '', '<= 1e-12', epochError <= 1e-12);

// 3. The peers, interleaved round by round (bench/peers.mjs): the module, careful plain JS, numpy with
// preallocated buffers and in-place ufuncs, torch float64 with one thread and with every thread.
// The module also runs split across a pool of worker threads, one per core (the page's row pool,
// web/src/row_pool.js, over Node's threads): the same answers bit for bit (checked here), each thread a
// share of the rows.
const pool = createNodeRowPool(nw);
pool.setData(data);
const pooled = { predict: await pool.predict({ w: W }), epoch: await pool.looLoss({ w: W }) };
const single = { predict: nw.predict(data.xTest, data.xTrain, data.yTrain, { w: W }), epoch: nw.looLoss(data.xTrain, data.yTrain, { w: W }) };
const poolIdentical = pooled.predict.every((v, i) => Object.is(v, single.predict[i])) && Object.is(pooled.epoch.loss, single.epoch.loss) && Object.is(pooled.epoch.grad, single.epoch.grad);
const peers = await measurePeers({ nw, pool, data, exact: { predictions: exactPredictions, loss: exactLoss, grad: exactGrad }, w: W });
pool.terminate();
for (const [task, label] of [['predict', `predict ${N} x ${N} at w = ${W}`], ['epoch', `epoch (loss + gradient), n = ${N}`]]) {
  const timings = peers.results[task];
  const wasm = quantile(timings.WASM.wall, 0.5);
  for (const [name, { wall, cpu, error }] of Object.entries(timings)) {
    const median = quantile(wall, 0.5);
    row(`${label}, interleaved over ${wall.length} rounds: ${name}`,
      `wall median ${median.toFixed(1)} ms (${Math.min(...wall).toFixed(1)} to ${Math.max(...wall).toFixed(1)}), CPU median ${quantile(cpu, 0.5).toFixed(1)} ms; max relative error ${error.toExponential(1)}`,
      name === 'WASM' ? '' : `${(median / wasm).toFixed(2)}x WASM's time`, 'information', true);
  }
  // The issue's goal: faster than the competent single-process peers on this machine, using every
  // core; the single-core figure beside it.
  const peersHere = ['numpy (in-place)', 'torch (1 thread)'].filter((name) => timings[name]);
  if (peersHere.length > 0) {
    const fastest = Math.min(...peersHere.map((name) => quantile(timings[name].wall, 0.5)));
    const pooledMs = quantile(timings[poolName(pool)].wall, 0.5);
    row(`${label}: ${poolName(pool)} vs the fastest of ${peersHere.join(' and ')}`, `${pooledMs.toFixed(1)} ms vs ${fastest.toFixed(1)} ms`,
      `${(fastest / pooledMs).toFixed(2)}x`, '>= 1.3x', fastest / pooledMs >= 1.3);
    row(`${label}: WASM (one thread) vs the fastest of ${peersHere.join(' and ')}`, `${wasm.toFixed(1)} ms vs ${fastest.toFixed(1)} ms`,
      `${(fastest / wasm).toFixed(2)}x`, 'information', true);
  }
}
row(`${poolName(pool)}: predictions and epoch equal to one thread's`, poolIdentical ? 'bit for bit' : 'DIFFERENT', '', 'bit for bit', poolIdentical);

// 3b. The same two contenders in Chromium, where the page runs (its V8 runs plain JS faster than
// Node's), one thread, interleaved round by round.
const inChromium = await measureBrowserPeers({ n: N, seed: SEED, w: W, sharpW: SHARP_W });
for (const [task, { WASM: wasmTimes, 'careful JS': jsTimes }] of Object.entries(inChromium)) {
  const [wasm, js] = [quantile(wasmTimes, 0.5), quantile(jsTimes, 0.5)];
  const range = (times) => `${Math.min(...times).toFixed(1)} to ${Math.max(...times).toFixed(1)}`;
  row(`${task === 'epoch' ? `epoch (loss + gradient), n = ${N}` : `${task}, ${N} x ${N}`}, in Chromium over ${wasmTimes.length} interleaved rounds: WASM vs careful JS (one thread)`,
    `median ${wasm.toFixed(1)} ms (${range(wasmTimes)}) vs ${js.toFixed(1)} ms (${range(jsTimes)})`, `${(js / wasm).toFixed(2)}x`, '>= 2x', js / wasm >= 2);
}
if (peers.missing.length > 0) {
  rows.push({ target: 'peers not measured', measured: `${peers.missing.join(', ')}: no python3 here has them (npm run bench installs Debian's python3-numpy and python3-torch)`, ratio: '', goal: '', pass: 'n/a' });
}

// 4. The page: what a first visit downloads (index.html and what it links), then dragging w with
// nTrain = nTest = 1000, one new w per frame
const distFile = (name) => readFileSync(new URL(`../dist/${name}`, import.meta.url));
const html = distFile('index.html');
const linked = [...html.toString().matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"/g)].map((m) => m[1]).filter((name) => !name.startsWith('data:'));
const served = [['index.html', html], ...linked.map((name) => [name, distFile(name)])];
const bytes = (files) => files.reduce((sum, [, file]) => sum + file.length, 0);
const gzipped = (files) => files.reduce((sum, [, file]) => sum + gzipSync(file, { level: 9 }).length, 0);
const scripts = served.filter(([name]) => name.endsWith('.js'));
// The layout before the bundle (commit d2b5a80: 18 page scripts, Chart.js and chartjs-chart-matrix
// whole, the raw wasm in base64), measured by building that commit and counting the same way.
const before = { js: 568_706, jsGzip: 193_801, total: 582_687, issueTotal: 573 * 1024 };
const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
row(`page JavaScript on a first visit (${scripts.map(([name]) => name).join(' + ')}) vs the previous layout's 20 scripts`,
  `${kB(bytes(scripts))} (${kB(gzipped(scripts))} gzipped) vs ${kB(before.js)} (${kB(before.jsGzip)} gzipped)`,
  `${(bytes(scripts) / before.js).toFixed(2)}x (gzipped ${(gzipped(scripts) / before.jsGzip).toFixed(2)}x)`, 'information', true);
row(`page weight on a first visit (${served.map(([name]) => name).join(', ')})`, `${kB(bytes(served))} (${kB(gzipped(served))} gzipped) vs ${kB(before.total)}`,
  `${(bytes(served) / before.issueTotal).toFixed(2)}x of 573 KiB`, '<= 0.7x of 573 KiB', bytes(served) <= 0.7 * before.issueTotal);

// Time to the first chart: the whole page (which draws only the figures near the view) against
// one-figure embeds (which draw only their own); and the load's goals: the first chart within 2x the
// module's time to be ready, and no task of 100 ms or more until the page is idle.
const firstChart = await measureFirstChart();
const loadRange = (values, digits = 0) => `median ${quantile(values, 0.5).toFixed(digits)} (${Math.min(...values).toFixed(digits)} to ${Math.max(...values).toFixed(digits)} over ${values.length} loads)`;
const whole = quantile(firstChart['whole page'].map((load) => load.firstChart), 0.5);
for (const [name, loads] of Object.entries(firstChart)) {
  const times = loads.map((load) => load.firstChart);
  const median = quantile(times, 0.5);
  row(`time to the first chart (http, 1280 x 800), ${name}`, `${loadRange(times)} ms`,
    name === 'whole page' ? '' : `${(median / whole).toFixed(2)}x the whole page's`, 'information', true);
}
{
  const loads = firstChart['whole page'];
  const ratios = loads.map((load) => load.firstChart / load.moduleReady);
  const longest = loads.map((load) => load.longestTask);
  row('page load at the default settings (http, 1280 x 800): first chart vs the module ready, each load\'s ratio',
    `first chart ${loadRange(loads.map((load) => load.firstChart))} ms, module ready ${loadRange(loads.map((load) => load.moduleReady))} ms`,
    `${quantile(ratios, 0.5).toFixed(2)}x (at most ${Math.max(...ratios).toFixed(2)}x)`, '<= 2x', quantile(ratios, 0.5) <= 2);
  row('page load at the default settings (http, 1280 x 800): the longest task until the page is idle',
    `${loadRange(longest)} ms (0: none of 50 ms or more)`, '', '< 100 ms', quantile(longest, 0.5) < 100);
}

const drag = await measureDrag();
const frameShare = (ms) => `${(ms / FRAME_MS).toFixed(2)} of a frame`;
const spread = (values) => `median ${quantile(values, 0.5).toFixed(1)} ms, p95 ${quantile(values, 0.95).toFixed(1)} ms`;
const onTime = (frames) => frames.filter((ms) => ms < 1.25 * FRAME_MS).length / frames.length;
const { worker, page } = drag;
// The worker computes the full-resolution heatmap (every weight, one block per device pixel at most);
// the page's thread alone (file://) computes at most 100 x 100 blocks while dragging.
row('page, drag w, n = 1000, preview in a Worker (http), heatmap at full resolution: page-thread work per update (draw)', spread(worker.draw),
  `${frameShare(quantile(worker.draw, 0.5))} (median), ${frameShare(quantile(worker.draw, 0.95))} (p95)`, 'median < 1 frame, p95 < 1.5 frames',
  quantile(worker.draw, 0.5) < FRAME_MS && quantile(worker.draw, 0.95) < 1.5 * FRAME_MS);
row('page, drag w, Worker: frames that came on time / previews drawn', `${(100 * onTime(worker.frames)).toFixed(0)}% of frames; ${worker.update.length} of ${worker.requested} w values drawn`,
  '', 'information', true);
row('page, drag w, Worker: input to drawn preview (latency, computed while the page draws)', spread(worker.update),
  `${frameShare(quantile(worker.update, 0.5))} (median)`, 'information', true);
row('page, drag w, n = 1000, page thread only (file://), heatmap at most 100 x 100 while dragging: re-predict + redraw per update', spread(page.update),
  `${frameShare(quantile(page.update, 0.5))} (median), ${frameShare(quantile(page.update, 0.95))} (p95)`, 'p95 < 1 frame (16.7 ms)', quantile(page.update, 0.95) < FRAME_MS);
row('page, drag w, page thread only: frames that came on time', `${(100 * onTime(page.frames)).toFixed(0)}% of frames`, '', 'information', true);
// Your own data at its limit (#31: a change of w paints within 100 ms): lines and heatmap from binned sums.
const largeDrag = await measureLargeDrag();
row('page, drag w, your own 100,000 points and 2000 test points (binned lines and heatmap, Worker): input to drawn preview',
  `${spread(largeDrag.update)}; page-thread draw ${spread(largeDrag.draw)}; ${largeDrag.update.length} of ${largeDrag.requested} w values drawn`,
  '', 'median <= 100 ms', quantile(largeDrag.update, 0.5) <= 100);

// The reader's interactions: input to the next frame, until the page is idle again (training done,
// every figure near the view drawn), and any long task (50 ms and up) meanwhile.
const interactions = await measureInteractions();
for (const [where, byName] of Object.entries(interactions)) {
  for (const [name, { toFrame, toIdle, longestTask }] of Object.entries(byName)) {
    row(`page, ${name}, ${where}: input to the next frame, over ${toFrame.length} times`,
      `${spread(toFrame)}; until idle: median ${quantile(toIdle, 0.5).toFixed(0)} ms; longest task ${longestTask ? `${longestTask.toFixed(0)} ms` : 'none of 50 ms or more'}`,
      `${frameShare(quantile(toFrame, 0.95))} (p95)`, 'no task of 50 ms or more', longestTask === 0);
  }
}

// Lighthouse (12.2.3) performance at the default settings, desktop and mobile (its simulated slow phone).
const lighthouse = await measureLighthouse();
for (const [formFactor, goal] of [['desktop', 90], ['mobile', 75]]) {
  const runs = lighthouse[formFactor];
  const scores = runs.map((r) => r.score);
  const median = (key) => quantile(runs.map((r) => r[key]), 0.5);
  row(`page, Lighthouse ${formFactor} performance (http, default settings)`,
    `median ${quantile(scores, 0.5)} (${Math.min(...scores)} to ${Math.max(...scores)} over ${runs.length} runs); total blocking time ${median('tbt').toFixed(0)} ms, largest contentful paint ${median('lcp').toFixed(0)} ms (medians)`,
    '', `>= ${goal}`, quantile(scores, 0.5) >= goal);
}

// 5. Memory of a 100,000 x 100,000 prediction (a child process each, so peaks do not mix)
const memory = [10_000, 100_000].map((n) => JSON.parse(execFileSync(process.execPath, [new URL('./memory.mjs', import.meta.url).pathname, String(n)], { encoding: 'utf8' })));
const [small, large] = memory;
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
row('predict 100,000 x 100,000: memory', `heap ${mib(large.heapBytes)}, peak RSS ${mib(large.peakRssBytes)} (10,000: ${mib(small.heapBytes)}, ${mib(small.peakRssBytes)}); ${large.seconds.toFixed(1)} s`,
  `${(large.peakRssBytes / small.peakRssBytes).toFixed(2)}x for 10x n`, 'O(n): far below the 80 GB of an n x n matrix', large.finite && large.heapBytes < 256 * 2 ** 20);

// The consistency figure in Chromium, Compute to its last point (#31's goal: 4 s; 16 to 20 s before).
const consistency = await measureConsistency();
const consistencyMedian = quantile(consistency, 0.5);
row(`page, consistency figure: Compute to its last point (Chromium, http, n = 50 to ${CONSISTENCY_NS.at(-1).toLocaleString('en-US')})`,
  `median ${consistencyMedian.toFixed(2)} s (${Math.min(...consistency).toFixed(2)} to ${Math.max(...consistency).toFixed(2)} over ${consistency.length} runs)`,
  '', '<= 4 s', consistencyMedian <= 4);

// 6. Bandwidth selection at large n (bench/bandwidth.mjs): 100,000 and 1,000,000 points against #31's goals; exact only vs 'auto' at 5,000
for (const r of measureBandwidthSelection(nw)) row(...r);
{
  const t = measureBoundTightness(nw, { dataSets: 60 });
  row('binnedPredict: error / bound on random data (uniform, clumped, a lone key, an outlier, offset 1e9, scaled 1e-12)',
    `${t.compared} predictions of ${t.dataSets} data sets: ${t.exceeded} above their bound; median error / bound ${t.median.toPrecision(2)}; ${(100 * t.within100).toFixed(0)}% within 100x`,
    '', 'never above the bound', t.exceeded === 0);
}

// 7. The scoring functions (bench/scoring.mjs): an additive-attention epoch against PyTorch, and at n = 50
for (const r of await measureScoring(nw)) row(...r);

console.log(`Benchmark on ${cpus()[0].model.trim()} (${cpus().length} cores), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`);
console.log('| target | measured | ratio | goal | result |');
console.log('| --- | --- | --- | --- | --- |');
for (const r of rows) console.log(`| ${r.target} | ${r.measured} | ${r.ratio} | ${r.goal} | ${r.pass} |`);
