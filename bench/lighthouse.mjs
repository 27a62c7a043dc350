// Lighthouse's performance score of the page at its default settings, desktop and mobile, run `runs`
// times each (scores vary a lot on a busy 2-core machine: the bench reports the median and the range).
// Lighthouse 12.2.3 is installed by scripts/setup.sh bench; it drives Debian's Chromium.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { distDir, serveDir } from '../tests/e2e/browser.mjs';

const run = promisify(execFile);
const lighthouse = fileURLToPath(new URL('../node_modules/.bin/lighthouse', import.meta.url));

// One run: { score (0-100), tbt (ms), lcp (ms) }.
async function audit(url, formFactor) {
  const args = [url, '--only-categories=performance', '--output=json', '--quiet', '--chrome-flags=--headless=new --no-sandbox --disable-gpu'];
  if (formFactor === 'desktop') args.push('--preset=desktop');
  const { stdout } = await run(lighthouse, args, {
    env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH || '/usr/bin/chromium' }, maxBuffer: 64 * 2 ** 20,
  });
  const report = JSON.parse(stdout);
  const numeric = (id) => report.audits[id]?.numericValue ?? NaN;
  return { score: Math.round(100 * report.categories.performance.score), tbt: numeric('total-blocking-time'), lcp: numeric('largest-contentful-paint') };
}

// { desktop: [runs...], mobile: [runs...] }, the two form factors interleaved run by run.
export async function measureLighthouse({ runs = 3 } = {}) {
  const server = await serveDir(distDir);
  const results = { desktop: [], mobile: [] };
  try {
    for (let i = 0; i < runs; i++) {
      for (const formFactor of Object.keys(results)) results[formFactor].push(await audit(server.url, formFactor));
    }
  } finally {
    await server.close();
  }
  return results;
}
