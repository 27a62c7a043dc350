// Types of the module's JavaScript API (dist/nw.js), as docs/api.md documents it. The module is a
// CommonJS factory: `require('nadaraya-watson')` and `import createNW from 'nadaraya-watson'` both give
// createNW. Every array argument may be an Array of numbers or a typed array; results are copies.

/** Starts a fresh instance of the module (its own WebAssembly memory). */
declare function createNW(moduleOverrides?: createNW.ModuleOverrides): Promise<createNW.NWModule>;

declare namespace createNW {
  /** The only Emscripten module settings the factory reads; any other key is ignored. */
  interface ModuleOverrides {
    /** Instantiates the WebAssembly yourself (Emscripten's hook); by default nw.js uses the copy inside it. */
    instantiateWasm?: (imports: object, receiveInstance: (instance: WebAssembly.Instance, module?: WebAssembly.Module) => void) => object;
    print?: (text: string) => void;
    printErr?: (text: string) => void;
    onAbort?: (reason: unknown) => void;
  }
  /** An Array of numbers or a typed array (read as doubles). */
  type NumberArray = ArrayLike<number>;

  type KernelName = 'gaussian' | 'boxcar' | 'constant' | 'epanechnikov' | 'triangular';
  /** The kernels whose loss has a gradient: only these can be trained or passed to selectBandwidth. */
  type TrainableKernelName = 'gaussian' | 'epanechnikov' | 'triangular';
  /**
   * How the squared errors add up: 'squared' (default), their plain sum, as the chapter's PyTorch
   * listing; 'halfSquared', half of it, as its MXNet listing (gluon's L2Loss) and its PyTorch listing of
   * mid-2021. Halving halves the loss, the gradient and so each training step.
   */
  type LossName = 'squared' | 'halfSquared';
  /**
   * What each query predicts from its weights: 'nadarayaWatson' (default), the weighted mean of the
   * values; 'localLinear', the value at the query of the line a + b (x_i - x) fitted to the keys by
   * weighted least squares (statsmodels' KernelReg reg_type='ll'). Where that fit is singular (a single
   * key, or one place, in reach: (S0 S2 - S1^2) / (S0 S2) <= 1e-10) the query predicts the
   * Nadaraya-Watson value instead (flagged in localLinear's fallbackRows). Costs about 3x
   * Nadaraya-Watson's time at w = 1, up to 7x for a narrow Gaussian (it sums every key of nonzero weight).
   */
  type EstimatorName = 'nadarayaWatson' | 'localLinear';

  /**
   * What an NWError is about, stable across releases (the message may be reworded):
   * - 'wrong-type': a value of the wrong kind (a string for a number, an object for an array, a
   *   BigInt64Array, an entry that is not a number, a Trainer method called on something else);
   * - 'unreadable': reading the argument threw (a getter, a Proxy trap), or its buffer was transferred;
   * - 'empty': an array with no entries;
   * - 'too-few-points': fewer training points than the computation needs (2; 5 for criterion 'aic');
   * - 'too-large': beyond a size limit (2^27 entries an array, 2^24 cells of attentionWeights);
   * - 'length-mismatch': arrays that pair up entry by entry have different lengths;
   * - 'not-finite': NaN or an infinity where a finite number is needed;
   * - 'out-of-range': a finite number outside its range, or not the integer needed;
   * - 'unknown-value': a name that is not one of the choices (kernel, estimator, loss, criterion, approximate);
   * - 'unknown-option': an option the function does not take (also inherited or non-enumerable ones);
   * - 'not-applicable': an option that does not apply with the others (leaveOneOut with criterion 'aic');
   * - 'not-trainable': a kernel whose loss has no gradient, given to a Trainer or selectBandwidth;
   * - 'diverged': a training step that would make w or the loss non-finite (w is kept);
   * - 'deleted': a method of a Trainer after delete();
   * - 'out-of-memory': the inputs or the result do not fit in the module's memory;
   * - 'internal': anything else (a bug); the message says what.
   */
  type ErrorCode =
    | 'wrong-type' | 'unreadable' | 'empty' | 'too-few-points' | 'too-large' | 'length-mismatch' | 'not-finite'
    | 'out-of-range' | 'unknown-value' | 'unknown-option' | 'not-applicable' | 'not-trainable' | 'diverged'
    | 'deleted' | 'out-of-memory' | 'internal';

