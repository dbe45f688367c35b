#include "wavescope/hw/device.hpp"

#include <cstdlib>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "fault/usb_fault_spec.hpp"
#include "sim/am/fake_gpu.hpp"
#include "sim/am/fake_gpu_pci_function.hpp"
#include "sim/navi31_board.hpp"
#include "sim/sim_pci_function.hpp"
#include "usb/simulated_asm24_bridge.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/scope_guard.hpp"
#include "wavescope/hw/remedy/refusal.hpp"
#include "wavescope/hw/sim/am_chip_store.hpp"
#include "wavescope/hw/sim/sim_store.hpp"
#include "wavescope/hw/usb/asm24_transport.hpp"

namespace wavescope::hw::device {

namespace fs = std::filesystem;

namespace {

constexpr const char *kSpecForms = "usb:N, pci:BDF (e.g. pci:0000:03:00.0), sim:NAME, "
                                   "sim-pci:NAME, sim-am:NAME or sim-am-usb:NAME";

// A simulated board opened for one command.
class SimulatedDevice final : public OpenedDevice {
public:
  SimulatedDevice(sim::SimStore store, sim::LoadedBoard loaded, DeviceSpec spec,
                  OpenOptions options)
      : store_(std::move(store)), loaded_(std::move(loaded)), spec_(std::move(spec)),
        options_(std::move(options)) {
    loaded_.board->begin_run(options_.expectations);
    // What happened while opening (used-up USB faults, time) belongs to the board too.
    const OnFailure close_on_failure([this] { close({}); });
    if (spec_.kind == DeviceSpec::Kind::SimPci) {
      function_ = std::make_unique<sim::SimPciFunction>(spec_.name, *loaded_.board, *loaded_.clock,
                                                        loaded_.board->config().op_cost_native);
    } else {
      function_ = open_usb_path();
    }
  }
  ~SimulatedDevice() override {
    best_effort([this] { close({}); });
  }

  std::string id() const override { return spec_.text(); }
  PciFunction &function() override { return *function_; }
  Clock &clock() override { return *loaded_.clock; }
  bool simulated() const override { return true; }
  sim::Navi31Board *board() override { return loaded_.board.get(); }

  std::vector<sim::Finding> close(std::string_view summary_json = {}) override {
    if (closed_) return {};
    closed_ = true;
    function_.reset();
    auto findings = loaded_.board->end_run();
    nlohmann::json run = {{"command", options_.command}, {"device", spec_.text()}};
    nlohmann::json list = nlohmann::json::array();
    for (const auto &f : findings) list.push_back({{"check", f.check}, {"message", f.message}});
    run["findings"] = list;
    if (!summary_json.empty()) run["summary"] = nlohmann::json::parse(summary_json);
    store_.save(loaded_, run.dump());
    loaded_.lock = sim::SimBoardLock{};  // another command may open the board now
    return findings;
  }

private:
  // The real USB protocol code against the simulator: Asm24Transport over a simulated ASM24
  // bridge over the board. F14 faults go to the bridge and are used up by this command.
  std::unique_ptr<PciFunction> open_usb_path() {
    auto &board = *loaded_.board;
    SimulatedAsm24BridgeOptions bridge_options;
    bridge_options.transfer_latency = board.config().op_cost / 2;  // control + bulk per operation
    bridge_options.label = "simulated ASM24 bridge for " + spec_.text();
    auto bridge = std::make_unique<SimulatedAsm24Bridge>(board, *loaded_.clock, bridge_options);
    auto &faults = board.faults().all();
    for (auto it = faults.begin(); it != faults.end();) {
      if (it->kind == sim::FaultKind::Usb) {
        apply_usb_fault(bridge->faults(), it->usb_spec);
        it = faults.erase(it);
      } else {
        ++it;
      }
    }
    Asm24Options options;
    options.id = spec_.text();
    return std::make_unique<Asm24Transport>(std::move(bridge), *loaded_.clock, options);
  }

