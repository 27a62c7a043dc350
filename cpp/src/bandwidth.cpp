// Bandwidth selection: grid search on log w, refined by golden-section search, and the two limits.
#include "nw/bandwidth.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nw/aic.hpp"
#include "nw/binned.hpp"
#include "nw/error.hpp"
#include "gaussian_rows.hpp"
#include "settled_rows.hpp"
#include "tail_bound.hpp"

namespace nw {

namespace {

// The mean of the values of the keys nearest to x[j] (leaving key j out or not) by scanning every key:
// the definition, kept for rows whose nearest distance overflows (where keys beyond the adjacent ones
// can be just as infinitely far).
double nearestMeanByScan(const std::vector<double>& x, const std::vector<double>& y, std::size_t j, bool leaveOneOut) {
  double nearest = INFINITY;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i != j || !leaveOneOut) nearest = std::fmin(nearest, std::fabs(x[j] - x[i]));
  }
  double sum = 0.0, count = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if ((i != j || !leaveOneOut) && std::fabs(x[j] - x[i]) == nearest) {
      sum += y[i];
      count += 1.0;
    }
  }
  return sum / count;
}

}  // namespace

double nearestNeighbourLoss(const std::vector<double>& x, const std::vector<double>& y, bool leaveOneOut) {
  requireTrainingSet(x, y);
  // Sorted, the nearest keys of a point are in its own run of equal x or in the runs next to it: O(n log n).
  const std::size_t n = x.size();
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
  struct Run {
    double x, sum, count;
  };
  std::vector<Run> runs;
  std::vector<std::size_t> runOf(n);
  for (std::size_t r = 0; r < n; ++r) {
    const std::size_t i = order[r];
    if (runs.empty() || runs.back().x != x[i]) runs.push_back({x[i], 0.0, 0.0});
    runs.back().sum += y[i];
    runs.back().count += 1.0;
    runOf[i] = runs.size() - 1;
  }
  double loss = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t r = runOf[j];
    double mean;
    if (!leaveOneOut) {
      mean = runs[r].sum / runs[r].count;
    } else if (runs[r].count > 1.0) {
      mean = (runs[r].sum - y[j]) / (runs[r].count - 1.0);
    } else {
      const double left = r > 0 ? std::fabs(x[j] - runs[r - 1].x) : INFINITY;
      const double right = r + 1 < runs.size() ? std::fabs(x[j] - runs[r + 1].x) : INFINITY;
      const double nearest = std::fmin(left, right);
      if (!(nearest < INFINITY)) {
        mean = nearestMeanByScan(x, y, j, leaveOneOut);
      } else {
        double sum = 0.0, count = 0.0;
        if (left == nearest) sum += runs[r - 1].sum, count += runs[r - 1].count;
        if (right == nearest) sum += runs[r + 1].sum, count += runs[r + 1].count;
        mean = sum / count;
      }
    }
    const double residual = mean - y[j];
    loss += residual * residual;
  }
  return loss;
}

std::vector<double> bandwidthGrid(const std::vector<double>& x) {
  std::vector<double> sorted(x);
  std::sort(sorted.begin(), sorted.end());
  if (sorted.empty() || !(sorted.back() > sorted.front())) return {};
  // log(span) without forming a span that may overflow.
  const double logSpan = std::log(0.5 * sorted.back() - 0.5 * sorted.front()) + std::log(2.0);
  double smallestGap = INFINITY;
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    const double gap = sorted[i] - sorted[i - 1];  // finite unless the span overflows: then halves
    const double g = std::isfinite(gap) ? gap : 2.0 * (0.5 * sorted[i] - 0.5 * sorted[i - 1]);
    if (g > 0.0) smallestGap = std::min(smallestGap, g);
  }
  const double logMax = std::log(std::numeric_limits<double>::max());
  const double logLow = std::log(0.01) - logSpan;
  const double logHigh = std::min(std::max(std::log(100.0) - std::log(smallestGap), logLow + 1.0), logMax);
  std::vector<double> grid(kBandwidthGridPoints);
  const double step = (logHigh - logLow) / (kBandwidthGridPoints - 1);
  for (int i = 0; i < kBandwidthGridPoints; ++i) {
    grid[i] = std::min(std::exp(logLow + i * step), std::numeric_limits<double>::max());
  }
  // A point whose left and right neighbours are almost equally near (in doubles, often an exact tie
  // rounded apart) is predicted by both of them until w is so large that (dl^2 - dr^2) w^2 / 2 reaches
  // the exp's range, and only then by the nearer one: the loss can dip in between, far above the grid.
  // The grid goes on at the same spacing until every such pair has been split.
  double logSplit = -INFINITY;
  for (std::size_t i = 1; i + 1 < sorted.size(); ++i) {
    const double left = sorted[i] - sorted[i - 1], right = sorted[i + 1] - sorted[i];
    const double squaresApart = std::fabs(left - right) * (left + right);  // |left^2 - right^2|, no cancellation
    if (left > 0.0 && right > 0.0 && squaresApart > 0.0 && std::isfinite(squaresApart)) {
      logSplit = std::max(logSplit, 0.5 * (std::log(2.0 * kSplitExponent) - std::log(squaresApart)));
    }
  }
  const double logEnd = std::min(logSplit, logMax);
  for (int i = 1; i <= kBandwidthExtraPoints && step > 0.0 && logHigh + i * step <= logEnd + step; ++i) {
    grid.push_back(std::min(std::exp(logHigh + i * step), std::numeric_limits<double>::max()));
  }
  return grid;
}

