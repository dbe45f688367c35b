#pragma once
// The printers of `wavectl am ih`: what one run of the IH handler saw (am-driver.md §11) — the
// pointers, every entry decoded with its verdict (and the fault registers for UTCL2 faults), the
// overflow and RAS status, and whether AM is now in its error state. JSON (one object, one line;
// addresses and raw dwords as "0x..." strings) and text.

#include <string>

#include "wavescope/hw/am/ih_ring.hpp"

namespace wavescope::hw::am {

std::string to_json(const IhReport &report);
std::string to_text(const IhReport &report);

}  // namespace wavescope::hw::am
