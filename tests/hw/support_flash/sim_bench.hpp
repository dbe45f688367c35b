#pragma once
// A simulated Navi31 board on a virtual clock for tests of the simulator and the flash tools,
// reached either through the sim-pci transport (BAR5 calls the board directly) or through the
// real ASM24 USB transport and the simulated bridge (Path::Usb), as `sim:NAME` does.

#include <cstdint>
#include <memory>
#include <vector>

#include "fault/usb_fault_plan.hpp"
#include "sim/navi31_board.hpp"
#include "sim/sim_config.hpp"
#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/transport/mmio.hpp"
#include "wavescope/hw/transport/pci_function.hpp"

namespace wavescope::hw {
class SimulatedAsm24Bridge;
}

namespace wavescope::testing {

enum class Path { SimPci, Usb };

class SimBench {
public:
  explicit SimBench(hw::sim::SimConfig config = {}, std::vector<std::uint8_t> flash = blank_flash(),
                    Path path = Path::SimPci);
  ~SimBench();

  hw::Mmio &bar5() { return function_->map_bar(5); }
  hw::PciFunction &function() { return *function_; }
  hw::VirtualClock &clock() { return clock_; }
  hw::sim::Navi31Board &board() { return *board_; }
  // Operations on BAR5 so far (since the last reopen()).
  std::uint64_t operations() { return bar5().stats().operations(); }
  // Re-creates the transport (as a new command would), e.g. after a power cycle.
  void reopen();
  Path path() const { return path_; }
  const char *path_name() const { return path_ == Path::SimPci ? "sim-pci" : "usb"; }
  // The simulated bridge's USB fault plan (Path::Usb only, else nullptr).
  hw::UsbFaultPlan *usb_faults();

  static std::vector<std::uint8_t> blank_flash();
  // Deterministic pseudo-random bytes (old chip contents that force erases).
  static std::vector<std::uint8_t> random_flash(std::uint64_t seed);
  // The §10.12 synthesized image (cached).
  static const std::vector<std::uint8_t> &test_image();

private:
  hw::VirtualClock clock_;
  std::unique_ptr<hw::sim::Navi31Board> board_;
  Path path_;
  hw::SimulatedAsm24Bridge *bridge_ = nullptr;
  std::unique_ptr<hw::PciFunction> function_;
};

// The spec's timing profile for the §6.7 figures: 125 µs per operation on the direct path too.
hw::sim::SimConfig usb_timing_config();

}  // namespace wavescope::testing
