// The loss landscape figure, for the page and <nw-figure> alike: the training objective L(w) (computed by
// model/landscape.js, kept while the data and objective stay and the run stays on it), the run's steps on
// it, and a note with its numbers. Hidden for more samples than the curve can be computed for.
import { LandscapeChart } from '../charts/landscape_chart.js';
import { t as pageT } from '../i18n/i18n.js';
import { LANDSCAPE_MAX_TRAIN, landscapeCurve, landscapeNote, runReach, runSteps } from '../model/landscape.js';

class LandscapeFigure {
  constructor(canvas, { t = pageT } = {}) {
    this.t = t;
    this.canvas = canvas;
    this.chart = new LandscapeChart(canvas, { t });
    this.curve = null;
    this.curveOf = null; // the session data and objective the curve was computed for
  }

  // Draws the session's landscape; returns the note that goes under it.
  draw(session, s) {
    const tooMany = session.data.xTrain.length > LANDSCAPE_MAX_TRAIN;
    this.canvas.parentElement.hidden = tooMany;
    if (!tooMany) {
      const of = [session.data, session.kernel, session.estimator, session.objective.leaveOneOut, session.objective.loss];
      if (!this.curve || !of.every((value, i) => Object.is(value, this.curveOf[i])) || runReach(session) > this.curve.wMax) {
        this.curve = landscapeCurve(session, s);
        this.curveOf = of;
      }
      this.chart.set({ curve: this.curve, steps: runSteps(session), best: this.curve.best });
      this.chart.draw();
    }
    return landscapeNote(session, tooMany ? null : this.curve, this.t);
  }
}

export { LandscapeFigure };
