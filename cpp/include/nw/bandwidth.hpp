// Choosing w by minimising the leave-one-out loss directly (what training approaches step by step).
#pragma once

#include <cstddef>
#include <vector>

#include "nw/options.hpp"
#include "nw/training.hpp"

namespace nw {

// Where the best loss was found: at a finite w > 0, or at one of the loss's two limits.
enum class BandwidthLimit {
  none,      // a finite w > 0
  zero,      // w = 0: average pooling (every key equally weighted)
  infinity,  // w -> infinity: each query predicts its nearest keys' mean (w is reported as +infinity)
};

struct BandwidthChoice {
  double w = 1.0;     // >= 0 (the loss is even in w); +infinity at BandwidthLimit::infinity
  double loss = 0.0;  // looLoss at w (at infinity: the nearest-neighbour loss, its limit)
  BandwidthLimit atLimit = BandwidthLimit::none;
  bool approximate = false;  // loss came from binned sums (binnedLooLoss): |loss - looLoss(w)| <= lossBound
  double lossBound = 0.0;
};

// The exact leave-one-out loss is used where it visits at most this many key pairs; beyond, the binned
// one when it is estimated at least kBinnedAdvantage times cheaper (Gaussian Nadaraya-Watson only): it
// has no slope to bracket a minimum with, so it must save much. (8 times a butterfly's quarter visit is
// what 2 times a whole visit was, before the estimate counted a butterfly's true cost: the same choices.)
inline constexpr double kExactWorkLimit = 2e7;
inline constexpr double kBinnedAdvantage = 8.0;
// The rule both selectBandwidth (each w) and a Trainer with approximation automatic (each step) apply
// (they test exactWork > kExactWorkLimit first, so that small work never costs a binned estimate).
inline bool binningPays(double exactWork, double binnedWork) {
  return exactWork > kExactWorkLimit && kBinnedAdvantage * binnedWork < exactWork;
}
// The tolerance on brackets searched with binned losses (their error bound, about 1e-6 of the loss,
// makes a finer w meaningless).
inline constexpr double kBinnedBandwidthTolerance = 1e-5;
// Large n: the spacings (times |w|) a grid point's screening loss may have, coarsest first, with cubic
// binning (see selectBandwidth): from 250 to 30 times the binned loss's grid spacing.
inline constexpr double kScreenSpacings[] = {0.5, 0.25, 0.125, 0.0625};
// Before any screen: a cubic screen's bound at spacing s, about this times s^4 times the last binned
// loss's bound (measured: 320 at s = 0.2 for dense keys).
inline constexpr double kScreenBoundPerFineBound = 2e5;

// Relative width, in w, of the bracket at which a refinement stops.
inline constexpr double kBandwidthTolerance = 1e-7;
inline constexpr int kBandwidthGridPoints = 64;
// At most this many more grid points beyond 100 / smallest gap, for near-tied neighbours (see bandwidthGrid).
inline constexpr int kBandwidthExtraPoints = 192;
// Where a weight ratio of exp(-kSplitExponent) counts as one neighbour taking all (exp underflows near -745).
inline constexpr double kSplitExponent = 750.0;
// Grid intervals that must hold a local minimum (from the loss and its slope at their ends) refined,
// lowest end first.
inline constexpr std::size_t kBandwidthRefinements = 32;
// Doublings of w past the grid's end while the loss still falls there.
inline constexpr int kBandwidthBeyondGrid = 64;

// The leave-one-out loss as w -> infinity: each query predicts the mean of its nearest keys' values.
double nearestNeighbourLoss(const std::vector<double>& x, const std::vector<double>& y, bool leaveOneOut);

// The w grid selectBandwidth evaluates: kBandwidthGridPoints values log-spaced from 0.01 / span(x) to
// 100 / (smallest gap between distinct x), both computed in logarithms so that a span that overflows or a
// gap near 1e-308 still gives finite w (the grid stops at the largest double), then, at the same spacing,
// up to kBandwidthExtraPoints more where a point's two neighbours are almost equally near, until w splits
// them (their squared distances times w^2 / 2 differ by kSplitExponent). Empty if all x are equal.
std::vector<double> bandwidthGrid(const std::vector<double>& x);

// What is guaranteed, and no more: the loss and its slope are evaluated on bandwidthGrid(x) (continued
// by doubling w while the loss still falls at its end), at w = 0 and at the limit w -> infinity (both
// exactly). The brackets are the two grid intervals around each local minimum of the grid (except a grid
// point level with both its neighbours: a plateau, where the loss has reached its limit), and every
// grid interval whose end values and slopes prove a local minimum inside, lower than an end (falling in at
// one end and no lower, or rising out, at the other), for a smooth loss; the
// kBandwidthRefinements brackets with the lowest ends are narrowed on log w to kBandwidthTolerance: by
// the slopes (the secant through the last two points, as Brent's root finder, with safeguarding
// midpoints) where both
// ends' slopes point into it and the kernel is Gaussian (a local minimum's bracket whose ends have no
// slopes is first halved by its minimum's slope, if the half it falls into ends in one pointing back),
// else by golden-section search, which compares values (a compact kernel's kinks can leave several
// minima in one bracket). A compact kernel's loss has kinks (where a pair's distance times w crosses 1),
// and a minimum on one is approached within the tolerance, where the loss may rise steeply: the kinks
// within four tolerances of the choice (at most 8) are evaluated too. A bracket inside one
// already narrowed is skipped: for a smooth loss, the same minimum. Differences within the exact loss's rounding (4 n eps of it) are no evidence of a minimum
// (see the large-n paragraph), and the grid stops where rows settled on their nearest keys outweigh
// the best loss so far (no larger w can do better). The result is never worse than any grid point or either limit, and atLimit says
// when it is a limit. A dip inside an interval whose ends both point away from it (rising out of the
// left end, falling into the right) is not seen: this is not a proof of the global minimum. If all x are equal,
// every w gives the same loss and w = 1 is returned.
// Only for the trainable kernels (gaussian, epanechnikov, triangular); others throw nw::Error.
//
// Large n (looCv, Gaussian, Nadaraya-Watson, approximation automatic, and n^2 above kExactWorkLimit):
// where the exact loss at a w would visit more than kExactWorkLimit key pairs and the binned loss is
// estimated kBinnedAdvantage times cheaper, the binned loss is used instead, without a slope (only the
// grid's local minima are bracketed there); approximate and lossBound say when the reported loss is
// binned. Differences within a loss's error (the binned bound, or 4 n eps of an exact loss) are then no
// evidence: points level within it count as a plateau, slopes count only where they move the loss across
// their interval by more than it, and a golden-section search also stops once its two inner losses agree
// within it (else at kBinnedBandwidthTolerance next to a binned loss). A grid point past the minimum
// whose loss would be exact is first summed row by row without slopes until the rows pass the best loss
// so far: if they do, that partial sum stands for it (screened, as below). A screened point has no
// slope, so a dip between two screened points, both above the best, brackets nothing. A grid point where a binned loss
// on a coarser grid with cubic binning (kScreenSpacings, no row summed exactly) is much cheaper than the full loss is first
// screened with it: if even its lower bound lies above the best loss so far, that point can be neither
// the choice nor level with another, and its coarse loss stands. The grid stops where the rows
// that have settled on their nearest keys already sum to more than the best loss so far (no larger w can
// do better: settled_rows.hpp), with one last point there, or, past the minimum on the exact path, at the
// first point where one pass bounds the loss at every larger w above the best (tail_bound.hpp). The loss at w = 0 is summed in closed form,
// the limit w -> infinity from sorted neighbours (both exact).
//
// Gaussian Nadaraya-Watson, where a binned loss on a grid 16 times coarser (no row summed exactly) is
// much cheaper than a grid point's own loss (n of a few thousand: each exact loss below the minimum
// visits all n^2 pairs), for any approximation: these pilot losses are computed first, up the grid
// until they have risen past their lowest, the grid point of the lowest is evaluated first, and a point
// three or more grid points from it whose pilot lower bound (loss minus bound) lies above the best so
// far is screened by it, as above. The reported loss is never a pilot's.
//
// With Criterion::aic, `loss` is aicLoss's AICc (objective.leaveOneOut and objective.loss do not apply: the
// AIC fits each point with its own key). It has a pole where tr(H) reaches n - 2, at small bandwidths
// (large w), and means nothing past it, so only w with tr(H) < n - 2 are searched (aicLoss is +infinity
// elsewhere): w = 0, bandwidthGrid(x) (continued by doubling w while the AICc falls at its end and the
// trace stays below the pole), golden-section search on log w between the grid neighbours of the
// kBandwidthRefinements lowest local minima of the grid, and the limit w -> infinity when it lies below
// the pole (only with many duplicate x: its tr(H) is the number of distinct x). Never above any of those
// points. Needs at least kMinAicPoints points.
BandwidthChoice selectBandwidth(const std::vector<double>& x, const std::vector<double>& y, Objective objective = {},
                                Criterion criterion = Criterion::looCv,
                                Approximation approximation = Approximation::automatic);

}  // namespace nw
