// The page's frame budget: with nTrain = nTest = 1000, each change of "Bandwidth w" while dragging
// (re-predict, redraw the predictions chart and the heatmap) timed inside headless Chromium.
import { launchBrowser, openPage, serveDist } from '../tests/e2e/browser.mjs';

export async function measureDrag({ updates = 60 } = {}) {
  const browser = await launchBrowser();
  const server = await serveDist();
  try {
    const { page, context } = await openPage(browser, `${server.url}#nTrain=1000&nTest=1000&w=1`);
    const times = await page.evaluate(async (count) => {
      const slider = document.getElementById('w');
      const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
      const durations = [];
      for (let i = 0; i < count; i++) {
        await nextFrame();
        const start = performance.now();
        slider.value = String(1 + (i % 20) * 0.5);
        slider.dispatchEvent(new Event('input'));
        durations.push(performance.now() - start);
      }
      return durations;
    }, updates);
    await context.close();
    return times.slice(5); // the first few include compilation and warm-up
  } finally {
    await server.close();
    await browser.close();
  }
}
