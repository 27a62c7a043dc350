// Bandwidth selection at large n: selectBandwidth at n = 100,000 and 1,000,000 (where binned leave-one-out
// losses are used) against #31's goals, the choice at 100,000 checked against exact losses around it,
// and n = 5,000 with the exact sums only (approximate 'never') against the default 'auto'.
// Run alone with `node bench/bandwidth.mjs` (about three minutes); npm run bench adds its rows to the table.
// For a ratio against an earlier build, measured side by side: npm run bench:against -- COMMIT.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const LARGE_N = 100_000;
const HUGE_N = 1_000_000;
// #31's goals, in seconds (6.1 s and over 30 s in Node before it).
const LARGE_GOAL = 0.6;
const HUGE_GOAL = 5;
// Relative steps in w around the choice where the exact loss must not be lower by more than its bound.
const AROUND = [0.7, 0.9, 0.97, 0.99, 1.01, 1.03, 1.1, 1.4];
const SMALL_N = 5_000;
// The machine's speed swings by a third within minutes: 5 runs at 100,000 and 3 at 1,000,000 give the
// goals a median, not one lucky or unlucky run.
const REPEATS = 5;
const HUGE_REPEATS = 3;

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
  const huge = nw.generateData({ nTrain: HUGE_N, seed: 1 });
  const hugeRun = timeRuns(() => nw.selectBandwidth(huge.xTrain, huge.yTrain), HUGE_REPEATS);
  // The chosen w's exact loss against exact losses around it (each about 3 s at this size).
  const chosen = binned.result;
  const exactAt = (w) => nw.looLoss(large.xTrain, large.yTrain, { w }).loss;
  const exactChosen = exactAt(chosen.w);
  const aroundBest = Math.min(...AROUND.map((f) => exactAt(chosen.w * f)));
  const holds = exactChosen <= aroundBest + chosen.lossBound && Math.abs(exactChosen - chosen.loss) <= chosen.lossBound;
  return [
    [`selectBandwidth at n = ${LARGE_N.toLocaleString('en-US')}`, `${seconds(binned, repeats)}; ${choiceText(binned.result)}`,
      '', `<= ${LARGE_GOAL} s`, binned.median <= LARGE_GOAL],
    [`selectBandwidth at n = ${HUGE_N.toLocaleString('en-US')}`, `${seconds(hugeRun, HUGE_REPEATS)}; ${choiceText(hugeRun.result)}`,
      '', `<= ${HUGE_GOAL} s`, hugeRun.median <= HUGE_GOAL],
    [`its choice at n = ${LARGE_N.toLocaleString('en-US')}: exact loss vs the exact losses at ${AROUND.join(', ')} times its w`,
      `${exactChosen.toFixed(4)} (binned ${chosen.loss.toFixed(4)} +- ${Number(chosen.lossBound.toPrecision(2))}) vs lowest around ${aroundBest.toFixed(4)}`,
      '', 'within the bound', holds],
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