namespace {

// A criterion at one w: its value, its slope in log w (w times its gradient; NaN where none was
// computed), and a bound on the value's error (0 where the value counts as exact). Screened: a cheap
// value, taken because even its lower bound lies above the best value so far (a coarse binned loss, or
// the exact rows summed until they pass the best, or the binned ones): it opens no bracket.
struct Evaluation {
  double value, slope, noise;
  bool screened = false;
};

// Golden-section search for the minimum of f(exp(u)) on [a, b] (u = log w) until the bracket is
// `tolerance` wide, or until its two inner points' values are within their errors of each other (finer
// steps could not tell them apart); calls consider(w, value) for its last two points.
template <class F, class Consider>
void goldenSection(double a, double b, double tolerance, F&& f, Consider&& consider) {
  const double invPhi = (std::sqrt(5.0) - 1.0) / 2.0;
  double c = b - invPhi * (b - a);
  double d = a + invPhi * (b - a);
  Evaluation fc = f(std::exp(c));
  Evaluation fd = f(std::exp(d));
  const auto apart = [&] { return !(std::fabs(fc.value - fd.value) <= fc.noise + fd.noise) || (fc.noise == 0.0 && fd.noise == 0.0); };
  while (b - a > tolerance && apart()) {  // a width in log w is a relative width in w
    if (fc.value <= fd.value) {
      b = d;
      d = c;
      fd = fc;
      c = b - invPhi * (b - a);
      fc = f(std::exp(c));
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + invPhi * (b - a);
      fd = f(std::exp(d));
    }
  }
  consider(std::exp(c), fc.value);
  consider(std::exp(d), fd.value);
}

// Refines a bracket [a, b] in u = log w whose ends' slopes point into it (fa.slope < 0 < fb.slope) where
// the slope crosses 0, as Brent's root finder does: the secant through the last two points (the latest
// is always an end, so the secant converges from there however far the other end lies; the bracket's
// ends' secant, regula falsi, did not: at n = 2,000 it took 16 points, as the far end moved only by the
// midpoints taken between its steps). The midpoint instead where the secant leaves the half of the
// bracket next to the latest point, does not halve the step before last, or follows a step moved off
// the secant's estimate: lengthened to half the tolerance (past an estimate that close, which closes the
// bracket if the estimate is right) or kept a 1/1024 of the bracket from its ends. And the midpoint
// after kMaxStalled points that did not halve the bracket: it halves at least every fourth point (a
// review's slopes, steep on one side, had the clamped steps shrink it by 1/1024 a point). Some 4 to 8
// points where the golden-section search takes 20 to 35 (a slope comes with each exact loss). Stops
// when the bracket is `tolerance` wide or a slope is 0; a point without a slope (a binned loss) or a
// finite value leaves the rest to goldenSection. Calls consider(w, value) for each point.
constexpr int kMaxStalled = 3;
template <class F, class Consider>
void slopeSearch(double a, double b, Evaluation fa, Evaluation fb, double tolerance, F&& f, Consider&& consider) {
  double p = a, slopeP = fa.slope, q = b, slopeQ = fb.slope;  // the last two points, q the latest (an end)
  double step = INFINITY, stepBefore = INFINITY;               // the last two steps' lengths
  bool moved = false;                                           // the last step was moved off the secant's estimate
  double halvedFrom = b - a;                                    // the width the bracket last halved to
  int stalled = 0;                                              // points since
  while (b - a > tolerance) {
    const double width = b - a, margin = width * 0x1p-10, mid = a + 0.5 * width;
    double u = q - slopeQ * ((q - p) / (slopeQ - slopeP));  // NaN or infinite where the slopes are equal
    const bool secant = !moved && stalled < kMaxStalled && u > std::min(q, mid) && u < std::max(q, mid) &&
                        std::fabs(u - q) < 0.5 * stepBefore;
    moved = false;
    if (secant) {
      if (std::fabs(u - q) < 0.5 * tolerance) u = q + (q == b ? -0.5 : 0.5) * tolerance, moved = true;
      const double kept = std::clamp(u, a + margin, b - margin);
      moved = moved || kept != u;
      u = kept;
    } else {
      u = mid;
    }
    const Evaluation at = f(std::exp(u));
    consider(std::exp(u), at.value);
    if (std::isnan(at.slope) || !std::isfinite(at.value)) return goldenSection(a, b, tolerance, f, consider);
    if (at.slope == 0.0) return;
    (at.slope < 0.0 ? a : b) = u;
    stepBefore = step, step = std::fabs(u - q);
    p = q, slopeP = slopeQ, q = u, slopeQ = at.slope;
    if (b - a <= 0.5 * halvedFrom) {
      halvedFrom = b - a, stalled = 0;
    } else {
      ++stalled;
    }
  }
}

// The search on a grid, shared by both criteria: `evaluate(w)` gives the criterion, its slope in log w
// and its error bound, `value(w)` the same where the slope is not needed. The brackets to search: around
// each local minimum of the grid (its two neighbours; a compact kernel's criterion has kinks, where
// slopes say little), and every grid interval that must hold a local minimum lower than one of its ends
// by the slopes of a smooth criterion: it falls into the interval at the left end and is no lower at the
// right end (or rises out at the right), or rises out at the right end and is no lower at the left. A
// bracket whose ends are both +infinity (past the AIC's pole) is none. Differences within the values'
// error bounds are no evidence: a point level (within them) with both neighbours lies on a plateau, and
// a slope counts only if it would move the value across the interval by more than the bounds.
// `evaluate(w, best)` may screen w against `best`, an upper bound on the best value so far (see
// Evaluation); a screened point is never level with another, nor a local minimum. `beyondWhichAbove(loss)`
// gives a w beyond which no value can be below `loss`: the grid stops there, with one last point at that
// w, once the best value so far (plus its error) is below it. skipNested: a bracket inside one already
// searched is not searched again (for a smooth criterion, the same minimum). smooth (a Gaussian kernel's
// loss): a bracket whose ends' slopes point into it is refined by them (slopeSearch); a compact kernel's
// kinks leave several local minima in one bracket, where the golden-section search compares values.
// The limits are the caller's.
template <class Evaluate, class Value, class Tolerance, class Cut>
BandwidthChoice searchGrid(const std::vector<double>& grid, Evaluate&& evaluateAt, Value&& value, Tolerance&& toleranceAt,
                           Cut&& beyondWhichAbove, bool skipNested, bool smooth) {
  std::vector<double> ws, logW;
  std::vector<Evaluation> at;
  double bestUpper = INFINITY;
  const auto evaluate = [&](double w) {
    at.push_back(evaluateAt(w, bestUpper));
    ws.push_back(w);
    logW.push_back(std::log(w));
    // (A screened value bounds its own loss from below, not the best from above.)
    if (!at.back().screened) bestUpper = std::min(bestUpper, at.back().value + at.back().noise);
  };
  bool cut = false;
  for (double w : grid) {
    const double beyond = beyondWhichAbove(bestUpper);
    if (w >= beyond) {
      if (ws.empty() || beyond > ws.back()) evaluate(beyond);
      cut = true;
      break;
    }
    evaluate(w);
  }
  // Still falling at the grid's end: the grid goes on, doubling w, until the criterion turns or w overflows.
  const double largest = std::numeric_limits<double>::max();
  for (int i = 0; !cut && i < kBandwidthBeyondGrid && at.back().slope < 0.0 && ws.back() < largest; ++i) {
    evaluate(std::min(2.0 * ws.back(), largest));
  }

  struct Bracket {
    double a, b, bound;
    std::size_t ia, ib;  // the grid points at its ends
    std::size_t im;      // a local minimum's bracket: the minimum's grid point (else none)
  };
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  std::vector<Bracket> brackets;
  BandwidthChoice choice{ws[0], at[0].value, BandwidthLimit::none};
  const std::size_t last = ws.size() - 1;
  const auto levelWith = [&](std::size_t i, std::size_t k) {
    if (at[i].screened || at[k].screened) return false;
    return at[i].value == at[k].value || std::fabs(at[i].value - at[k].value) <= at[i].noise + at[k].noise;
  };
  for (std::size_t i = 0; i <= last; ++i) {
    const double loss = at[i].value;
    if (loss < choice.loss) choice = {ws[i], loss, BandwidthLimit::none};
    // A point level with both neighbours lies on a plateau (the loss has reached a limit in doubles, as
    // the nearest-neighbour loss at large w): no bracket, else a long plateau fills the refinements.
    const bool level = (i == 0 || levelWith(i, i - 1)) && (i == last || levelWith(i, i + 1));
    if ((i == 0 || loss <= at[i - 1].value) && (i == last || loss <= at[i + 1].value) && loss < INFINITY && !level &&
        !at[i].screened) {
      const std::size_t ia = i == 0 ? 0 : i - 1, ib = std::min(i + 1, last);
      brackets.push_back({logW[ia], logW[ib], loss, ia, ib, i});
    }
    if (i == last) break;
    const double width = logW[i + 1] - logW[i], noise = at[i].noise + at[i + 1].noise;
    const bool fallsIn = at[i].slope < 0.0 && -at[i].slope * width > noise;
    const bool risesOut = at[i + 1].slope > 0.0 && at[i + 1].slope * width > noise;
    const double next = at[i + 1].value, bound = std::min(loss, next);
    if (((fallsIn && (risesOut || next >= loss)) || (risesOut && loss >= next)) && bound < INFINITY) {
      brackets.push_back({logW[i], logW[i + 1], bound, i, i + 1, none});
    }
  }
  std::sort(brackets.begin(), brackets.end(), [](const Bracket& p, const Bracket& q) { return p.bound < q.bound; });
  if (brackets.size() > kBandwidthRefinements) brackets.resize(kBandwidthRefinements);

  const auto consider = [&](double w, double l) {
    if (l < choice.loss) choice = {w, l, BandwidthLimit::none};
  };
  std::vector<Bracket> refined;
  for (const Bracket& bracket : brackets) {
    const bool nested = std::any_of(refined.begin(), refined.end(), [&](const Bracket& r) { return r.a <= bracket.a && bracket.b <= r.b; });
    if (skipNested && nested) continue;
    const double tolerance = toleranceAt(std::exp(bracket.a), std::exp(bracket.b));
    const auto slopesPointIn = [&](std::size_t ia, std::size_t ib) {
      const Evaluation& fa = at[ia];
      const Evaluation& fb = at[ib];
      return smooth && ia < ib && fa.slope < 0.0 && fb.slope > 0.0 && std::isfinite(fa.slope) && std::isfinite(fb.slope) &&
             !fa.screened && !fb.screened;
    };
    // A local minimum's bracket whose ends have no slopes to refine it by (a binned or screened
    // neighbour) is halved by its minimum's slope first: the half that slope falls into holds a minimum
    // below it, refined by the slopes if the half's other end has one pointing back (6 to 8 losses
    // where the golden-section search takes some 20).
    const std::size_t im = bracket.im;
    const bool halve = im != none && !slopesPointIn(bracket.ia, bracket.ib) && std::isfinite(at[im].slope) && at[im].slope != 0.0;
    const std::size_t ha = halve && at[im].slope < 0.0 ? im : bracket.ia, hb = halve && at[im].slope > 0.0 ? im : bracket.ib;
    if (halve && slopesPointIn(ha, hb)) {
      slopeSearch(logW[ha], logW[hb], at[ha], at[hb], tolerance, value, consider);
    } else if (slopesPointIn(bracket.ia, bracket.ib)) {
      slopeSearch(bracket.a, bracket.b, at[bracket.ia], at[bracket.ib], tolerance, value, consider);
    } else {
      goldenSection(bracket.a, bracket.b, tolerance, value, consider);
    }
    refined.push_back(bracket);
  }
  return choice;
}

// The loss at w = 0, where every key weighs the same: each point predicts the mean of the others (or of
// all, keeping its own), in O(n).
double averageLooLoss(const std::vector<double>& y, Objective objective) {
  const double n = static_cast<double>(y.size());
  double sum = 0.0;
  for (double v : y) sum += v;
  double loss = 0.0;
  for (double v : y) {
    const double residual = (objective.leaveOneOut ? (sum - v) / (n - 1.0) : sum / n) - v;
    loss += residual * residual;
  }
  return lossScale(objective.loss) * loss;
}

BandwidthChoice selectByAic(const std::vector<double>& x, const std::vector<double>& y, Objective objective) {
  if (x.size() < kMinAicPoints) {
    throw Error(ErrorCode::tooFewPoints, "xTrain",
                "xTrain must have at least " + std::to_string(kMinAicPoints) +
                    " points for criterion aic (it needs tr(H) < n - 2, and the local line's tr(H) is 2 at w = 0), got " +
                std::to_string(x.size()));
  }
  const auto aic = [&](double w) { return aicLoss(x, y, w, objective.kernel, objective.estimator).aic; };
  const auto aicValue = [&](double w) { return Evaluation{aic(w), NAN, 0.0}; };
  std::vector<double> grid = bandwidthGrid(x);
  if (grid.empty()) return {1.0, aic(1.0), BandwidthLimit::none};
  // Past the pole (+infinity) the criterion counts as rising, so the grid stops there.
  BandwidthChoice choice = searchGrid(std::move(grid), [&](double w, double) {
    const AicResult at = aicLoss(x, y, w, objective.kernel, objective.estimator);
    return Evaluation{at.aic, at.aic < INFINITY ? w * at.grad : INFINITY, 0.0};
  }, aicValue, [](double, double) { return kBandwidthTolerance; }, [](double) { return INFINITY; }, false, false);
  // The limits; a tie keeps the finite w.
  const double atZero = aic(0.0);
  if (atZero < choice.loss) choice = {0.0, atZero, BandwidthLimit::zero};
  const double atInfinity = aicAtInfinity(x, y).aic;
  if (atInfinity < choice.loss) choice = {INFINITY, atInfinity, BandwidthLimit::infinity};
  return choice;
}

// The work estimates that choose each w's path. exactLooWork is a pass over the keys, and the search
// consults it several times per w (to evaluate, to screen, for the tolerance): once per w here, and
// only as far as a comparison needs it (at small w the count, up to n^2, passes any threshold compared
// with it within a few keys: at n = 1,000,000 the full passes took a tenth of the search).
class PathWork {
 public:
  explicit PathWork(const std::vector<double>& sortedX) : x_(sortedX), span_(sortedX.back() - sortedX.front()) {}