  /** Thrown for invalid input; the message names the parameter and the rule, code and parameter say it in data. */
  class NWError extends Error {
    name: 'NWError';
    readonly code: ErrorCode;
    /**
     * The argument or option at fault, as the API names it ('keys', 'w', 'kernel'; 'keys' also for an
     * entry keys[i]); 'options' for the options object itself (an unknown or inherited option); 'this'
     * for a Trainer method's receiver.
     */
    readonly parameter: string;
  }

  interface DataOptions {
    /** Training samples, an integer from 1 to 1,000,000 (default 50). */
    nTrain?: number;
    /** Test queries, an integer from 1 to 1,000,000 (default 50). */
    nTest?: number;
    /** Standard deviation of the noise, >= 0 (default 0.5). */
    noiseSd?: number;
    /** 0 <= xMin < xMax <= 1e6 (defaults 0 and 5). */
    xMin?: number;
    xMax?: number;
    /** An integer from 0 to 2^53 - 1 (default 1). */
    seed?: number;
  }

  interface Data {
    /** Sorted training inputs in [xMin, xMax). */
    xTrain: Float64Array;
    yTrain: Float64Array;
    /** The test queries xMin + i (xMax - xMin) / nTest. */
    xTest: Float64Array;
    /** The noise-free target at the test queries. */
    yTruth: Float64Array;
    /** The initial w for training, uniform in [0, 1). */
    w0: number;
  }

  interface KernelOptions {
    /** The bandwidth, any finite number (default 1); w and -w give the same kernel. */
    w?: number;
    kernel?: KernelName;
  }

  interface PredictOptions extends KernelOptions {
    estimator?: EstimatorName;
  }

  interface BlockOptions extends KernelOptions {
    /** Blocks per side at most (default 200). */
    maxBlockRows?: number;
    maxBlockCols?: number;
    /**
     * 'never' (default): every weight exact. 'auto': from binned sums where queries x keys exceeds 1e7, the
     * kernel is 'gaussian', the keys are sorted and w is nonzero (approximate, weightBounds and
     * predictionBounds say so).
     */
    approximate?: 'auto' | 'never';
  }

  interface ObjectiveOptions {
    w?: number;
    /**
     * Any kernel: for 'boxcar' and 'constant' the loss is piecewise constant in w and grad is 0 (which is
     * why Trainer and selectBandwidth take the trainable kernels only).
     */
    kernel?: KernelName;
    /** false lets each training query see its own key (default true). */
    leaveOneOut?: boolean;
    loss?: LossName;
    estimator?: EstimatorName;
  }

  /**
   * What selectBandwidth minimises: 'looCv' (default), the leave-one-out loss (looLoss); 'aic', the
   * corrected AIC of Hurvich, Simonoff and Tsai (1998) (aicLoss), searched only where tr(H) < n - 2
   * (its pole, at large w); needs at least 5 points.
   */
  type CriterionName = 'looCv' | 'aic';

  /** leaveOneOut and loss apply only to criterion 'looCv' (an error with 'aic'). */
  interface BandwidthOptions {
    kernel?: TrainableKernelName;
    leaveOneOut?: boolean;
    loss?: LossName;
    estimator?: EstimatorName;
    criterion?: CriterionName;
    /**
     * 'auto' (default): with the Gaussian kernel and the Nadaraya-Watson estimator, where the exact
     * leave-one-out loss at a w would visit more than 2e7 key pairs (n beyond about 5,000) and binned
     * sums (binnedPredict) are estimated at least 2x cheaper, the search uses the binned loss, whose
     * error bound is reported (approximate, lossBound). 'never': always the exact sums (O(n^2) a step).
     */
    approximate?: 'auto' | 'never';
  }

