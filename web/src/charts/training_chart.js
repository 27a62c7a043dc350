// Figure 3: the training run, one point per epoch: the loss before the epoch's step, or w after it.
(function (NWPage) {
  'use strict';

  class TrainingChart {
    // series: 'loss' or 'w'
    constructor(canvas, { label, color, yTitle }) {
      this.chart = new Chart(canvas, {
        type: 'line',
        data: { datasets: [{ label, data: [], borderColor: color, backgroundColor: color, pointRadius: 3 }] },
        options: {
          animation: false,
          parsing: false,
          maintainAspectRatio: false,
          scales: {
            x: { type: 'linear', min: 0, suggestedMax: 5, title: { display: true, text: 'epoch' }, ticks: { precision: 0 } },
            y: { type: 'linear', title: { display: true, text: yTitle } },
          },
          plugins: { legend: { display: false } },
        },
      });
    }

    // values[i] belongs to epoch firstEpoch + i.
    setSeries(values, firstEpoch) {
      this.chart.data.datasets[0].data = values.map((y, i) => ({ x: firstEpoch + i, y }));
    }

    draw() { this.chart.update('none'); }
  }

  NWPage.TrainingChart = TrainingChart;
})((window.NWPage = window.NWPage || {}));
