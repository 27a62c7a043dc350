// Instantiates the module's WebAssembly from a gzip-compressed copy inside nw.js (--pre-js). The build
// (scripts/assemble_module.mjs) puts the base64 of the gzipped wasm where the placeholder string is.
// Why not -sSINGLE_FILE: it embeds the wasm as plain base64, 212 KiB where this is 75 KiB; and a separate
// .wasm file cannot be loaded from file:// or by Node 20 through the glue (it tries fetch). This uses
// only Module.instantiateWasm, Emscripten's documented hook, and DecompressionStream (every browser with
// WebAssembly SIMD, and Node >= 18).
if (!Module['instantiateWasm']) {
  Module['instantiateWasm'] = function (imports, receiveInstance) {
    var compressed = Uint8Array.from(atob('__NW_WASM_GZIP_BASE64__'), function (c) { return c.charCodeAt(0); });
    var stream = new Blob([compressed]).stream().pipeThrough(new DecompressionStream('gzip'));
    new Response(stream).arrayBuffer()
      .then(function (bytes) { return WebAssembly.instantiate(bytes, imports); })
      .then(function (result) { receiveInstance(result.instance, result.module); })
      .catch(function (error) { abort('the WebAssembly module could not be instantiated: ' + error); });
    return {}; // the exports arrive asynchronously through receiveInstance
  };
}
