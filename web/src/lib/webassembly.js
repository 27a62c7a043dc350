// Whether this browser runs the module: WebAssembly with its SIMD instructions (the core's kernels use
// them). Safari's Lockdown Mode and some managed browsers remove WebAssembly; engines older than
// WEBASSEMBLY_BROWSERS lack SIMD. The page and <nw-figure> ask before loading the module, so a reader
// gets words about what to do rather than a JavaScript error.

// The first versions with WebAssembly SIMD: the targets of scripts/bundle.mjs, said to readers.
const WEBASSEMBLY_BROWSERS = 'Safari 16.4, Chrome 91, Firefox 89';

// The smallest module that uses SIMD (i8x16.splat and i8x16.popcnt of the final SIMD proposal).
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

function runsWebAssembly(scope = globalThis) {
  try {
    const wasm = scope.WebAssembly;
    return typeof wasm === 'object' && wasm !== null && typeof wasm.validate === 'function' && wasm.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

export { WEBASSEMBLY_BROWSERS, runsWebAssembly };
