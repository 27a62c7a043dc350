// Bandwidth selection: grid search on log w, refined by golden-section search, and the two limits.
#include "nw/bandwidth.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "nw/error.hpp"

namespace nw {

double nearestNeighbourLoss(const std::vector<double>& x, const std::vector<double>& y, bool leaveOneOut) {
  requireTrainingSet(x, y);
  double loss = 0.0;
  for (std::size_t j = 0; j < x.size(); ++j) {
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
    const double residual = sum / count - y[j];
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

BandwidthChoice selectBandwidth(const std::vector<double>& x, const std::vector<double>& y, Objective objective) {
  if (!isTrainable(objective.kernel)) {
    throw Error(std::string("kernel: ") + kernelName(objective.kernel) +
                " has a loss that is piecewise constant in w, so it has no minimiser to search for; use gaussian, epanechnikov or triangular");
  }
  requireTrainingSet(x, y);  // before anything reads x
  const auto loss = [&](double w) { return looLoss(x, y, w, objective).loss; };

  std::vector<double> grid = bandwidthGrid(x);
  if (grid.empty()) return {1.0, loss(1.0), BandwidthLimit::none};
  // The loss and its slope in log w at each grid point (looLoss gives the gradient in the same pass).
  std::vector<double> logW, losses, slopes;
  const auto evaluate = [&](double w) {
    const LooResult at = looLoss(x, y, w, objective);
    logW.push_back(std::log(w));
    losses.push_back(at.loss);
    slopes.push_back(w * at.grad);
  };
  for (double w : grid) evaluate(w);
  // Still falling at the grid's end: the grid goes on, doubling w, until the loss turns or w overflows.
  const double largest = std::numeric_limits<double>::max();
  for (int i = 0; i < kBandwidthBeyondGrid && slopes.back() < 0.0 && grid.back() < largest; ++i) {
    grid.push_back(std::min(2.0 * grid.back(), largest));
    evaluate(grid.back());
  }

  // The brackets to search: around each local minimum of the grid (its two neighbours; the loss of a
  // compact kernel has kinks, where slopes say little), and every grid interval that must hold a local
  // minimum lower than one of its ends by the slopes of a smooth loss: it falls into the interval at the
  // left end and is no lower at the right end (or rises out at the right), or rises out at the right end
  // and is no lower at the left.
  struct Bracket {
    double a, b, bound;
  };
  std::vector<Bracket> brackets;
  BandwidthChoice choice{grid[0], losses[0], BandwidthLimit::none};
  const std::size_t last = grid.size() - 1;
  for (std::size_t i = 0; i <= last; ++i) {
    if (losses[i] < choice.loss) choice = {grid[i], losses[i], BandwidthLimit::none};
    if ((i == 0 || losses[i] <= losses[i - 1]) && (i == last || losses[i] <= losses[i + 1])) {
      brackets.push_back({logW[i == 0 ? 0 : i - 1], logW[std::min(i + 1, last)], losses[i]});
    }
    if (i == last) break;
    const bool fallsIn = slopes[i] < 0.0, risesOut = slopes[i + 1] > 0.0;
    if ((fallsIn && (risesOut || losses[i + 1] >= losses[i])) || (risesOut && losses[i] >= losses[i + 1])) {
      brackets.push_back({logW[i], logW[i + 1], std::min(losses[i], losses[i + 1])});
    }
  }
  std::sort(brackets.begin(), brackets.end(), [](const Bracket& p, const Bracket& q) { return p.bound < q.bound; });
  if (brackets.size() > kBandwidthRefinements) brackets.resize(kBandwidthRefinements);

  const auto consider = [&](double w, double l) {
    if (l < choice.loss) choice = {w, l, BandwidthLimit::none};
  };
  const double invPhi = (std::sqrt(5.0) - 1.0) / 2.0;
  for (const Bracket& bracket : brackets) {
    // Golden-section search for the minimum of loss(exp(u)) on the bracket.
    double a = bracket.a;
    double b = bracket.b;
    double c = b - invPhi * (b - a);
    double d = a + invPhi * (b - a);
    double lc = loss(std::exp(c));
    double ld = loss(std::exp(d));
    while (b - a > kBandwidthTolerance) {  // a width in log w is a relative width in w
      if (lc <= ld) {
        b = d;
        d = c;
        ld = lc;
        c = b - invPhi * (b - a);
        lc = loss(std::exp(c));
      } else {
        a = c;
        c = d;
        lc = ld;
        d = a + invPhi * (b - a);
        ld = loss(std::exp(d));
      }
    }
    consider(std::exp(c), lc);
    consider(std::exp(d), ld);
  }

  // The two limits, evaluated exactly; a tie keeps the finite w.
  const double atZero = loss(0.0);
  if (atZero < choice.loss) choice = {0.0, atZero, BandwidthLimit::zero};
  const double atInfinity = lossScale(objective.loss) * nearestNeighbourLoss(x, y, objective.leaveOneOut);
  if (atInfinity < choice.loss) choice = {INFINITY, atInfinity, BandwidthLimit::infinity};
  return choice;
}

}  // namespace nw
