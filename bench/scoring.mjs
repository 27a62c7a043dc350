// The scoring functions' speed (issue 30): an additive-attention epoch (h = 8, n = 2000: forward,
// backward and an Adam step) in the module against the same epoch in PyTorch float64 on one thread
// (bench/scoring_peer.py), interleaved round by round, with the losses checked against each other; and
// the epoch at the chapter's n = 50 against a frame.
import { execFileSync, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROUNDS = 7;
const FRAME_MS = 1000 / 60;
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const spread = (ms) => `median ${quantile(ms, 0.5).toFixed(0)} ms (${Math.min(...ms).toFixed(0)} to ${Math.max(...ms).toFixed(0)})`;

const hasTorch = () => {
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import torch'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

// One epoch of a fresh trainer from the same start: wall ms and the loss before the step.
function moduleEpoch(nw, data, options) {
  const trainer = new nw.Trainer(data.xTrain, data.yTrain, options);
  const started = performance.now();
  const loss = trainer.step();
  const ms = performance.now() - started;
  trainer.delete();
  return { ms, loss };
}

// Rows for bench.mjs: [target, measured, ratio, goal, pass].
export async function measureScoring(nw) {
  const rows = [];
  const data = nw.generateData({ nTrain: 2000, seed: 1 });
  const start = { scoring: 'additive', hidden: 8, seed: 1, optimizer: 'adam', lr: 0.01 };
  const trainer = new nw.Trainer(data.xTrain, data.yTrain, start);
  const parameters = Object.fromEntries(Object.entries(trainer.parameters).map(([key, values]) => [key, Array.from(values)]));
  trainer.delete();
  const wasm = [];
  const torch = [];
  let worst = 0;
  let peer = null;
  const file = join(tmpdir(), `nw-scoring-${process.pid}.json`);
  if (hasTorch()) {
    writeFileSync(file, JSON.stringify({ xTrain: Array.from(data.xTrain), yTrain: Array.from(data.yTrain), parameters, lr: start.lr }));
    const child = spawn('/usr/bin/python3', [new URL('./scoring_peer.py', import.meta.url).pathname, file], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async () => JSON.parse((await lines.next()).value);
    await next(); // its version line
    peer = { ask: async () => { child.stdin.write('epoch\n'); return next(); }, close: () => child.stdin.end() };
  }
  moduleEpoch(nw, data, start); // (untimed: compiles the tiers)
  if (peer) await peer.ask();
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts from a different contender, so that neither always runs first.
    const order = round % 2 === 0 ? ['wasm', 'torch'] : ['torch', 'wasm'];
    for (const who of order) {
      if (who === 'wasm') {
        const { ms, loss } = moduleEpoch(nw, data, start);
        wasm.push(ms);
        wasm.loss = loss;
      } else if (peer) {
        const { wall, loss } = await peer.ask();
        torch.push(wall * 1000);
        torch.loss = loss;
      }
    }
    if (peer) worst = Math.max(worst, Math.abs(wasm.loss - torch.loss) / Math.abs(torch.loss));
  }
  if (peer) {
    peer.close();
    rmSync(file, { force: true });
    const ratio = quantile(torch, 0.5) / quantile(wasm, 0.5);
    rows.push(['additive attention epoch, h = 8, n = 2000 (forward + backward + Adam step): WASM vs PyTorch float64, 1 thread',
      `${spread(wasm)} vs ${spread(torch)} over ${ROUNDS} interleaved rounds; losses agree within ${worst.toExponential(1)}`,
      `${ratio.toFixed(1)}x faster`, 'faster than PyTorch', ratio > 1 && worst < 1e-9]);
  } else {
    rows.push(['additive attention epoch, h = 8, n = 2000: WASM', `${spread(wasm)}; PyTorch not installed (scripts/setup.sh bench installs python3-torch)`, '', 'information', true]);
  }
  const chapter = nw.generateData({ seed: 1 });
  const small = [];
  moduleEpoch(nw, chapter, start);
  for (let round = 0; round < 21; round++) small.push(moduleEpoch(nw, chapter, start).ms);
  const median = quantile(small, 0.5);
  rows.push(['additive attention epoch at the chapter\'s n = 50 (h = 8)', `median ${median.toFixed(2)} ms (${Math.min(...small).toFixed(2)} to ${Math.max(...small).toFixed(2)}, 21 runs)`,
    `${(median / FRAME_MS * 100).toFixed(1)}% of a frame`, 'well under one frame (< 10%)', median < FRAME_MS / 10]);
  return rows;
}
