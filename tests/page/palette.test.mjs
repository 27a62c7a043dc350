// The estimators' colours stay apart for colour-blind readers: CIEDE2000 distances between the lines
// as seen with normal vision and as simulated for full deuteranopia and protanopia (Machado, Oliveira
// and Fernandes 2009, applied in linear RGB), and a dash pattern per line as a second cue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimator, lineDash, mix } from '../../web/src/charts/colors.js';

const simulations = {
  normal: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
};

const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);

// sRGB hex -> CIE Lab (D65), after the simulation matrix (in linear RGB, clamped to the gamut).
function lab(hex, matrix) {
  const linear = rgb(hex).map(toLinear);
  const [r, g, b] = matrix.map((row) => Math.min(1, Math.max(0, row[0] * linear[0] + row[1] * linear[1] + row[2] * linear[2])));
  const xyz = [0.4124564 * r + 0.3575761 * g + 0.1804375 * b, 0.2126729 * r + 0.7151522 * g + 0.0721750 * b, 0.0193339 * r + 0.1191920 * g + 0.9503041 * b];
  const white = [0.95047, 1, 1.08883];
  const f = (t) => (t > (6 / 29) ** 3 ? Math.cbrt(t) : t / (3 * (6 / 29) ** 2) + 4 / 29);
  const [fx, fy, fz] = xyz.map((v, i) => f(v / white[i]));
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

// CIEDE2000 (Sharma, Wu and Dalal 2005).
function deltaE2000([l1, a1, b1], [l2, a2, b2]) {
  const rad = Math.PI / 180;
  const cBar = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const g = 0.5 * (1 - Math.sqrt(cBar ** 7 / (cBar ** 7 + 25 ** 7)));
  const [ap1, ap2] = [(1 + g) * a1, (1 + g) * a2];
  const [cp1, cp2] = [Math.hypot(ap1, b1), Math.hypot(ap2, b2)];
  const hue = (b, ap) => (b === 0 && ap === 0 ? 0 : (Math.atan2(b, ap) / rad + 360) % 360);
  const [hp1, hp2] = [hue(b1, ap1), hue(b2, ap2)];
  const dL = l2 - l1;
  const dC = cp2 - cp1;
  let dh = 0;
  if (cp1 * cp2 !== 0) dh = Math.abs(hp2 - hp1) <= 180 ? hp2 - hp1 : hp2 - hp1 > 180 ? hp2 - hp1 - 360 : hp2 - hp1 + 360;
  const dH = 2 * Math.sqrt(cp1 * cp2) * Math.sin((dh / 2) * rad);
  const lBar = (l1 + l2) / 2;
  const cpBar = (cp1 + cp2) / 2;
  let hBar = hp1 + hp2;
  if (cp1 * cp2 !== 0) hBar = Math.abs(hp1 - hp2) <= 180 ? hBar / 2 : hBar < 360 ? (hBar + 360) / 2 : (hBar - 360) / 2;
  const t = 1 - 0.17 * Math.cos((hBar - 30) * rad) + 0.24 * Math.cos(2 * hBar * rad) + 0.32 * Math.cos((3 * hBar + 6) * rad) - 0.2 * Math.cos((4 * hBar - 63) * rad);
  const sL = 1 + (0.015 * (lBar - 50) ** 2) / Math.sqrt(20 + (lBar - 50) ** 2);
  const sC = 1 + 0.045 * cpBar;
  const sH = 1 + 0.015 * cpBar * t;
  const rT = -2 * Math.sqrt(cpBar ** 7 / (cpBar ** 7 + 25 ** 7)) * Math.sin(60 * Math.exp(-(((hBar - 275) / 25) ** 2)) * rad);
  return Math.sqrt((dL / sL) ** 2 + (dC / sC) ** 2 + (dH / sH) ** 2 + rT * (dC / sC) * (dH / sH));
}

test('CIEDE2000 as implemented here reproduces Sharma\'s published test pairs', () => {
  assert.equal(deltaE2000([50, 2.6772, -79.7751], [50, 0, -82.7485]).toFixed(4), '2.0425');
  assert.equal(deltaE2000([50, -1, 2], [50, 0, 0]).toFixed(4), '2.3669');
  assert.equal(deltaE2000([60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387]).toFixed(4), '1.2644');
  // The old palette's failure that this test guards against: green against red for a deuteranope.
  assert.ok(deltaE2000(lab('#2ca02c', simulations.deuteranopia), lab('#d62728', simulations.deuteranopia)) < 6);
  assert.ok(deltaE2000(lab('#2ca02c', simulations.normal), lab('#d62728', simulations.normal)) > 30);
});

test('the prediction lines are at least 15 CIEDE2000 apart in normal, deuteranope and protanope vision', () => {
  // (The query is a dotted vertical line, not a prediction: its shape sets it apart.)
  const lines = ['truth', 'average', 'nonparametric', 'parametric'];
  for (const [vision, matrix] of Object.entries(simulations)) {
    for (let i = 0; i < lines.length; i++) {
      for (let j = i + 1; j < lines.length; j++) {
        const distance = deltaE2000(lab(estimator[lines[i]], matrix), lab(estimator[lines[j]], matrix));
        assert.ok(distance >= 15, `${vision}: ${lines[i]} vs ${lines[j]} only ${distance.toFixed(1)} apart`);
      }
    }
  }
});

test('each line also has its own dash pattern', () => {
  const patterns = Object.entries(lineDash).map(([name, dash]) => [name, JSON.stringify(dash)]);
  // Truth and nonparametric are both solid: black against blue.
  assert.notEqual(lineDash.parametric.join(), lineDash.nonparametric.join());
  assert.notEqual(lineDash.parametric.join(), lineDash.average.join());
  assert.equal(new Set(patterns.filter(([name]) => name !== 'truth').map(([, dash]) => dash)).size, patterns.length - 1);
});

test('mix goes from one colour to the other in its steps', () => {
  assert.equal(mix('#000000', '#ffffff', 0), '#000000');
  assert.equal(mix('#000000', '#ffffff', 1), '#ffffff');
  assert.equal(mix('#0072b2', '#d55e00', 0.5), '#6b6859');
});
