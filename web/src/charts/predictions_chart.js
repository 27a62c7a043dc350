// Figure 1: training data, truth and the three estimators' predictions; a chosen query x sizes the
// training points by the attention that query pays them.
(function (NWPage) {
  'use strict';

  const { estimator } = NWPage.colors;
  const points = (xs, ys) => Array.from(xs, (x, i) => ({ x, y: ys[i] }));
  const BASE_RADIUS = 3;

  class PredictionsChart {
    // onQuery(x) is called while the pointer hovers or drags over the plot.
    constructor(canvas, { xMin, xMax, onQuery }) {
      this.onQuery = onQuery;
      this.chart = new Chart(canvas, {
        type: 'scatter',
        data: {
          datasets: [
            { label: 'Training data', data: [], backgroundColor: estimator.data, pointRadius: BASE_RADIUS, order: 5 },
            { label: 'Truth', data: [], type: 'line', borderColor: estimator.truth, borderWidth: 2, pointRadius: 0, order: 1 },
            { label: 'Average pooling', data: [], type: 'line', borderColor: estimator.average, borderDash: [6, 4], pointRadius: 0, order: 2 },
            { label: 'Nonparametric', data: [], type: 'line', borderColor: estimator.nonparametric, pointRadius: 0, order: 3 },
            { label: 'Parametric', data: [], type: 'line', borderColor: estimator.parametric, pointRadius: 0, order: 4 },
            { label: 'Query', data: [], type: 'line', borderColor: estimator.query, borderDash: [2, 3], pointRadius: 0, order: 0 },
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
            legend: { position: 'top', labels: { filter: (item) => item.text !== 'Query' } },
            tooltip: { enabled: false },
          },
          onHover: (event) => this.reportQuery(event),
        },
      });
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
    setData(data, predictions) {
      const sets = this.chart.data.datasets;
      const line = (values) => (values ? points(data.xTest, values) : []);
      sets[0].data = points(data.xTrain, data.yTrain);
      sets[1].data = line(data.yTruth);
      sets[2].data = line(predictions.average);
      sets[3].data = line(predictions.nonparametric);
      sets[4].data = line(predictions.parametric);
      const { min, max } = this.yRange();
      const margin = 0.05 * (max - min || 1);
      Object.assign(this.chart.options.scales.y, { min: min - margin, max: max + margin });
    }

    setNonparametric(xs, values) {
      this.chart.data.datasets[3].data = points(xs, values);
    }

    // weights: the query's attention over the training points (same order), or null for plain points.
    setQuery(query, weights) {
      this.query = query;
      const sets = this.chart.data.datasets;
      const { min, max } = this.yRange();
      sets[5].data = [{ x: query, y: min }, { x: query, y: max }];
      if (!weights) {
        sets[0].pointRadius = BASE_RADIUS;
        sets[0].backgroundColor = NWPage.colors.estimator.data;
        return;
      }
      let largest = 0;
      for (const a of weights) largest = Math.max(largest, a);
      sets[0].pointRadius = Array.from(weights, (a) => BASE_RADIUS + 9 * (largest > 0 ? a / largest : 0));
      sets[0].backgroundColor = Array.from(weights, (a) => `rgba(31, 119, 180, ${0.15 + 0.85 * (largest > 0 ? a / largest : 0)})`);
    }

    yRange() {
      let min = Infinity;
      let max = -Infinity;
      for (const set of this.chart.data.datasets.slice(0, 5)) {
        for (const p of set.data) {
          min = Math.min(min, p.y);
          max = Math.max(max, p.y);
        }
      }
      return Number.isFinite(min) ? { min, max } : { min: 0, max: 1 };
    }

    draw() { this.chart.update('none'); }
  }

  NWPage.PredictionsChart = PredictionsChart;
})((window.NWPage = window.NWPage || {}));
