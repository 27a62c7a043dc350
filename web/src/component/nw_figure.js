// <nw-figure figure="weights" w="2" seed="3"></nw-figure>: one figure of the page inline in a lesson,
// in an open shadow root, with the controls that change it. Every setting of the page's URL is an
// attribute (nTrain is n-train, noiseSd noise-sd, ...), checked exactly like a URL value; after each
// change the reader makes, the element dispatches `nw-change` with { settings }. All figures of a page
// share one WebAssembly module (shared_module.js). Bundled into dist/nw-figure.js.
import { Player } from '../player.js';
import { Session } from '../session.js';
import { coerce, dataKeys, defaults, describeW, objectiveKeys, parse, properties, textOf } from '../state.js';
import { sharedModule } from './shared_module.js';
import { css } from './styles.js';
import { FIGURE_NAMES, element as el, views } from './views.js';

// Every setting but the data source: a component shows generated data (your own data is the page's).
const SETTINGS = properties.filter((p) => p.name !== 'data');
const attributeOf = (name) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const SETTING_OF_ATTRIBUTE = new Map(SETTINGS.map((p) => [attributeOf(p.name), p.name]));

// One style sheet for every figure of the page.
let sheet = null;

class NWFigure extends HTMLElement {
  static get observedAttributes() { return ['figure', ...SETTING_OF_ATTRIBUTE.keys()]; }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    // A constructed style sheet: a lesson's Content-Security-Policy (style-src 'self') blocks a <style>.
    if ('adoptedStyleSheets' in this.shadowRoot && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
      sheet ??= new CSSStyleSheet();
      if (sheet.cssRules.length === 0) sheet.replaceSync(css);
      this.shadowRoot.adoptedStyleSheets = [sheet];
    } else {
      this.shadowRoot.append(el('style', { textContent: css }));
    }
    this.status = el('p', { className: 'status', textContent: 'Loading the WebAssembly module…' });
    this.problem = el('p', { className: 'problem', hidden: true });
    this.problem.setAttribute('role', 'alert');
    this.controls = el('div', { className: 'controls' });
    this.body = el('div');
    this.shadowRoot.append(this.problem, this.controls, this.body, this.status);
    this.session = null;
    this.settings = null;
    this.view = null;
    this.figureName = null;
    this.player = new Player({ step: () => this.trainOneEpoch(), onChange: (playing) => this.showPlaying(playing) });
  }

  connectedCallback() {
    if (this.starting) return;
    this.starting = sharedModule().then((nw) => this.start(nw), (error) => {
      this.status.textContent = `The WebAssembly module could not start: ${error && error.message ? error.message : error}`;
    });
  }

  disconnectedCallback() { this.player.pause(); }

  attributeChangedCallback(name, oldValue, newValue) {
    if (!this.session || oldValue === newValue) return;
    if (name === 'figure') {
      this.build();
      this.render();
      return;
    }
    // A removed attribute is the setting's default again; a new value is checked like a URL's.
    const setting = SETTING_OF_ATTRIBUTE.get(name);
    if (newValue === null) this.apply({ ...this.settings, [setting]: defaults()[setting] }, '');
    else this.apply(null, textOf({ [setting]: newValue }));
  }

  // The module is ready: settings from the attributes, then the figure.
  start(nw) {
    this.session = new Session(nw);
    this.status.textContent = '';
    this.build();
    const text = textOf(Object.fromEntries([...SETTING_OF_ATTRIBUTE].filter(([attribute]) => this.hasAttribute(attribute))
      .map(([attribute, setting]) => [setting, this.getAttribute(attribute)])));
    this.apply(null, text);
  }

  // (Re)builds the figure named by the attribute, or says which names there are.
  build() {
    this.player.pause();
    const name = this.getAttribute('figure') ?? 'predictions';
    this.body.replaceChildren();
    this.controls.replaceChildren();
    this.view = null;
    this.figureName = name;
    if (!Object.prototype.hasOwnProperty.call(views, name)) {
      this.showProblems([`Unknown figure "${name.slice(0, 40)}" for <nw-figure>: use one of ${FIGURE_NAMES.join(', ')}`]);
      return;
    }
    this.view = views[name].build(this.body, { onQuery: (x) => this.edit({ query: Math.round(x * 100) / 100 }) });
    for (const control of views[name].controls) this.addControl(control);
  }

  addControl(control) {
    if (control === 'w') {
      const property = SETTINGS.find((p) => p.name === 'w');
      this.wInput = el('input', { type: 'range', min: String(property.min), max: String(property.max), step: '0.05' });
      this.wInput.id = 'w';
      this.wOutput = el('output');
      this.wInput.addEventListener('input', () => {
        const { value } = coerce(property, this.wInput.value);
        if (value !== undefined) this.edit({ w: value });
      });
      this.controls.append(el('label', { htmlFor: 'w', textContent: 'Distance scale w' }), this.wInput, this.wOutput);
    } else if (control === 'train') {
      const button = (text, onClick) => {
        const b = el('button', { type: 'button', textContent: text });
        b.addEventListener('click', onClick);
        return b;
      };
      this.buttons = {
        train: button('Train', () => this.player.play(this.settings.epochs)),
        pause: button('Pause', () => this.player.pause()),
        step: button('Step', () => { this.player.pause(); this.trainOneEpoch(); }),
        reset: button('Reset', () => { this.player.pause(); this.edit({ trained: 0 }); }),
      };
      this.epochStatus = el('span', { className: 'status' });
      this.epochStatus.setAttribute('aria-live', 'polite');
      this.controls.append(...Object.values(this.buttons), this.epochStatus);
    }
  }

  // A change by the reader: drawn, then announced to the lesson.
  edit(changes) {
    this.apply({ ...this.settings, ...changes }, '');
    this.notify();
  }

  // Settings `base` (current ones when null) with URL text over them: the session follows, the figure
  // is drawn, and any problem with a value is shown. On an error the previous figure stays.
  apply(base, text) {
    this.player.pause();
    const { state, problems } = parse(text, base ?? this.settings ?? defaults());
    state.data = 'generated';
    const previous = this.settings;
    try {
      if (!previous || dataKeys.some((key) => state[key] !== previous[key])) {
        this.session.generate(state);
      } else if (objectiveKeys.some((key) => state[key] !== previous[key]) || state.trained < this.session.epoch) {
        this.session.resetTraining(state);
      }
      const replayProblem = this.session.replay(state.trained);
      if (replayProblem) problems.push(replayProblem);
    } catch (error) {
      problems.push(error.message);
    }
    this.settings = { ...state, trained: this.session.epoch };
    this.render();
    this.showProblems(problems);
  }

  trainOneEpoch() {
    const { stepped, problem } = this.session.tryStep();
    if (problem) this.showProblems([problem]);
    if (!stepped) return false;
    this.settings = { ...this.settings, trained: this.session.epoch };
    this.render();
    this.notify();
    return true;
  }

  render() {
    if (!this.view || !this.settings) return;
    const s = this.settings;
    try {
      this.view.render(this.session, s);
    } catch (error) {
      this.showProblems([error.message]);
    }
    if (this.wInput) {
      if (this.wInput.value !== String(s.w)) this.wInput.value = String(s.w);
      this.wOutput.textContent = describeW(s.w);
    }
    this.showButtons();
  }

  // Train is disabled while playing: the keyboard focus moves to Pause and back, rather than being lost.
  showPlaying(playing) {
    this.showButtons();
    if (!this.buttons) return;
    const focus = this.shadowRoot.activeElement;
    if (playing && focus === this.buttons.train) this.buttons.pause.focus();
    if (!playing && focus === this.buttons.pause && !this.buttons.train.disabled) this.buttons.train.focus();
  }

  showButtons() {
    if (!this.buttons || !this.session) return;
    const { session } = this;
    this.buttons.train.disabled = !session.canTrain || this.player.isPlaying;
    this.buttons.pause.disabled = !this.player.isPlaying;
    this.buttons.step.disabled = !session.canTrain;
    this.buttons.reset.disabled = !session.canTrain;
    this.epochStatus.textContent = !session.canTrain ? session.untrainable
      : `Epoch ${session.epoch} · w = ${session.learnedW.toFixed(2)}`;
  }

  showProblems(problems) {
    this.problem.hidden = problems.length === 0;
    this.problem.textContent = problems.join('\n');
  }

  // Tells the lesson of a change the reader made.
  notify() {
    this.dispatchEvent(new CustomEvent('nw-change', { detail: { settings: { ...this.settings } }, bubbles: true, composed: true }));
  }

  // The figure's Chart.js charts (for a lesson's own code and the browser tests).
  get charts() { return this.view ? this.view.charts : []; }
}

if (!customElements.get('nw-figure')) customElements.define('nw-figure', NWFigure);
