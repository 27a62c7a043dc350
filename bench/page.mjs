// The page's frame budget: with nTrain = nTest = 1000, "Distance scale w" is dragged to a new value at every
// frame in headless Chromium, and the page's own user timings are collected: "nw:drag-update" (from the
// input to the drawn preview) and "nw:drag-draw" (the page's thread drawing it), plus the time between
// frames. Over http the preview is computed in a Worker; from file:// (no workers there) on the page.
import { fileUrl, launchBrowser, openPage, serveDist } from '../tests/e2e/browser.mjs';

const PAGE_HASH = '#nTrain=1000&nTest=1000&w=1';

async function dragIn(browser, url, updates) {
  const { page, context } = await openPage(browser, url);
  try {
    return await page.evaluate(async (count) => {
      const slider = document.getElementById('w');
      const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
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
    await context.close();
  }
}

// { worker, page }: each { frames, update, draw, requested } in milliseconds.
export async function measureDrag({ updates = 120 } = {}) {
  const browser = await launchBrowser();
  const server = await serveDist();
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
