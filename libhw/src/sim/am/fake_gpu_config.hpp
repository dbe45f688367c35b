#pragma once
// What a fake GPU is (am-driver.md §19.2 items 1-2): its chip profile (the discovery table's IP
// set, from am::chip_profile), PCI identity, VRAM and BAR sizes, the cost of an access, and the
// block models' settings ("psp.tmr_size=0x1300000", "smu.level_count.uclk=4", ...). Every knob
// has the chip's default; `wavectl sim-am create --set KEY=VALUE` overrides them. Persisted with
// the chip.

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace wavescope::hw::sim::am {

struct FakeGpuConfig {
  std::string chip = "tinygrad-mock";  // an am::chip_profile name
  std::uint16_t device_id = 0x74A1;    // PCI device id (vendor 0x1002)
  std::uint64_t vram_size = 512ull << 20;
  // BAR0's largest Resizable-BAR size (the transports resize to it, as AM does); below the VRAM
  // size it is a small BAR (AM then reads discovery through MM_INDEX/MM_DATA).
  std::uint64_t bar0_size = 512ull << 20;
  std::uint64_t bar2_size = 8ull << 10;  // doorbells
  std::uint64_t bar5_size = 2ull << 20;  // registers; beyond it: RSMU
  bool vf = false;                       // RCC_IOV_FUNC_IDENTIFIER bit 0
  std::uint64_t seed = 0xA3C0;
  // Virtual time per transport operation: direct path, and through the simulated USB bridge.
  std::chrono::nanoseconds op_cost_native = std::chrono::microseconds(1);
  std::chrono::nanoseconds op_cost_usb = std::chrono::microseconds(125);
  // Block-model settings, "block.key" -> value text.
  std::map<std::string, std::string> settings;

  // A setting as a number (decimal or 0x hex), `fallback` when absent; Error(Usage) when bad.
  std::uint64_t number(const std::string &key, std::uint64_t fallback) const;
  std::optional<std::string> text(const std::string &key) const;

  bool operator==(const FakeGpuConfig &) const = default;
};

// The defaults of a chip profile ("tinygrad-mock": 512 MiB VRAM and BAR0, 2 MiB BAR5, device
// 0x74A1, as tinygrad's mock; "navi31": 24 GiB, 0x744C; "navi48": 16 GiB, 0x7550; "mi300x" and
// "mi300x-harvest": 192 GiB, 0x74A1). Throws Error(Usage) for an unknown profile.
FakeGpuConfig default_fake_gpu_config(const std::string &chip);

// One "KEY=VALUE": vram_mib, bar0_mib (or small_bar=1 for 256 MiB), bar5_kib, vf, seed,
// op_cost_ns, op_cost_usb_ns, or a block setting "block.key=value" (kept as text for the model).
// Throws Error(Usage) naming the key and the accepted ones.
void apply_fake_gpu_setting(FakeGpuConfig &config, const std::string &assignment);

nlohmann::json to_json(const FakeGpuConfig &config);
FakeGpuConfig fake_gpu_config_from_json(const nlohmann::json &json);

}  // namespace wavescope::hw::sim::am
