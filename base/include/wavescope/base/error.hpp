#pragma once
// The one error type of wavescope: every library reports failure by throwing wavescope::Error.
// The kind says what went wrong in terms a caller can act on and doubles as the CLI exit code.

#include <stdexcept>
#include <string>
#include <string_view>

namespace wavescope {

enum class ErrorKind : int {
  Internal = 1,       // a bug or an unexpected condition of the host
  Usage = 2,          // bad arguments, a refused safety gate (e.g. --yes missing)
  BadInput = 3,       // a file or image that is malformed, truncated or of the wrong kind
  Device = 4,         // transport or device: not found, USB/PCIe error, all-ones reads
  State = 5,          // the device is in the wrong state for the operation
  Chip = 6,           // a flash-chip level refusal: JEDEC mismatch, protection, WEL
  Mismatch = 7,       // verification or consistency mismatch
  Timeout = 8,        // a wait that did not complete
  Firmware = 9,       // firmware (PSP/SMU) returned an error code
  Interrupted = 130,  // stopped on the user's request (Ctrl-C), as a shell reports SIGINT
};

class Error : public std::runtime_error {
public:
  Error(ErrorKind kind, const std::string &message) : std::runtime_error(message), kind_(kind) {}

  ErrorKind kind() const noexcept { return kind_; }
  int exit_code() const noexcept { return static_cast<int>(kind_); }

private:
  ErrorKind kind_;
};

// Convenience for the most common case: a malformed input, described with where it went wrong.
[[noreturn]] inline void throw_bad_input(const std::string &message) {
  throw Error(ErrorKind::BadInput, message);
}

}  // namespace wavescope
