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

  const std::vector<double> grid = bandwidthGrid(x);
  if (grid.empty()) return {1.0, loss(1.0), BandwidthLimit::none};
  std::vector<double> logW(grid.size()), losses(grid.size());
  for (std::size_t i = 0; i < grid.size(); ++i) {
    logW[i] = std::log(grid[i]);
    losses[i] = loss(grid[i]);
  }

  // The grid's local minima, best first.
  std::vector<std::size_t> minima;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    if ((i == 0 || losses[i] <= losses[i - 1]) && (i + 1 == grid.size() || losses[i] <= losses[i + 1])) minima.push_back(i);
  }
  std::sort(minima.begin(), minima.end(), [&](std::size_t a, std::size_t b) { return losses[a] < losses[b]; });
  if (minima.size() > kBandwidthRefinements) minima.resize(kBandwidthRefinements);

  BandwidthChoice choice{grid[minima[0]], losses[minima[0]], BandwidthLimit::none};
  const auto consider = [&](double w, double l) {
    if (l < choice.loss) choice = {w, l, BandwidthLimit::none};
  };
  const double invPhi = (std::sqrt(5.0) - 1.0) / 2.0;
  const std::size_t last = grid.size() - 1;
  for (std::size_t best : minima) {
    // Golden-section search for the minimum of loss(exp(u)) on the bracket around this grid point.
    double a = logW[best == 0 ? 0 : best - 1];
    double b = logW[std::min(best + 1, last)];
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
