// The page in headless Chromium. (1) Its frame budget: with nTrain = nTest = 1000, "Distance scale w" is
// dragged to a new value at every frame, and the page's own user timings are collected: "nw:drag-update"
// (from the input to the drawn preview) and "nw:drag-draw" (the page's thread drawing it), plus the
// time between frames. Over http the preview is computed in a Worker; from file:// (no workers there in
// Chromium) on the page. (2) The time to the first chart ("nw:first-render") of the whole page and of
// one-figure embeds. (3) The reader's interactions: input to the next frame, and long tasks. (4) The
// consistency figure from Compute to its last point.
import { fileUrl, serveDir, distDir } from '../tests/e2e/browser.mjs';
import { browserKinds, launchBrowser } from '../tests/e2e/drivers.mjs';

const PAGE_HASH = '#nTrain=1000&nTest=1000&w=1';
const chromium = { key: 'chromium', ...browserKinds.chromium };

// prepare(page): what the reader does before dragging (loads a file of data, say).
async function dragIn(browser, url, updates, prepare = async () => {}) {
  const page = await browser.newPage();
  try {
    await page.goto(url);
    await prepare(page);
    return await page.evaluate(async (count) => {
      const slider = document.getElementById('w');
      const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      // The reader watches the heatmap while dragging (it is drawn only near the view).
      document.getElementById('nonparametricHeatmap').scrollIntoView({ block: 'center' });
      await nextFrame();
      const drag = async (steps) => {
        const frames = [];
        let last = await nextFrame();
        for (let i = 0; i < steps; i++) {
          slider.value = String(1 + (i % 20) * 0.5);
          slider.dispatchEvent(new Event('input'));
          const now = await nextFrame();
          frames.push(now - last);
          last = now;
        }
        await new Promise((resolve) => setTimeout(resolve, 100)); // the last preview arrives
        return frames;
      };
      await drag(10); // warm-up: compilation, the worker's module, Chart.js's caches
      performance.clearMeasures();
      const frames = await drag(count);
      const durations = (name) => performance.getEntriesByName(name).map((entry) => entry.duration);
      return { frames, update: durations('nw:drag-update'), draw: durations('nw:drag-draw'), requested: count };
    }, updates);
  } finally {
    await page.close();
  }
}

// { worker, page }: each { frames, update, draw, requested } in milliseconds.
export async function measureDrag({ updates = 120 } = {}) {
  const browser = await launchBrowser(chromium);
  const server = await serveDir(distDir);
  try {
    return {
      worker: await dragIn(browser, server.url + PAGE_HASH, updates),
      page: await dragIn(browser, fileUrl + PAGE_HASH, updates),
    };
  } finally {
    await server.close();
    await browser.close();
  }
}

// The drag with your own data of 100,000 points and 2000 test points (#31: a change of w paints within
// 100 ms): its lines and heatmaps come from binned sums, computed in the heatmap worker. { frames, update,
// draw, requested } as measureDrag's.
export async function measureLargeDrag({ updates = 60, n = 100_000 } = {}) {
  const { writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { createRequire } = await import('node:module');
  const nw = await createRequire(import.meta.url)(`${distDir}nw.js`)();
  const data = nw.generateData({ nTrain: n, seed: 5 });
  const csv = join(tmpdir(), `nw-bench-${process.pid}-large.csv`);
  writeFileSync(csv, `x,y\n${Array.from(data.xTrain, (x, i) => `${x},${data.yTrain[i]}`).join('\n')}\n`);
  const browser = await launchBrowser(chromium);
  const server = await serveDir(distDir);
  try {
    return await dragIn(browser, `${server.url}#nTest=2000&w=1`, updates, async (page) => {
      await page.locator('details.more > summary').click();
      await page.label('CSV file').setFiles(csv);
      await page.waitForFunction(() => location.hash.includes('data=own'), null, { timeout: 60_000 });
    });
  } finally {
    await server.close();
    await browser.close();
  }
}

// { [name]: [{ firstChart, moduleReady, longestTask }, one per load] } for the whole page and one-figure
// embeds, loaded in turn (so the machine's load spreads over all of them alike): milliseconds from
// navigation to the first full render ("nw:first-render") and to the module being ready
// ("nw:module-ready"), and the longest task from navigation until the page is idle (every figure near
// the view drawn), from a long-task observer installed before the page's scripts.
export async function measureFirstChart({ loads = 7 } = {}) {
  const variants = { 'whole page': '', 'embed=predictions': '?embed=predictions', 'embed=weights': '?embed=weights' };
  const names = Object.keys(variants);
  const observeLongTasks = `window.nwLongTasks = [];
    new PerformanceObserver((list) => window.nwLongTasks.push(...list.getEntries().map((e) => e.duration)))
      .observe({ type: 'longtask', buffered: true });`;
  // Load after load, each variant in turn.
  const results = await inFreshPages(loads * names.length, async (page, url, i) => {
    await page.beforeScripts(observeLongTasks);
    await page.goto(url.replace('index.html', `index.html${variants[names[i % names.length]]}`));
    await page.waitForFunction(() => window.nwPage.debug.idle);
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200))); // the last entries
    return page.evaluate(() => ({
      firstChart: performance.getEntriesByName('nw:first-render')[0].startTime,
      moduleReady: performance.getEntriesByName('nw:module-ready')[0].startTime,
      longestTask: Math.max(0, ...window.nwLongTasks),
    }));
  });
  return Object.fromEntries(names.map((name, v) => [name, results.filter((_, i) => i % names.length === v)]));
}

