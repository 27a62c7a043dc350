// The loss landscape's content, for the page and for <nw-figure>: the training objective L(w) on a grid
// of w reaching past the training run and the minimiser (all computed by the module, through Session),
// and the sentence that says what the curve is and where the run stands on it.

// The landscape evaluates L(w) this many times; above LANDSCAPE_MAX_TRAIN samples it is not drawn.
const LANDSCAPE_POINTS = 120;
const LANDSCAPE_MAX_TRAIN = 500;
// The test MSE curve costs LANDSCAPE_POINTS predictions of nTest x nTrain kernel evaluations each: drawn
// up to this many evaluations in all (about a tenth of a second).
const TEST_CURVE_MAX_WORK = 3e7;

// The largest |w| the training run has visited (0 before it has a w).
const runReach = (session) => (session.ws.length ? Math.max(...session.ws.map(Math.abs)) : 0);

// { ws, losses, testMses, best, wMax }: the curve over [0, wMax], wide enough for the run, the
// minimiser and w; testMses is the test error at each w (null without a truth, or for large data).
function landscapeCurve(session, s) {
  const best = session.bestBandwidth();
  const bestFinite = best && best.atLimit !== 'infinity' ? best.w : 0;
  const wMax = Math.max(5, 1.5 * runReach(session), 2 * bestFinite, 1.2 * s.w);
  const ws = Array.from({ length: LANDSCAPE_POINTS }, (_, i) => (wMax * i) / (LANDSCAPE_POINTS - 1));
  const work = LANDSCAPE_POINTS * session.data.xTest.length * session.data.xTrain.length;
  const testMses = work <= TEST_CURVE_MAX_WORK ? session.testMseAt(ws) : null;
  return { ws, losses: session.objectiveAt(ws), testMses, best, wMax };
}

// The w of the curve's lowest test MSE, and whether that is the curve's right edge (the test error may
// go on falling beyond it).
function bestTestW(curve) {
  let best = 0;
  curve.testMses.forEach((mse, i) => { if (mse < curve.testMses[best]) best = i; });
  return { w: curve.ws[best], atEdge: best === curve.ws.length - 1 };
}

function generalisationNote(curve) {
  if (!curve.testMses) return '';
  const { w, atEdge } = bestTestW(curve);
  const where = atEdge ? `it is still falling at the curve's right edge, w = ${w.toFixed(2)}` : `it is lowest at w = ${w.toFixed(2)}`;
  return ` The dashed line (right axis) is the nonparametric estimator's test MSE against the noise-free truth, which training never sees: on this curve ${where}.`;
}

// What the curve is, its minimiser, how far the run's last step is above it, and where the test error
// is lowest (curve: from landscapeCurve, or null when the landscape is not drawn).
function landscapeNote(session, curve) {
  const best = curve ? curve.best : null;
  if (session.data.xTrain.length > LANDSCAPE_MAX_TRAIN) {
    return `The landscape is drawn for up to ${LANDSCAPE_MAX_TRAIN} training samples (it evaluates the loss ${LANDSCAPE_POINTS} times).`;
  }
  if (!session.canTrain) {
    return `The ${session.kernel} kernel's loss is piecewise constant in w: there is no gradient to follow and no minimiser to search for.`;
  }
  if (!best) return '';
  const halved = session.objective.loss === 'halfSquared';
  const mxnet = 'as in the chapter\'s MXNet listing (the same minimiser, half the loss)';
  const what = session.objective.leaveOneOut
    ? (halved ? `half the leave-one-out cross-validation criterion, L(w), ${mxnet}` : 'exactly the leave-one-out cross-validation criterion L(w)')
    : `L(w) with each query seeing its own key (leave-one-out is off), which only falls as w grows${halved ? `, halved ${mxnet}` : ''}`;
  const last = session.losses.length ? session.losses[session.losses.length - 1] : null;
  const lowest = best.atLimit === 'infinity'
    ? `Its lowest value, L = ${best.loss.toFixed(4)}, is only its limit as w grows without bound (each point predicted by its nearest neighbours), so there is no star. `
    : `The star is its minimiser as found by selectBandwidth, w* = ${best.w.toFixed(4)} with L = ${best.loss.toFixed(4)}. `;
  return `Training minimises ${what}. ${lowest}`
    + (last === null ? 'Train to see the steps move down the curve.'
      : `After ${session.epoch} epochs, w = ${session.learnedW.toFixed(4)}; the last step started from L = ${last.toFixed(4)}, ${(100 * (last - best.loss) / best.loss).toFixed(3)}% above the minimum.`)
    + generalisationNote(curve);
}

// The run's steps on the curve: w before each epoch's step and the loss there.
const runSteps = (session) => ({ ws: session.ws.slice(0, session.losses.length), losses: session.losses });

export { LANDSCAPE_MAX_TRAIN, bestTestW, landscapeCurve, landscapeNote, runReach, runSteps };
