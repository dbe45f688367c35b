#pragma once
// Simulated boards kept in a directory, one folder per board, so "flash → power-cycle → dump"
// works across commands: <root>/<name>/flash.bin (the 2 MiB array), board.json (board state,
// status registers, register file, pending faults, virtual time, the last run's findings) and a
// lock file that keeps two processes off one board at a time. Files are written atomically.

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/hw/transport/clock.hpp"

namespace wavescope::hw::sim {

class Navi31Board;  // the simulator itself, private to libhw

// An exclusive lock on one board's folder (flock), released on destruction.
class SimBoardLock {
public:
  SimBoardLock() = default;
  explicit SimBoardLock(const std::filesystem::path &lock_file, const std::string &name);
  SimBoardLock(SimBoardLock &&other) noexcept;
  SimBoardLock &operator=(SimBoardLock &&other) noexcept;
  SimBoardLock(const SimBoardLock &) = delete;
  SimBoardLock &operator=(const SimBoardLock &) = delete;
  ~SimBoardLock();

private:
  int fd_ = -1;
};

// A board loaded from the store, with the virtual clock it runs on (restored to its saved time).
struct LoadedBoard {
  LoadedBoard();
  LoadedBoard(LoadedBoard &&) noexcept;
  LoadedBoard &operator=(LoadedBoard &&) noexcept;
  ~LoadedBoard();

  std::string name;
  std::unique_ptr<VirtualClock> clock;
  std::unique_ptr<Navi31Board> board;
  std::string last_run_json;  // the JSON report the previous command left ("" when none)
  SimBoardLock lock;
};

class SimStore {
public:
  explicit SimStore(std::filesystem::path root);
  const std::filesystem::path &root() const { return root_; }

  // Names are 1–64 characters of [A-Za-z0-9._-], not starting with '.'; throws Error(Usage).
  static void validate_name(const std::string &name);
  std::vector<std::string> list() const;
  bool exists(const std::string &name) const;
  std::filesystem::path board_dir(const std::string &name) const { return root_ / name; }

  // Writes a new board; throws Error(Usage) if one of that name exists.
  void create(const std::string &name, Navi31Board &board);
  // Loads and locks a board; throws Error(Device) naming the store when there is none.
  LoadedBoard open(const std::string &name) const;
  // Writes a loaded board back, with the JSON report this run left for `sim status` ("" for none).
  void save(LoadedBoard &loaded, std::string_view last_run_json = {}) const;
  void remove(const std::string &name);

private:
  void write(const std::string &name, Navi31Board &board, std::string_view last_run_json) const;
  std::filesystem::path root_;
};

}  // namespace wavescope::hw::sim
