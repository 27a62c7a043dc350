// Each row's settling w and lowered limit residual, from the runs of equal sorted keys around it.
#include "settled_rows.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gaussian_rows.hpp"

namespace nw {

namespace {

struct Run {
  double x, sum, count;
};

}  // namespace

SettledRows::SettledRows(const std::vector<double>& x, const std::vector<double>& y, bool leaveOneOut) {
  const std::size_t n = x.size();
  std::vector<Run> runs;
  std::vector<std::size_t> runOf(n);
  double largest = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (runs.empty() || runs.back().x != x[i]) runs.push_back({x[i], 0.0, 0.0});
    runs.back().sum += y[i];
    runs.back().count += 1.0;
    runOf[i] = runs.size() - 1;
    largest = std::max(largest, std::fabs(y[i]));
  }
  // 2^-60 of the range (at most twice the largest |y|) for the unsettled keys' weight, and the rounding
  // of a mean of up to n values and of the residual, (n + 2) eps of the largest, twice over.
  const double margin = (0x1p-59 + 2.0 * (static_cast<double>(n) + 2.0) * std::numeric_limits<double>::epsilon()) * largest;
  const double rootT = std::sqrt(rows::windowExponent(n));
  const auto gap = [&](std::size_t a, std::size_t b) { return std::fabs(runs[b].x - runs[a].x); };
  // The runs nearest to run r on one side (step -1 or +1) as the loss sees them: distances are rounded,
  // so runs distinct in x can lie at the same distance and then weigh the same at every w (a run of keys
  // near 1e-300 seen from 1e-212); all of them count, and `next` is the first distance beyond them. A
  // tie spans at most eps of its distance, so each tie group is walked again only by runs some 2^52
  // times farther away: a few dozen walks over any run at most.
  struct Side {
    double nearest = INFINITY, next = INFINITY, sum = 0.0, count = 0.0;
  };
  const auto sideOf = [&](std::size_t r, int step) {
    Side side;
    for (std::ptrdiff_t k = static_cast<std::ptrdiff_t>(r) + step; k >= 0 && k < static_cast<std::ptrdiff_t>(runs.size()); k += step) {
      const double d = gap(r, static_cast<std::size_t>(k));
      if (side.count > 0.0 && d != side.nearest) {
        side.next = d;
        break;
      }
      side.nearest = d;
      side.sum += runs[static_cast<std::size_t>(k)].sum;
      side.count += runs[static_cast<std::size_t>(k)].count;
    }
    return side;
  };

  std::vector<std::pair<double, double>> rows(n);  // (settling w, lowered square)
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t r = runOf[j];
    const bool ownRunCounts = !leaveOneOut || runs[r].count > 1.0;
    double nearest, next, sum = 0.0, count = 0.0;
    if (ownRunCounts) {
      // Only the distances to the next run on each side matter: a single step is enough.
      const double left1 = r >= 1 ? gap(r - 1, r) : INFINITY;
      const double right1 = r + 1 < runs.size() ? gap(r, r + 1) : INFINITY;
      nearest = 0.0;
      next = std::min(left1, right1);
      sum = runs[r].sum - (leaveOneOut ? y[j] : 0.0);
      count = runs[r].count - (leaveOneOut ? 1.0 : 0.0);
    } else {
      const Side left = sideOf(r, -1), right = sideOf(r, +1);
      nearest = std::min(left.nearest, right.nearest);
      next = INFINITY;
      for (const Side& side : {left, right}) {
        if (side.nearest == nearest && side.count > 0.0) {
          sum += side.sum, count += side.count;
          next = std::min(next, side.next);
        } else {
          next = std::min(next, side.nearest);
        }
      }
    }
    if (!(nearest < INFINITY) || count == 0.0) {  // a distance that overflowed: left unsettled
      rows[j] = {INFINITY, 0.0};
      continue;
    }
    // w^2 (next^2 - nearest^2) >= T from w = sqrt(T) / sqrt((next - nearest)(next + nearest)); no next: at once.
    const double apart = std::sqrt(next - nearest) * std::sqrt(next + nearest);
    const double settle = apart > 0.0 ? rootT / apart : INFINITY;
    const double lowered = std::max(0.0, std::fabs(sum / count - y[j]) - margin);
    rows[j] = {settle, lowered * lowered};
  }
  std::sort(rows.begin(), rows.end());
  settleW_.resize(n);
  bound_.resize(n);
  double total = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    settleW_[k] = rows[k].first;
    total += rows[k].second;
    bound_[k] = total * (1.0 - 0x1p-30);  // the sum's own rounding, generously
  }
}

double SettledRows::beyondWhichAbove(double loss, double scale) const {
  // bound_ never falls, so the first row past `loss` settles at the smallest such w.
  const auto k = std::upper_bound(bound_.begin(), bound_.end(), loss, [scale](double l, double b) { return l < scale * b; });
  return k == bound_.end() ? INFINITY : settleW_[static_cast<std::size_t>(k - bound_.begin())];
}

}  // namespace nw