  // Whether exactLooWork(x, w) > threshold.
  bool exactAbove(double w, double threshold) {
    Count& count = exact_.try_emplace(w).first->second;
    if (!count.complete && !(count.value > threshold)) {
      count.value = exactLooWork(x_, w, threshold);
      count.complete = !(count.value > threshold);
    }
    return count.value > threshold;
  }
  // binningPays(exactLooWork(x, w), binnedLooWork(x, w)). A capped grid's binned work counts every row
  // summed exactly besides the grid's: never kBinnedAdvantage times less than the exact work.
  bool binningPays(double w) {
    if (binnedGridCapped(span_, w)) return false;
    const double binned = binnedGridWork(span_, x_.size(), w);
    return kBinnedAdvantage * binned < INFINITY && exactAbove(w, std::max(kExactWorkLimit, kBinnedAdvantage * binned));
  }
  // binnedLooWork(x, w) where the grid is not capped.
  double uncappedBinned(double w) const { return binnedGridWork(span_, x_.size(), w); }
  // binnedLooWork(x, w, spacing, false), with linear or cubic binning.
  double coarse(double w, double spacing, bool cubic = false) const { return binnedGridWork(span_, x_.size(), w, spacing, cubic); }
  // Whether binnedLooLoss's grid at that spacing is capped (coarser than asked), or cannot be made (a span
  // that overflows: binnedLooLoss refuses it).
  bool capped(double w, double spacing) const { return !std::isfinite(span_) || binnedGridCapped(span_, w, spacing); }
  // The spacing (times |w|) binnedLooLoss's grid will have (coarser than asked where it is capped).
  double spacingUsed(double w, double spacing, bool cubic = false) const { return binnedSpacingUsed(span_, w, spacing, cubic); }

