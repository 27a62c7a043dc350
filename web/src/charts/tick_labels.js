// Which of a colour scale's tick labels to draw so that none overlaps another: the first and the last
// always (0 and the largest weight), a middle one only if it keeps `gap` pixels from the labels beside
// it. In a narrow legend (a kernel panel's, about 160 px) the five labels of small weights, such as
// 0.00050 to 0.0020 at 2000 samples, ran into one another.
// labels: [{ text, x, align }] in order along the bar, align 'left' | 'center' | 'right' as on a canvas;
// measure(text): a label's width in pixels.
function fittingTickLabels(labels, measure, gap = 4) {
  const span = ({ text, x, align }) => {
    const width = measure(text);
    const left = align === 'left' ? x : align === 'right' ? x - width : x - width / 2;
    return { left, right: left + width };
  };
  if (labels.length <= 2) return labels;
  const first = labels[0];
  const last = labels[labels.length - 1];
  const lastLeft = span(last).left;
  const kept = [first];
  let right = span(first).right;
  for (const label of labels.slice(1, -1)) {
    const box = span(label);
    if (box.left >= right + gap && box.right + gap <= lastLeft) {
      kept.push(label);
      right = box.right;
    }
  }
  kept.push(last);
  return kept;
}

export { fittingTickLabels };