  interface BinnedOptions {
    /** The Gaussian kernel's w: finite and nonzero. */
    w?: number;
  }

  interface BinnedLossOptions {
    /** Finite and nonzero (default 1). */
    w?: number;
    leaveOneOut?: boolean;
    loss?: LossName;
  }

  /** looLoss's loss and gradient from binned sums (Gaussian kernel, Nadaraya-Watson), each with its bound. */
  interface BinnedLoss {
    loss: number;
    grad: number;
    /** |loss - looLoss(w).loss| <= lossBound. */
    lossBound: number;
    /** |grad - looLoss(w).grad| <= gradBound. */
    gradBound: number;
    /** Rows whose binned prediction was not precise enough (bound above 1e-6 of y's range): summed exactly. */
    exactRows: number;
    gridPoints: number;
  }

  interface BinnedPrediction {
    /** The Gaussian Nadaraya-Watson prediction at each query, from binned sums; within the values' range. */
    predictions: Float64Array;
    /**
     * |prediction - the exact one| <= bound: the binning and interpolation errors (grid spacing^2 times
     * the kernel's second derivative near the query), the kernel cut off beyond its reach, and every
     * rounding, the final one included. About 1e-6 of the values' range where keys are dense, never more
     * than the range; Infinity only for a query so far from every key that its weight sum could be 0.
     */
    bounds: Float64Array;
    /** Grid points the keys were binned onto: about span * |w| / 0.002, at most 2^20. */
    gridPoints: number;
  }

  interface AicOptions {
    w?: number;
    kernel?: KernelName;
    estimator?: EstimatorName;
  }

  interface Aic {
    /**
     * AICc = log(sigma2) + (1 + trace / n) / (1 - (trace + 2) / n) where trace < n - 2; Infinity past
     * the pole (trace >= n - 2); -Infinity if the fit is exact (sigma2 = 0).
     */
    loss: number;
    /** dAICc/dw; 0 where loss is infinite and at w = 0. */
    grad: number;
    /** The mean squared in-sample residual (every point fitted with its own key). */
    sigma2: number;
    /** tr(H): the sum of each point's weight in its own fitted value. */
    trace: number;
  }

  /** Attention scoring functions a(q, k); the weights are softmax over the keys of a(q, k). */
  type ScoringName = 'gaussian' | 'dotProduct' | 'additive';
  type OptimizerName = 'sgd' | 'adam';

  /**
   * A scoring function's parameters: gaussian { w } (-((q - k) w)^2 / 2), dotProduct { s } (s q k),
   * additive { wq, wk, b, v } (v . tanh(wq q + wk k + b), arrays of one length h from 1 to 64).
   */
  type ScoringParameters = { w: number } | { s: number } | { wq: NumberArray; wk: NumberArray; b: NumberArray; v: NumberArray };
  /** As ScoringParameters, the arrays as Float64Arrays (what the module returns). */
  type ScoringParametersResult = { w: number } | { s: number } | { wq: Float64Array; wk: Float64Array; b: Float64Array; v: Float64Array };

  interface TrainerOptions {
    /** The scoring function to learn (default 'gaussian', the chapter's w). */
    scoring?: ScoringName;
    /** gaussian: the initial w (default 1). */
    w0?: number;
    /** dotProduct: the initial s (default 1). */
    s0?: number;
    /** additive: hidden units h, an integer from 1 to 64 (default 8). */
    hidden?: number;
    /** additive: the seed its start is drawn from, as nn.Linear initialises (default 1). */
    seed?: number;
    /** The start itself, instead of w0, s0, hidden and seed; its fields must be the scoring's. */
    parameters?: ScoringParameters;
    /** The learning rate, a finite number > 0 (default 0.5). */
    lr?: number;
    /** 'sgd' (default, the chapter's) or 'adam' (beta1 0.9, beta2 0.999, eps 1e-8, as PyTorch's). */
    optimizer?: OptimizerName;
    /** gaussian only: the kernel (default 'gaussian'). */
    kernel?: TrainableKernelName;
    leaveOneOut?: boolean;
    loss?: LossName;
    /** gaussian only: the estimator (default 'nadarayaWatson'). */
    estimator?: EstimatorName;
    /**
     * 'never' (default): exact epochs. 'auto': with the gaussian scoring, kernel and nadarayaWatson
     * estimator and n > 4472, an epoch's loss and gradient come from binned sums (binnedLooLoss) where
     * an exact epoch would visit more than 2e7 key pairs and binning is estimated 8 times cheaper, as
     * selectBandwidth decides each w; approximate and lossBound say so.
     */
    approximate?: 'auto' | 'never';
  }

