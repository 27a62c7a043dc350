// The loss landscape: the training objective L(w) as a curve, the training run's steps on it, and the
// minimiser found by selectBandwidth (none drawn when the loss only falls towards w = infinity).
import { createChart } from './chart.js';
import { estimator } from './colors.js';
import { t as pageT } from '../i18n/i18n.js';

const pairs = (xs, ys) => Array.from(xs, (x, i) => ({ x, y: ys[i] }));

class LandscapeChart {
  // t: the texts' language.
  constructor(canvas, { t = pageT } = {}) {
    this.chart = createChart(canvas, {
      type: 'scatter',
      data: {
        datasets: [
          { label: 'L(w)', data: [], type: 'line', borderColor: estimator.truth, borderWidth: 1.5, pointRadius: 0, pointStyle: 'line', order: 3 },
          { label: t('landscape.steps'), data: [], type: 'line', borderColor: estimator.parametric, backgroundColor: estimator.parametric, borderDash: [4, 3], pointRadius: 4, order: 1 },
          { label: t('landscape.minimiser'), data: [], backgroundColor: estimator.query, pointStyle: 'star', pointRadius: 9, borderColor: estimator.query, order: 0 },
          { label: t('landscape.testMse'), data: [], type: 'line', yAxisID: 'testMse', borderColor: estimator.nonparametric, borderDash: [6, 3], borderWidth: 1.5, pointRadius: 0, pointStyle: 'line', order: 2 },
          // The corrected AIC on its own axis: null (a gap) where it is infinite, past its pole. Hidden
          // until the reader clicks it in the legend (its axis with it): two y axes, not three, and its
          // diamond does not sit on the star when both criteria agree.
          { label: t('landscape.aic'), data: [], type: 'line', yAxisID: 'aic', borderColor: estimator.average, borderDash: [2, 2], borderWidth: 2, pointRadius: 0, pointStyle: 'line', order: 2, hidden: true },
          { label: t('landscape.aicMinimiser'), data: [], yAxisID: 'aic', backgroundColor: estimator.average, borderColor: estimator.average, pointStyle: 'rectRot', pointRadius: 8, order: 0, hidden: true },
        ],
      },
      options: {
        animation: false,
        parsing: false,
        maintainAspectRatio: false,
        scales: {
          x: { type: 'linear', min: 0, title: { display: true, text: 'w' } },
          y: { type: 'linear', title: { display: true, text: t('landscape.loss') } },
          testMse: { type: 'linear', position: 'right', display: 'auto', grid: { drawOnChartArea: false }, title: { display: true, text: t('chart.testMse') } },
          aic: { type: 'linear', position: 'right', display: 'auto', grid: { drawOnChartArea: false }, title: { display: true, text: 'AICc' } },
        },
        // The legend draws each entry as it is drawn on the chart: lines, the steps' dots, the star, the diamond.
        plugins: { legend: { position: 'top', labels: { usePointStyle: true } } },
      },
    });
  }

  // curve: { ws, losses, testMses, aics, aicBest (these three may be null) }; steps: { ws, losses } of the
  // run; best: { w, loss, atLimit } or null.
  set({ curve, steps, best }) {
    const sets = this.chart.data.datasets;
    sets[0].data = pairs(curve.ws, curve.losses);
    sets[1].data = pairs(steps.ws, steps.losses);
    sets[2].data = best && best.atLimit !== 'infinity' ? [{ x: best.w, y: best.loss }] : [];
    sets[3].data = curve.testMses ? pairs(curve.ws, curve.testMses) : [];
    sets[4].data = curve.aics ? pairs(curve.ws, curve.aics.map((aic) => (Number.isFinite(aic) ? aic : null))) : [];
    const { aicBest } = curve;
    sets[5].data = aicBest && aicBest.atLimit !== 'infinity' ? [{ x: aicBest.w, y: aicBest.loss }] : [];
    this.chart.options.scales.x.max = curve.ws[curve.ws.length - 1];
  }

  draw() { this.chart.update('none'); }
}

export { LandscapeChart };
