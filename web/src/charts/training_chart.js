// Figure 3: the training run, one point per epoch, one or two series (the second on a right-hand axis).
import { Chart, createChart } from './chart.js';
import { t as pageT } from '../i18n/i18n.js';

// Before the first epoch the first series is empty: the chart says what it will show instead of an
// empty frame (options.plugins.nwEmpty.text, in the chart's text colour, in the middle of its area).
const emptyPlugin = {
  id: 'nwEmpty',
  afterDraw(chart, args, { text }) {
    if (!text || chart.data.datasets[0].data.length > 0) return;
    const { ctx, chartArea } = chart;
    ctx.save();
    ctx.fillStyle = chart.$ink.text;
    ctx.font = `${Chart.defaults.font.size}px ${Chart.defaults.font.family}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, (chartArea.left + chartArea.right) / 2, (chartArea.top + chartArea.bottom) / 2, chartArea.right - chartArea.left - 8);
    ctx.restore();
  },
};

class TrainingChart {
  // series: [{ label, color, yTitle }], at most two; the first on the left axis, the second on the right.
  // t: the texts' language. See setEmptyText for what it says before the first series has a point.
  constructor(canvas, { series, t = pageT }) {
    const axes = ['y', 'y2'];
    this.chart = createChart(canvas, {
      type: 'line',
      plugins: [emptyPlugin],
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
        plugins: { legend: { display: series.length > 1 }, nwEmpty: { text: '' } },
      },
    });
  }

  // values[i] belongs to epoch firstEpoch + i.
  setSeries(index, values, firstEpoch) {
    this.chart.data.datasets[index].data = Array.from(values, (y, i) => ({ x: firstEpoch + i, y }));
  }

  // What the chart says while its first series is empty.
  setEmptyText(text) { this.chart.options.plugins.nwEmpty.text = text; }

  draw() { this.chart.update('none'); }
}

export { TrainingChart };
