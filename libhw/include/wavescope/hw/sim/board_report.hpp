#pragma once
// What `sim create`, `sim status`, `sim remove` and the other board commands report about a
// simulated board, and the printers for it: JSON (one object, one line) and text.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wavescope::hw::sim {

class Navi31Board;

struct BoardFaultStatus {
  std::string spec;
  std::uint64_t matched = 0, fired = 0;
};

struct BoardStatus {
  std::string name;
  std::filesystem::path path;  // the board's folder in the store
  std::string state;
  std::string booted_slot;  // "A", "B" or ""
  std::string offline_reason;
  std::uint8_t sr1 = 0, sr2 = 0, sr3 = 0;
  std::string protected_range;
  std::string flash_sha256;
  std::vector<BoardFaultStatus> faults;
  std::string profile;  // "strict" | "lenient"
  unsigned rx_lag = 0;
  std::string rx_lag_trigger;  // "rx" | "any"
  double op_cost_us = 0;
  std::uint64_t psp_commits = 0;
  // `sim status` also shows the JSON report the previous command left ("" when nothing ran yet;
  // printed as null); other reports leave it out.
  std::optional<std::string> last_run_json;
};

BoardStatus board_status(Navi31Board &board, const std::string &name,
                         const std::filesystem::path &path);

std::string to_json(const BoardStatus &status);
std::string to_text(const BoardStatus &status);

// `sim remove`: the board that was deleted.
struct BoardRemovalReport {
  std::string name;
};

std::string to_json(const BoardRemovalReport &report);
std::string to_text(const BoardRemovalReport &report);

}  // namespace wavescope::hw::sim
