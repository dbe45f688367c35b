#include "sim/am/fake_gpu_config.hpp"

#include <bit>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/base/parse_number.hpp"
#include "wavescope/hw/am/ip_discovery.hpp"

namespace wavescope::hw::sim::am {

namespace {

constexpr std::uint64_t MiB = 1ull << 20;
constexpr const char *kKeys =
    "vram_mib, bar0_mib, small_bar, bar5_kib, vf, seed, op_cost_ns, op_cost_usb_ns, or "
    "BLOCK.KEY for a block model";

std::uint64_t number_of(const std::string &key, const std::string &value) {
  if (const auto v = parse_unsigned(value)) return *v;
  throw Error(ErrorKind::Usage,
              fmt::format("setting {}={}: not a number (decimal or 0x hex)", key, value));
}

}  // namespace

std::uint64_t FakeGpuConfig::number(const std::string &key, std::uint64_t fallback) const {
  const auto it = settings.find(key);
  return it == settings.end() ? fallback : number_of(key, it->second);
}

std::optional<std::string> FakeGpuConfig::text(const std::string &key) const {
  const auto it = settings.find(key);
  if (it == settings.end()) return std::nullopt;
  return it->second;
}

FakeGpuConfig default_fake_gpu_config(const std::string &chip) {
  (void)hw::am::chip_profile(chip);  // validates the name
  FakeGpuConfig c;
  c.chip = chip;
  if (chip == "navi31") {
    c.device_id = 0x744C;
    c.vram_size = 24576 * MiB;
    c.bar0_size = 32768 * MiB;
    c.bar2_size = 2 * MiB;
    c.bar5_size = 1 * MiB;
  } else if (chip == "navi48") {
    c.device_id = 0x7550;
    c.vram_size = 16384 * MiB;
    c.bar0_size = 16384 * MiB;
    c.bar2_size = 2 * MiB;
    c.bar5_size = 1 * MiB;
  } else if (chip == "mi300x" || chip == "mi300x-harvest") {
    c.device_id = 0x74A1;
    c.vram_size = 196608 * MiB;
    c.bar0_size = 262144 * MiB;
    c.bar2_size = 2 * MiB;
    c.bar5_size = 1 * MiB;
  }
  return c;
}

void apply_fake_gpu_setting(FakeGpuConfig &c, const std::string &assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error(ErrorKind::Usage,
                fmt::format("setting '{}': expected KEY=VALUE ({})", assignment, kKeys));
  const std::string key = assignment.substr(0, eq), value = assignment.substr(eq + 1);
  if (key.find('.') != std::string::npos) {
    c.settings[key] = value;
    return;
  }
  const auto n = number_of(key, value);
  if (key == "vram_mib") {
    if (n < 64 || n > (1u << 22))
      throw Error(ErrorKind::Usage,
                  fmt::format("setting vram_mib={}: expected 64 to 4194304 (MiB)", value));
    c.vram_size = n * MiB;
  } else if (key == "bar0_mib") {
    if (n < 256 || !std::has_single_bit(n) || n > (1u << 22))
      throw Error(
          ErrorKind::Usage,
          fmt::format("setting bar0_mib={}: expected a power of two from 256 (MiB)", value));
    c.bar0_size = n * MiB;
  } else if (key == "small_bar") {
    if (n) c.bar0_size = 256 * MiB;
  } else if (key == "bar5_kib") {
    if (n < 512 || !std::has_single_bit(n) || n > 8192)
      throw Error(ErrorKind::Usage,
                  fmt::format("setting bar5_kib={}: expected a power of two, 512 to 8192", value));
    c.bar5_size = n << 10;
  } else if (key == "vf") {
    c.vf = n != 0;
  } else if (key == "seed") {
    c.seed = n;
  } else if (key == "op_cost_ns") {
    c.op_cost_native = std::chrono::nanoseconds(n);
  } else if (key == "op_cost_usb_ns") {
    c.op_cost_usb = std::chrono::nanoseconds(n);
  } else {
    throw Error(ErrorKind::Usage, fmt::format("unknown setting '{}' ({})", key, kKeys));
  }
}

nlohmann::json to_json(const FakeGpuConfig &c) {
  nlohmann::json settings = nlohmann::json::object();
  for (const auto &[k, v] : c.settings) settings[k] = v;
  return {{"chip", c.chip},
          {"device_id", c.device_id},
          {"vram_size", c.vram_size},
          {"bar0_size", c.bar0_size},
          {"bar2_size", c.bar2_size},
          {"bar5_size", c.bar5_size},
          {"vf", c.vf},
          {"seed", c.seed},
          {"op_cost_ns", c.op_cost_native.count()},
          {"op_cost_usb_ns", c.op_cost_usb.count()},
          {"settings", settings}};
}

FakeGpuConfig fake_gpu_config_from_json(const nlohmann::json &j) {
  FakeGpuConfig c = default_fake_gpu_config(j.value("chip", std::string("tinygrad-mock")));
  c.device_id = j.value("device_id", c.device_id);
  c.vram_size = j.value("vram_size", c.vram_size);
  c.bar0_size = j.value("bar0_size", c.bar0_size);
  c.bar2_size = j.value("bar2_size", c.bar2_size);
  c.bar5_size = j.value("bar5_size", c.bar5_size);
  c.vf = j.value("vf", c.vf);
  c.seed = j.value("seed", c.seed);
  c.op_cost_native = std::chrono::nanoseconds(j.value("op_cost_ns", c.op_cost_native.count()));
  c.op_cost_usb = std::chrono::nanoseconds(j.value("op_cost_usb_ns", c.op_cost_usb.count()));
  if (auto s = j.find("settings"); s != j.end() && s->is_object())
    for (const auto &[k, v] : s->items()) c.settings[k] = v.get<std::string>();
  return c;
}

}  // namespace wavescope::hw::sim::am