  sim::SimStore store_;
  sim::LoadedBoard loaded_;
  DeviceSpec spec_;
  OpenOptions options_;
  std::unique_ptr<PciFunction> function_;
  bool closed_ = false;
};

// A fake AMD GPU opened for one command: directly (sim-am) or through the simulated ASM24
// bridge and the real USB transport (sim-am-usb). Saved back at close, also after a failure.
class FakeGpuDevice final : public OpenedDevice {
public:
  FakeGpuDevice(sim::AmChipStore store, sim::LoadedAmChip loaded, DeviceSpec spec,
                OpenOptions options)
      : store_(std::move(store)), loaded_(std::move(loaded)), spec_(std::move(spec)),
        options_(std::move(options)) {
    loaded_.gpu->clear_run_records();
    const OnFailure close_on_failure([this] { close({}); });
    auto &gpu = *loaded_.gpu;
    if (spec_.kind == DeviceSpec::Kind::SimAm) {
      function_ = std::make_unique<sim::am::FakeGpuPciFunction>(spec_.text(), gpu);
    } else {
      SimulatedAsm24BridgeOptions bridge_options;
      bridge_options.transfer_latency = gpu.config().op_cost_usb / 2;
      bridge_options.label = "simulated ASM24 bridge for " + spec_.text();
      auto bridge = std::make_unique<SimulatedAsm24Bridge>(gpu, *loaded_.clock, bridge_options);
      Asm24Options usb;
      usb.id = spec_.text();
      usb.expected_gpu_id = 0x1002u | std::uint32_t{gpu.config().device_id} << 16;
      function_ = std::make_unique<Asm24Transport>(std::move(bridge), *loaded_.clock, usb);
    }
  }
  ~FakeGpuDevice() override {
    best_effort([this] { close({}); });
  }

  std::string id() const override { return spec_.text(); }
  PciFunction &function() override { return *function_; }
  Clock &clock() override { return *loaded_.clock; }
  bool simulated() const override { return true; }
  sim::am::FakeGpu *fake_gpu() override { return loaded_.gpu.get(); }

  std::vector<sim::Finding> close(std::string_view summary_json = {}) override {
    if (closed_) return {};
    closed_ = true;
    if (function_) function_->close();
    function_.reset();
    nlohmann::json run = {{"command", options_.command}, {"device", spec_.text()}};
    if (!summary_json.empty()) run["summary"] = nlohmann::json::parse(summary_json);
    store_.save(loaded_, run.dump());
    loaded_.lock = sim::SimBoardLock{};
    return {};
  }

private:
  sim::AmChipStore store_;
  sim::LoadedAmChip loaded_;
  DeviceSpec spec_;
  OpenOptions options_;
  std::unique_ptr<PciFunction> function_;
  bool closed_ = false;
};

// Real hardware opened through the transport area's enumerator.
class RealDevice final : public OpenedDevice {
public:
  explicit RealDevice(std::unique_ptr<PciFunction> function) : function_(std::move(function)) {}
  ~RealDevice() override {
    best_effort([this] { close({}); });
  }
  std::string id() const override { return function_->id(); }
  PciFunction &function() override { return *function_; }
  Clock &clock() override { return clock_; }
  std::vector<sim::Finding> close(std::string_view) override {
    if (!closed_) function_->close();
    closed_ = true;
    return {};
  }

private:
  SystemClock clock_;
  std::unique_ptr<PciFunction> function_;
  bool closed_ = false;
};

std::string describe_candidates(const std::vector<DeviceCandidate> &candidates) {
  if (candidates.empty()) return "none found";
  std::string out;
  for (const auto &c : candidates) out += (out.empty() ? "" : ", ") + c.id;
  return out;
}

}  // namespace

std::string DeviceSpec::text() const {
  switch (kind) {
  case Kind::Usb: return "usb:" + name;
  case Kind::Pci: return "pci:" + name;
  case Kind::Sim: return "sim:" + name;
  case Kind::SimPci: return "sim-pci:" + name;
  case Kind::SimAm: return "sim-am:" + name;
  case Kind::SimAmUsb: return "sim-am-usb:" + name;
  }
  return name;
}

DeviceSpec parse_device_spec(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos || colon + 1 >= text.size())
    throw Refusal(ErrorKind::Usage,
                  {Remedy::DeviceSpecForm, fmt::format("'{}': expected {}", text, kSpecForms), {}});
  const std::string_view kind = text.substr(0, colon);
  DeviceSpec spec;
  spec.name = std::string(text.substr(colon + 1));
  if (kind == "usb")
    spec.kind = DeviceSpec::Kind::Usb;
  else if (kind == "pci")
    spec.kind = DeviceSpec::Kind::Pci;
  else if (kind == "sim")
    spec.kind = DeviceSpec::Kind::Sim;
  else if (kind == "sim-pci")
    spec.kind = DeviceSpec::Kind::SimPci;
  else if (kind == "sim-am")
    spec.kind = DeviceSpec::Kind::SimAm;
  else if (kind == "sim-am-usb")
    spec.kind = DeviceSpec::Kind::SimAmUsb;
  else
    throw Refusal(ErrorKind::Usage,
                  {Remedy::DeviceSpecForm, fmt::format("'{}': expected {}", text, kSpecForms), {}});
  if (spec.simulated()) sim::SimStore::validate_name(spec.name);
  return spec;
}

