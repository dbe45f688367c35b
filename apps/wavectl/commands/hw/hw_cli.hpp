#pragma once
// What the hardware subcommands (devices, sim, flash, psp, rom) share: device selection options,
// running a command on an opened device (a simulated board's invariant findings are printed and
// saved with it), transport-operation counts for --json summaries, progress with an ETA priced
// from measured per-operation latency, Ctrl-C handling, and binary file helpers.

#include <csignal>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli_context.hpp"
#include "wavescope/base/cancel_token.hpp"
#include "wavescope/base/progress_eta.hpp"
#include "wavescope/hw/device.hpp"
#include "wavescope/hw/flash/flash_session.hpp"

namespace wavectl::hw_cli {

struct DeviceOptions {
  std::string device;    // --device; empty = the first real device
  std::string sim_root;  // --sim-root
  bool allow_unbind = false;
  bool allow_remove_siblings = false;
  bool minimal_bringup = false;
  bool vfio = false;
  std::string trace;  // --trace FILE: every BAR5 access, one line each
  std::string log;    // --log FILE: one JSON line per command, how it ended
};

// --device, --sim-root, and the real-device opening options.
void add_device_options(CLI::App &command, DeviceOptions &options);
// --sim-root only (the sim and devices commands).
void add_sim_root_option(CLI::App &command, std::string &sim_root);
std::filesystem::path sim_root(const std::string &option);

// The §9.11 optimizations and the SPI prescaler of the flash commands.
struct FlashOptions {
  std::string optimize = "none";  // the --optimize list
  unsigned prescale = 8;
  wavescope::hw::flash::FlashSessionOptions session() const;
};
void add_flash_options(CLI::App &command, FlashOptions &options);

// Opens the device, runs `body` (which prints its result and returns a JSON summary for the
// simulator's record), closes the device and reports a simulated board's invariant findings on
// stderr — also when `body` throws, whose error then propagates.
using DeviceBody = std::function<nlohmann::json(wavescope::hw::device::OpenedDevice &)>;
void run_on_device(const DeviceOptions &options, const CliContext &context,
                   const std::string &command, wavescope::hw::sim::RunExpectations expectations,
                   const DeviceBody &body);

// Prints a library report with the printer --json picks (the library's to_json or to_text) and
// returns its JSON: the summary run_on_device logs and records with a simulated board's run.
template <typename Report>
nlohmann::json print_report(const Report &report, const CliContext &context) {
  std::string line = to_json(report);
  std::cout << (context.json ? line + '\n' : to_text(report));
  return nlohmann::json::parse(line);
}

// Progress on stderr with the library's ETA (from measured per-operation latency).
class EtaProgressPrinter {
public:
  EtaProgressPrinter(bool enabled, bool simulated_time);
  ~EtaProgressPrinter();
  wavescope::OperationProgressSink sink();
  void finish();

private:
  void update(const wavescope::OperationProgress &p);
  bool enabled_, simulated_, tty_;
  bool drawn_ = false;
  std::string stage_;
  std::chrono::steady_clock::time_point last_draw_{};
};

// While alive, SIGINT goes to `token` (first: finish the unit of work; second: stop at the next
// register access; third: exit at once with status 130).
class InterruptScope {
public:
  explicit InterruptScope(wavescope::CancelToken &token);
  ~InterruptScope();
  InterruptScope(const InterruptScope &) = delete;
  InterruptScope &operator=(const InterruptScope &) = delete;

private:
  struct sigaction previous_ {};
};

// A fresh directory under the system's temporary directory, removed with everything in it when
// this goes out of scope (a dry run's simulator root).
class ScratchDirectory {
public:
  explicit ScratchDirectory(const std::string &prefix);
  ~ScratchDirectory();
  ScratchDirectory(const ScratchDirectory &) = delete;
  ScratchDirectory &operator=(const ScratchDirectory &) = delete;
  const std::filesystem::path &path() const { return path_; }

private:
  std::filesystem::path path_;
};

void write_binary_file(const std::string &path, const std::vector<std::uint8_t> &bytes);
// Decimal or 0x-prefixed hex; throws Error(Usage) naming `what`.
std::uint64_t parse_number(const std::string &text, const std::string &what);

}  // namespace wavectl::hw_cli
