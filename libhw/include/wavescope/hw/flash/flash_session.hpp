#pragma once
// One flash command's session on a board: the read-only state probe (§8), the ROM_SW session
// with its register save/restore, the chip driver and its RDID gate, and the chosen §9.11
// optimizations. Every flash procedure (info, read, dump, verify, write) runs inside one.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/base/cancel_token.hpp"
#include "wavescope/base/progress_eta.hpp"
#include "wavescope/hw/flash/gd25_flash.hpp"
#include "wavescope/hw/flash/rom_sw_session.hpp"
#include "wavescope/hw/navi31/board_probe.hpp"

namespace wavescope::hw::flash {

// The §9.11 optimizations, each an explicit option; all off is the conservative procedure.
struct FlashOptimizations {
  bool session_registers = false;  // "session": save/set up registers once per session
  bool skip_check_reads = false;   // "no-check-reads": no STATUS check, no CNTL flush read
  bool pipelined_reads = false;    // "pipeline": lag calibration, N+1 launches, markers
  bool block_status_read = false;  // "block-read": STATUS…DATA in one block read
  bool block_writes = false;       // "block-write": TX window and STATUS+COMMAND as blocks
  bool skip_erase = false;         // "skip-erase": program without erase when bits only clear

  static FlashOptimizations all();
  // "none", "all", or a comma list of the names above; throws Error(Usage) naming the choices.
  static FlashOptimizations parse(std::string_view list);
  std::string describe() const;  // "none" or the comma list
  bool any() const;
};

struct FlashSessionOptions {
  FlashOptimizations optimize;
  unsigned prescale = 8;
  // Reproduces the reference tool's register traffic (CNTL ← 0 resets, ROM_CNTL left changed,
  // no state probe) to measure it; for benchmarks and tests only.
  bool reference_procedure = false;
  std::optional<unsigned> assume_lag;  // test-only: pipelining without calibration
};

// How a read treats the chance of a transient read error.
enum class ReadCheck {
  Single,     // one read (verify, write's pre-read)
  ReadTwice,  // each sector read twice and re-read until two reads agree (dump, backup, read)
};

struct ReadResult {
  std::vector<std::uint8_t> bytes;
  unsigned reread_sectors = 0;  // sectors whose two reads disagreed at first
  std::vector<std::string> warnings;
};

class FlashSession {
public:
  FlashSession(Mmio &bar5, Clock &clock, FlashSessionOptions options = {},
               const CancelToken *cancel = nullptr);
  ~FlashSession();

  // State probe (refuses unless ROM_SW is usable), session start, RDID gate, lag calibration.
  void open();
  // Ends the command: the pipelining marker check, then every register restored.
  void close();

  const navi31::BoardProbe &probe() const { return probe_; }
  const JedecCapture &jedec() const { return jedec_; }
  Gd25Flash &chip() { return chip_; }
  RomSwSession &rom_sw() { return rom_sw_; }
  Mmio &bar5() { return bar5_; }
  Clock &clock() { return clock_; }
  const CancelToken *cancel() const { return cancel_; }
  const FlashSessionOptions &options() const { return options_; }
  EtaEstimator &eta() { return eta_; }

  // Reads [address, address + size) sector by sector, with progress per sector.
  ReadResult read(std::uint32_t address, std::size_t size, ReadCheck check,
                  std::string_view stage = "read", const OperationProgressSink &progress = {});

private:
  static RomSwOptions rom_sw_options(const FlashSessionOptions &options);
  static Gd25Options chip_options(const FlashSessionOptions &options);

  Mmio &bar5_;
  Clock &clock_;
  FlashSessionOptions options_;
  const CancelToken *cancel_;
  RomSwSession rom_sw_;
  Gd25Flash chip_;
  EtaEstimator eta_;
  navi31::BoardProbe probe_;
  JedecCapture jedec_;
  bool opened_ = false;
};

}  // namespace wavescope::hw::flash
