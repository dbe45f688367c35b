#pragma once
// Choosing and opening the board a command works on: `--device usb:N | pci:BDF | sim:NAME |
// sim-pci:NAME | sim-am:NAME | sim-am-usb:NAME` (default: the first real device, never a
// simulator unless asked), and the
// simulator root (`--sim-root DIR`, else $WAVESCOPE_SIM_ROOT, else $XDG_DATA_HOME/wavescope/sim,
// else ~/.local/share/wavescope/sim).
//
// `sim:NAME` is the real USB protocol code against the simulator: Asm24Transport over a
// SimulatedAsm24Bridge over the board. `sim-pci:NAME` calls the board's BAR5 directly. Either
// way the board is loaded from the store and locked, its run is checked against the invariants
// at close, and its state is saved back — also when the command fails, because a real board
// keeps what happened to it.
//
// `sim-am:NAME` is a fake AMD GPU (AmChipStore, `wavectl sim-am create`) reached directly, its
// BARs calling the chip model; `sim-am-usb:NAME` the same chip through the simulated ASM24
// bridge and the real USB transport code. The chip is saved back at close, also on failure.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/hw/device/device_enumerator.hpp"
#include "wavescope/hw/sim/run_check.hpp"
#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/transport/pci_function.hpp"

namespace wavescope::hw::sim {
class Navi31Board;  // the simulator, private to libhw
namespace am {
class FakeGpu;  // the fake AMD GPU, private to libhw
}
}  // namespace wavescope::hw::sim

namespace wavescope::hw::device {

struct DeviceSpec {
  enum class Kind { Usb, Pci, Sim, SimPci, SimAm, SimAmUsb } kind = Kind::Sim;
  std::string name;  // the part after the colon
  std::string text() const;
  bool simulated() const { return kind != Kind::Usb && kind != Kind::Pci; }
  bool fake_gpu() const { return kind == Kind::SimAm || kind == Kind::SimAmUsb; }
};

// Throws Error(Usage) with the accepted forms.
DeviceSpec parse_device_spec(std::string_view text);

// The simulator root: `cli` if given, else the environment's choice (see above).
std::filesystem::path resolve_sim_root(const std::optional<std::filesystem::path> &cli);

struct OpenOptions {
  std::filesystem::path sim_root;
  sim::RunExpectations expectations;  // what the command will do (for the simulator's checks)
  std::string command;                // recorded with a simulated board's last run
  hw::OpenOptions real;               // real devices: unbind, minimal bring-up, log, ...
};

class OpenedDevice {
public:
  virtual ~OpenedDevice() = default;
  virtual std::string id() const = 0;
  virtual PciFunction &function() = 0;
  Mmio &bar5() { return function().map_bar(5); }
  virtual Clock &clock() = 0;
  virtual bool simulated() const { return false; }
  // The simulated board (nullptr for real hardware).
  virtual sim::Navi31Board *board() { return nullptr; }
  // The fake AMD GPU (nullptr unless sim-am / sim-am-usb).
  virtual sim::am::FakeGpu *fake_gpu() { return nullptr; }
  // Ends the run. For a simulator: the invariant findings of the run, and the board saved with
  // the command's JSON report `summary_json` ("" for none) as its last run. Idempotent; the
  // destructor does it too (without reporting).
  virtual std::vector<sim::Finding> close(std::string_view summary_json = {}) = 0;
};

// Opens `spec`, or with no spec the first real device. Throws Error(Device) when there is none.
std::unique_ptr<OpenedDevice> open_device(const std::optional<DeviceSpec> &spec,
                                          const OpenOptions &options);

struct DeviceListing {
  std::string id;    // what --device takes
  std::string kind;  // "usb", "pci", "sim"
  std::string description;
  std::string state;  // board state for simulators, bound driver for PCI, "" if unknown
};

// Real bridges and PCI Navi31 cards (when this build can enumerate them), then the simulated
// boards and the fake GPUs under `sim_root`. Works with nothing present and without permissions.
std::vector<DeviceListing> list_devices(const std::filesystem::path &sim_root);

}  // namespace wavescope::hw::device