  interface ScoringOptions {
    /** Default 'gaussian'. */
    scoring?: ScoringName;
    /** Required: the scoring's parameters. */
    parameters: ScoringParameters;
  }

  interface ScoringLossOptions extends ScoringOptions {
    leaveOneOut?: boolean;
    loss?: LossName;
  }

  interface ScoringLoss {
    /** The leave-one-out summed squared error (halved for 'halfSquared'). */
    loss: number;
    /** dLoss/dtheta, shaped as the parameters. */
    grad: ScoringParametersResult;
  }

  /** Rows [rowBegin, rowEnd) of scoringLooLoss (dotProduct or additive), added on to the sums so far. */
  interface ScoringRowsOptions extends ScoringOptions {
    leaveOneOut?: boolean;
    /** Default 0. */
    rowBegin?: number;
    /** Default xTrain.length. */
    rowEnd?: number;
    /** The loss's running sum over the rows before rowBegin (unscaled; default 0). */
    lossSum?: number;
    /** The gradient's running sum, the parameters' values in order (wq, wk, b, v; default zeros). */
    gradSum?: NumberArray;
  }

  interface ScoringRows {
    lossSum: number;
    gradSum: Float64Array;
  }

  interface Weights {
    rows: number;
    cols: number;
    /** Row-major, one row per query. */
    data: Float64Array;
    /** 1 where a compact kernel's query has no key in its support and its nearest key takes all. */
    fallbackRows: Uint8Array;
  }

  interface Blocks {
    rows: number;
    cols: number;
    /** Matrix rows and columns per block. */
    rowStep: number;
    colStep: number;
    blockRows: number;
    blockCols: number;
    /** Each block's largest weight, row-major. */
    weight: Float64Array;
    /** The matrix row and column of that weight. */
    row: Uint32Array;
    col: Uint32Array;
    fallbackRows: Uint8Array;
    /** Present when values were given. */
    predictions?: Float64Array;
    /** attentionBlocks: whether the blocks come from binned sums (BlockOptions.approximate). */
    approximate?: boolean;
    /** When approximate: |each block's weight - the exact blocks'| <= its bound. */
    weightBounds?: Float64Array;
    /** When approximate and values were given: |each prediction - predict's| <= its bound. */
    predictionBounds?: Float64Array;
  }

  interface LocalLinearFit {
    /** The local-linear prediction at each query (predict with estimator 'localLinear'). */
    predictions: Float64Array;
    /** 1 where the query's local design is singular and it predicts the Nadaraya-Watson value. */
    fallbackRows: Uint8Array;
  }

  interface LossAndGradient {
    loss: number;
    /** dL/dw */
    grad: number;
  }

  interface Bandwidth {
    /** The best w found; 0 when atLimit is 'zero', Infinity when atLimit is 'infinity'. */
    w: number;
    /** The criterion at w: looLoss's loss, or aicLoss's with criterion 'aic' (at a limit: its limit). */
    loss: number;
    /**
     * 'zero': w = 0 is best (average pooling; the least-squares line for the local-linear estimator);
     * 'infinity': only the limit w -> infinity is best (each point predicted by its nearest neighbours'
     * mean; with criterion 'aic', fitted by its duplicates' mean).
     */
    atLimit: 'none' | 'zero' | 'infinity';
    /** Whether loss comes from binned sums (see BandwidthOptions.approximate). */
    approximate: boolean;
    /** |loss - looLoss(w).loss| <= lossBound; 0 when exact. */
    lossBound: number;
  }

