// Figure 1, the predictions chart, for the page and <nw-figure> alike: the data, the truth, the three
// estimators' lines and the query's attention, drawn from a Session and the settings.
import { PredictionsChart } from '../charts/predictions_chart.js';
import { t as pageT } from '../i18n/i18n.js';
import { labelLines } from './texts.js';

// The attention the query shows: at the settings' w (the nonparametric) or at the learned w.
const attentionW = (session, s) => (session.attentionFollowsW(s) ? s.w : session.learnedW);

class PredictionsFigure {
  constructor(canvas, { onQuery, t = pageT }) {
    this.t = t;
    this.chart = new PredictionsChart(canvas, { xMin: 0, xMax: 5, onQuery, t });
  }

  // Sets the chart to the session's lines (predictions: session.predictions(s.w)) and the query's
  // attention; returns the query shown (s.query within the data's x range). Drawn by draw().
  set(session, s, predictions) {
    const { xMin, xMax } = session.xRange;
    const query = Math.min(xMax, Math.max(xMin, s.query));
    this.chart.setRange(xMin, xMax);
    this.chart.setData(session.data, predictions);
    labelLines(this.chart, session, this.t);
    this.chart.setQuery(query, session.queryWeights(query, attentionW(session, s)));
    return query;
  }

  // While w is dragged: the nonparametric line at w, and the query's attention if it follows that w.
  setDragged(session, s, w, line) {
    this.chart.setNonparametric(session.data.xTest, line);
    if (session.attentionFollowsW(s)) this.chart.setQuery(this.chart.query, session.queryWeights(this.chart.query, w));
  }

  draw() { this.chart.draw(); }
}

export { PredictionsFigure };
