// Bandwidth selection at large n: selectBandwidth at n = 100,000 (where the binned leave-one-out loss
// is used), and at n = 5,000 with the exact sums only (approximate 'never') against the default 'auto'.
// Run alone with `node bench/bandwidth.mjs` (about a minute); npm run bench adds its rows to the table.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const LARGE_N = 100_000;
const SMALL_N = 5_000;
const REPEATS = 3;

// Each call timed once (a call takes seconds: compilation tiers do not matter); the median and the range.
function timeRuns(fn, repeats) {
  const times = [];
  let result;
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    result = fn();
    times.push((performance.now() - start) / 1000);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(repeats / 2)], min: times[0], max: times[repeats - 1], result };
}

const seconds = ({ median, min, max }, repeats) => `median ${median.toFixed(2)} s (${min.toFixed(2)} to ${max.toFixed(2)} over ${repeats} runs)`;
const choiceText = (c) => `w ${c.w.toFixed(2)}, approximate ${c.approximate}, lossBound ${Number(c.lossBound.toPrecision(2))}`;

// Rows as [target, measured, ratio, goal, pass] for bench.mjs's row().
export function measureBandwidthSelection(nw, repeats = REPEATS) {
  const small = nw.generateData({ nTrain: SMALL_N, seed: 1 });
  const exact = timeRuns(() => nw.selectBandwidth(small.xTrain, small.yTrain, { approximate: 'never' }), repeats);
  const auto = timeRuns(() => nw.selectBandwidth(small.xTrain, small.yTrain, { approximate: 'auto' }), repeats);
  const large = nw.generateData({ nTrain: LARGE_N, seed: 1 });
  const binned = timeRuns(() => nw.selectBandwidth(large.xTrain, large.yTrain), repeats);
  return [
    [`selectBandwidth at n = ${LARGE_N.toLocaleString('en-US')} (binned)`, `${seconds(binned, repeats)}; ${choiceText(binned.result)}`,
      '', 'information', true],
    [`selectBandwidth at n = ${SMALL_N.toLocaleString('en-US')}: approximate 'never' (exact sums only) vs 'auto'`,
      `${seconds(exact, repeats)} vs ${seconds(auto, repeats)}; 'never': ${choiceText(exact.result)}; 'auto': ${choiceText(auto.result)}`,
      `${(exact.median / auto.median).toFixed(2)}x`, 'information', true],
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const nw = await createRequire(import.meta.url)('../dist/nw.js')();
  console.log('| target | measured | ratio | goal | result |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const r of measureBandwidthSelection(nw)) console.log(`| ${r.slice(0, 4).join(' | ')} |  |`);
}
