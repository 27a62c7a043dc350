// The peers of `npm run bench`, interleaved: each round times every contender once (starting from a
// different one each round, so none always runs first), wall time and CPU time, and checks its answer
// against the long-double reference. Contenders: the module (WASM), careful plain JS (in this process),
// and numpy and torch (bench/peers.py, one Python process answering one call at a time).
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { carefulEpoch, carefulPredict } from './careful.mjs';

// A Python with numpy: Debian's (python3-numpy, python3-torch) first, then whatever python3 is on PATH.
function findPython() {
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    try {
      execFileSync(candidate, ['-c', 'import numpy'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // try the next
    }
  }
  return null;
}

// { contenders, ask(line) -> JSON reply, close() } over bench/peers.py, or null without numpy.
async function startPython(data, exact, w) {
  const python = findPython();
  if (!python) return null;
  const n = data.xTrain.length;
  const file = join(tmpdir(), `nw-peers-${process.pid}.f64`);
  const packed = new Float64Array(4 * n + 3);
  packed.set(data.xTrain, 0);
  packed.set(data.yTrain, n);
  packed.set(data.xTest, 2 * n);
  packed.set(exact.predictions, 3 * n);
  packed.set([exact.loss, exact.grad, w], 4 * n);
  writeFileSync(file, Buffer.from(packed.buffer));
  const child = spawn(python, [new URL('./peers.py', import.meta.url).pathname, file, String(n)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error('bench/peers.py stopped');
    return JSON.parse(value);
  };
  const { contenders } = await next();
  return {
    contenders,
    ask: (line) => { child.stdin.write(`${line}\n`); return next(); },
    close: () => { child.stdin.end(); rmSync(file, { force: true }); },
  };
}

export const poolName = (pool) => `WASM (${pool.size} workers)`;

const relative = (a, b) => Math.abs(a - b) / Math.abs(b);

// One call of an asynchronous contender (the pool of worker threads): CPU time is the process's, so it
// counts every thread.
async function timeAsync(run, check) {
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  const result = await run();
  const wall = (performance.now() - wall0) / 1000;
  const { user, system } = process.cpuUsage(cpu0);
  return { wall, cpu: (user + system) / 1e6, error: check(result) };
}

// One call of a contender in this process: { wall, cpu } in seconds and its error.
function timeHere(run, check) {
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  const result = run();
  const wall = (performance.now() - wall0) / 1000;
  const { user, system } = process.cpuUsage(cpu0);
  return { wall, cpu: (user + system) / 1e6, error: check(result) };
}

// { predict: { name: { wall: [...], cpu: [...], error } }, epoch: { ... } } in milliseconds, and the
// Python contenders that were missing (no numpy, no torch). With `pool` (bench/node_row_pool.mjs, its
// data set), the module split across that pool's worker threads is a contender too.
export async function measurePeers({ nw, pool, data, exact, w, rounds = 7, warmup = 2 }) {
  const maxError = (values) => Math.max(...Array.from(values, (v, i) => relative(v, exact.predictions[i])));
  const epochError = ({ loss, grad }) => Math.max(relative(loss, exact.loss), relative(grad, exact.grad));
  const here = {
    predict: {
      WASM: () => timeHere(() => nw.predict(data.xTest, data.xTrain, data.yTrain, { w }), maxError),
      'careful JS': () => timeHere(() => carefulPredict(data.xTest, data.xTrain, data.yTrain, w), maxError),
    },
    epoch: {
      WASM: () => timeHere(() => nw.looLoss(data.xTrain, data.yTrain, { w }), epochError),
      'careful JS': () => timeHere(() => carefulEpoch(data.xTrain, data.yTrain, w), epochError),
    },
  };
  if (pool) {
    here.predict[poolName(pool)] = () => timeAsync(() => pool.predict({ w }), maxError);
    here.epoch[poolName(pool)] = () => timeAsync(() => pool.looLoss({ w }), epochError);
  }
  const python = await startPython(data, exact, w);
  const names = { numpy: 'numpy (in-place)', torch1: 'torch (1 thread)', torchN: 'torch (all threads)' };
  const results = {};
  try {
    for (const task of ['predict', 'epoch']) {
      const contenders = Object.entries(here[task]);
      for (const name of python ? python.contenders : []) contenders.push([names[name], () => python.ask(`${name} ${task}`)]);
      for (const [, run] of contenders) for (let i = 0; i < warmup; i++) await run();
      const timings = Object.fromEntries(contenders.map(([name]) => [name, { wall: [], cpu: [], error: 0 }]));
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < contenders.length; k++) {
          const [name, run] = contenders[(round + k) % contenders.length];
          const { wall, cpu, error } = await run();
          timings[name].wall.push(wall * 1000);
          timings[name].cpu.push(cpu * 1000);
          timings[name].error = Math.max(timings[name].error, error);
        }
      }
      results[task] = timings;
    }
  } finally {
    if (python) python.close();
  }
  const missing = ['numpy', 'torch1', 'torchN'].filter((name) => !(python && python.contenders.includes(name))).map((name) => names[name]);
  return { results, missing };
}