// The consistency figure: from pressing Compute to its last point (the worker's, over http), the
// sizes of the chapter's model (#31: at most 4 s in Chromium), a fresh page each time.
export async function measureConsistency({ runs = 3 } = {}) {
  return inFreshPages(runs, async (page, url) => {
    await page.goto(url);
    await page.evaluate(() => document.getElementById('consistencyFigure').scrollIntoView({ block: 'center' }));
    await page.waitForFunction(() => window.nwPage.debug.idle);
    await page.evaluate(() => document.getElementById('consistencyStart').focus());
    const start = Date.now();
    await page.raw.keyboard.press('Enter');
    await page.waitForFunction(() => !document.getElementById('consistencyProgress').hidden, undefined, { timeout: 60000 });
    await page.waitForFunction(() => !document.getElementById('consistencyStart').disabled, undefined, { timeout: 300000 });
    return (Date.now() - start) / 1000;
  });
}

// measure(page, url, i) in `count` fresh 1280 x 800 pages of one Chromium serving dist/: their results.
async function inFreshPages(count, measure) {
  const browser = await launchBrowser(chromium);
  const server = await serveDir(distDir);
  const results = [];
  try {
    for (let i = 0; i < count; i++) {
      const page = await browser.newPage({ width: 1280, height: 800 });
      try {
        results.push(await measure(page, server.url, i));
      } finally {
        await page.close();
      }
    }
    return results;
  } finally {
    await server.close();
    await browser.close();
  }
}

// The interactions a reader makes, each timed in the page from the input event to the next animation
// frame after it (the page's thread has handled the input and can paint), and until the page is idle
// again (training finished, every figure drawn), with the longest task seen meanwhile (Chromium's
// long-task entries, 50 ms and up). At the chapter's 50 samples and at 2000, over http and from file://,
// with the heatmaps in view. `at`: the sizes it runs at; `repeats`: how often (the long ones fewer times).
const INTERACTIONS = [
  { name: 'arrow key on w', at: ['n = 50', 'n = 2000'], repeats: 15 },
  { name: 'query moved', at: ['n = 50', 'n = 2000'], repeats: 15 },
  { name: 'Step', at: ['n = 50', 'n = 2000'], repeats: 15 },
  { name: 'Train', at: ['n = 50', 'n = 2000'], repeats: 5 },
  { name: 'Train to convergence', at: ['n = 50', 'n = 2000'], repeats: 3 },
  { name: 'Regenerate', at: ['n = 50', 'n = 2000'], repeats: 10 },
  { name: 'Training samples to 2000', at: ['n = 50'], repeats: 5 },
  ...[0, 1, 2, 3, 4].map((index) => ({ name: `exercise ${index + 1}`, exercise: index, at: ['n = 50'], repeats: 5 })),
];

