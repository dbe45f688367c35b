#pragma once
// The canonical text form of a pickle object tree that scripts/pickle-reference.py writes from
// Python's own unpickler: the tests compare its FNV-1a hash with Python's.

#include <cstdint>
#include <string>
#include <string_view>

#include "wavescope/base/pickle_value.hpp"

namespace wavescope::testing {

std::string canonical_dump(const pickle::Value &root);
std::uint64_t fnv1a64(std::string_view bytes);

}  // namespace wavescope::testing
