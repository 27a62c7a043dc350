// Input checks; messages read "<parameter> must <rule>, got <value>".
#include "nw/validate.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "nw/error.hpp"

namespace nw {
namespace {

[[noreturn]] void fail(const std::string& name, const std::string& rule, double value) {
  throw Error(name + " must " + rule + ", got " + describeNumber(value));
}

}  // namespace

std::string describeNumber(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char buffer[40];
  // As JavaScript prints numbers: whole numbers below 1e21 in full, others in their shortest exact form.
  if (value == std::floor(value) && std::fabs(value) < 1e21) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
    return buffer;
  }
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  std::string text = buffer;
  const auto e = text.find('e');
  if (e != std::string::npos) {  // "1.5e-07" -> "1.5e-7"
    std::size_t digit = e + 2;
    while (digit + 1 < text.size() && text[digit] == '0') text.erase(digit, 1);
  }
  return text;
}

void requireFinite(double value, const char* name) {
  if (!std::isfinite(value)) fail(name, "be a finite number", value);
}

void requireNonNegative(double value, const char* name) {
  if (!(std::isfinite(value) && value >= 0.0)) fail(name, "be a finite number >= 0", value);
}

void requirePositive(double value, const char* name) {
  if (!(std::isfinite(value) && value > 0.0)) fail(name, "be a finite number > 0", value);
}

void requireFiniteArray(const std::vector<double>& values, const char* name) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      fail(std::string(name) + "[" + std::to_string(i) + "]", "be a finite number", values[i]);
    }
  }
}

void requireNonEmptyFiniteArray(const std::vector<double>& values, const char* name) {
  if (values.empty()) throw Error(std::string(name) + " must not be empty");
  requireFiniteArray(values, name);
}

void requireSameLength(const std::vector<double>& a, const char* aName,
                       const std::vector<double>& b, const char* bName) {
  if (a.size() != b.size()) {
    throw Error(std::string(bName) + " must have the same length as " + aName + " (" +
                std::to_string(a.size()) + "), got " + std::to_string(b.size()));
  }
}

void requirePredictionInputs(const std::vector<double>& queries, const std::vector<double>& keys,
                             const std::vector<double>& values, double w) {
  requireNonEmptyFiniteArray(queries, "queries");
  requireNonEmptyFiniteArray(keys, "keys");
  requireNonEmptyFiniteArray(values, "values");
  requireSameLength(keys, "keys", values, "values");
  requireFinite(w, "w");
}

std::size_t requireCount(double value, const char* name, std::size_t minimum, std::size_t maximum) {
  if (!(std::isfinite(value) && value == std::floor(value) && value >= static_cast<double>(minimum) &&
        value <= static_cast<double>(maximum))) {
    fail(name, "be an integer from " + std::to_string(minimum) + " to " + std::to_string(maximum), value);
  }
  return static_cast<std::size_t>(value);
}

std::uint64_t requireSeed(double value, const char* name) {
  constexpr double kMaxSafeInteger = 9007199254740991.0;
  if (!(std::isfinite(value) && value == std::floor(value) && value >= 0.0 && value <= kMaxSafeInteger)) {
    fail(name, "be an integer from 0 to 9007199254740991", value);
  }
  return static_cast<std::uint64_t>(value);
}

}  // namespace nw