// Runs in the page: window.nwBench, which acts as the reader would (the page's Content-Security-Policy
// allows no code from text, so this is installed once and called by name). prepare() puts the page back
// in the settings it was loaded with (untimed), except for what the interaction builds on.
function installBench() {
  const { debug } = window.nwPage;
  const start = debug.settings;
  const byId = (id) => document.getElementById(id);
  const fire = (element, ...types) => types.forEach((type) => element.dispatchEvent(new Event(type, { bubbles: true })));
  window.nwBench = {
    busy: () => debug.busy,
    prepare(name) {
      if (name === 'Train' || name === 'Train to convergence') byId('reset').click();
      if (name.startsWith('exercise') || name === 'Training samples to 2000') debug.apply(start);
    },
    act({ name, exercise }) {
      if (name === 'arrow key on w') {
        const slider = byId('w');
        slider.value = String(Number(slider.value) + (Number(slider.value) < 5 ? 0.05 : -0.05));
        fire(slider, 'input', 'change');
      } else if (name === 'query moved') {
        const slider = byId('query');
        slider.value = String(Number(slider.value) > 4 ? 1 : Number(slider.value) + 0.1);
        fire(slider, 'input');
      } else if (name === 'Training samples to 2000') {
        byId('nTrain').value = '2000';
        fire(byId('nTrain'), 'input', 'change');
      } else if (exercise !== undefined) {
        byId('exerciseList').querySelectorAll('button')[exercise].click();
      } else {
        byId({ Step: 'step', Train: 'train', 'Train to convergence': 'converge', Regenerate: 'regenerate' }[name]).click();
      }
    },
  };
}

// Runs in the page: `count` times the interaction, each after a pause; { toFrame, toIdle, longestTask }.
async function timeInPage({ interaction, count }) {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const idle = async () => { while (window.nwBench.busy()) await pause(10); };
  const tasks = [];
  const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries()));
  observer.observe({ type: 'longtask' });
  const toFrame = [];
  const toIdle = [];
  let longestTask = 0;
  for (let i = 0; i < count; i++) {
    window.nwBench.prepare(interaction.name);
    document.getElementById('nonparametricHeatmap').scrollIntoView({ block: 'center' });
    await idle();
    await pause(300); // the lazy figures near the view, a drag's settle, the URL's delay
    await frame();
    // The action in a task of its own, as the browser dispatches a key press or a click (run straight
    // from the frame's callback, it would share the frame's task, rendering included).
    const start = await new Promise((resolve) => setTimeout(() => {
      const acted = performance.now();
      window.nwBench.act(interaction);
      resolve(acted);
    }, 0));
    await frame();
    toFrame.push(performance.now() - start);
    await idle();
    toIdle.push(performance.now() - start);
    await pause(100); // the last tasks' entries
    const end = performance.now();
    for (const task of observer.takeRecords().concat(tasks.splice(0))) {
      if (task.startTime + task.duration >= start && task.startTime <= end) longestTask = Math.max(longestTask, task.duration);
    }
  }
  observer.disconnect();
  return { toFrame, toIdle, longestTask };
}

// { [where]: { [interaction]: { toFrame: [ms...], toIdle: [ms...], longestTask: ms } } }, where is
// 'n = 50 (http)', 'n = 2000 (http)', 'n = 50 (file://)' or 'n = 2000 (file://)': from file:// there are
// no workers, and the same work runs on the page's thread in slices.
export async function measureInteractions({ only } = {}) {
  const browser = await launchBrowser(chromium);
  const server = await serveDir(distDir);
  const sizes = { 'n = 50': '', 'n = 2000': '#nTrain=2000&nTest=2000' };
  const origins = { http: server.url, 'file://': fileUrl };
  const results = {};
  try {
    for (const [origin, base] of Object.entries(origins)) {
      for (const [size, hash] of Object.entries(sizes)) {
        const page = await browser.newPage({ width: 1280, height: 800 });
        try {
          await page.goto(base + hash);
          await page.evaluate(installBench);
          const where = `${size} (${origin})`;
          results[where] = {};
          for (const interaction of INTERACTIONS.filter(({ at, name }) => at.includes(size) && (!only || only.includes(name)))) {
            results[where][interaction.name] = await page.evaluate(timeInPage, { interaction, count: interaction.repeats });
          }
        } finally {
          await page.close();
        }
      }
    }
    return results;
  } finally {
    await server.close();
    await browser.close();
  }
}