 private:
  const std::vector<double>& x_;
  double span_;
  struct Count {
    double value = 0.0;  // exactLooWork's count, or a part of it above every threshold asked so far
    bool complete = false;
  };
  std::map<double, Count> exact_;
};

// Grid points this close to a seed (the grid point evaluated first, where the minimum is expected) are
// screened by nothing that seed tells before the search reaches it: the minimum may be any of them, and
// its neighbours below are evaluated as without a seed, for the slopes that refine its bracket.
constexpr std::size_t kNearMinimum = 3;

// A tail bound is computed where its estimate from a sample of rows exceeds the best by this factor: a
// pass that fails costs about as much as the exact point it would have screened.
constexpr double kTailEstimateMargin = 1.1;
// Nor where the exact loss visits more keys per row than this: the bound passes only where the rows have
// nearly settled on their nearest keys (at n = 1,000,000 with some 9 a row), and its estimate visits as
// many keys per sampled row.
constexpr double kTailVisitsPerRow = 64.0;

// Coarse binned losses at the grid's points below and around the minimum, computed before the search
// where each is much cheaper than the point's own loss (n of a few thousand, whose exact losses at small
// w visit all n^2 pairs): where the grid's minimum lies (its lowest), and a lower bound of the loss at
// each of them (its binned loss minus its bound, no row summed exactly), so that the search can evaluate
// the minimum's point first and screen the points far from it (see selectBandwidth).
class Pilot {
 public:
  Pilot() = default;
  // Ascending, while a pilot loss is kPilotAdvantage times cheaper than the point's own, on a grid that is
  // not capped (work.coarse does not count the rows a capped grid sums exactly; keys whose span overflows
  // have no binned sums at all), and until the pilot losses have risen past their lowest by kPilotRise
  // (beyond, the search's own screens apply).
  template <class OwnWorkAbove>
  Pilot(const std::vector<double>& grid, const std::vector<double>& x, const std::vector<double>& y, Objective objective,
        PathWork& work, OwnWorkAbove&& ownWorkAbove) {
    const BinnedTradeoff pilot{kPilotSpacing * kBinnedSpacing, INFINITY};
    for (std::size_t i = 0; i < grid.size(); ++i) {
      const double w = grid[i];
      if (w == 0.0 || work.capped(w, pilot.spacing) || !ownWorkAbove(w, kPilotAdvantage * work.coarse(w, pilot.spacing))) break;
      const BinnedLoss at = binnedLooLoss(x, y, w, objective, false, pilot);
      lowerBounds_.emplace(w, std::pair(i, at.loss - at.bound));
      if (at.loss < lowest_) lowest_ = at.loss, best_ = i;
      if (at.loss > kPilotRise * lowest_ && i >= best_ + kNearMinimum) break;
    }
  }
  bool empty() const { return lowerBounds_.empty(); }
  // The grid index of the lowest pilot loss.
  std::size_t best() const { return best_; }
  // Whether the pilot shows the loss at grid point w above `upper`: w lies kNearMinimum or more grid
  // points from the lowest (its neighbours are evaluated in full, for the slopes that refine the
  // minimum's bracket) and its lower bound exceeds `upper`. Then lowerBound is set to it.
  bool screens(double w, double upper, double& lowerBound) const {
    const auto at = lowerBounds_.find(w);
    if (at == lowerBounds_.end()) return false;
    const auto [i, bound] = at->second;
    if ((i < best_ + kNearMinimum && i + kNearMinimum > best_) || !(bound > upper)) return false;
    lowerBound = bound;
    return true;
  }

