// What a lesson author's options (model/author_options.js) change in an embed of the page: only the
// controls named by ?controls= show, and ?caption= takes the place of the figures' own captions.
import { byId } from '../lib/dom.js';

// The elements of each control besides its <label for>: its input, its value's output, a note about it;
// `train`, the training buttons with the run's progress and status.
const CONTROL_ELEMENTS = {
  query: ['query', 'queryValue'], attend: ['attend'], kernel: ['kernel', 'kernelNote'], estimator: ['estimator'],
  w: ['w', 'wValue'], lr: ['lr'], epochs: ['epochs'], loo: ['loo'], loss: ['loss'],
  train: ['train', 'convergeProgress', 'status'],
  scoring: ['scoring'], hidden: ['hidden'], optimizer: ['optimizer'], designLr: ['designLr'], designEpochs: ['designEpochs'],
  designTrain: ['designTrain', 'designStatus'],
};
// The controls whose first element stands for its row of buttons.
const BUTTON_ROWS = new Set(['train', 'designTrain']);
// (A class, not the hidden attribute: the page shows and hides some of these itself, as the progress.)
const OFF = 'author-off';

// controls: a Set of control names, or null for all of them. A group of controls (a fieldset, the
// query's row) with none left is hidden as a whole.
function showControls(controls) {
  if (controls === null) return;
  for (const [name, ids] of Object.entries(CONTROL_ELEMENTS)) {
    if (controls.has(name)) continue;
    for (const id of ids) {
      const element = BUTTON_ROWS.has(name) && id === name ? byId(id).parentElement : byId(id); // (the buttons' row)
      element.classList.add(OFF);
      document.querySelector(`label[for="${id}"]`)?.classList.add(OFF);
    }
  }
  for (const group of document.querySelectorAll('fieldset, .query-controls')) {
    const left = Object.keys(CONTROL_ELEMENTS).some((name) => controls.has(name) && group.contains(byId(CONTROL_ELEMENTS[name][0])));
    if (!left) group.classList.add(OFF);
  }
}

// caption: null (the figures' own), '' (none) or the author's plain text, which takes the place of the
// last of `captions` (a figure of two charts: under the second); the others are hidden (hide(element,
// hidden): the page's class, or the hidden attribute in <nw-figure>'s shadow root).
function placeCaption(captions, caption, hide) {
  if (caption === null) return;
  for (const [i, element] of captions.entries()) {
    const last = i === captions.length - 1;
    hide(element, !last || caption === '');
    if (!last) continue;
    element.removeAttribute('data-i18n'); // (a dictionary loaded later must not write its own text back)
    element.textContent = caption;
  }
}

// The page's embed: among the captions shown (those of the figures the embed shows).
function showCaption(caption) {
  if (caption === null) return;
  const shown = [...document.querySelectorAll('figcaption')].filter((element) => element.getClientRects().length > 0);
  placeCaption(shown, caption, (element, hidden) => element.classList.toggle(OFF, hidden));
}

export { placeCaption, showCaption, showControls };
