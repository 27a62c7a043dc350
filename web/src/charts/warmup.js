// Chart.js's first chart, cold, took 130-170 ms in one task on this 2-core machine (its code compiled and
// its caches filled on first use), far more than a task should hold the page. Three throwaway charts, each
// in a task of its own while the module compiles, take that cost in pieces: a bare one (the core, the
// scatter and line controllers), one with axes (scales, ticks), then one with an axis title and a legend
// (text). Each took 50-90 ms, the two of an earlier version 55-135 ms. The page's own charts are then
// created in 35-90 ms.
// Chart.js also formats its ticks with Intl.NumberFormat, whose first use in a page loads the number data
// (30-40 ms in Chromium here; later formatters take about 0.1 ms): warmUpNumbers does that in a task of
// its own.
import { Chart } from './chart.js';

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

// locale: the page's language (its <html lang>).
function warmUpNumbers(locale) {
  setTimeout(() => new Intl.NumberFormat(locale).format(0.5), 0);
}

function throwawayChart(options) {
  const canvas = document.createElement('canvas');
  canvas.width = 300;
  canvas.height = 150;
  const data = { datasets: [{ data: [{ x: 0, y: 0 }] }, { type: 'line', data: [{ x: 0, y: 0 }, { x: 1, y: 1 }] }] };
  new Chart(canvas, { type: 'scatter', data, options: { animation: false, responsive: false, ...options } }).destroy();
}

// Resolves once the three charts have been made and destroyed, each in a later task.
async function warmUpCharts() {
  await nextTask();
  throwawayChart({
    plugins: { legend: { display: false }, tooltip: { enabled: false } },
    scales: { x: { type: 'linear', display: false }, y: { type: 'linear', display: false } },
  });
  await nextTask();
  throwawayChart({
    plugins: { legend: { display: false }, tooltip: { enabled: false } },
    scales: { x: { type: 'linear' }, y: { type: 'linear' } },
  });
  await nextTask();
  throwawayChart({ scales: { x: { type: 'linear', title: { display: true, text: 'x' } }, y: { type: 'linear' } } });
  await nextTask();
}

export { nextTask, warmUpCharts, warmUpNumbers };
