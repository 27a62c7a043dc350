// Chart.js with only what the page's figures use registered, so the bundle leaves out the rest:
// scatter and line charts on linear (and, for the consistency figure, logarithmic) scales, a legend and tooltips (the heatmaps paint their own image).
import {
  Chart, Legend, LineController, LineElement, LinearScale, LogarithmicScale, PointElement, ScatterController, Tooltip,
} from 'chart.js';
import { ink } from './colors.js';

Chart.register(ScatterController, LineController, PointElement, LineElement, LinearScale, LogarithmicScale, Legend, Tooltip);

// A chart in the theme's colours (colors.js's ink when it is made, or `withInk`): its axis and legend
// text and grid lines, and chart.$ink for what its plugins draw later (halos, outlines, messages).
function createChart(canvas, config, withInk = ink) {
  const theme = { ...withInk };
  // (Set before the chart's first draw, which the constructor runs.)
  const inkPlugin = { id: 'nwInk', beforeInit(chart) { chart.$ink = theme; } };
  return new Chart(canvas, { ...config, plugins: [inkPlugin, ...(config.plugins ?? [])], options: { ...config.options, color: theme.text, borderColor: theme.grid } });
}

export { Chart, createChart };
