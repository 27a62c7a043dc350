// Figure 3: the training run, one point per epoch, one or two series (the second on a right-hand axis).
import { Chart } from './chart.js';
import { t as pageT } from '../i18n/i18n.js';

class TrainingChart {
  // series: [{ label, color, yTitle }], at most two; the first on the left axis, the second on the right.
  // t: the texts' language.
  constructor(canvas, { series, t = pageT }) {
    const axes = ['y', 'y2'];
    this.chart = new Chart(canvas, {
      type: 'line',
      data: {
        datasets: series.map((s, i) => ({
          label: s.label, data: [], borderColor: s.color, backgroundColor: s.color, pointRadius: 3, yAxisID: axes[i],
        })),
      },
      options: {
        animation: false,
        parsing: false,
        maintainAspectRatio: false,
        scales: {
          x: { type: 'linear', min: 0, suggestedMax: 5, title: { display: true, text: t('chart.epoch') }, ticks: { precision: 0 } },
          y: { type: 'linear', position: 'left', title: { display: true, text: series[0].yTitle } },
          ...(series[1] ? { y2: { type: 'linear', position: 'right', grid: { drawOnChartArea: false }, title: { display: true, text: series[1].yTitle } } } : {}),
        },
        plugins: { legend: { display: series.length > 1 } },
      },
    });
  }

  // values[i] belongs to epoch firstEpoch + i.
  setSeries(index, values, firstEpoch) {
    this.chart.data.datasets[index].data = Array.from(values, (y, i) => ({ x: firstEpoch + i, y }));
  }

  draw() { this.chart.update('none'); }
}

export { TrainingChart };
