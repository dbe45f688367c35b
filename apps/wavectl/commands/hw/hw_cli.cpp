#include "commands/hw/hw_cli.hpp"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include "commands/hw/refusal_wording.hpp"
#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/parse_number.hpp"
#include "wavescope/hw/transport/transport_report.hpp"

namespace wavectl::hw_cli {

using namespace wavescope;
using namespace wavescope::hw;

void add_sim_root_option(CLI::App &command, std::string &root) {
  command.add_option("--sim-root", root,
                     "Directory of simulated boards (default $WAVESCOPE_SIM_ROOT, else "
                     "$XDG_DATA_HOME/wavescope/sim)");
}

void add_device_options(CLI::App &command, DeviceOptions &o) {
  command.add_option("--device", o.device,
                     "usb:N | pci:BDF | sim:NAME | sim-pci:NAME (simulated Navi31 board) | "
                     "sim-am:NAME | sim-am-usb:NAME (fake GPU) (default: the first real device; a "
                     "simulator only when named)");
  add_sim_root_option(command, o.sim_root);
  command.add_flag("--allow-unbind", o.allow_unbind,
                   "PCI: unbind the kernel driver bound to the card (never done otherwise)");
  command.add_flag("--allow-remove-siblings", o.allow_remove_siblings,
                   "PCI: hot-remove the card's HDMI/DP audio function");
  command.add_flag("--vfio", o.vfio, "PCI: access the card through VFIO instead of sysfs");
  command.add_option("--trace", o.trace,
                     "Append every BAR5 access (time, kind, offset, value, length) to FILE, for a "
                     "post-mortem of a recovery");
  command.add_option("--log", o.log,
                     "Append one JSON line per command to FILE: UTC time, command, device, and "
                     "its summary or error (a record of a recovery session)");
  command.add_flag("--minimal-bringup", o.minimal_bringup,
                   "USB: assign only BAR5 and enable memory decoding, no bus mastering or BAR0 "
                   "resize");
}

std::filesystem::path sim_root(const std::string &option) {
  return device::resolve_sim_root(option.empty() ? std::nullopt
                                                 : std::optional<std::filesystem::path>(option));
}

flash::FlashSessionOptions FlashOptions::session() const {
  flash::FlashSessionOptions s;
  s.optimize = flash::FlashOptimizations::parse(optimize);
  s.prescale = prescale;
  return s;
}

void add_flash_options(CLI::App &command, FlashOptions &o) {
  command.add_option("--optimize", o.optimize,
                     "Register-traffic optimizations (navi31-flash.md §9.11), each validated only "
                     "in the simulator: none (default), all, or a list of session, "
                     "no-check-reads, pipeline, block-read, block-write, skip-erase");
  command.add_option("--prescale", o.prescale, "SPI clock prescaler 0-15 (default 8)")
      ->check(CLI::Range(0u, 15u));
}

namespace {

// The --log file, opened before the device so a bad path refuses the command up front.
class CommandLog {
public:
  CommandLog(const std::string &path, std::string command) : command_(std::move(command)) {
    if (path.empty()) return;
    out_.open(path, std::ios::app);
    if (!out_)
      throw Error(ErrorKind::Usage,
                  fmt::format("cannot open the log file {}: {}", path, std::strerror(errno)));
  }
  void record(const std::string &device, const nlohmann::json &outcome) {
    if (!out_.is_open()) return;
    nlohmann::ordered_json line;
    line["time"] = fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
    line["command"] = command_;
    line["device"] = device;
    for (const auto &[key, value] : outcome.items()) line[key] = value;
    out_ << line.dump() << '\n' << std::flush;
  }

private:
  std::string command_;
  std::ofstream out_;
};

}  // namespace

void run_on_device(const DeviceOptions &options, const CliContext &context,
                   const std::string &command, sim::RunExpectations expectations,
                   const DeviceBody &body) {
  CommandLog log(options.log, command);
  auto failed = [](const Error &e) {
    return nlohmann::json{{"error", cli_message(e)}, {"exit_code", e.exit_code()}};
  };
  std::optional<device::DeviceSpec> spec;
  if (!options.device.empty()) spec = device::parse_device_spec(options.device);
  device::OpenOptions open;
  open.sim_root = sim_root(options.sim_root);
  open.expectations = expectations;
  open.command = command;
  open.real.allow_unbind = options.allow_unbind;
  open.real.allow_remove_siblings = options.allow_remove_siblings;
  open.real.minimal_bringup = options.minimal_bringup;
  open.real.vfio = options.vfio;
  if (!context.quiet)
    open.real.log = [](std::string_view line) { std::cerr << "wavectl: " << line << '\n'; };
  std::unique_ptr<device::OpenedDevice> device;
  try {
    device = device::open_device(spec, open);
  } catch (const Error &e) {
    log.record(options.device.empty() ? "first real device" : options.device, failed(e));
    throw;
  }
  std::shared_ptr<std::ofstream> trace;
  if (!options.trace.empty()) {
    trace = std::make_shared<std::ofstream>(options.trace, std::ios::app);
    if (!*trace)
      throw Error(ErrorKind::Usage, fmt::format("cannot open the trace file {}: {}", options.trace,
                                                std::strerror(errno)));
    *trace << mmio_trace_header("wavectl " + command, device->id()) << '\n';
    auto &clock = device->clock();
    device->bar5().set_trace_hook([trace, &clock](const MmioAccess &a) {
      *trace << mmio_trace_line(clock.now(), a) << '\n';
    });
  }
  auto report = [&](const std::vector<sim::Finding> &findings) {
    for (const auto &f : findings)
      std::cerr << fmt::format("simulator {}: {}: {}\n", device->id(), f.check, f.message);
  };
  nlohmann::json summary;
  try {
    summary = body(*device);
  } catch (const Error &e) {
    std::cout.flush();
    log.record(device->id(), failed(e));
    report(device->close(failed(e).dump()));
    throw;
  }
  log.record(device->id(), {{"exit_code", 0}, {"summary", summary}});
  report(device->close(summary.is_null() ? std::string() : summary.dump()));
}

EtaProgressPrinter::EtaProgressPrinter(bool enabled, bool simulated_time)
    : enabled_(enabled), simulated_(simulated_time), tty_(::isatty(2) != 0) {}

EtaProgressPrinter::~EtaProgressPrinter() { finish(); }

wavescope::OperationProgressSink EtaProgressPrinter::sink() {
  if (!enabled_) return {};
  return [this](const wavescope::OperationProgress &p) { update(p); };
}

void EtaProgressPrinter::update(const wavescope::OperationProgress &p) {
  const auto now = std::chrono::steady_clock::now();
  if (p.stage != stage_) {
    finish();
    stage_ = std::string(p.stage);
    last_draw_ = {};
  }
  const bool done = p.total && p.done >= p.total;
  const auto interval = tty_ ? std::chrono::milliseconds(100) : std::chrono::milliseconds(5000);
  if (!done && now - last_draw_ < interval) return;
  last_draw_ = now;
  std::string line = fmt::format("{}: {}/{} {} ({:.1f}%)", p.stage, p.done, p.total, p.unit,
                                 p.total ? 100.0 * p.done / p.total : 0.0);
  if (p.eta_seconds && !done) {
    const auto eta = static_cast<long>(*p.eta_seconds + 0.5);
    line += fmt::format(", ETA {}:{:02}{}", eta / 60, eta % 60, simulated_ ? " simulated" : "");
  }
  line += fmt::format(" ({:.3f} ms/op, {} ops)", p.op_latency_us / 1000.0, p.operations);
  if (tty_) {
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    drawn_ = true;
  } else {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::fflush(stderr);
}

void EtaProgressPrinter::finish() {
  if (drawn_) std::fputc('\n', stderr);
  drawn_ = false;
}

namespace {
wavescope::CancelToken *g_token = nullptr;

void on_sigint(int) {
  if (!g_token) return;
  g_token->request();
  const int n = g_token->requests();
  const char *text = n == 1   ? "\nwavectl: Ctrl-C: finishing the current sector, then stopping "
                                "(Ctrl-C again to stop at once)\n"
                     : n == 2 ? "\nwavectl: Ctrl-C again: stopping at the next register access\n"
                              : "\nwavectl: stopped\n";
  [[maybe_unused]] auto ignored = ::write(2, text, std::strlen(text));
  if (n >= 3) ::_exit(130);
}
}  // namespace

InterruptScope::InterruptScope(wavescope::CancelToken &token) {
  g_token = &token;
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, &previous_);
}

InterruptScope::~InterruptScope() {
  ::sigaction(SIGINT, &previous_, nullptr);
  g_token = nullptr;
}

void write_binary_file(const std::string &path, const std::vector<std::uint8_t> &bytes) {
  write_file_atomically(path, std::span<const unsigned char>(bytes.data(), bytes.size()));
}

ScratchDirectory::ScratchDirectory(const std::string &prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw Error(ErrorKind::Internal,
                fmt::format("cannot create a directory {}: {}", pattern, std::strerror(errno)));
  path_ = pattern;
}

ScratchDirectory::~ScratchDirectory() {
  std::error_code ignored;  // best effort: a leftover temporary directory harms nothing
  std::filesystem::remove_all(path_, ignored);
}

std::uint64_t parse_number(const std::string &text, const std::string &what) {
  if (const auto value = parse_unsigned(text)) return *value;
  throw Error(ErrorKind::Usage,
              fmt::format("{} '{}' is not a number (decimal or 0x hex)", what, text));
}

}  // namespace wavectl::hw_cli
