#pragma once
// Aligned text tables for human output: the tables of base's text printers.

#include "wavescope/base/text_table.hpp"

namespace wavectl {

using Table = wavescope::TextTable;

}  // namespace wavectl
