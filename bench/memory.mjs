// Child process of the benchmark: one dense prediction of N queries over N keys, then its peak memory.
import { createRequire } from 'node:module';

const n = Number(process.argv[2]);
const nw = await createRequire(import.meta.url)('../dist/nw.js')();
const data = nw.generateData({ nTrain: n, nTest: n, seed: 1 });
const start = performance.now();
const predicted = nw.predict(data.xTest, data.xTrain, data.yTrain, { w: 1 });
const seconds = (performance.now() - start) / 1000;
console.log(JSON.stringify({
  n,
  seconds,
  finite: predicted.every(Number.isFinite),
  heapBytes: nw.heapStats().arena,
  peakRssBytes: process.resourceUsage().maxRSS * 1024,
}));
