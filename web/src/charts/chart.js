// Chart.js with only what the page's figures use registered, so the bundle leaves out the rest:
// scatter and line charts on linear scales, the heatmaps' matrix charts, a legend and tooltips.
import {
  Chart, Legend, LineController, LineElement, LinearScale, PointElement, ScatterController, Tooltip,
} from 'chart.js';
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';
import { ink } from './colors.js';

Chart.register(ScatterController, LineController, MatrixController, PointElement, LineElement, MatrixElement,
  LinearScale, Legend, Tooltip);
// Axis and legend text and grid lines follow the page's light or dark scheme.
Chart.defaults.color = ink.text;
Chart.defaults.borderColor = ink.grid;

export { Chart };
