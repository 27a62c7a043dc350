// The colour scale's tick labels: those drawn never overlap, 0 and the largest weight always are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fittingTickLabels } from '../../web/src/charts/tick_labels.js';

const measure = (text) => 6 * text.length; // six pixels a character
// Five labels at the quarters of a bar `width` pixels wide, aligned as drawLegend aligns them.
const quarters = (texts, width) => texts.map((text, i) => ({
  text, x: Math.round((i / 4) * (width - 1)), align: i === 0 ? 'left' : i === 4 ? 'right' : 'center',
}));
const spans = (labels) => labels.map(({ text, x, align }) => {
  const left = align === 'left' ? x : align === 'right' ? x - measure(text) : x - measure(text) / 2;
  return [left, left + measure(text)];
});

test('in a wide bar every label is drawn', () => {
  const labels = quarters(['0', '0.025', '0.050', '0.075', '0.10'], 400);
  assert.deepEqual(fittingTickLabels(labels, measure), labels);
});

test('in a narrow bar the middle labels that would touch their neighbours are left out', () => {
  const labels = quarters(['0', '0.00050', '0.0010', '0.0015', '0.0020'], 160);
  const kept = fittingTickLabels(labels, measure);
  assert.deepEqual(kept.map(({ text }) => text), ['0', '0.00050', '0.0020']);
  const boxes = spans(kept);
  for (let i = 1; i < boxes.length; i++) assert.ok(boxes[i][0] >= boxes[i - 1][1] + 4, `label ${i} keeps its distance`);
});

test('the first and last labels stay even where nothing else fits', () => {
  const labels = quarters(['0', '0.00000050', '0.0000010', '0.0000015', '0.0000020'], 60);
  assert.deepEqual(fittingTickLabels(labels, measure).map(({ text }) => text), ['0', '0.0000020']);
});
