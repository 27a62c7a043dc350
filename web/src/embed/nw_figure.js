// <nw-figure figure="weights" w="2" seed="3"></nw-figure>: one figure of the page inline in a lesson,
// in an open shadow root, with the controls that change it. Every setting of the page's URL is an
// attribute (nTrain is n-train, noiseSd noise-sd, ...), checked exactly like a URL value; after each
// change the reader makes, the element dispatches `nw-change` with { settings }. All figures of a page
// share one WebAssembly module (shared_module.js). Its texts are the page's dictionary, in the language
// of its `lang` attribute (en or zh, checked like the page's ?lang=) or, without one, of the lesson
// around it (the nearest lang="..." above it: zh... is Chinese, any other English), or else the
// browser's, as the page chooses. Defined by the entry point web/src/nw-figure.js.
import { HTML_LANG, browserLanguage, translator } from '../i18n/all.js';
import { Player } from '../compute/player.js';
import { Session } from '../model/session.js';
import { coerce, defaults, describeW, languageSetting, parse, properties, sessionChange, textOf } from '../model/settings.js';
import { untrainableText } from '../figures/texts.js';
import { problemText } from '../i18n/problem_text.js';
import { sharedModule } from './shared_module.js';
import { css } from './styles.js';
import { figureTheme } from './figure_theme.js';
import { THEME_CHOICES, useTheme } from '../charts/colors.js';
import { FIGURE_NAMES, element as el, titleLevel, views } from './component_figures.js';
import { placeCaption } from './embed_options.js';
import { authorOptions } from '../model/author_options.js';
import { joinGroup, leaveGroup, shareSettings } from './figure_groups.js';
import { addControl } from './figure_controls.js';
import { WEBASSEMBLY_BROWSERS, runsWebAssembly } from '../lib/webassembly.js';

// Every setting but the data source: a component shows generated data (your own data is the page's).
const SETTINGS = properties.filter((p) => p.name !== 'data');
const attributeOf = (name) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const SETTING_OF_ATTRIBUTE = new Map(SETTINGS.map((p) => [attributeOf(p.name), p.name]));
const ATTRIBUTE_OF_SETTING = new Map([...SETTING_OF_ATTRIBUTE].map(([attribute, setting]) => [setting, attribute]));

// One style sheet for every figure of the page.
let sheet = null;

