// Figure 1: training data, truth and the three estimators' predictions; a chosen query x sizes the
// training points by the attention that query pays them.
import { Chart, createChart } from './chart.js';
import { estimator, lineDash, mix } from './colors.js';
import { t as pageT } from '../i18n/i18n.js';

const points = (xs, ys) => Array.from(xs, (x, i) => ({ x, y: ys[i] }));
const BASE_RADIUS = 3;
// The training points attended to are overlaid in this many bands of attention, each band one
// dataset (its legend entry hidden) with a single radius and colour, drawn by trainingPointsPlugin: larger
// and nearer the data's full colour the more attention, from the colour of the points outside every band
// (each opaque, so that every point stands at least 3:1 against the background: see colors.js).
const LEVELS = 6;
const FIRST_LEVEL = 6; // dataset index of the first band
const levelStyle = (k, colors) => ({ radius: BASE_RADIUS + (9 * k) / LEVELS, color: mix(colors.unseen, colors.data, k / LEVELS) });
const POINT_SETS = [0, ...Array.from({ length: LEVELS }, (_, i) => FIRST_LEVEL + i)];

// The training points (dataset 0 and the bands) are drawn by this plugin, not as Chart.js elements: each
// dataset keeps its points in `trainingPoints` and no `data`, so that Chart.js, which updates and draws
// every element of every dataset on each redraw, has none of them (at 2000 points they were most of a
// query move's 50 ms). Drawn before the datasets, under the lines, one filled circle each, for visible
// datasets, clipped to the chart area widened by the largest radius (as Chart.js clips points).
// The bands' extra radius shrinks where the points crowd (more than 10 per 100 px of the plot's width:
// 500 points on a phone), so that the large dots of a query's attention do not bury the lines.
const dotScale = (count, width) => Math.min(1, Math.sqrt((10 * width) / 100 / Math.max(1, count)));
const pointCount = (chart) => POINT_SETS.reduce((sum, index) => sum + (chart.data.datasets[index].trainingPoints?.length ?? 0), 0);
const LARGEST_RADIUS = BASE_RADIUS + 9;
// At most this many training points are drawn: of more (your own data, up to 100,000), one in every
// drawnEvery(n), evenly along x (they are sorted), so that a redraw stays within a frame or two (100,000
// dots took 180 ms a redraw here, as many as the cloud has pixels). The lines use every point.
const MAX_DRAWN_POINTS = 5000;
const drawnEvery = (n) => Math.max(1, Math.ceil(n / MAX_DRAWN_POINTS));
// The training points drawn, as { x, y }: all of them, or one in every drawnEvery(n).
const drawnPoints = (xs, ys) => {
  const every = drawnEvery(xs.length);
  return every === 1 ? points(xs, ys) : Array.from({ length: Math.ceil(xs.length / every) }, (_, k) => ({ x: xs[k * every], y: ys[k * every] }));
};
const trainingPointsPlugin = {
  id: 'nwTrainingPoints',
  beforeDatasetsDraw(chart) {
    const { ctx, chartArea, scales: { x, y } } = chart;
    const scale = dotScale(pointCount(chart), chartArea.right - chartArea.left);
    const radiusOf = (set) => BASE_RADIUS + (set.pointRadius - BASE_RADIUS) * scale;
    chart.$largestDotRadius = radiusOf({ pointRadius: LARGEST_RADIUS }); // (read by the browser tests)
    const r = chart.$largestDotRadius;
    ctx.save();
    ctx.beginPath();
    ctx.rect(chartArea.left - r, chartArea.top - r, chartArea.right - chartArea.left + 2 * r, chartArea.bottom - chartArea.top + 2 * r);
    ctx.clip();
    for (const index of POINT_SETS) {
      const set = chart.data.datasets[index];
      if (!chart.isDatasetVisible(index) || !set.trainingPoints) continue;
      ctx.fillStyle = set.backgroundColor;
      for (const point of set.trainingPoints) {
        ctx.beginPath();
        ctx.arc(x.getPixelForValue(point.x), y.getPixelForValue(point.y), radiusOf(set), 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    ctx.restore();
  },
};

// The estimators' lines are drawn over a halo of the page's background: the nonparametric line shares
// the training points' blue, and both stay visible over a dense cloud of points (2000 samples), as the
// text's "the blue line" promises (1.5 px each side where the points crowd, as dotScale counts them).
// Where they do not, 1 px: a training point beside a line (its centre past the line's edge, within the
// halo) must still show within 1 px of its centre (1.5 px erased such points at 50 samples in Firefox:
// tests/e2e/theme.test.mjs), and a sparse cloud needs no wide gap.
const HALOED = [3, 4]; // the nonparametric and parametric lines
const haloWidth = (chart) => (dotScale(pointCount(chart), chart.chartArea.right - chart.chartArea.left) < 1 ? 3 : 2);
const lineHaloPlugin = {
  id: 'nwLineHalo',
  beforeDatasetDraw(chart, { index, meta }) {
    if (!HALOED.includes(index) || !meta.dataset || !chart.isDatasetVisible(index)) return;
    const { ctx, chartArea } = chart;
    const { options } = meta.dataset;
    const line = { borderColor: options.borderColor, borderWidth: options.borderWidth };
    ctx.save();
    ctx.beginPath();
    ctx.rect(chartArea.left, chartArea.top, chartArea.right - chartArea.left, chartArea.bottom - chartArea.top);
    ctx.clip();
    Object.assign(options, { borderColor: chart.$ink.background, borderWidth: line.borderWidth + haloWidth(chart) });
    meta.dataset.draw(ctx, chartArea);
    Object.assign(options, line);
    ctx.restore();
  },
};

function compactLegend(chart, width) {
  const labels = chart.options.plugins.legend.labels;
  labels.boxWidth = width < 520 ? 16 : 40;
  labels.font = { size: width < 520 ? 10 : 12 };
}

class PredictionsChart {
  // onQuery(x) is called while the pointer hovers or drags over the plot; t: the texts' language.
  constructor(canvas, { xMin, xMax, onQuery, t = pageT }) {
    this.onQuery = onQuery;
    const colors = { ...estimator }; // (this theme's, kept: see colors.js)
    this.colors = colors;
    this.lineSources = []; // dataset index -> [xs, values] its points were made from (see setData)
    this.chart = createChart(canvas, {
      type: 'scatter',
      plugins: [trainingPointsPlugin, lineHaloPlugin],
      data: {
        datasets: [
          { label: t('chart.trainingData'), data: [], trainingPoints: [], backgroundColor: colors.data, pointRadius: BASE_RADIUS, pointBorderWidth: 0, order: 5 },
          { label: t('chart.truth'), data: [], type: 'line', borderColor: colors.truth, borderDash: lineDash.truth, borderWidth: 2, pointRadius: 0, order: 1 },
          { label: t('chart.average'), data: [], type: 'line', borderColor: colors.average, borderDash: lineDash.average, pointRadius: 0, order: 2 },
          { label: t('chart.nonparametric'), data: [], type: 'line', borderColor: colors.nonparametric, borderDash: lineDash.nonparametric, borderWidth: 2.5, pointRadius: 0, order: 3 },
          { label: t('chart.parametric'), data: [], type: 'line', borderColor: colors.parametric, borderDash: lineDash.parametric, borderWidth: 2.5, pointRadius: 0, order: 4 },
          { label: t('chart.query'), data: [], type: 'line', borderColor: colors.query, borderDash: lineDash.query, pointRadius: 0, order: 0 },
          ...Array.from({ length: LEVELS }, (_, i) => {
            const { radius, color } = levelStyle(i + 1, colors);
            return { label: t('chart.attentionBand', { n: i + 1 }), data: [], trainingPoints: [], backgroundColor: color, pointRadius: radius, pointBorderWidth: 0, order: 5 };
          }),
        ],
      },
      options: {
        // Chart.js's own advice for speed: no animation, no parsing, data sorted by x (normalized),
        // and fixed scale limits (set in setData) so no redraw measures the data again.
        animation: false,
        parsing: false,
        normalized: true,
        spanGaps: true,
        maintainAspectRatio: false,
        interaction: { mode: 'nearest', intersect: true },
        scales: {
          x: { type: 'linear', min: xMin, max: xMax, title: { display: true, text: 'x' } },
          y: { type: 'linear', title: { display: true, text: 'y' } },
        },
        plugins: {
          legend: {
            position: 'top',
            labels: {
              filter: (item) => item.datasetIndex < 5,
              // "Training data" in the points' own blue, however faint the points outside a query's
              // attention are drawn.
              generateLabels: (chart) => Chart.defaults.plugins.legend.labels.generateLabels(chart)
                .map((item) => (item.datasetIndex === 0 ? { ...item, fillStyle: colors.data, strokeStyle: colors.data } : item)),
            },
            // "Training data" shows or hides the attention bands with the points.
            onClick: (event, item, legend) => {
              const chart = legend.chart;
              const visible = !chart.isDatasetVisible(item.datasetIndex);
              chart.setDatasetVisibility(item.datasetIndex, visible);
              if (item.datasetIndex === 0) {
                for (let i = 0; i < LEVELS; i++) chart.setDatasetVisibility(FIRST_LEVEL + i, visible);
              }
              chart.update('none');
            },
          },
          tooltip: { enabled: false },
        },
        // A mouse chooses the query by hovering; a finger by tapping (a click), so that a swipe that
        // scrolls the page does not move the query on its way.
        events: ['mousemove', 'mouseout', 'click'],
        onHover: (event) => this.reportQuery(event),
        onClick: (event) => this.reportQuery(event),
        // On a phone the legend's five entries would take four lines of a small chart: smaller boxes and text.
        onResize: (chart, { width }) => compactLegend(chart, width),
      },
    });
    compactLegend(this.chart, this.chart.width);
  }

  reportQuery(event) {
    const { chartArea, scales } = this.chart;
    if (!chartArea || event.x < chartArea.left || event.x > chartArea.right) return;
    if (event.y < chartArea.top || event.y > chartArea.bottom) return;
    this.onQuery(scales.x.getValueForPixel(event.x));
  }

  setRange(xMin, xMax) {
    Object.assign(this.chart.options.scales.x, { min: xMin, max: xMax });
  }

  // Lines without values (no truth for your own data; no parametric line for untrainable kernels) are empty.
  // A line whose values are the same array as last time keeps its points: Chart.js then updates its
  // elements in place (a query move redraws the lines unchanged, and at 2000 points rebuilding them
  // was a third of the move's time).
  setData(data, predictions) {
    const sets = this.chart.data.datasets;
    const line = (index, values) => {
      const source = [data.xTest, values];
      const last = this.lineSources[index];
      if (last && last[0] === source[0] && last[1] === source[1]) return;
      this.lineSources[index] = source;
      sets[index].data = values ? points(data.xTest, values) : [];
    };
    this.trainingX = data.xTrain;
    this.trainingY = data.yTrain;
    line(1, data.yTruth);
    // Average pooling predicts the same value everywhere: two points draw it (a dashed line through
    // every test point cost 1.5 ms of each redraw at 1000 points).
    const average = predictions.average;
    const last = data.xTest.length - 1;
    sets[2].data = average ? [{ x: data.xTest[0], y: average[0] }, { x: data.xTest[last], y: average[last] }] : [];
    line(3, predictions.nonparametric);
    line(4, predictions.parametric);
    const { min, max } = this.yRange();
    const margin = 0.05 * (max - min || 1);
    Object.assign(this.chart.options.scales.y, { min: min - margin, max: max + margin });
  }

  // The parametric line's legend entry, which says whether w has been trained yet.
  setNonparametricLabel(label) {
    this.chart.data.datasets[3].label = label;
  }

  setParametricLabel(label) {
    this.chart.data.datasets[4].label = label;
  }

  setNonparametric(xs, values) {
    this.lineSources[3] = [xs, values];
    this.chart.data.datasets[3].data = points(xs, values);
  }

  // weights: the query's attention over the training points (same order), or null for plain points.
  // Each point is drawn once: in its band, or faint in the training set when the query barely sees it.
  setQuery(query, weights) {
    this.query = query;
    const sets = this.chart.data.datasets;
    const { min, max } = this.yRange();
    sets[5].data = [{ x: query, y: min }, { x: query, y: max }];
    const bands = Array.from({ length: LEVELS }, () => []);
    const xs = this.trainingX;
    const ys = this.trainingY;
    const every = drawnEvery(xs.length);
    if (!weights) {
      sets[0].trainingPoints = drawnPoints(xs, ys);
      sets[0].backgroundColor = this.colors.data;
    } else {
      let largest = 0;
      for (const a of weights) largest = Math.max(largest, a);
      const unseen = [];
      for (let i = 0; i < weights.length; i += every) {
        const level = largest > 0 ? Math.round((weights[i] / largest) * LEVELS) : 0;
        (level > 0 ? bands[level - 1] : unseen).push({ x: xs[i], y: ys[i] });
      }
      sets[0].trainingPoints = unseen;
      sets[0].backgroundColor = this.colors.unseen;
    }
    bands.forEach((band, k) => { sets[FIRST_LEVEL + k].trainingPoints = band; });
  }

  // The y range of the data and lines (the training points' full set, whichever datasets hold them).
  yRange() {
    let min = Infinity;
    let max = -Infinity;
    for (const y of this.trainingY || []) {
      min = Math.min(min, y);
      max = Math.max(max, y);
    }
    for (const set of this.chart.data.datasets.slice(1, 5)) {
      for (const p of set.data) {
        min = Math.min(min, p.y);
        max = Math.max(max, p.y);
      }
    }
    return Number.isFinite(min) ? { min, max } : { min: 0, max: 1 };
  }

  draw() { this.chart.update('none'); }
}

export { PredictionsChart, drawnEvery, drawnPoints };
