#pragma once
// Fake AMD GPUs (`sim-am:NAME`, am-driver.md §19.2) kept in the simulator root beside the flash
// simulator's boards, one folder per chip under <root>/am/<name>/: chip.json (chip config,
// register file, block-model state, virtual time, the last run), vram.bin (the VRAM pages in
// use) and a lock file. So "boot, exit cleanly, boot again" finds the previous session's
// registers and boot memory and takes the partial-boot path. Files are written atomically.

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/hw/sim/sim_store.hpp"
#include "wavescope/hw/transport/clock.hpp"

namespace wavescope::hw::sim::am {
class FakeGpu;  // the fake itself, private to libhw
}

namespace wavescope::hw::sim {

// A chip loaded from the store and locked, with its virtual clock (restored to its saved time).
struct LoadedAmChip {
  LoadedAmChip();
  LoadedAmChip(LoadedAmChip &&) noexcept;
  LoadedAmChip &operator=(LoadedAmChip &&) noexcept;
  ~LoadedAmChip();

  std::string name;
  std::unique_ptr<VirtualClock> clock;
  std::unique_ptr<am::FakeGpu> gpu;
  std::string last_run_json;  // the JSON report the previous command left ("" when none)
  SimBoardLock lock;
};

class AmChipStore {
public:
  explicit AmChipStore(std::filesystem::path sim_root);
  const std::filesystem::path &root() const { return root_; }  // <sim_root>/am

  std::vector<std::string> list() const;
  bool exists(const std::string &name) const;
  std::filesystem::path chip_dir(const std::string &name) const { return root_ / name; }

  // Writes a new chip; throws Error(Usage) if one of that name exists.
  void create(const std::string &name, am::FakeGpu &gpu, const VirtualClock &clock);
  // Loads and locks a chip; throws Error(Device) naming the store when there is none.
  LoadedAmChip open(const std::string &name) const;
  // Writes a loaded chip back, with the JSON report of this run ("" for none).
  void save(LoadedAmChip &loaded, std::string_view last_run_json = {}) const;
  void remove(const std::string &name);

private:
  void write(const std::string &name, am::FakeGpu &gpu, const VirtualClock &clock,
             std::string_view last_run_json) const;
  std::filesystem::path root_;
};

}  // namespace wavescope::hw::sim
