// The loss landscape's content, for the page and for <nw-figure>: the training objective L(w) on a grid
// of w reaching past the training run and the minimiser (all computed by the module, through Session),
// and the sentence that says what the curve is and where the run stands on it.
import { t as pageT } from '../i18n/i18n.js';
import { kernelName } from '../i18n/kernel_name.js';

// The landscape evaluates L(w) this many times; above LANDSCAPE_MAX_TRAIN samples it is not drawn.
const LANDSCAPE_POINTS = 120;
const LANDSCAPE_MAX_TRAIN = 500;
// The test MSE curve costs LANDSCAPE_POINTS predictions of nTest x nTrain kernel evaluations each: drawn
// up to this many evaluations in all (about a tenth of a second).
const TEST_CURVE_MAX_WORK = 3e7;
// The AICc curve and its minimiser (each AICc evaluation is a pass of about nTrain^2 with the smoother's
// trace, several times the cost of a leave-one-out loss) are drawn up to this many training samples:
// about a tenth of a second at most, where 500 samples would take most of a second.
const AIC_MAX_TRAIN = 200;

// The largest |w| the training run has visited (0 before it has a w).
const runReach = (session) => (session.ws.length ? Math.max(...session.ws.map(Math.abs)) : 0);

// A minimiser's w when it is finite (0 otherwise: nothing to make room for).
const finiteW = (best) => (best && best.atLimit !== 'infinity' ? best.w : 0);

// { ws, losses, testMses, aics, best, aicBest, wMax }: the curve over [0, wMax], wide enough for the run,
// both minimisers and w; testMses is the test error at each w (null without a truth, or for large data);
// aics the corrected AIC at each w (Infinity past its pole) and aicBest its minimiser, both null where
// the AIC does not apply (Session.hasAic: an untrainable kernel, leave-one-out off, under 5 points).
function landscapeCurve(session, s) {
  const best = session.bestBandwidth();
  const aicFits = session.data.xTrain.length <= AIC_MAX_TRAIN;
  const aicFound = aicFits ? session.bestAicBandwidth() : null;
  // An exact fit (sigma2 = 0 at every w: e.g. constant y) has AICc = -infinity everywhere: no curve or
  // minimiser means anything there, and the note says why.
  const aicExact = aicFound !== null && aicFound.loss === -Infinity;
  const aicBest = aicExact ? null : aicFound;
  const wMax = Math.max(5, 1.5 * runReach(session), 2 * finiteW(best), 1.2 * finiteW(aicBest), 1.2 * s.w);
  const ws = Array.from({ length: LANDSCAPE_POINTS }, (_, i) => (wMax * i) / (LANDSCAPE_POINTS - 1));
  const work = LANDSCAPE_POINTS * session.data.xTest.length * session.data.xTrain.length;
  const testMses = work <= TEST_CURVE_MAX_WORK ? session.testMseAt(ws) : null;
  const aics = aicBest ? session.aicAt(ws) : null;
  // aicTooMany: the AIC applies but is not drawn, for its cost.
  return { ws, losses: session.objectiveAt(ws), testMses, aics, best, aicBest, aicExact, aicTooMany: session.hasAic && !aicFits, wMax };
}

// The w of the curve's lowest test MSE, and whether that is the curve's right edge (the test error may
// go on falling beyond it).
function bestTestW(curve) {
  let best = 0;
  curve.testMses.forEach((mse, i) => { if (mse < curve.testMses[best]) best = i; });
  return { w: curve.ws[best], atEdge: best === curve.ws.length - 1 };
}

// Sentences one after another: with a space between them in English, none in Chinese (whose full stop
// is full-width).
const joinSentences = (t, sentences) => sentences.filter(Boolean).join(t.lang === 'zh' ? '' : ' ');

// A minimiser's w for a note: '∞' at the limit w -> infinity.
const noteW = (best) => (best.atLimit === 'infinity' ? '∞' : best.w.toFixed(4));

// Both criteria's minimisers, and where AICc is searched (where tr(H) < n - 2: it has a pole at n - 2).
function aicNote(session, curve, t) {
  if (curve.aicTooMany) return t('landscape.noteAicTooMany', { max: AIC_MAX_TRAIN });
  if (curve.aicExact) return t('landscape.noteAicExact');
  if (!curve.aicBest) return '';
  return t('landscape.noteAic', { aicW: noteW(curve.aicBest), looW: noteW(curve.best), limit: session.data.xTrain.length - 2 });
}

function generalisationNote(curve, t) {
  if (!curve.testMses) return '';
  const { w, atEdge } = bestTestW(curve);
  return t(atEdge ? 'landscape.noteTestEdge' : 'landscape.noteTestLowest', { w: w.toFixed(2) });
}

// What the curve is, its minimiser, how far the run's last step is above it, and where the test error
// is lowest (curve: from landscapeCurve, or null when the landscape is not drawn), in t's language.
function landscapeNote(session, curve, t = pageT) {
  const best = curve ? curve.best : null;
  if (session.data.xTrain.length > LANDSCAPE_MAX_TRAIN) {
    return t('landscape.noteTooMany', { max: LANDSCAPE_MAX_TRAIN, points: LANDSCAPE_POINTS });
  }
  if (!session.canTrain) return t('landscape.noteUntrainable', { kernel: kernelName(session.kernel, t) });
  if (!best) return '';
  const halved = session.objective.loss === 'halfSquared';
  const what = session.objective.leaveOneOut
    ? t(halved ? 'landscape.whatLooHalf' : 'landscape.whatLoo')
    : t(halved ? 'landscape.whatNoLooHalf' : 'landscape.whatNoLoo');
  const last = session.losses.length ? session.losses[session.losses.length - 1] : null;
  const lowest = best.atLimit === 'infinity'
    ? t('landscape.noteLimit', { loss: best.loss.toFixed(4) })
    : t('landscape.noteStar', { w: best.w.toFixed(4), loss: best.loss.toFixed(4) });
  const run = last === null ? t('landscape.noteTrain')
    : t('landscape.noteRun', {
      epochs: session.epoch, w: session.learnedW.toFixed(4), last: last.toFixed(4), above: (100 * (last - best.loss) / best.loss).toFixed(3),
    });
  return joinSentences(t, [t('landscape.note', { what }), lowest, run, generalisationNote(curve, t), aicNote(session, curve, t)]);
}

// The run's steps on the curve: w before each epoch's step and the loss there.
const runSteps = (session) => ({ ws: session.ws.slice(0, session.losses.length), losses: session.losses });

export { AIC_MAX_TRAIN, LANDSCAPE_MAX_TRAIN, bestTestW, landscapeCurve, landscapeNote, runReach, runSteps };
