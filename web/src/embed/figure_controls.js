// The controls <nw-figure> adds above its figure (component_figures.js's views name them: 'w', the
// distance scale's slider, 'train', the training buttons with the epoch's status, and the design's
// 'scoring' and 'designTrain'), appended to the figure's controls element; a reader's change goes to
// figure.edit, a training step to its player.
import { Player } from '../compute/player.js';
import { afterDesignEdit } from '../model/design.js';
import { coerce, properties } from '../model/settings.js';
import { element as el } from './component_figures.js';

const SCORING_TEXT = { additive: 'design.scoringAdditive', dotProduct: 'design.scoringDotProduct', gaussian: 'design.scoringGaussian' };

function button(text, onClick) {
  const b = el('button', { type: 'button', textContent: text });
  b.addEventListener('click', onClick);
  return b;
}

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
  } else if (control === 'scoring') {
    const property = properties.find((p) => p.name === 'scoring');
    figure.scoringSelect = el('select', {}, ...property.choices.map((choice) => new Option(figure.t(SCORING_TEXT[choice]), choice)));
    figure.scoringSelect.id = 'scoring';
    figure.scoringSelect.addEventListener('change', () => figure.edit(afterDesignEdit({ ...figure.settings, scoring: figure.scoringSelect.value }, 'scoring')));
    figure.controls.append(el('label', { htmlFor: 'scoring', textContent: figure.t('setting.scoring') }), figure.scoringSelect);
  } else if (control === 'designTrain') {
    // One epoch more per step, once the last one is drawn; Train is disabled while it plays.
    const player = new Player({
      step: () => {
        if (!figure.view || figure.view.pending) return null;
        figure.edit({ designTrained: figure.settings.designTrained + 1 });
        return true;
      },
      onChange: (playing) => {
        buttons.train.disabled = playing;
        buttons.pause.disabled = !playing;
        const focus = figure.shadowRoot.activeElement;
        if (playing && focus === buttons.train) buttons.pause.focus();
        if (!playing && focus === buttons.pause) buttons.train.focus();
      },
    });
    figure.designPlayer = player;
    const buttons = {
      train: button(figure.t('training.train'), () => player.play(figure.settings.designEpochs)),
      pause: button(figure.t('training.pause'), () => player.pause()),
      // (Step during a long replay asks for one epoch more at once, as on the page: the replay goes on to it.)
      step: button(figure.t('training.step'), () => { player.pause(); figure.edit({ designTrained: figure.settings.designTrained + 1 }); }),
      reset: button(figure.t('training.reset'), () => { player.pause(); figure.edit({ designTrained: 0 }); }),
    };
    buttons.pause.disabled = true;
    // (Named apart from the chapter's training buttons for screen readers, as on the page.)
    for (const [name, button] of Object.entries(buttons)) button.setAttribute('aria-label', figure.t(`design.${name}Label`));
    figure.designStatus = el('span', { className: 'status' });
    figure.designStatus.setAttribute('aria-live', 'polite');
    figure.controls.append(...Object.values(buttons), figure.designStatus);
  } else if (control === 'train') {
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
