// The Latin words the Chinese page may show (runs of 3+ ASCII letters that are not English prose), for
// tests/page/i18n.test.mjs (the dictionary) and tests/e2e/i18n.test.mjs (the rendered page). Each is a
// name or a symbol the Chinese edition of the chapter, or any Chinese reader, keeps as it is.
export const ALLOWED_LATIN = new Set([
  'Nadaraya', 'Watson', // the estimator's name, as in the Chinese edition's title
  'Epanechnikov', // a kernel named after a person
  'WebAssembly', // what the page runs on, named in its lead
  'PyTorch', 'MXNet', // the chapter's code listings whose losses the page offers
  'CSV', 'PNG', 'JSON', // file formats of the exports
  'MSE', // mean squared error, as an abbreviation in tables and axes
  'AIC', 'AICc', // the (corrected) Akaike information criterion, as an abbreviation (the landscape)
  'exp', 'max', 'sin', 'softmax', 'tanh', // functions in formulas
  'Adam', // the optimizer, by its authors' name for it, as the Chinese edition keeps it
  'Transformer', // the architecture, as the Chinese edition names it
  'iframe', // the HTML element a lesson embeds the page with (footer)
  'lang', // the URL parameter, named in its message and the language setting's label
  'English', // the language switch names the other language in that language
]);

// The words of `text` that are runs of 3+ ASCII letters and not allowed.
export const englishWords = (text) => (String(text).match(/[A-Za-z]{3,}/g) ?? []).filter((word) => !ALLOWED_LATIN.has(word));
