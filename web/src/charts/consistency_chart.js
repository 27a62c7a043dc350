// The consistency figure's chart: test MSE against the number of training samples on log-log axes, with
// w chosen at each n and with w fixed, and the chosen w on its own (logarithmic) axis.
import { createChart } from './chart.js';
import { estimator } from './colors.js';
import { t as pageT } from '../i18n/i18n.js';

const oneTwoFive = (value) => [1, 2, 5].includes(Math.round(value / 10 ** Math.floor(Math.log10(value) + 1e-9)));
// A log axis's label, in its fewest digits ("0.05", not "0.0500"), at 1, 2 and 5 times a power of ten
// only, and at powers of ten alone where the axis spans more than two of them: the log scale's own
// labels crowd together and touch on a short chart.
const powerOfTen = (value) => Math.abs(Math.log10(value) - Math.round(Math.log10(value))) < 1e-9;
function shortLabel(scale, value, t) {
  const labelled = Math.log10(scale.max / scale.min) > 2 ? powerOfTen(value) : oneTwoFive(value);
  return labelled ? Number(value.toPrecision(1)).toLocaleString(t.lang, { maximumSignificantDigits: 1 }) : '';
}

// The chosen w's axis ticks: the values shortLabel labels, within the axis's range. Chart.js thins its
// own log ticks to fit the short axis, and from 4, 6, 8, 10 and 30 (w from 3.6 to 31) kept one label.
// Chart.js's own ticks where fewer than two such values lie within the range.
function labelledTicks(axis) {
  const values = [];
  for (let power = Math.floor(Math.log10(axis.min)); 10 ** power <= axis.max; power++) {
    for (const m of Math.log10(axis.max / axis.min) > 2 ? [1] : [1, 2, 5]) {
      const value = Number((m * 10 ** power).toPrecision(1));
      if (value >= axis.min && value <= axis.max) values.push({ value });
    }
  }
  return values.length >= 2 ? values : axis.ticks; // a range between two of them (a few points so far)
}

// The x axis's ticks: the n of each point (the fixed-w line has them all), within the axis's range.
function measuredNs(axis) {
  const ns = [...new Set(axis.chart.data.datasets[1].data.map((p) => p.x))];
  return ns.filter((n) => n >= axis.min && n <= axis.max).map((value) => ({ value }));
}

class ConsistencyChart {
  constructor(canvas, { t = pageT } = {}) {
    const line = (label, color, extra) => ({ label, data: [], type: 'line', borderColor: color, backgroundColor: color, pointRadius: 3, borderWidth: 1.5, ...extra });
    this.chart = createChart(canvas, {
      type: 'scatter',
      data: {
        datasets: [
          line(t('consistency.selected'), estimator.parametric, {}),
          line(t('consistency.fixed'), estimator.nonparametric, { borderDash: [6, 3] }),
          line(t('consistency.w'), estimator.average, { yAxisID: 'w', borderDash: [2, 2], pointStyle: 'rectRot' }),
        ],
      },
      options: {
        animation: false,
        parsing: false,
        maintainAspectRatio: false,
        scales: {
          // Ticks at 1, 2 and 5 times a power of ten only (the log scale's own crowd together at the right).
          // A tick at each n measured (50, 100, 200, ...), the first included.
          x: { type: 'logarithmic', title: { display: true, text: t('consistency.n') }, afterBuildTicks: (axis) => { axis.ticks = measuredNs(axis); }, ticks: { callback: (value) => value.toLocaleString(t.lang) } },
          y: { type: 'logarithmic', title: { display: true, text: t('chart.testMse') }, ticks: { callback(value) { return shortLabel(this, value, t); } } },
          w: { type: 'logarithmic', position: 'right', grid: { drawOnChartArea: false }, title: { display: true, text: t('consistency.wAxis') }, afterBuildTicks: (axis) => { axis.ticks = labelledTicks(axis); }, ticks: { autoSkip: false, callback(value) { return shortLabel(this, value, t); } } },
        },
        plugins: { legend: { position: 'top' } },
      },
    });
  }

  // points: consistencyPoint results so far.
  set(points) {
    const [selected, fixed, w] = this.chart.data.datasets;
    selected.data = points.filter((p) => p.selectedMse !== null).map((p) => ({ x: p.n, y: p.selectedMse }));
    fixed.data = points.map((p) => ({ x: p.n, y: p.fixedMse }));
    w.data = points.filter((p) => p.atLimit === 'none').map((p) => ({ x: p.n, y: p.w }));
  }

  draw() { this.chart.update('none'); }
}

export { ConsistencyChart };
