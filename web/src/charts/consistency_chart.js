// The consistency figure's chart: test MSE against the number of training samples on log-log axes, with
// w chosen at each n and with w fixed, and the chosen w on its own (logarithmic) axis.
import { Chart } from './chart.js';
import { estimator } from './colors.js';
import { t as pageT } from '../i18n/i18n.js';

const oneTwoFive = (value) => [1, 2, 5].includes(Math.round(value / 10 ** Math.floor(Math.log10(value) + 1e-9)));

class ConsistencyChart {
  constructor(canvas, { t = pageT } = {}) {
    const line = (label, color, extra) => ({ label, data: [], type: 'line', borderColor: color, backgroundColor: color, pointRadius: 3, borderWidth: 1.5, ...extra });
    this.chart = new Chart(canvas, {
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
          x: { type: 'logarithmic', title: { display: true, text: t('consistency.n') }, ticks: { callback: (value) => (oneTwoFive(value) ? value.toLocaleString(t.lang) : '') } },
          y: { type: 'logarithmic', title: { display: true, text: t('chart.testMse') } },
          w: { type: 'logarithmic', position: 'right', grid: { drawOnChartArea: false }, title: { display: true, text: t('consistency.wAxis') } },
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