 private:
  static constexpr double kPilotSpacing = 16.0;  // times kBinnedSpacing: a bound about 256 times the fine one's
  static constexpr double kPilotAdvantage = 8.0;
  static constexpr double kPilotRise = 1.25;
  std::map<double, std::pair<std::size_t, double>> lowerBounds_;  // w -> its grid index and the pilot's lower bound
  double lowest_ = INFINITY;
  std::size_t best_ = 0;
};

// Where no Pilot pays (at n = 1,000,000 a coarse binned loss costs about as much as a fine one: both
// sum n rows), a guess at the grid's minimum from every k-th key of the sorted ones (n / k about
// kGuessKeys): their binned losses ascending, as the Pilot's, and their lowest's w times (k)^(1/5), as
// the best w grows with n for smooth data. Only a guess: the search evaluates it first, so that binned
// losses far from it can stop summing rows once they pass it (BinnedTradeoff::stopAbove). NaN: none
// (too few keys, or keys whose span has no binned sums).
double subsampleGuess(const std::vector<double>& grid, const std::vector<double>& x, const std::vector<double>& y,
                      Objective objective) {
  constexpr std::size_t kGuessKeys = 5000;
  constexpr double kGuessRise = 1.05;
  constexpr double kGuessSpacing = 0.125;  // cubic binning: a bound of about 1e-4 of the loss, ample for a guess
  const std::size_t k = x.size() / kGuessKeys;
  if (k < 8) return NAN;
  std::vector<double> xs, ys;
  for (std::size_t i = 0; i < x.size(); i += k) xs.push_back(x[i]), ys.push_back(y[i]);
  const double span = xs.back() - xs.front();
  if (!std::isfinite(span)) return NAN;
  double lowest = INFINITY;
  std::size_t best = grid.size();
  for (std::size_t i = 0; i < grid.size(); ++i) {
    if (grid[i] == 0.0) continue;
    if (binnedGridCapped(span, grid[i], kGuessSpacing)) break;
    const double loss = binnedLooLoss(xs, ys, grid[i], objective, false, {kGuessSpacing, INFINITY, true}).loss;
    if (loss < lowest) lowest = loss, best = i;
    if (loss > kGuessRise * lowest && i >= best + 2) break;
  }
  const double guess = best < grid.size() ? grid[best] * std::pow(static_cast<double>(k), 0.2) : NAN;
  if (!std::isfinite(guess)) return NAN;
  const auto nearest = std::min_element(grid.begin(), grid.end(), [guess](double a, double b) {
    return std::fabs(std::log(a / guess)) < std::fabs(std::log(b / guess));
  });
  return *nearest;
}

// A compact kernel's loss has a kink wherever a pair's distance times w crosses 1 (a key enters or
// leaves a row's support), and its minimum may sit on one, where the golden-section search ends within
// its tolerance of it while the loss rises steeply away from it (the fuzzer's find: 1.2e-8 from the kink
// at w = 1, 5e-10 of the loss above it). The kinks within four tolerances of the choice (at most
// kKinksTried, nearest first), each at w = 1 / distance and the doubles next to it, are evaluated too.
// x sorted.
constexpr std::size_t kKinksTried = 8;
BandwidthChoice onNearbyKink(const std::vector<double>& x, const std::vector<double>& y, Objective objective,
                             BandwidthChoice choice) {
  if (!(choice.w > 0.0 && choice.w < INFINITY)) return choice;
  const double lo = 1.0 / (choice.w * (1.0 + 4.0 * kBandwidthTolerance)), hi = 1.0 / (choice.w * (1.0 - 4.0 * kBandwidthTolerance));
  std::vector<double> kinks;  // distances whose kink is near
  const std::size_t enough = 64 * kKinksTried;  // (many pairs that far apart: some of them will do)
  for (std::size_t i = 0; i < x.size() && kinks.size() < enough; ++i) {
    for (auto j = std::lower_bound(x.begin() + i + 1, x.end(), x[i] + lo); j != x.end() && *j - x[i] <= hi && kinks.size() < enough; ++j) {
      if (*j - x[i] >= lo) kinks.push_back(*j - x[i]);
    }
  }
  std::sort(kinks.begin(), kinks.end(), [&](double a, double b) { return std::fabs(1.0 / a - choice.w) < std::fabs(1.0 / b - choice.w); });
  kinks.erase(std::unique(kinks.begin(), kinks.end()), kinks.end());
  if (kinks.size() > kKinksTried) kinks.resize(kKinksTried);
  for (double d : kinks) {
    const double w = 1.0 / d;
    for (double at : {std::nextafter(w, 0.0), w, std::nextafter(w, INFINITY)}) {
      const double loss = looLoss(x, y, at, objective).loss;
      if (loss < choice.loss) choice = {at, loss, BandwidthLimit::none};
    }
  }
  return choice;
}

}  // namespace

