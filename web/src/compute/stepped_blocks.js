// nw.scoringBlocks a range of queries at a time, for a pass too long for one task (additive attention's
// heatmap at 2000 x 2000 takes 0.6 s): a generator that yields between ranges and returns the module's
// blocks bit for bit. Each range spans whole block rows, so it fills block rows of its own. The module
// sizes blocks from the queries it is given, so a last range that does not fill its last block row
// repeats its last query up to it: a repeated query's weights tie with its own, and a block keeps the
// first of equal weights (the extra rows' predictions and peaks are dropped).

// Queries per range: whole block rows, about rowsPerRange queries (at least one block row).
function* scoringBlocksInRanges(nw, queries, keys, values, options, rowsPerRange) {
  const n = queries.length;
  const rowStep = Math.ceil(n / options.maxBlockRows);
  const span = Math.max(1, Math.floor(rowsPerRange / rowStep)) * rowStep;
  if (span >= n) return nw.scoringBlocks(queries, keys, values, options);
  const blockRows = Math.ceil(n / rowStep);
  let out = null;
  for (let begin = 0; begin < n; begin += span) {
    const end = Math.min(n, begin + span);
    const whole = Math.ceil((end - begin) / rowStep) * rowStep;
    const range = new Float64Array(whole).fill(queries[end - 1]);
    range.set(queries.slice(begin, end));
    const part = nw.scoringBlocks(range, keys, values, { ...options, maxBlockRows: whole / rowStep });
    const cells = blockRows * part.blockCols;
    out ??= {
      rows: n, cols: part.cols, rowStep, colStep: part.colStep, blockRows, blockCols: part.blockCols,
      weight: new Float64Array(cells), row: new Uint32Array(cells), col: new Uint32Array(cells),
      fallbackRows: new Uint8Array(n), peaks: new Uint32Array(n), ...(part.predictions ? { predictions: new Float64Array(n) } : {}),
    };
    const firstBlock = (begin / rowStep) * part.blockCols;
    out.weight.set(part.weight, firstBlock);
    out.row.set(part.row.map((row) => row + begin), firstBlock);
    out.col.set(part.col, firstBlock);
    for (const name of ['fallbackRows', 'peaks', 'predictions']) if (part[name]) out[name].set(part[name].subarray(0, end - begin), begin);
    yield;
  }
  return out;
}

export { scoringBlocksInRanges };
