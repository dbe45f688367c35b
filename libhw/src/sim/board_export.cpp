#include "wavescope/hw/sim/board_export.hpp"

#include <span>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/navi31_board.hpp"
#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/json_line.hpp"
#include "wavescope/base/sha256.hpp"

namespace wavescope::hw::sim {

BoardExportReport export_board(const SimStore &store, const std::string &name,
                               const std::filesystem::path &output) {
  const auto loaded = store.open(name);
  const auto &flash = loaded.board->flash();
  write_file_atomically(output, std::span<const unsigned char>(flash.data(), flash.size()));
  return {name, output.string(), flash.size(), sha256_hex(flash)};
}

std::string to_json(const BoardExportReport &r) {
  return json_line(nlohmann::json{
      {"name", r.name}, {"output", r.output}, {"bytes", r.bytes}, {"sha256", r.sha256}});
}

std::string to_text(const BoardExportReport &r) {
  return fmt::format("exported {} bytes of {} to {}, SHA-256 {}\n", r.bytes, r.name, r.output,
                     r.sha256);
}

}  // namespace wavescope::hw::sim
