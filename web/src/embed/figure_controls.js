// The controls <nw-figure> adds above its figure (component_figures.js's views name them: 'w', the
// distance scale's slider, or 'train', the training buttons with the epoch's status), appended to the
// figure's controls element; a reader's change goes to figure.edit, a training step to its player.
import { coerce, properties } from '../model/settings.js';
import { element as el } from './component_figures.js';

function addControl(figure, control) {
  if (control === 'w') {
    const property = properties.find((p) => p.name === 'w');
    figure.wInput = el('input', { type: 'range', min: String(property.min), max: String(property.max), step: '0.05' });
    figure.wInput.id = 'w';
    figure.wOutput = el('output');
    figure.wInput.addEventListener('input', () => {
      const { value } = coerce(property, figure.wInput.value, figure.t);
      if (value !== undefined) figure.edit({ w: value });
    });
    figure.controls.append(el('label', { htmlFor: 'w', textContent: figure.t('setting.w') }), figure.wInput, figure.wOutput);
  } else if (control === 'train') {
    const button = (text, onClick) => {
      const b = el('button', { type: 'button', textContent: text });
      b.addEventListener('click', onClick);
      return b;
    };
    figure.buttons = {
      train: button(figure.t('training.train'), () => figure.player.play(figure.settings.epochs)),
      pause: button(figure.t('training.pause'), () => figure.player.pause()),
      step: button(figure.t('training.step'), () => { figure.player.pause(); figure.trainOneEpoch(); }),
      reset: button(figure.t('training.reset'), () => { figure.player.pause(); figure.edit({ trained: 0 }); }),
    };
    figure.epochStatus = el('span', { className: 'status' });
    figure.epochStatus.setAttribute('aria-live', 'polite');
    figure.controls.append(...Object.values(figure.buttons), figure.epochStatus);
  }
}

export { addControl };
