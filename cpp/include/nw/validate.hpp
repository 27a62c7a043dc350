// Input checks shared by the core's entry points, on the core's own types; each throws nw::Error with
// the code and the name of the parameter at fault. (Turning a JavaScript value into these types, and
// refusing what cannot be turned, is the binding's work: cpp/bindings/convert.hpp.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "nw/error.hpp"

namespace nw {

// The number as a user would type it back: 17 significant digits, "NaN", "Infinity".
std::string describeNumber(double value);

// ErrorCode::notFinite for NaN and the infinities, ErrorCode::outOfRange for any other value: the code
// of a number that breaks a rule on finite numbers.
ErrorCode codeForNumber(double value);

void requireFinite(double value, const char* name);
void requireNonNegative(double value, const char* name);
void requirePositive(double value, const char* name);
// Entries must be finite; an error names the array (parameter `name`) and the entry in its message.
void requireFiniteArray(const std::vector<double>& values, const char* name);
void requireNonEmptyFiniteArray(const std::vector<double>& values, const char* name);
// b must have a's length; the error names b.
void requireSameLength(const std::vector<double>& a, const char* aName,
                       const std::vector<double>& b, const char* bName);
// What a prediction needs: queries, keys and values finite and not empty, as many values as keys, w finite.
void requirePredictionInputs(const std::vector<double>& queries, const std::vector<double>& keys,
                             const std::vector<double>& values, double w);

// "<name> must be an integer from <minimum> to <maximum>, got <got>", coded as codeForNumber(got): the
// one message for a count out of its range, whether it arrived as a count or as a number to convert.
Error countError(const char* name, std::uint64_t minimum, std::uint64_t maximum, double got);
// minimum <= value <= maximum, or countError.
void requireCount(std::size_t value, const char* name, std::size_t minimum, std::size_t maximum);

}  // namespace nw