class NWFigure extends HTMLElement {
  static get observedAttributes() { return ['figure', 'lang', 'theme', 'controls', 'caption', 'group', ...SETTING_OF_ATTRIBUTE.keys()]; }

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
    this.t = translator('en');
    this.status = el('p', { className: 'status' });
    this.problem = el('p', { className: 'problem', hidden: true });
    this.problem.setAttribute('role', 'alert');
    this.controls = el('div', { className: 'controls' });
    this.body = el('div');
    this.shadowRoot.append(this.problem, this.controls, this.body, this.status);
    this.session = null;
    this.settings = null;
    this.optionProblems = []; // what is wrong with the theme, controls or caption attribute (see build)
    this.groupName = null; // the group it has joined (figure_groups.js), if any
    this.view = null;
    this.figureName = null;
    this.player = new Player({ step: () => this.trainOneEpoch(), onChange: (playing) => this.showPlaying(playing) });
  }

  connectedCallback() {
    if (this.starting) {
      if (this.session) this.joinOwnGroup(); // (moved in the lesson: its group again)
      return;
    }
    this.chooseLanguage();
    if (!runsWebAssembly()) {
      this.showProblems([this.t('figure.noWebAssembly', { safari: 'Safari', browsers: WEBASSEMBLY_BROWSERS })]);
      return;
    }
    this.status.textContent = this.t('page.loading');
    this.starting = sharedModule().then((nw) => this.start(nw), (error) => {
      this.status.textContent = this.t('problem.moduleStart', { message: error && error.message ? error.message : String(error) });
    });
  }

  // this.t from the lang attribute (a bad value is a problem, shown like a setting's), the lesson's
  // language or the browser's. The shadow root's content says its language, for fonts and screen readers.
  chooseLanguage() {
    const own = this.getAttribute('lang');
    const around = this.parentElement?.closest('[lang]')?.getAttribute('lang');
    const fallback = around ? (/^zh\b/i.test(around) ? 'zh' : 'en') : browserLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]);
    let problem = null;
    let lang = fallback;
    if (own !== null) {
      const { value, error } = coerce(languageSetting, own.slice(0, 40), translator(fallback));
      lang = value ?? fallback;
      problem = error ?? null;
    }
    this.t = translator(lang);
    for (const part of [this.problem, this.controls, this.body, this.status]) part.lang = HTML_LANG[lang];
    return problem;
  }

  disconnectedCallback() {
    this.player.pause();
    this.designPlayer?.pause();
    if (this.groupName !== null) leaveGroup(this, this.groupName);
    this.groupName = null;
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (!this.session || oldValue === newValue) return;
    if (name === 'lang') {
      // Every text of the figure is made when it is built: built again in the new language.
      const problem = this.chooseLanguage();
      this.session.t = this.t;
      this.build();
      this.render();
      if (problem) this.showProblems([problem]);
      return;
    }
    if (name === 'group') {
      if (this.groupName !== null) leaveGroup(this, this.groupName);
      this.joinOwnGroup();
      return;
    }
    if (name === 'figure' || name === 'theme' || name === 'controls' || name === 'caption') {
      this.build();
      this.render();
      this.showProblems([]); // (what the new attribute's value has wrong, if anything)
      return;
    }
    // A removed attribute is the setting's default again; a new value is checked like a URL's.
    const setting = SETTING_OF_ATTRIBUTE.get(name);
    if (newValue === null) this.apply({ ...this.settings, [setting]: defaults()[setting] }, '');
    else this.apply(null, textOf({ [setting]: newValue }));
    this.share();
  }

  // The module is ready: settings from the attributes, then the figure.
  start(nw) {
    const languageProblem = this.chooseLanguage();
    this.session = new Session(nw, { t: this.t });
    this.status.textContent = '';
    this.build();
    const text = textOf(Object.fromEntries([...SETTING_OF_ATTRIBUTE].filter(([attribute]) => this.hasAttribute(attribute))
      .map(([attribute, setting]) => [setting, this.getAttribute(attribute)])));
    this.apply(null, text, languageProblem ? [languageProblem] : []);
    this.joinOwnGroup();
  }

  // Joins the group its group attribute names, if any: shows the group's settings, or gives it its own.
  joinOwnGroup() {
    this.groupName = this.getAttribute('group');
    if (this.groupName === null) return;
    const shared = joinGroup(this, this.groupName, this.settings);
    if (shared !== this.settings) this.adoptSettings(shared);
  }

  // Settings from another figure of its group: shown, not announced (that figure announced them).
  adoptSettings(settings) { this.apply({ ...settings }, ''); }

  share() { if (this.groupName !== null) shareSettings(this, this.groupName, this.settings); }

  // (Re)builds the figure named by the attribute, or says which names there are.
  build() {
    this.player.pause();
    // The charts made below take the theme's colours; the shadow root's follow data-nw-theme.
    const { theme, bad } = figureTheme(this);
    useTheme(theme);
    this.dataset.nwTheme = theme;
    const themeProblem = bad === null ? [] : [{ option: 'theme', message: this.t('problem.theme', { name: 'theme', value: bad, choices: THEME_CHOICES.join(', '), fallback: this.t('theme.lesson') }) }];
    // The author's options (said as long as they are wrong, and told to the lesson's code once).
    const { controls, caption, problems } = authorOptions((option) => this.getAttribute(option), this.t);
    this.optionProblems = [...themeProblem, ...problems].map(({ message }) => message);
    for (const { option, message } of [...themeProblem, ...problems]) {
      this.dispatchEvent(new CustomEvent('nw-error', { bubbles: true, composed: true, detail: { attribute: option, setting: option, message } }));
    }
    const name = this.getAttribute('figure') ?? 'predictions';
    this.view?.dispose?.(); // (a design's training run and its wasm memory)
    this.body.replaceChildren();
    this.controls.replaceChildren();
    this.view = null;
    this.figureName = name;
    if (!Object.prototype.hasOwnProperty.call(views, name)) {
      this.optionProblems.push(this.t('problem.unknownFigure', { name: name.slice(0, 40), figures: FIGURE_NAMES.join(', ') }));
      this.showProblems([]);
      return;
    }
    // A query chosen on a heatmap's row also shows that heatmap's attention (the reader is looking at it).
    const onQuery = (x, heatmap) => this.edit({ query: Math.round(x * 100) / 100, attend: this.session.attendPointedAt(this.settings, heatmap) });
    this.view = views[name].build(this.body, { onQuery, t: this.t, host: this });
    placeCaption([...this.body.querySelectorAll('figcaption')], caption, (element, hidden) => { element.hidden = hidden; });
    for (const title of this.body.querySelectorAll('.title')) title.setAttribute('aria-level', String(titleLevel(this)));
    this.wInput = null;
    this.buttons = null;
    this.designPlayer?.pause();
    Object.assign(this, { scoringSelect: null, designPlayer: null, designStatus: null });
    for (const control of views[name].controls) if (controls === null || controls.has(control)) addControl(this, control);
  }

  // The design's training stopped short (diverged) at `epoch`: so say its settings and its group's.
  adoptStoppedEpoch(epoch) {
    this.settings = { ...this.settings, designTrained: epoch };
    this.render();
    this.share();
  }

  // A change by the reader: drawn, then announced to the lesson.
  edit(changes) {
    this.apply({ ...this.settings, ...changes }, '');
    this.notify();
  }

  // Settings `base` (current ones when null) with URL text over them: the session follows, the figure
  // is drawn, and any problem with a value is shown. On an error the previous figure stays.
  apply(base, text, earlier = []) {
    this.player.pause();
    const { state, problems, refused } = parse(text, base ?? this.settings ?? defaults(), this.t);
    problems.unshift(...earlier);
    // An attribute's value refused is also told to the lesson's code (attribute names, as the author wrote them).
    for (const { setting, message } of refused) {
      this.dispatchEvent(new CustomEvent('nw-error', { bubbles: true, composed: true, detail: { attribute: ATTRIBUTE_OF_SETTING.get(setting) ?? setting, setting, message } }));
    }
    state.data = 'generated';
    const previous = this.settings;
    try {
      const change = sessionChange(previous, state, this.session.epoch);
      if (change === 'data') this.session.generate(state);
      else if (change === 'training') this.session.resetTraining(state);
      const replayProblem = this.session.replay(state.trained);
      if (replayProblem) problems.push(replayProblem);
    } catch (error) {
      problems.push(problemText(error, { t: this.t }));
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
      this.showProblems([problemText(error, { t: this.t })]);
    }
    if (this.wInput) {
      if (this.wInput.value !== String(s.w)) this.wInput.value = String(s.w);
      this.wOutput.textContent = describeW(s.w, this.t);
    }
    if (this.scoringSelect && this.scoringSelect.value !== s.scoring) this.scoringSelect.value = s.scoring;
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
    this.epochStatus.textContent = !session.canTrain ? untrainableText(session, this.t)
      : this.t('figure.epochStatus', { epoch: session.epoch, w: session.learnedW.toFixed(2) });
  }

  // (A bad theme, controls or caption attribute is said as long as it is there.)
  showProblems(problems) {
    const all = [...this.optionProblems, ...problems];
    this.problem.hidden = all.length === 0;
    this.problem.textContent = all.join('\n');
  }

  // Tells the lesson of a change the reader made, and its group.
  notify() {
    this.share();
    this.dispatchEvent(new CustomEvent('nw-change', { detail: { settings: { ...this.settings } }, bubbles: true, composed: true }));
  }

  // The figure's Chart.js charts (for a lesson's own code and the browser tests).
  get charts() { return this.view ? this.view.charts : []; }
}

export { NWFigure };
