// The query's row on a heatmap: which block row it falls in, and its outline across the chart area.
// The block row of the query nearest x: rowLabels are the sorted queries, rowStep of them a block row.
function blockRowOf(rowLabels, rowStep, x) {
  if (rowLabels.length === 0) return -1;
  let lo = 0;
  let hi = rowLabels.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rowLabels[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  const nearest = lo > 0 && x - rowLabels[lo - 1] <= rowLabels[lo] - x ? lo - 1 : lo;
  return Math.floor(nearest / rowStep);
}

// Outlines block row `row` across the chart area: solid where the predictions chart shows this heatmap's
// attention (shown), dashed on the other heatmap; in the page's text colour over a halo of its
// background, to stand out on any colour of the scale, and at least 4 px tall, so a thin row shows.
function outlineRow(chart, row, shown) {
  const { ctx, chartArea, scales } = chart;
  const top = scales.y.getPixelForValue(row - 0.5);
  const bottom = scales.y.getPixelForValue(row + 0.5);
  const middle = (top + bottom) / 2;
  const half = Math.max(2, (bottom - top) / 2);
  const outline = () => ctx.strokeRect(chartArea.left + 1.5, middle - half, chartArea.right - chartArea.left - 3, 2 * half);
  ctx.save();
  ctx.setLineDash(shown ? [] : [4, 3]);
  ctx.strokeStyle = chart.$ink.background;
  ctx.lineWidth = 3.5;
  outline();
  ctx.strokeStyle = chart.$ink.text;
  ctx.lineWidth = 1.5;
  outline();
  ctx.restore();
}

export { blockRowOf, outlineRow };
