#pragma once
// The SMU metrics table of RDNA3/4 (`SmuMetrics_t` of smu13_driver_if_v13_0_0.h and
// smu14_driver_if_v14_0.h, linux-source-6.12; am-driver.md §15): the fields AMSMI shows, at their
// byte offsets, decoded from the driver table's bytes (and encoded, for the fake GPU's scripted
// tables). MI300's MetricsTableV0_t is not decoded yet.

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "wavescope/hw/regs/register_table.hpp"

namespace wavescope::hw::am {

struct SmuMetrics {
  std::uint16_t gfxclk_pre_ds = 0, gfxclk_post_ds = 0;  // MHz
  std::uint16_t fclk_pre_ds = 0, fclk_post_ds = 0;
  std::uint16_t memclk_pre_ds = 0, memclk_post_ds = 0;
  std::uint16_t gfx_activity = 0, uclk_activity = 0;  // %
  std::uint16_t socket_power = 0, power_limit = 0;    // W (AverageSocketPower, dGPU_W_MAX)
  std::uint16_t fan_rpm = 0;
  std::uint8_t fan_pwm = 0;  // %
  // By the table's own names, in table order: every entry (zeros included).
  std::vector<std::pair<std::string, std::uint16_t>> temperatures;  // °C
  std::vector<std::pair<std::string, std::uint16_t>> voltages;      // mV
  std::vector<std::pair<std::string, std::uint8_t>> throttling;     // %
};

// The layout of an SMU interface version (MP1 13.0.x RDNA3 or 14.0.x RDNA4); Error(Usage) for
// others.
std::size_t smu_metrics_size(regs::IpVersion mp1);
// An empty table of that layout with the names filled in (values 0).
SmuMetrics smu_metrics_template(regs::IpVersion mp1);
// Error(BadInput) when the bytes are shorter than the table.
SmuMetrics decode_smu_metrics(regs::IpVersion mp1, std::span<const std::uint8_t> bytes);
std::vector<std::uint8_t> encode_smu_metrics(regs::IpVersion mp1, const SmuMetrics &metrics);

}  // namespace wavescope::hw::am
