// The module against careful plain JavaScript in headless Chromium, where the page runs: V8 there
// optimises plain JS differently from Node's, so the lead measured in Node need not hold in the browser.
// One page loads dist/nw.js and bench/careful.mjs's functions; each round times every contender once
// (alternating which goes first), one thread each, the page's main thread.
import { mkdtempSync, copyFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distDir, serveDir } from '../tests/e2e/browser.mjs';
import { browserKinds, launchBrowser } from '../tests/e2e/drivers.mjs';
import { carefulPredict, lowerBound } from './careful.mjs';
import { naiveEpoch } from './naive.mjs';

const PAGE = `<!doctype html><meta charset="utf-8"><title>bench</title>
<script src="nw.js"></script><script src="careful.js"></script>`;

// Runs in the page: { [task]: { WASM: [ms...], 'careful JS': [ms...] } } over `rounds` rounds.
async function roundsInPage({ n, seed, w, sharpW, rounds, warmup }) {
  const nw = await createNW();
  const data = nw.generateData({ nTrain: n, nTest: n, seed });
  const tasks = {
    [`predict at w = ${w}`]: {
      WASM: () => nw.predict(data.xTest, data.xTrain, data.yTrain, { w }),
      'careful JS': () => carefulPredict(data.xTest, data.xTrain, data.yTrain, w),
    },
    [`predict at w = ${sharpW}`]: {
      WASM: () => nw.predict(data.xTest, data.xTrain, data.yTrain, { w: sharpW }),
      'careful JS': () => carefulPredict(data.xTest, data.xTrain, data.yTrain, sharpW),
    },
    epoch: {
      WASM: () => nw.looLoss(data.xTrain, data.yTrain, { w }),
      'careful JS': () => naiveEpoch(data.xTrain, data.yTrain, w),
    },
  };
  const results = {};
  for (const [task, contenders] of Object.entries(tasks)) {
    const entries = Object.entries(contenders);
    for (const [, run] of entries) for (let i = 0; i < warmup; i++) run();
    results[task] = Object.fromEntries(entries.map(([name]) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < entries.length; k++) {
        const [name, run] = entries[(round + k) % entries.length];
        const start = performance.now();
        run();
        results[task][name].push(performance.now() - start);
      }
    }
  }
  return results;
}

// { [task]: { WASM: [ms...], 'careful JS': [ms...] } } for n x n at w and at sharpW.
export async function measureBrowserPeers({ n, seed, w, sharpW, rounds = 9, warmup = 3 }) {
  const dir = mkdtempSync(join(tmpdir(), 'nw-bench-'));
  copyFileSync(join(distDir, 'nw.js'), join(dir, 'nw.js'));
  writeFileSync(join(dir, 'careful.js'), [lowerBound, carefulPredict, naiveEpoch].map(String).join('\n'));
  writeFileSync(join(dir, 'index.html'), PAGE);
  const server = await serveDir(dir);
  const browser = await launchBrowser({ key: 'chromium', ...browserKinds.chromium });
  try {
    const page = await browser.newPage();
    await page.goto(server.url, { waitReady: false });
    return await page.evaluate(roundsInPage, { n, seed, w, sharpW, rounds, warmup });
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