  /**
   * Gradient descent (or Adam) on a scoring function's parameters, the chapter's w by default; frees its
   * copy of the data when deleted (or when garbage-collected).
   */
  class Trainer {
    /** Throws NWError 'not-trainable' (parameter 'kernel') for a kernel isTrainable refuses. */
    constructor(xTrain: NumberArray, yTrain: NumberArray, options?: TrainerOptions);
    /** One epoch; returns the loss before the step. */
    step(): number;
    /**
     * The same epoch from its rows computed elsewhere (looLossRows over every row at this trainer's w,
     * data and objective, e.g. by workers): equal to step() bit for bit.
     */
    stepWithRows(lossRows: NumberArray, gradRows: NumberArray): number;
    /**
     * The same epoch from scoringLooRows' sums over every row, in order, at this trainer's parameters,
     * data and objective (an epoch computed in slices): equal to step() bit for bit. Not for gaussian.
     */
    stepWithSums(lossSum: number, gradSum: NumberArray): number;
    /** The gaussian scoring's w; throws NWError 'not-applicable' for another scoring. */
    readonly w: number;
    readonly scoring: ScoringName;
    /** A fresh copy of the current parameters. */
    readonly parameters: ScoringParametersResult;
    readonly epoch: number;
    /** Whether step() may use binned sums (TrainerOptions.approximate; each step decides by its w). stepWithRows then throws. */
    readonly approximate: boolean;
    /** The last step's bound: |its loss - looLoss's| <= lossBound (0 for an exact step or before any). */
    readonly lossBound: number;
    delete(): void;
  }

  /** Rows [rowBegin, rowEnd) of the leave-one-out loss; the loss option belongs to sumLooRows. */
  interface LooRowsOptions extends Omit<ObjectiveOptions, 'loss'> {
    /** First row (default 0). */
    rowBegin?: number;
    /** One past the last row (default xTrain.length). */
    rowEnd?: number;
  }

  interface LooRows {
    /** (f_j - y_j)^2 of each row j, unscaled. */
    lossRows: Float64Array;
    /** 2 (f_j - y_j) w df_j/dw of each row. */
    gradRows: Float64Array;
  }