fs::path resolve_sim_root(const std::optional<fs::path> &cli) {
  if (cli && !cli->empty()) return *cli;
  if (const char *root = std::getenv("WAVESCOPE_SIM_ROOT"); root && *root) return root;
  if (const char *data = std::getenv("XDG_DATA_HOME"); data && *data)
    return fs::path(data) / "wavescope" / "sim";
  if (const char *home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".local" / "share" / "wavescope" / "sim";
  return fs::path(".wavescope-sim");
}

std::unique_ptr<OpenedDevice> open_device(const std::optional<DeviceSpec> &spec,
                                          const OpenOptions &options) {
  if (spec && spec->fake_gpu()) {
    sim::AmChipStore store(options.sim_root);
    auto loaded = store.open(spec->name);
    return std::make_unique<FakeGpuDevice>(std::move(store), std::move(loaded), *spec, options);
  }
  if (spec && spec->simulated()) {
    sim::SimStore store(options.sim_root);
    auto loaded = store.open(spec->name);
    return std::make_unique<SimulatedDevice>(std::move(store), std::move(loaded), *spec, options);
  }
  const auto candidates = enumerate_real_devices();
  const DeviceCandidate *chosen = nullptr;
  if (!spec) {
    if (candidates.empty())
      throw Refusal(ErrorKind::Device,
                    {Remedy::NameSimulator,
                     "no device found: no ASM24 USB bridge (3801:0001 or ADD1:0001) and no PCI "
                     "Navi31 card (1002:744C) is visible; check the cable, power and permissions",
                     {}});
    chosen = &candidates.front();
  } else {
    for (const auto &c : candidates)
      if (c.id == spec->text()) chosen = &c;
    if (!chosen)
      throw Error(ErrorKind::Device, fmt::format("no device {} (devices present: {})", spec->text(),
                                                 describe_candidates(candidates)));
  }
  return std::make_unique<RealDevice>(open_real_device(*chosen, options.real));
}

std::vector<DeviceListing> list_devices(const fs::path &sim_root) {
  std::vector<DeviceListing> out;
  for (const auto &c : enumerate_real_devices()) {
    DeviceListing d;
    d.id = c.id;
    d.kind = c.kind == DeviceCandidateKind::UsbBridge ? "usb" : "pci";
    d.description = c.description;
    if (c.kind == DeviceCandidateKind::PciCard)
      d.state = c.driver.empty() ? "no driver" : "driver " + c.driver;
    out.push_back(std::move(d));
  }
  sim::SimStore store(sim_root);
  for (const auto &name : store.list()) {
    DeviceListing d;
    d.id = "sim:" + name;
    d.kind = "sim";
    d.description = fmt::format("simulated Navi31 board in {} (also sim-pci:{})",
                                store.board_dir(name).string(), name);
    try {
      std::ifstream in(store.board_dir(name) / "board.json");
      const auto j = nlohmann::json::parse(in);
      d.state = j.value("state", "");
    } catch (const std::exception &) {
      d.state = "damaged";
    }
    out.push_back(std::move(d));
  }
  sim::AmChipStore chips(sim_root);
  for (const auto &name : chips.list()) {
    DeviceListing d;
    d.id = "sim-am:" + name;
    d.kind = "sim-am";
    std::string chip = "?";
    try {
      std::ifstream in(chips.chip_dir(name) / "chip.json");
      const auto j = nlohmann::json::parse(in);
      chip = j.at("config").value("chip", "?");
      d.state = j.value("last_run", nlohmann::json::object()).value("command", "");
      d.state = d.state.empty() ? "created" : "last: " + d.state;
    } catch (const std::exception &) {
      d.state = "damaged";
    }
    d.description = fmt::format("fake AMD GPU ({}) in {} (also sim-am-usb:{})", chip,
                                chips.chip_dir(name).string(), name);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace wavescope::hw::device
