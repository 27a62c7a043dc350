// Instantiates the module's WebAssembly from a gzip-compressed copy inside nw.js (--pre-js). The build
// (scripts/assemble_module.mjs) puts the base64 of the gzipped wasm where the placeholder string is.
// Why not -sSINGLE_FILE: it embeds the wasm as plain base64, 212 KiB where this is 75 KiB; and a separate
// .wasm file cannot be loaded from file:// or by Node 20 through the glue (it tries fetch). This uses
// only Module.instantiateWasm, Emscripten's documented hook, and DecompressionStream (every browser with
// WebAssembly SIMD, and Node >= 18).
if (!Module['instantiateWasm']) {
  Module['instantiateWasm'] = function (imports, receiveInstance) {
    // A plain loop: Uint8Array.from(text, mapper) walks the string's iterator, one string per character
    // (40-50 ms for these 100,000 characters in Chromium, about 5x the loop's time).
    var text = atob('__NW_WASM_GZIP_BASE64__');
    var compressed = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) compressed[i] = text.charCodeAt(i);
    var stream = new Blob([compressed]).stream().pipeThrough(new DecompressionStream('gzip'));
    new Response(stream).arrayBuffer()
      .then(function (bytes) { return WebAssembly.instantiate(bytes, imports); })
      .then(function (result) { receiveInstance(result.instance, result.module); })
      .catch(function (error) { abort('the WebAssembly module could not be instantiated: ' + error); });
    return {}; // the exports arrive asynchronously through receiveInstance
  };
}