BandwidthChoice selectBandwidth(const std::vector<double>& x, const std::vector<double>& y, Objective objective,
                                Criterion criterion, Approximation approximation) {
  if (!isTrainable(objective.kernel, objective.estimator)) {
    throw Error(ErrorCode::notTrainable, "kernel", std::string("kernel: ") + kernelName(objective.kernel) +
                " has a loss that is piecewise constant in w, so it has no minimiser to search for; use gaussian, epanechnikov or triangular");
  }
  requireTrainingSet(x, y);  // before anything reads x
  // Every criterion is a sum over the pairs in any order, and sorted keys let each row visit only the keys
  // within the kernel's reach (without: 31 s instead of 1.5 s at n = 3,000 clumped keys).
  if (!std::is_sorted(x.begin(), x.end())) {
    std::vector<std::size_t> order(x.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
    std::vector<double> sortedX(x.size()), sortedY(y.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      sortedX[i] = x[order[i]];
      sortedY[i] = y[order[i]];
    }
    return selectBandwidth(sortedX, sortedY, objective, criterion, approximation);
  }
  if (criterion == Criterion::aic) return selectByAic(x, y, objective);

  // Where the binned loss stands in for the exact one (see the header): decided per w by the work each
  // would do, so small data sets never meet it.
  // (Binned sums, the pilot and the settled rows exist for Gaussian Nadaraya-Watson alone.)
  const bool gaussianPooling = objective.kernel == Kernel::gaussian && objective.estimator == Estimator::nadarayaWatson;
  const bool mayBin = approximation == Approximation::automatic && gaussianPooling;
  PathWork work(x);
  const auto binnedAt = [&](double w) {
    if (!mayBin || w == 0.0) return false;
    return work.binningPays(w);
  };
  // Whether the work of w's own loss (binned or exact) exceeds `threshold`.
  const auto ownWorkAbove = [&](double w, double threshold) {
    return binnedAt(w) ? work.uncappedBinned(w) > threshold : work.exactAbove(w, threshold);
  };
  // Large data (where binned losses may appear) count differences within each loss's error as no
  // evidence of a minimum: the binned loss's bound, and the exact sum's rounding (n eps of the loss
  // each way, generously), which is all that moves the loss on the plateau of its large-w limit.
  const double n = static_cast<double>(x.size());
  const bool large = mayBin && work.exactAbove(0.0, kExactWorkLimit);
  const double exactNoise = 4.0 * n * std::numeric_limits<double>::epsilon();
  std::vector<std::pair<double, double>> binnedBounds;  // (w, bound) of every binned loss, for the choice's
  const auto evaluate = [&](double w) {
    if (binnedAt(w)) {
      const BinnedLoss binned = binnedLooLoss(x, y, w, objective);
      binnedBounds.emplace_back(w, binned.bound);
      return Evaluation{binned.loss, NAN, binned.bound};
    }
    const LooResult at = looLoss(x, y, w, objective);
    return Evaluation{at.loss, w * at.grad, exactNoise * at.loss};
  };
  // A grid point far above the best so far needs no precise loss: a binned one on a coarser grid with
  // cubic binning (its bound grows with the fourth power of the spacing), with no row summed exactly,
  // settles it when even its lower bound lies above the best; else the point is evaluated in full. The
  // spacings tried, coarsest first, while cheaper than the full loss: those of kScreenSpacings whose
  // bound, predicted from the last screen's (or before any, from the last full binned loss's), would be
  // at most the height above the best that the last two grid points' rise, continued, gives this one
  // (the loss rises smoothly and faster and faster past its minimum). The spacing is the one the grid
  // will have: where kMaxBinnedGrid caps it, coarser than asked (its bound with it), and the same for
  // every finer ask, so it is tried once.
  //
  // Where a pilot of coarse binned losses is much cheaper than the grid's own losses (Pilot), the pilot's
  // lowest grid point is evaluated first (seed), and every point far from it whose pilot lower bound
  // lies above the best so far is screened by it: at n = 5,000 the exact losses below the minimum visit
  // all n^2 pairs each. Where no pilot pays, a guess from a subsample is the seed (subsampleGuess), and
  // the binned losses far from it stop summing rows once their lower bound passes the best.
  std::vector<double> grid = bandwidthGrid(x);
  if (grid.empty()) {
    const Evaluation at = evaluate(1.0);
    return {1.0, at.value, BandwidthLimit::none, !binnedBounds.empty(), binnedBounds.empty() ? 0.0 : at.noise};
  }
  const Pilot pilot = gaussianPooling ? Pilot(grid, x, y, objective, work, ownWorkAbove)
                               : Pilot();
  const double seedW = !pilot.empty() ? grid[pilot.best()] : large && gaussianPooling ? subsampleGuess(grid, x, y, objective) : NAN;
  const Evaluation seed = seedW == seedW ? evaluate(seedW) : Evaluation{NAN, NAN, NAN};
  // A guessed seed's value screens no grid point near it: there the search goes as without a seed (the
  // Pilot's lower bounds keep to the same rule by themselves).
  const bool guessed = pilot.empty() && seedW == seedW;
  const auto indexOf = [&](double w) { return static_cast<std::size_t>(std::lower_bound(grid.begin(), grid.end(), w) - grid.begin()); };
  const std::size_t seedIndex = guessed ? indexOf(seedW) : 0;
  const auto nearGuess = [&](double w) {
    const std::size_t i = indexOf(w);
    return guessed && i < grid.size() && grid[i] == w && (i > seedIndex ? i - seedIndex : seedIndex - i) < kNearMinimum;
  };
  double fineBound = NAN, previousValue = NAN, rise = 0.0;
  double screenScale = NAN;  // the last screen's bound over its spacing^4
  const auto predictedScreenBound = [&](double spacing) {
    const double s4 = spacing * spacing * spacing * spacing;
    return screenScale == screenScale ? screenScale * s4 : kScreenBoundPerFineBound * fineBound * s4;
  };
  bool lastScreened = false, lastStopped = false;
  // Past the minimum on the exact path, one pass bounds the loss at every larger w (TailBound): where a
  // sample of its rows says it may pass the best, it is computed, and the grid stops where it does.
  const std::unique_ptr<TailBound> tail =
      large && gaussianPooling ? std::make_unique<TailBound>(x, y, objective.leaveOneOut) : nullptr;
  double tailCut = INFINITY;
  const auto screenOrEvaluate = [&](double w, double bestSoFar) {
    const bool seedScreens = seedW == seedW && !nearGuess(w);
    const double bestUpper = seedScreens ? std::min(bestSoFar, seed.value + seed.noise) : bestSoFar;
    const double height = previousValue - bestUpper + std::max(rise, 0.0);
    Evaluation at{NAN, NAN, NAN};
    double pilotLower = NAN;
    const bool byPilot = w != seedW && pilot.screens(w, bestUpper, pilotLower);
    if (w == seedW) {
      at = seed;
    } else if (byPilot) {
      at = Evaluation{pilotLower, NAN, 0.0, true};
    }
    const bool pastMinimum = large && w != 0.0 && bestUpper < INFINITY && (height > 0.0 || lastScreened);
    const double scale = lossScale(objective.loss);
    if (!at.screened && !(at.value == at.value) && tail && pastMinimum && !binnedAt(w) &&
        !work.exactAbove(w, kTailVisitsPerRow * n)) {
      double bound = NAN;
      if (tail->estimate(w) > kTailEstimateMargin * (bestUpper / scale) && tail->above(w, bestUpper / scale, bound)) {
        at = Evaluation{scale * bound, NAN, 0.0, true};
        tailCut = w;
      }
    }
    if (!at.screened && !(at.value == at.value) && large && w != 0.0 && height > 0.0 && fineBound > 0.0) {
      double tried = 0.0;  // the last spacing tried: once the grid is capped, finer ones ask for the same grid
      for (double spacing : kScreenSpacings) {
        const BinnedTradeoff screening{spacing, INFINITY, true};
        const double used = work.spacingUsed(w, spacing, true);
        if (used == tried || predictedScreenBound(used) > height || !ownWorkAbove(w, work.coarse(w, spacing, true))) continue;
        tried = used;
        const BinnedLoss coarse = binnedLooLoss(x, y, w, objective, false, screening);
        if (coarse.bound > 0.0 && coarse.bound < INFINITY) screenScale = coarse.bound / (used * used * used * used);
        if (coarse.loss - coarse.bound > bestUpper) {
          at = Evaluation{coarse.loss, NAN, coarse.bound, true};
          break;
        }
      }
    }
    // An exact point the rise predicts above the best, or past a screened one: its rows summed in order,
    // without slopes, pass the best before the last row the farther the point lies above it (at
    // n = 1,000,000 the grid's exact points past the minimum took 1.9 s in full, 1.1 s so).
    if (!at.screened && !(at.value == at.value) && pastMinimum && !binnedAt(w)) {
      const double partial =
          scale * rows::gaussianLooSumUntil(x.data(), y.data(), x.size(), w, objective.leaveOneOut, true, bestUpper / scale);
      if (partial > bestUpper) at = Evaluation{partial, NAN, 0.0, true};
    }
    // (A pilot's screen says nothing about the next point: that is near the minimum where it cannot screen.)
    lastScreened = at.screened && !byPilot;
    // A binned loss's rows stop once their lower bound passes the best: then it is screened too.
    bool stoppedEarly = false;
    if (!at.screened && !(at.value == at.value) && seedScreens && binnedAt(w) && bestUpper < INFINITY) {
      const BinnedLoss binned = binnedLooLoss(x, y, w, objective, false, {kBinnedSpacing, kBinnedRowTolerance, false, bestUpper});
      if (binned.rowsSummed < x.size()) {
        at = Evaluation{binned.loss - binned.bound, NAN, 0.0, true};
        stoppedEarly = true;
      } else {
        binnedBounds.emplace_back(w, binned.bound);
        at = Evaluation{binned.loss, NAN, binned.bound};
      }
    }
    if (!at.screened) {
      if (w != seedW && !(at.value == at.value)) at = evaluate(w);
      if (binnedAt(w)) fineBound = at.noise;
    }
    // A binned loss stopped early is a part of its rows' sum: no height to continue a rise from, for the
    // next point (its previous value unknown) nor the one after (its rise counted from 0). Nor does it
    // count as lastScreened: the next point may be next to the minimum, which needs its slope.
    rise = stoppedEarly || lastStopped ? 0.0 : at.value - previousValue;
    previousValue = stoppedEarly ? NAN : at.value;
    lastStopped = stoppedEarly;
    return at;
  };

  // The loss and its slope in log w at each grid point (looLoss gives the gradient in the same pass; the
  // binned loss has none: NaN brackets nothing by slope).
  // No grid point beyond where the rows settled on their nearest keys already outweigh the best.
  const std::unique_ptr<SettledRows> settled =
      gaussianPooling ? std::make_unique<SettledRows>(x, y, objective.leaveOneOut) : nullptr;
  BandwidthChoice choice = searchGrid(grid, screenOrEvaluate, evaluate, [&](double a, double b) {
    return large || binnedAt(a) || binnedAt(b) ? kBinnedBandwidthTolerance : kBandwidthTolerance;
  }, [&](double loss) { return std::min(tailCut, settled ? settled->beyondWhichAbove(loss, lossScale(objective.loss)) : INFINITY); },
     true, objective.kernel == Kernel::gaussian);
  if (objective.kernel != Kernel::gaussian) choice = onNearbyKink(x, y, objective, choice);
  for (const auto& [w, bound] : binnedBounds) {
    if (w == choice.w) choice.approximate = true, choice.lossBound = bound;
  }

  // The two limits, evaluated exactly; a tie keeps the finite w. At w = 0 every key weighs the same, so
  // the large case sums in closed form what looLoss would sum pair by pair.
  const double atZero = large ? averageLooLoss(y, objective) : looLoss(x, y, 0.0, objective).loss;
  if (atZero < choice.loss) choice = {0.0, atZero, BandwidthLimit::zero};
  const double atInfinity = lossScale(objective.loss) * nearestNeighbourLoss(x, y, objective.leaveOneOut);
  if (atInfinity < choice.loss) choice = {INFINITY, atInfinity, BandwidthLimit::infinity};
  return choice;
}

}  // namespace nw
