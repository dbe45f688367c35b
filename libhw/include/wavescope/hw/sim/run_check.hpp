#pragma once
// A tool run on a simulated board is checked against the invariants of navi31-flash.md §10.11:
// what the run declares it will do before it starts, and what the check finds at its end.

#include <string>

namespace wavescope::hw::sim {

// What the harness knows about the tool run it is about to start (for I3 and I7).
struct RunExpectations {
  bool read_only = false;
  bool protection_change_allowed = false;
};

// One finding: which invariant (I1..I7) or "protocol" and a sentence saying what and where.
struct Finding {
  std::string check;
  std::string message;
  bool operator==(const Finding &) const = default;
};

}  // namespace wavescope::hw::sim
