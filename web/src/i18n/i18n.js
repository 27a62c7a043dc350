// The page's two languages: the dictionaries, the choice of language, t(key, params) and filling the
// page's HTML from the dictionary. Every text the page or <nw-figure> shows comes through here.
// English is always here; another language's dictionary is registered when it is needed (the page loads
// it as its own script, dist/i18n-zh.js, so that a reader downloads only the language read; <nw-figure>
// and the tests import it: ./all.js).
import en from './en.js';

const LANGUAGES = ['en', 'zh'];
const dictionaries = { en };
const registerDictionary = (lang, dictionary) => { dictionaries[lang] = dictionary; };
// <html lang> (and the language switch's lang) of each language: Simplified Chinese, in Han script.
const HTML_LANG = { en: 'en', zh: 'zh-Hans' };

// "{name}" in a text is params.name; a placeholder without a value stays as it is (a test checks
// that every language's text has the same placeholders).
const format = (text, params) => text.replace(/\{(\w+)\}/g, (whole, name) => (params[name] === undefined ? whole : String(params[name])));

// A t(key, params) for one language. A key missing from it (never in a tested build) falls back to
// English, then to the key itself, so a page never shows nothing. t.plural(key, n, params) picks
// `${key}.one` or `${key}.other` by n (Chinese has one form: both keys hold the same text).
function translator(lang) {
  const dictionary = dictionaries[lang] ?? en;
  const t = (key, params = {}) => format(dictionary[key] ?? en[key] ?? key, params);
  t.plural = (key, n, params = {}) => t(`${key}.${n === 1 ? 'one' : 'other'}`, { n, ...params });
  t.lang = dictionaries[lang] ? lang : 'en';
  return t;
}

// The page's language, set once at its start (setLanguage); English until then, and in Node's tests.
let current = translator('en');
const t = (key, params) => current(key, params);
t.plural = (key, n, params) => current.plural(key, n, params);
Object.defineProperty(t, 'lang', { get: () => current.lang });

function setLanguage(lang) {
  current = translator(lang);
  return current;
}

// The browser's preferred language: Chinese when it is any Chinese (zh, zh-CN, zh-TW, ...), else English.
function browserLanguage(languages) {
  const first = (languages ?? []).find(Boolean) ?? '';
  return /^zh\b/i.test(first) ? 'zh' : 'en';
}

// Fills the elements of root that carry data-i18n keys. Why keys on the elements rather than an empty
// page filled at start: index.html keeps its English text (what shows without scripts and what search
// engines read, checked equal to en.js by tests/page/i18n.test.mjs) and its markup (MathML, <code>, the
// spans scripts fill) where it is; the dictionary supplies only words. An element's child elements are
// the text's {0}, {1}, ... in document order, so a translation can place them where its grammar wants.
// data-i18n-<attribute>="key" fills that attribute (aria-label, title, placeholder, alt, content).
const I18N_ATTRIBUTES = ['aria-label', 'title', 'placeholder', 'alt', 'content'];

function fillElement(element, text) {
  const children = [...element.children];
  if (children.length === 0) {
    if (element.textContent !== text) element.textContent = text;
    return;
  }
  const parts = text.split(/\{(\d+)\}/);
  element.replaceChildren(...parts.map((part, i) => (i % 2 === 1 ? children[Number(part)] : part)).filter((part) => part !== '' && part !== undefined));
}

function translateTree(root, tr = t) {
  for (const element of root.querySelectorAll('[data-i18n]')) fillElement(element, tr(element.dataset.i18n));
  for (const attribute of I18N_ATTRIBUTES) {
    for (const element of root.querySelectorAll(`[data-i18n-${attribute}]`)) {
      element.setAttribute(attribute, tr(element.getAttribute(`data-i18n-${attribute}`)));
    }
  }
}

export { HTML_LANG, LANGUAGES, browserLanguage, dictionaries, format, registerDictionary, setLanguage, t, translateTree, translator };
