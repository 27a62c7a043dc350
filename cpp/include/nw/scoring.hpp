// Attention scoring functions a(q, k): the weights are softmax over the keys of a(q, k). The chapter's
// Gaussian kernel is one of them; the next section of the book brings the dot product and additive
// attention, and the chapter's exercise 4 asks for "another parametric attention pooling". Each is
// trained on the same leave-one-out loss as the chapter's w, with exact analytic gradients.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "nw/attention.hpp"
#include "nw/options.hpp"

namespace nw {

// Hidden units of additive attention.
inline constexpr int kDefaultHidden = 8;
inline constexpr int kMinHidden = 1;
inline constexpr int kMaxHidden = 64;
// The dot product's scale before training (the Transformer's 1/sqrt(d) for d = 1).
inline constexpr double kDefaultScale = 1.0;

// A scoring function with its parameters, flat: gaussian [w]; dotProduct [s]; additive
// [wq_1..wq_h, wk_1..wk_h, b_1..b_h, v_1..v_h] (4h values).
struct ScoringParameters {
  Scoring scoring = Scoring::gaussian;
  std::vector<double> values{1.0};

  // h for additive, 0 otherwise.
  std::size_t hidden() const { return scoring == Scoring::additive ? values.size() / 4 : 0; }
};

// How many values a scoring has: 1, 1 or 4h.
std::size_t parameterCount(Scoring scoring, int hidden);

// The parameters a Trainer starts from: gaussian [w0], dotProduct [s0], and for additive, drawn from
// the seed as PyTorch's nn.Linear initialises its layers: wq, wk, b uniform in [-1, 1) (fan-in 1) and v
// uniform in [-1/sqrt(h), 1/sqrt(h)) (fan-in h). Throws nw::Error naming `hidden` outside [1, 64],
// `w0` or `s0` if not finite.
ScoringParameters initialParameters(Scoring scoring, int hidden, std::uint64_t seed, double w0 = 1.0,
                                    double s0 = kDefaultScale);

// Throws nw::Error naming `parameters` unless the values are finite and as many as the scoring has
// (a multiple of 4 from 4 to 4 * kMaxHidden for additive).
void requireParameters(const ScoringParameters& parameters);

// a(q, k).
double score(const ScoringParameters& parameters, double query, double key);

// The leave-one-out loss of softmax attention with these parameters and its gradient with respect to
// each parameter value (as looLoss's for gaussian, whose loss it is). Throws nw::Error as looLoss does
// for the data, naming `parameters` where a score or the loss is not finite (a scale so large that
// s q k overflows) and `xTrain` where a gradient entry overflows (inputs near 1e80 and beyond).
struct ScoringLoss {
  double loss = 0.0;
  std::vector<double> grad;
};
ScoringLoss scoringLooLoss(const std::vector<double>& x, const std::vector<double>& y,
                           const ScoringParameters& parameters, bool leaveOneOut = true, Loss loss = Loss::squared);

// scoringLooLoss for dotProduct or additive parameters a range of rows at a time (an epoch computed in
// slices): the unscaled sums over rows [rowBegin, rowEnd) are added on to `sums` (a loss of 0 and a
// gradient of zeros to start), and finishScoringLoss turns the sums over every row, added in order, into
// scoringLooLoss's result bit for bit. Throws nw::Error naming `parameters` for the gaussian scoring (its
// rows are looLossRows'), `rowBegin` unless 0 <= rowBegin <= rowEnd <= x.size(), `gradSum` for a gradient
// of another length or not finite, `lossSum` for a loss that is negative or not finite, and as
// scoringLooLoss does.
void addScoringLooRows(const std::vector<double>& x, const std::vector<double>& y, const ScoringParameters& parameters,
                       bool leaveOneOut, std::size_t rowBegin, std::size_t rowEnd, ScoringLoss& sums);
ScoringLoss finishScoringLoss(ScoringLoss sums, const ScoringParameters& parameters, Loss loss);

// The weight matrix (rows = queries, cols = keys) and the predictions sum_i alpha(q, k_i) v_i. Throw
// nw::Error as attentionWeights and predict do for their inputs, and naming `parameters` as above.
Matrix scoringWeights(const std::vector<double>& queries, const std::vector<double>& keys,
                      const ScoringParameters& parameters);
std::vector<double> scoringPredict(const std::vector<double>& queries, const std::vector<double>& keys,
                                   const std::vector<double>& values, const ScoringParameters& parameters);

// scoringWeights seen through at most maxBlockRows x maxBlockCols blocks (as attentionBlocks, whose
// result it is for gaussian), with the predictions if values are given, and each query's peak: the key
// of its largest weight (the first of equal ones), for the page's "where does a query look" numbers.
// O(keys) memory: the full matrix is never built. Throws nw::Error as attentionBlocks does.
struct ScoringBlocks : BlockWeights {
  std::vector<std::size_t> peaks;  // one per query
};
ScoringBlocks scoringBlocks(const std::vector<double>& queries, const std::vector<double>& keys,
                            const std::vector<double>& values, const ScoringParameters& parameters,
                            std::size_t maxBlockRows, std::size_t maxBlockCols);

// Gaussian pooling is dot-product attention. The softmax over the keys is unchanged by a term that
// depends on the query alone, and -((q - k) w)^2 / 2 = q (w^2 k) + 1 (-w^2 k^2 / 2) - q^2 w^2 / 2: the
// chapter's weights are those of the dot product of the query feature [q, 1] with the key feature
// [w^2 k, -w^2 k^2 / 2]. Features hold one row of `dim` numbers per query and per key, row-major.
struct Features {
  std::size_t dim = 0;
  std::vector<double> queries;
  std::vector<double> keys;
};

// The features above (dim 2). Throws nw::Error as attentionWeights does for its inputs.
Features gaussianFeatures(const std::vector<double>& queries, const std::vector<double>& keys, double w);

// softmax over the keys of query feature . key feature, one row per query. Throws nw::Error naming
// `dim` (1 to 64), `queryFeatures` or `keyFeatures` (not finite, not a whole number of rows, empty, or
// a matrix beyond kMaxWeightCells), or `keyFeatures` where a dot product overflows.
Matrix dotProductWeights(const Features& features);

}  // namespace nw
