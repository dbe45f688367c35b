#pragma once
// `sim export`: a simulated chip's bytes written to a file, read behind the tools' back (no
// transport, no board activity), and what it reports, with its printers: JSON (one object, one
// line) and text.

#include <cstddef>
#include <filesystem>
#include <string>

#include "wavescope/hw/sim/sim_store.hpp"

namespace wavescope::hw::sim {

struct BoardExportReport {
  std::string name;
  std::string output;
  std::size_t bytes = 0;
  std::string sha256;
};

// Loads (and locks) the board `name`, writes its 2 MiB array to `output` atomically.
BoardExportReport export_board(const SimStore &store, const std::string &name,
                               const std::filesystem::path &output);

std::string to_json(const BoardExportReport &report);
std::string to_text(const BoardExportReport &report);

}  // namespace wavescope::hw::sim
