#include "wavescope/hw/sim/am_chip_commands.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/am/fake_gpu.hpp"
#include "wavescope/base/error.hpp"

namespace wavescope::hw::sim {

namespace {

AmChipStatus status_of(am::FakeGpu &gpu, const VirtualClock &clock, const std::string &name,
                       const std::filesystem::path &path) {
  AmChipStatus s;
  const auto &c = gpu.config();
  s.name = name;
  s.path = path;
  s.chip = c.chip;
  s.device_id = c.device_id;
  s.vram_size = c.vram_size;
  s.bar0_size = c.bar0_size;
  s.bar2_size = c.bar2_size;
  s.bar5_size = c.bar5_size;
  s.large_bar = c.bar0_size >= c.vram_size;
  s.vf = c.vf;
  s.bus_master = gpu.bus_master();
  s.time_ns = clock.now().time_since_epoch().count();
  s.registers_stored = gpu.registers().save().size();
  s.vram_pages = gpu.vram().pages_in_use();
  for (const auto &[k, v] : c.settings) s.settings.emplace_back(k, v);
  for (auto *b : gpu.blocks()) {
    auto j = b->status();
    if (!j.is_null()) s.blocks.emplace_back(b->name(), j.dump());
  }
  return s;
}

template <typename Change>
AmChipStatus change_chip(const AmChipStore &store, const std::string &name, const char *command,
                         Change &&change) {
  auto loaded = store.open(name);
  change(*loaded.gpu);
  store.save(loaded, nlohmann::json{{"command", command}, {"device", "sim-am:" + name}}.dump());
  return status_of(*loaded.gpu, *loaded.clock, name, store.chip_dir(name));
}

}  // namespace

AmChipStatus create_am_chip(AmChipStore &store, const std::string &name,
                            const AmChipRecipe &recipe) {
  SimStore::validate_name(name);
  auto config = am::default_fake_gpu_config(recipe.chip);
  for (const auto &s : recipe.settings) am::apply_fake_gpu_setting(config, s);
  VirtualClock clock;
  am::FakeGpu gpu(config, clock);
  store.create(name, gpu, clock);
  return status_of(gpu, clock, name, store.chip_dir(name));
}

AmChipStatus stored_am_chip_status(const AmChipStore &store, const std::string &name) {
  auto loaded = store.open(name);
  auto s = status_of(*loaded.gpu, *loaded.clock, name, store.chip_dir(name));
  s.last_run_json = loaded.last_run_json;
  return s;
}

AmChipStatus arm_am_chip_faults(const AmChipStore &store, const std::string &name,
                                const std::vector<std::string> &specs, bool clear_first) {
  return change_chip(store, name, "fault", [&](am::FakeGpu &gpu) {
    if (clear_first) gpu.clear_faults();
    for (const auto &spec : specs) gpu.arm_fault(spec);
  });
}

AmChipStatus configure_am_chip(const AmChipStore &store, const std::string &name,
                               const std::vector<std::string> &settings) {
  return change_chip(store, name, "configure", [&](am::FakeGpu &gpu) {
    for (const auto &setting : settings) {
      const auto key = setting.substr(0, setting.find('='));
      if (key.find('.') == std::string::npos && key != "op_cost_ns" && key != "op_cost_usb_ns")
        throw Error(ErrorKind::Usage,
                    fmt::format("setting '{}': the chip and its sizes are fixed when it is "
                                "created; configure changes BLOCK.KEY settings, op_cost_ns and "
                                "op_cost_usb_ns",
                                setting));
      am::apply_fake_gpu_setting(gpu.mutable_config(), setting);
    }
  });
}

AmChipStatus power_cycle_am_chip(const AmChipStore &store, const std::string &name) {
  return change_chip(store, name, "power-cycle", [](am::FakeGpu &gpu) { gpu.power_cycle(); });
}

std::string to_json(const AmChipStatus &s) {
  nlohmann::ordered_json j;
  j["name"] = s.name;
  j["path"] = s.path.string();
  j["chip"] = s.chip;
  j["device_id"] = fmt::format("0x{:04X}", s.device_id);
  j["vram_size"] = s.vram_size;
  j["bar0_size"] = s.bar0_size;
  j["bar2_size"] = s.bar2_size;
  j["bar5_size"] = s.bar5_size;
  j["large_bar"] = s.large_bar;
  j["vf"] = s.vf;
  j["bus_master"] = s.bus_master;
  j["time_ns"] = s.time_ns;
  j["registers_stored"] = s.registers_stored;
  j["vram_pages"] = s.vram_pages;
  nlohmann::ordered_json settings = nlohmann::ordered_json::object();
  for (const auto &[k, v] : s.settings) settings[k] = v;
  j["settings"] = settings;
  nlohmann::ordered_json blocks = nlohmann::ordered_json::object();
  for (const auto &[k, v] : s.blocks) blocks[k] = nlohmann::ordered_json::parse(v);
  j["blocks"] = blocks;
  if (s.last_run_json)
    j["last_run"] = s.last_run_json->empty() ? nlohmann::ordered_json(nullptr)
                                             : nlohmann::ordered_json::parse(*s.last_run_json);
  return j.dump();
}

std::string to_text(const AmChipStatus &s) {
  std::string out;
  out += fmt::format("fake GPU {} ({}, 1002:{:04X}) in {}\n", s.name, s.chip, s.device_id,
                     s.path.string());
  out += fmt::format("  VRAM {} MiB, BAR0 {} MiB ({} BAR), BAR2 {} KiB, BAR5 {} KiB{}\n",
                     s.vram_size >> 20, s.bar0_size >> 20, s.large_bar ? "large" : "small",
                     s.bar2_size >> 10, s.bar5_size >> 10, s.vf ? ", SR-IOV VF" : "");
  out +=
      fmt::format("  bus master {}, non-zero registers {}, VRAM pages in use {}, time {:.6f} s\n",
                  s.bus_master ? "on" : "off", s.registers_stored, s.vram_pages,
                  static_cast<double>(s.time_ns) / 1e9);
  for (const auto &[k, v] : s.settings) out += fmt::format("  setting {}={}\n", k, v);
  for (const auto &[k, v] : s.blocks) out += fmt::format("  {}: {}\n", k, v);
  if (s.last_run_json)
    out += fmt::format("  last run: {}\n", s.last_run_json->empty() ? "none" : *s.last_run_json);
  return out;
}

std::string to_json(const AmChipRemovalReport &r) {
  return nlohmann::json{{"removed", r.name}}.dump();
}

std::string to_text(const AmChipRemovalReport &r) {
  return fmt::format("removed fake GPU {}\n", r.name);
}

}  // namespace wavescope::hw::sim
