// The words of "Design your own attention pooling", each number from the module's reply (compute/
// design_work.js): the title's parameters, the summary under the charts, the sentence that says what to
// notice for the current choice, and the check that Gaussian pooling is dot-product attention.
import { t as pageT } from '../i18n/i18n.js';
import { parameterCount } from '../model/design.js';

const fixed = (value, digits) => value.toFixed(digits);

// How far, on average, a query's largest weight lies from it: |q - k| of each query's peak key.
function meanPeakDistance(peaks, xTest, xTrain) {
  let sum = 0;
  for (let r = 0; r < peaks.length; r++) sum += Math.abs(xTest[r] - xTrain[peaks[r]]);
  return sum / peaks.length;
}

// The learned parameters in the figure's title: w, s, or h hidden units.
function designParametersText(reply, s, t = pageT) {
  const { parameters } = reply;
  if (s.scoring === 'gaussian') return `(w = ${fixed(parameters.w, 2)})`;
  if (s.scoring === 'dotProduct') return `(s = ${fixed(parameters.s, 4)})`;
  return t('design.hiddenUnits', { h: parameters.v.length });
}

function mseComparison(reply, t) {
  const mse = reply.testMses[reply.testMses.length - 1];
  const gaussianMse = reply.gaussian.testMse;
  if (mse === null || gaussianMse === null) return '';
  const values = { mse: fixed(mse, 3), gaussianMse: fixed(gaussianMse, 3) };
  // (Equal as shown: "0.251 is lower than 0.251" would puzzle a reader.)
  if (values.mse === values.gaussianMse) return t('design.mseEqual', values);
  return t(mse < gaussianMse ? 'design.mseLower' : 'design.mseHigher', values);
}

// "32 parameters · epoch 12 · loss 20.1", the numbers a teacher points at.
function designSummary(reply, s, t = pageT) {
  const count = parameterCount(s.scoring, s.hidden);
  const parts = [t.plural('design.parameterCount', count), t('design.epoch', { epoch: reply.epoch })];
  if (reply.losses.length) parts.push(t('design.lastLoss', { loss: reply.losses[reply.losses.length - 1].toPrecision(4) }));
  return parts.join(' · ');
}

// What the reader should notice for the current scoring, trained or not.
function designNotice(reply, data, s, t = pageT) {
  const { xTest, xTrain } = data;
  const { peaks } = reply.blocks;
  const distance = fixed(meanPeakDistance(peaks, xTest, xTrain), 3);
  const gaussianDistance = fixed(meanPeakDistance(reply.gaussian.peaks, xTest, xTrain), 3);
  const mse = mseComparison(reply, t);
  const joined = (text) => (mse ? `${text} ${mse}` : text);
  if (s.scoring === 'dotProduct') {
    const scale = reply.parameters.s;
    if (scale === 0) return joined(t('design.noticeDotZero'));
    // For s > 0 the score s q k grows with k for every query above 0: its peak is the largest key.
    const extreme = scale > 0 ? xTrain.indexOf(Math.max(...xTrain)) : xTrain.indexOf(Math.min(...xTrain));
    let queries = 0;
    let atExtreme = 0;
    for (let r = 0; r < xTest.length; r++) {
      if (xTest[r] <= 0) continue;
      queries += 1;
      if (xTrain[peaks[r]] === xTrain[extreme]) atExtreme += 1;
    }
    return joined(t(scale > 0 ? 'design.noticeDotLargest' : 'design.noticeDotSmallest', { s: fixed(scale, 4), count: atExtreme, queries, key: fixed(xTrain[extreme], 2) }));
  }
  if (s.scoring === 'gaussian') return joined(t('design.noticeGaussian', { w: fixed(reply.parameters.w, 2), distance }));
  if (reply.epoch === 0) return joined(t('design.noticeAdditiveStart', { distance, gaussianDistance }));
  return joined(t('design.noticeAdditive', { epochs: reply.epoch, distance, gaussianDistance }));
}

// The charts' text alternatives, with the numbers they show.
function describeDesign(reply, data, t = pageT) {
  const mse = reply.testMses[reply.testMses.length - 1];
  const { rows, cols } = reply.blocks;
  return {
    predictions: t('design.describePredictions', { epoch: reply.epoch, w: fixed(reply.gaussian.w, 2), mse: mse === null ? '–' : fixed(mse, 3), gaussianMse: reply.gaussian.testMse === null ? '–' : fixed(reply.gaussian.testMse, 3) }),
    weights: t('design.describeWeights', { epoch: reply.epoch, rows, cols, distance: fixed(meanPeakDistance(reply.blocks.peaks, data.xTest, data.xTrain), 3) }),
  };
}

// The module's check that the chapter's weights are dot-product attention's on the features.
function featureCheckText(reply, data, t = pageT) {
  const { w, rows, cols, largestDifference } = reply.featureCheck;
  return t(rows === data.xTest.length ? 'design.featureCheck' : 'design.featureCheckSampled', { w: fixed(w, 2), rows, cols, difference: largestDifference.toExponential(1), queries: data.xTest.length });
}

export { describeDesign, designNotice, designParametersText, designSummary, featureCheckText, meanPeakDistance };
