// The one exception type of the core: invalid input, with a message that names the parameter and the rule.
#pragma once

#include <stdexcept>
#include <string>

namespace nw {

class Error : public std::invalid_argument {
 public:
  explicit Error(const std::string& message) : std::invalid_argument(message) {}
};

}  // namespace nw
