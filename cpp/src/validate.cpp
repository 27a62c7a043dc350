// Input checks; messages read "<parameter> must <rule>, got <value>".
#include "nw/validate.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>


namespace nw {
namespace {

// `shown` is how the message names the value ("keys[1]"), `name` the parameter ("keys").
[[noreturn]] void fail(const char* name, const std::string& shown, const std::string& rule, double value) {
  throw Error(codeForNumber(value), name, shown + " must " + rule + ", got " + describeNumber(value));
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

ErrorCode codeForNumber(double value) { return std::isfinite(value) ? ErrorCode::outOfRange : ErrorCode::notFinite; }

void requireFinite(double value, const char* name) {
  if (!std::isfinite(value)) fail(name, name, "be a finite number", value);
}

void requireNonNegative(double value, const char* name) {
  if (!(std::isfinite(value) && value >= 0.0)) fail(name, name, "be a finite number >= 0", value);
}

void requirePositive(double value, const char* name) {
  if (!(std::isfinite(value) && value > 0.0)) fail(name, name, "be a finite number > 0", value);
}

namespace {

// Whether every value is finite: no exponent field of all ones (infinities and NaN). An integer test
// without a branch per value, which the compiler vectorises; the searches and losses check their
// inputs on every call (a tenth of a binned loss's time at n = 100,000, tested one by one).
bool allFinite(const std::vector<double>& values) {
  constexpr std::uint64_t kExponent = 0x7ff0000000000000ULL;
  std::uint64_t infinite = 0;
  for (const double value : values) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    infinite |= static_cast<std::uint64_t>((bits & kExponent) == kExponent);
  }
  return infinite == 0;
}

}  // namespace

void requireFiniteArray(const std::vector<double>& values, const char* name) {
  if (allFinite(values)) return;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      fail(name, std::string(name) + "[" + std::to_string(i) + "]", "be a finite number", values[i]);
    }
  }
}

void requireNonEmptyFiniteArray(const std::vector<double>& values, const char* name) {
  if (values.empty()) throw Error(ErrorCode::empty, name, std::string(name) + " must not be empty");
  requireFiniteArray(values, name);
}

void requireSameLength(const std::vector<double>& a, const char* aName,
                       const std::vector<double>& b, const char* bName) {
  if (a.size() != b.size()) {
    throw Error(ErrorCode::lengthMismatch, bName,
                std::string(bName) + " must have the same length as " + aName + " (" + std::to_string(a.size()) +
                    "), got " + std::to_string(b.size()));
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

Error countError(const char* name, std::uint64_t minimum, std::uint64_t maximum, double got) {
  return Error(codeForNumber(got), name,
               std::string(name) + " must be an integer from " + std::to_string(minimum) + " to " +
                   std::to_string(maximum) + ", got " + describeNumber(got));
}

void requireCount(std::size_t value, const char* name, std::size_t minimum, std::size_t maximum) {
  if (value < minimum || value > maximum) throw countError(name, minimum, maximum, static_cast<double>(value));
}

}  // namespace nw
