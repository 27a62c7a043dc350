// Input checks shared by every entry point; each throws nw::Error naming the parameter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace nw {

// The number as a user would type it back: 17 significant digits, "NaN", "Infinity".
std::string describeNumber(double value);

void requireFinite(double value, const char* name);
void requireNonNegative(double value, const char* name);
void requirePositive(double value, const char* name);
void requireFiniteArray(const std::vector<double>& values, const char* name);
void requireNonEmptyFiniteArray(const std::vector<double>& values, const char* name);
void requireSameLength(const std::vector<double>& a, const char* aName,
                       const std::vector<double>& b, const char* bName);
// What a prediction needs: queries, keys and values finite and not empty, as many values as keys, w finite.
void requirePredictionInputs(const std::vector<double>& queries, const std::vector<double>& keys,
                             const std::vector<double>& values, double w);
// An integer in [minimum, maximum] given as a double (as JavaScript numbers arrive).
std::size_t requireCount(double value, const char* name, std::size_t minimum, std::size_t maximum);
// A non-negative integer that a double holds exactly (at most 2^53 - 1).
std::uint64_t requireSeed(double value, const char* name);

}  // namespace nw
