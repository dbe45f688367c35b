#pragma once
// What `am vm map` and `am vm walk` report, and its printers: the reachable page tables with
// every non-zero entry decoded, and VA walks step by step. JSON (one object, one line; 64-bit
// addresses and entries as "0x..." strings, since they exceed JSON's exact integers) and text.

#include <string>
#include <vector>

#include "wavescope/hw/am/page_table.hpp"

namespace wavescope::hw::am {

struct PageTableReport {
  PtGeneration generation = PtGeneration::Gfx11;
  std::vector<PageTableNode> tables;  // empty: not shown
  std::vector<PageTableWalk> walks;   // empty: not shown
};

std::string to_json(const PageTableReport &report);
std::string to_text(const PageTableReport &report);

}  // namespace wavescope::hw::am
