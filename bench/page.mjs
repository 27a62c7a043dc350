// The page in headless Chromium. (1) Its frame budget: with nTrain = nTest = 1000, "Distance scale w" is
// dragged to a new value at every frame, and the page's own user timings are collected: "nw:drag-update"
// (from the input to the drawn preview) and "nw:drag-draw" (the page's thread drawing it), plus the
// time between frames. Over http the preview is computed in a Worker; from file:// (no workers there in
// Chromium) on the page. (2) The time to the first chart ("nw:first-render") of the whole page and of
// one-figure embeds. (3) The reader's interactions: input to the next frame, and long tasks.
import { fileUrl, serveDir, distDir } from '../tests/e2e/browser.mjs';
import { browserKinds, launchBrowser } from '../tests/e2e/drivers.mjs';

const PAGE_HASH = '#nTrain=1000&nTest=1000&w=1';
const chromium = { key: 'chromium', ...browserKinds.chromium };

async function dragIn(browser, url, updates) {
  const page = await browser.newPage();
  try {
    await page.goto(url);
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

// { [name]: milliseconds from navigation to the first full render, one per load } for the whole page
// and one-figure embeds, loaded in turn (so the machine's load spreads over all of them alike).
export async function measureFirstChart({ loads = 7 } = {}) {
  const browser = await launchBrowser(chromium);
  const server = await serveDir(distDir);
  const variants = { 'whole page': '', 'embed=predictions': '?embed=predictions', 'embed=weights': '?embed=weights' };
  const times = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  try {
    for (let i = 0; i < loads; i++) {
      for (const [name, search] of Object.entries(variants)) {
        const page = await browser.newPage({ width: 1280, height: 800 });
        try {
          await page.goto(server.url.replace('index.html', `index.html${search}`));
          times[name].push(await page.evaluate(() => performance.getEntriesByName('nw:first-render')[0].startTime));
        } finally {
          await page.close();
        }
      }
    }
    return times;
  } finally {
    await server.close();
    await browser.close();
  }
}

// The interactions a reader makes, each timed in the page from the input event to the next animation
// frame after it (the page's thread has handled the input and can paint), with the longest task seen
// meanwhile (Chromium's long-task entries, 50 ms and up). At the chapter's 50 samples and at 2000,
// over http, with the heatmaps in view.
const INTERACTIONS = ['arrow key on w', 'query moved', 'Step', 'Regenerate'];

// Runs in the page: one interaction by name (the page's Content-Security-Policy allows no code from text).
function interact(name) {
  const fire = (element, ...types) => types.forEach((type) => element.dispatchEvent(new Event(type, { bubbles: true })));
  if (name === 'arrow key on w') {
    const slider = document.getElementById('w');
    slider.value = String(Number(slider.value) + (Number(slider.value) < 5 ? 0.05 : -0.05));
    fire(slider, 'input', 'change');
  } else if (name === 'query moved') {
    const slider = document.getElementById('query');
    slider.value = String(Number(slider.value) > 4 ? 1 : Number(slider.value) + 0.1);
    fire(slider, 'input');
  } else {
    document.getElementById(name === 'Step' ? 'step' : 'regenerate').click();
  }
}

// { [size]: { [interaction]: { toFrame: [ms...], longestTask: ms } } }
export async function measureInteractions({ repeats = 15 } = {}) {
  const browser = await launchBrowser(chromium);
  const server = await serveDir(distDir);
  const sizes = { 'n = 50': '', 'n = 2000': '#nTrain=2000&nTest=2000' };
  const results = {};
  try {
    for (const [size, hash] of Object.entries(sizes)) {
      const page = await browser.newPage({ width: 1280, height: 800 });
      try {
        await page.goto(server.url + hash);
        results[size] = {};
        await page.evaluate(`window.nwInteract = ${interact.toString()}`);
        for (const name of INTERACTIONS) {
          results[size][name] = await page.evaluate(async ({ which, count }) => {
            const act = () => window.nwInteract(which);
            document.getElementById('nonparametricHeatmap').scrollIntoView({ block: 'center' });
            const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
            const tasks = [];
            const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries().map((entry) => entry.duration)));
            observer.observe({ type: 'longtask' });
            await new Promise((resolve) => setTimeout(resolve, 300)); // the first render's lazy figures
            const toFrame = [];
            for (let i = 0; i < count; i++) {
              await frame();
              const start = performance.now();
              act();
              await frame();
              toFrame.push(performance.now() - start);
              await new Promise((resolve) => setTimeout(resolve, 200)); // a drag's settle, the URL's delay
            }
            observer.disconnect();
            return { toFrame, longestTask: tasks.length ? Math.max(...tasks) : 0 };
          }, { which: name, count: repeats });
        }
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
