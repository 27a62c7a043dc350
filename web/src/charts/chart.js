// Chart.js with only what the page's figures use registered, so the bundle leaves out the rest:
// scatter and line charts on linear (and, for the consistency figure, logarithmic) scales, a legend and tooltips (the heatmaps paint their own image).
import {
  Chart, Legend, LineController, LineElement, LinearScale, LogarithmicScale, PointElement, ScatterController, Tooltip,
} from 'chart.js';
import { ink } from './colors.js';

Chart.register(ScatterController, LineController, PointElement, LineElement, LinearScale, LogarithmicScale, Legend, Tooltip);
// Axis and legend text and grid lines follow the page's light or dark scheme.
Chart.defaults.color = ink.text;
Chart.defaults.borderColor = ink.grid;

export { Chart };