  interface NWModule {
    NWError: typeof NWError;
    Trainer: typeof Trainer;
    generateData(options?: DataOptions): Data;
    /** 2 sin x + x^0.8, for 0 <= x <= 1e6. */
    target(x: number): number;
    predict(queries: NumberArray, keys: NumberArray, values: NumberArray, options?: PredictOptions): Float64Array;
    /** The local-linear predictions with the queries that fell back to Nadaraya-Watson. */
    localLinear(queries: NumberArray, keys: NumberArray, values: NumberArray, options?: KernelOptions): LocalLinearFit;
    /**
     * Gaussian Nadaraya-Watson predictions from linear binning onto a grid and an FFT convolution (as
     * KernSmooth does), with a bound on each one's error: O(n + grid log grid) where predict is
     * O(queries x keys).
     */
    binnedPredict(queries: NumberArray, keys: NumberArray, values: NumberArray, options?: BinnedOptions): BinnedPrediction;
    /** The mean of the values. */
    averagePool(values: NumberArray): number;
    attentionWeights(queries: NumberArray, keys: NumberArray, options?: KernelOptions): Weights;
    /** values may be null: then no predictions are computed. */
    attentionBlocks(queries: NumberArray, keys: NumberArray, values: NumberArray | null, options?: BlockOptions): Blocks;
    meanSquaredError(predicted: NumberArray, truth: NumberArray): number;
    looLoss(xTrain: NumberArray, yTrain: NumberArray, options?: ObjectiveOptions): LossAndGradient;
    /** looLoss from binned sums in O(n + grid log grid), with bounds on the loss and the gradient. */
    binnedLooLoss(xTrain: NumberArray, yTrain: NumberArray, options?: BinnedLossOptions): BinnedLoss;
    /** looLoss row by row, for computing ranges of rows apart (workers); sumLooRows adds them up. */
    looLossRows(xTrain: NumberArray, yTrain: NumberArray, options?: LooRowsOptions): LooRows;
    /** Rows of looLossRows in order (ranges concatenated): looLoss's result bit for bit. */
    sumLooRows(lossRows: NumberArray, gradRows: NumberArray, options?: { w?: number; loss?: LossName }): LossAndGradient;
    /** The in-sample fit's corrected AIC (Hurvich, Simonoff and Tsai 1998) and its parts. */
    aicLoss(xTrain: NumberArray, yTrain: NumberArray, options?: AicOptions): Aic;
    selectBandwidth(xTrain: NumberArray, yTrain: NumberArray, options?: BandwidthOptions): Bandwidth;
    /** n points xMin + i (xMax - xMin) / n. */
    testGrid(xMin: number, xMax: number, n: number): Float64Array;
    kernelNames(): KernelName[];
    /**
     * Whether a Trainer (and selectBandwidth) accepts this kernel with this estimator (default
     * 'nadarayaWatson'): true for gaussian, epanechnikov and triangular, with either estimator. Throws
     * NWError 'unknown-value' (parameter 'kernel' or 'estimator') for a name that is not a choice.
     */
    isTrainable(kernel: string, estimator?: string): boolean;
    /** K(d), for plotting a kernel's shape. */
    kernelValue(kernel: KernelName, d: number): number;
    /** The weights softmax over the keys of a(q, k) (rows: queries); no fallbackRows. */
    scoringWeights(queries: NumberArray, keys: NumberArray, options: ScoringOptions): { rows: number; cols: number; data: Float64Array };
    /** sum_i alpha(q, k_i) v_i under a scoring function. */
    scoringPredict(queries: NumberArray, keys: NumberArray, values: NumberArray, options: ScoringOptions): Float64Array;
    /**
     * scoringWeights seen through at most maxBlockRows x maxBlockCols blocks (default 200 each), as
     * attentionBlocks (whose result it is for 'gaussian'), with the predictions if values are given, and
     * peaks: the key index of each query's largest weight (the first of equal ones).
     */
    scoringBlocks(queries: NumberArray, keys: NumberArray, values: NumberArray | null, options: ScoringOptions & { maxBlockRows?: number; maxBlockCols?: number }): Blocks & { peaks: Uint32Array };
    /** The leave-one-out loss of a scoring function and its gradient with respect to each parameter. */
    scoringLooLoss(xTrain: NumberArray, yTrain: NumberArray, options: ScoringLossOptions): ScoringLoss;
    /**
     * scoringLooLoss a range of rows at a time (dotProduct or additive; the gaussian's rows are
     * looLossRows'): the sums of consecutive ranges, carried from one call to the next, are what
     * trainer.stepWithSums takes.
     */
    scoringLooRows(xTrain: NumberArray, yTrain: NumberArray, options: ScoringRowsOptions): ScoringRows;
    /**
     * Gaussian pooling as dot-product attention: the query features [q, 1] and key features
     * [w^2 k, -w^2 k^2 / 2] (rows of dim 2), whose dotProductWeights are attentionWeights' at w.
     */
    gaussianFeatures(queries: NumberArray, keys: NumberArray, options?: { w?: number }): { dim: number; queryFeatures: Float64Array; keyFeatures: Float64Array };
    /** softmax over the keys of query feature . key feature (rows of dim numbers, dim 1 to 64, default 1). */
    dotProductWeights(queryFeatures: NumberArray, keyFeatures: NumberArray, options?: { dim?: number }): { rows: number; cols: number; data: Float64Array };
    /** The module's allocator in bytes, for checking that a program leaves no wasm memory behind. */
    heapStats(): { arena: number; inUse: number; free: number };
  }
}

export = createNW;
