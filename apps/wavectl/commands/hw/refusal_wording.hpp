#pragma once
// libhw's refusals worded with wavectl's flags: a library error says what is wrong and which
// remedy would let the request through (in the library's terms); here each remedy becomes the
// flag or command that applies it, so the user reads "rerun with --clear-cmp".

#include <string>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/remedy/refusal.hpp"

namespace wavectl::hw_cli {

// The refusal's problem and its remedy as wavectl's flags and commands.
std::string cli_wording(const wavescope::hw::Advice &advice);

// What wavectl prints for `error`: cli_wording for a libhw Refusal, else the error's message.
std::string cli_message(const wavescope::Error &error);

}  // namespace wavectl::hw_cli
