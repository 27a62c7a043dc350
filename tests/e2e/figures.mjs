// Helpers for the tests of <nw-figure> in a lesson (component.test.mjs, author.test.mjs).

// Until the figure with this id has drawn every chart of its figure (each has data).
export const figureDrawn = (page, id) => page.waitForFunction((figureId) => {
  const figure = document.getElementById(figureId);
  const charts = figure && figure.charts;
  const drawn = (chart) => (chart.$heatmap ? chart.$heatmap.cellCount > 0 : chart.data.datasets.some((set) => set.data.length > 0));
  return charts && charts.length > 0 && charts.every(drawn) ? true : null;
}, id);

// Adds <nw-figure id="id" ...attributes> to the lesson (at its start with prepend), as a lesson's code
// would, and waits until it has drawn.
export async function addFigure(page, id, attributes, { prepend = false } = {}) {
  await page.evaluate(({ figureId, pairs, first }) => {
    const figure = document.createElement('nw-figure');
    figure.id = figureId;
    for (const [name, value] of pairs) figure.setAttribute(name, value);
    if (first) document.body.prepend(figure);
    else document.body.append(figure);
  }, { figureId: id, pairs: Object.entries(attributes), first: prepend });
  await figureDrawn(page, id);
}
