// Bandwidth selection: grid search on log w, refined by golden-section search.
#include "nw/bandwidth.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "nw/error.hpp"

namespace nw {

BandwidthChoice selectBandwidth(const std::vector<double>& x, const std::vector<double>& y, Objective objective) {
  if (!isTrainable(objective.kernel)) {
    throw Error(std::string("kernel: ") + kernelName(objective.kernel) +
                " has a loss that is piecewise constant in w, so it has no minimiser to search for; use gaussian, epanechnikov or triangular");
  }
  requireTrainingSet(x, y);  // before anything reads x
  const auto loss = [&](double w) { return looLoss(x, y, w, objective).loss; };

  std::vector<double> sorted(x);
  std::sort(sorted.begin(), sorted.end());
  const double span = sorted.back() - sorted.front();
  double smallestGap = INFINITY;
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    const double gap = sorted[i] - sorted[i - 1];
    if (gap > 0.0) smallestGap = std::min(smallestGap, gap);
  }
  if (!(span > 0.0) || !std::isfinite(span)) return {1.0, loss(1.0)};

  const double logLow = std::log(0.01 / span);
  const double logHigh = std::max(std::log(100.0 / smallestGap), logLow + 1.0);
  const double step = (logHigh - logLow) / (kBandwidthGridPoints - 1);
  int best = 0;
  double bestLoss = INFINITY;
  for (int i = 0; i < kBandwidthGridPoints; ++i) {
    const double l = loss(std::exp(logLow + i * step));
    if (l < bestLoss) {
      bestLoss = l;
      best = i;
    }
  }

  // Golden-section search for the minimum of loss(exp(u)) on the bracket around the best grid point.
  const double invPhi = (std::sqrt(5.0) - 1.0) / 2.0;
  double a = logLow + std::max(best - 1, 0) * step;
  double b = logLow + std::min(best + 1, kBandwidthGridPoints - 1) * step;
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

  BandwidthChoice choice{std::exp(logLow + best * step), bestLoss};
  for (const auto& [u, l] : {std::pair{c, lc}, std::pair{d, ld}}) {
    if (l < choice.loss) choice = {std::exp(u), l};
  }
  return choice;
}

}  // namespace nw
