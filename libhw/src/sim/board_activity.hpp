#pragma once
// What happened on the simulated board during one tool run, recorded by the chip, the ROM_SW
// engine, the aperture and the mailbox, and judged by the invariant checks of navi31-flash.md
// §10.11 at the end of the run.

#include <array>
#include <bitset>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "wavescope/hw/sim/run_check.hpp"

namespace wavescope::hw::sim {

class BoardActivity {
public:
  // Counters of state-changing operations (I3).
  std::uint64_t erases = 0, programs = 0, status_writes = 0, start_transfers = 0;
  std::uint64_t launches = 0;       // ROM_SW launches
  bool protection_changed = false;  // I7

  void erase(std::uint32_t address, std::uint32_t size);
  void program(std::uint32_t address, std::uint32_t size);
  void array_read(std::uint32_t address, std::uint32_t size);
  void status_written(std::uint8_t old_sr1, std::uint8_t old_sr2, std::uint8_t new_sr1,
                      std::uint8_t new_sr2);
  void start_transfer() { ++start_transfers; }
  // A violation noticed as it happened (I4 at an erase, I5, I6, protocol violations).
  void record(std::string check, std::string message);

  // Sectors erased or programmed whose pages were not all read back since (I4 at exit).
  std::vector<std::string> unread_sectors() const;
  const std::vector<Finding> &findings() const { return findings_; }
  void reset();

private:
  std::map<std::uint32_t, std::bitset<16>> unread_pages_;  // sector index → pages to read back
  std::vector<Finding> findings_;
  std::map<std::string, unsigned> per_check_;  // caps repeated findings
};

}  // namespace wavescope::hw::sim
