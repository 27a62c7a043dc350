// The one exception type of the core: invalid input, with a message that names the parameter and the rule,
// and the same in data: a stable code and the parameter's name, for programs to act on without reading
// the English.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace nw {

// What went wrong, in a word that does not change when a message is reworded. The names are the codes
// the JavaScript API reports (NWError.code; the union ErrorCode in cpp/bindings/nw.d.ts, which also
// holds the few that only the JavaScript wrapper raises: 'unreadable', 'deleted').
enum class ErrorCode {
  wrongType,      // "wrong-type": a value of the wrong kind (a string for a number, an object for an array)
  empty,          // "empty": an array with no entries
  tooFewPoints,   // "too-few-points": fewer points than the computation needs (leave-one-out, the AIC)
  tooLarge,       // "too-large": more entries or cells than the module's limits
  lengthMismatch, // "length-mismatch": arrays that must pair up entry by entry have different lengths
  notFinite,      // "not-finite": NaN or an infinity where a finite number is needed
  outOfRange,     // "out-of-range": a finite number outside its allowed range (or not the integer needed)
  unknownValue,   // "unknown-value": a name that is not one of the choices (a kernel, an estimator, ...)
  unknownOption,  // "unknown-option": an option name the function does not take
  notApplicable,  // "not-applicable": an option or choice that does not apply with the others given
  notTrainable,   // "not-trainable": a kernel whose loss has no gradient, for training or selectBandwidth
  diverged,       // "diverged": a training step that would leave w or the loss non-finite
  outOfMemory,    // "out-of-memory": the inputs or the result do not fit in the memory left
  internal,       // "internal": anything else (a bug): the message says what
};

inline const char* errorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::wrongType: return "wrong-type";
    case ErrorCode::empty: return "empty";
    case ErrorCode::tooFewPoints: return "too-few-points";
    case ErrorCode::tooLarge: return "too-large";
    case ErrorCode::lengthMismatch: return "length-mismatch";
    case ErrorCode::notFinite: return "not-finite";
    case ErrorCode::outOfRange: return "out-of-range";
    case ErrorCode::unknownValue: return "unknown-value";
    case ErrorCode::unknownOption: return "unknown-option";
    case ErrorCode::notApplicable: return "not-applicable";
    case ErrorCode::notTrainable: return "not-trainable";
    case ErrorCode::diverged: return "diverged";
    case ErrorCode::outOfMemory: return "out-of-memory";
    case ErrorCode::internal: return "internal";
  }
  return "internal";
}

class Error : public std::invalid_argument {
 public:
  // `parameter` is the name of the argument or option at fault, as the API spells it ("keys", "w",
  // "options"), without an index: "keys[1] must be ..." names the parameter "keys".
  Error(ErrorCode code, std::string parameter, const std::string& message)
      : std::invalid_argument(message), code_(code), parameter_(std::move(parameter)) {}

  ErrorCode code() const { return code_; }
  const std::string& parameter() const { return parameter_; }

 private:
  ErrorCode code_;
  std::string parameter_;
};

}  // namespace nw
