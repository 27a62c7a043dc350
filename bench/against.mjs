// npm run bench:against -- COMMIT: this tree and an earlier commit's build, measured in one run, round by
// round in alternating order (so the shared machine's load falls on both alike). Each tree is measured by
// its own bench/page.mjs (the page's test surface may differ between them) and its own dist/nw.js.
// Usage: node bench/against.mjs OTHER_TREE [ROUNDS]; scripts/bench_against.sh builds OTHER_TREE.
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [otherRoot, roundsArg = '3'] = process.argv.slice(2);
if (!otherRoot) throw new Error('usage: node bench/against.mjs OTHER_TREE [ROUNDS]');
const rounds = Number(roundsArg);
const roots = { before: resolve(otherRoot), now: fileURLToPath(new URL('..', import.meta.url)) };
const require = createRequire(import.meta.url);

const trees = {};
for (const [name, root] of Object.entries(roots)) {
  trees[name] = { nw: await require(resolve(root, 'dist/nw.js'))(), page: await import(pathToFileURL(resolve(root, 'bench/page.mjs'))) };
}

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const median = (values) => quantile(values, 0.5);

// The module's speed: the bench's 4096 x 4096 predict and epoch, and the chapter's size (n = 50) called
// 2000 times, where a call's fixed cost shows. A median of five calls after two untimed ones.
function moduleTimes(nw) {
  const big = nw.generateData({ nTrain: 4096, nTest: 4096, seed: 1 });
  const small = nw.generateData({ nTrain: 50, nTest: 50, seed: 1 });
  const tasks = {
    'module: predict 4096 x 4096 (ms)': () => nw.predict(big.xTest, big.xTrain, big.yTrain, { w: 1 }),
    'module: epoch n = 4096 (ms)': () => nw.looLoss(big.xTrain, big.yTrain, { w: 1 }),
    'module: 2000 predicts at n = 50 (ms)': () => { for (let i = 0; i < 2000; i++) nw.predict(small.xTest, small.xTrain, small.yTrain, { w: 1 }); },
  };
  return Object.fromEntries(Object.entries(tasks).map(([name, task]) => {
    task(); task();
    const times = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      task();
      times.push(performance.now() - start);
    }
    return [name, [median(times)]];
  }));
}

const INTERACTIONS = ['arrow key on w', 'query moved', 'Step', 'Train'];

// One round of one tree: { [metric]: [samples...] }, every value in milliseconds.
async function measureRound({ nw, page }) {
  const samples = moduleTimes(nw);
  const drag = await page.measureDrag({ updates: 60 });
  samples['drag w, Worker (http): page-thread draw per update'] = drag.worker.draw;
  samples['drag w, Worker (http): input to drawn preview'] = drag.worker.update;
  samples['drag w, page thread only (file://): update'] = drag.page.update;
  const loads = await page.measureFirstChart({ loads: 2 });
  for (const [name, list] of Object.entries(loads)) samples[`first chart, ${name}`] = list.map((load) => load.firstChart);
  const interactions = await page.measureInteractions({ only: INTERACTIONS });
  for (const [where, byName] of Object.entries(interactions)) {
    for (const [name, { toFrame, toIdle }] of Object.entries(byName)) {
      samples[`${name}, ${where}: input to next frame`] = toFrame;
      samples[`${name}, ${where}: until idle`] = toIdle;
    }
  }
  return samples;
}

const all = { before: {}, now: {} };
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? ['before', 'now'] : ['now', 'before'];
  for (const name of order) {
    console.error(`against: round ${round + 1} of ${rounds}, ${name}`);
    for (const [metric, values] of Object.entries(await measureRound(trees[name]))) {
      (all[name][metric] ??= []).push(...values);
    }
  }
}

const spread = (values) => `${median(values).toFixed(1)} (p10 ${quantile(values, 0.1).toFixed(1)}, p90 ${quantile(values, 0.9).toFixed(1)}; ${values.length})`;
console.log(`Before (${otherRoot}) and now, ${rounds} rounds interleaved, on ${cpus()[0].model.trim()} (${cpus().length} cores), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`);
console.log('| measure (ms) | before: median (p10, p90; samples) | now | now / before |');
console.log('| --- | --- | --- | --- |');
for (const [metric, before] of Object.entries(all.before)) {
  const now = all.now[metric];
  if (!now) continue;
  console.log(`| ${metric} | ${spread(before)} | ${spread(now)} | ${(median(now) / median(before)).toFixed(2)} |`);
}
