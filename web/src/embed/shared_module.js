// One WebAssembly module for every <nw-figure> of a page: nw.js, found next to the script that defines
// the element, is loaded once and createNW() called once; every figure gets the same promise. It works
// from file:// too (a classic script and the wasm inside nw.js: nothing is fetched).
/* global createNW */

// The defining script's address, known only while it first runs.
const scriptUrl = document.currentScript ? document.currentScript.src : '';
// Shared through the window, so a page that includes nw-figure.js twice still starts one module.
const KEY = Symbol.for('nadaraya-watson.module');

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.append(script);
  });
}

function sharedModule() {
  if (!window[KEY]) {
    const loaded = typeof createNW === 'function' ? Promise.resolve() : loadScript(new URL('nw.js', scriptUrl || location.href).href);
    window[KEY] = loaded.then(() => createNW());
  }
  return window[KEY];
}

export { sharedModule };
