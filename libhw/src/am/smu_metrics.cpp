#include "wavescope/hw/am/smu_metrics.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::am {

namespace {

// Byte offsets of SmuMetrics_t's fields (natural alignment, as the header's compiler lays it out).
struct Layout {
  std::size_t gfx_pre, gfx_post, fclk_pre, fclk_post, mem_pre, mem_post, w_max, voltage,
      gfx_activity, uclk_activity, socket_power, temperature, fan_pwm, fan_rpm, throttling, size;
  std::vector<const char *> temps, planes, throttlers;
};

const Layout &layout(regs::IpVersion mp1) {
  // smu13_driver_if_v13_0_0.h: CurrClock[13] (52 bytes), 5 SVI planes, 13 temperatures, 22
  // throttlers, 4 D3hot sequences; 244 bytes.
  static const Layout v13 = {54,
                             56,
                             58,
                             60,
                             62,
                             64,
                             76,
                             84,
                             104,
                             106,
                             116,
                             120,
                             150,
                             152,
                             154,
                             244,
                             {"EDGE", "HOTSPOT", "HOTSPOT_G", "HOTSPOT_M", "MEM", "VR_GFX",
                              "VR_MEM0", "VR_MEM1", "VR_SOC", "VR_U", "LIQUID0", "LIQUID1", "PLX"},
                             {"GFX", "SOC", "VMEMP", "VDDIO_MEM", "U"},
                             {"TEMP_EDGE",   "TEMP_HOTSPOT", "TEMP_HOTSPOT_G", "TEMP_HOTSPOT_M",
                              "TEMP_MEM",    "TEMP_VR_GFX",  "TEMP_VR_MEM0",   "TEMP_VR_MEM1",
                              "TEMP_VR_SOC", "TEMP_VR_U",    "TEMP_LIQUID0",   "TEMP_LIQUID1",
                              "TEMP_PLX",    "TDC_GFX",      "TDC_SOC",        "TDC_U",
                              "PPT0",        "PPT1",         "PPT2",           "PPT3",
                              "FIT",         "GFX_APCC_PLUS"}};
  // smu14_driver_if_v14_0.h: CurrClock[11] (44 bytes), 16 moving averages, 4 SVI planes, 12
  // temperatures, 21 throttlers, 4 D3hot sequences; 260 bytes.
  static const Layout v14 = {46,
                             48,
                             50,
                             52,
                             54,
                             56,
                             68,
                             108,
                             124,
                             126,
                             136,
                             140,
                             168,
                             170,
                             172,
                             260,
                             {"EDGE", "HOTSPOT", "HOTSPOT_GFX", "HOTSPOT_SOC", "MEM", "VR_GFX",
                              "VR_SOC", "VR_MEM0", "VR_MEM1", "LIQUID0", "LIQUID1", "PLX"},
                             {"VDD_GFX", "VDD_SOC", "VDDCI_MEM", "VDDIO_MEM"},
                             {"TEMP_EDGE",
                              "TEMP_HOTSPOT",
                              "TEMP_HOTSPOT_GFX",
                              "TEMP_HOTSPOT_SOC",
                              "TEMP_MEM",
                              "TEMP_VR_GFX",
                              "TEMP_VR_SOC",
                              "TEMP_VR_MEM0",
                              "TEMP_VR_MEM1",
                              "TEMP_LIQUID0",
                              "TEMP_LIQUID1",
                              "TEMP_PLX",
                              "TDC_GFX",
                              "TDC_SOC",
                              "PPT0",
                              "PPT1",
                              "PPT2",
                              "PPT3",
                              "FIT",
                              "GFX_APCC_PLUS",
                              "GFX_DVO"}};
  if (mp1.major == 13 && mp1.minor == 0 && mp1.revision != 6 && mp1.revision != 12 &&
      mp1.revision != 14)
    return v13;
  if (mp1.major == 14) return v14;
  throw Error(ErrorKind::Usage,
              fmt::format("no SMU metrics layout for MP1 {} (RDNA3 13.0.x and RDNA4 14.0.x only)",
                          mp1.to_string()));
}

std::uint16_t u16(std::span<const std::uint8_t> b, std::size_t at) {
  return static_cast<std::uint16_t>(b[at] | b[at + 1] << 8);
}
void put16(std::vector<std::uint8_t> &b, std::size_t at, std::uint16_t v) {
  b[at] = static_cast<std::uint8_t>(v);
  b[at + 1] = static_cast<std::uint8_t>(v >> 8);
}

}  // namespace

std::size_t smu_metrics_size(regs::IpVersion mp1) { return layout(mp1).size; }

SmuMetrics smu_metrics_template(regs::IpVersion mp1) {
  const auto &l = layout(mp1);
  SmuMetrics m;
  for (const auto *t : l.temps) m.temperatures.emplace_back(t, 0);
  for (const auto *p : l.planes) m.voltages.emplace_back(p, 0);
  for (const auto *t : l.throttlers) m.throttling.emplace_back(t, 0);
  return m;
}

SmuMetrics decode_smu_metrics(regs::IpVersion mp1, std::span<const std::uint8_t> b) {
  const auto &l = layout(mp1);
  if (b.size() < l.size)
    throw Error(ErrorKind::BadInput,
                fmt::format("SMU metrics table: {} bytes, the MP1 {} layout has {}", b.size(),
                            mp1.to_string(), l.size));
  SmuMetrics m;
  m.gfxclk_pre_ds = u16(b, l.gfx_pre);
  m.gfxclk_post_ds = u16(b, l.gfx_post);
  m.fclk_pre_ds = u16(b, l.fclk_pre);
  m.fclk_post_ds = u16(b, l.fclk_post);
  m.memclk_pre_ds = u16(b, l.mem_pre);
  m.memclk_post_ds = u16(b, l.mem_post);
  m.power_limit = u16(b, l.w_max);
  m.gfx_activity = u16(b, l.gfx_activity);
  m.uclk_activity = u16(b, l.uclk_activity);
  m.socket_power = u16(b, l.socket_power);
  m.fan_pwm = b[l.fan_pwm];
  m.fan_rpm = u16(b, l.fan_rpm);
  for (std::size_t i = 0; i < l.temps.size(); ++i)
    m.temperatures.emplace_back(l.temps[i], u16(b, l.temperature + 2 * i));
  for (std::size_t i = 0; i < l.planes.size(); ++i)
    m.voltages.emplace_back(l.planes[i], u16(b, l.voltage + 2 * i));
  for (std::size_t i = 0; i < l.throttlers.size(); ++i)
    m.throttling.emplace_back(l.throttlers[i], b[l.throttling + i]);
  return m;
}

std::vector<std::uint8_t> encode_smu_metrics(regs::IpVersion mp1, const SmuMetrics &m) {
  const auto &l = layout(mp1);
  std::vector<std::uint8_t> b(l.size, 0);
  put16(b, l.gfx_pre, m.gfxclk_pre_ds);
  put16(b, l.gfx_post, m.gfxclk_post_ds);
  put16(b, l.fclk_pre, m.fclk_pre_ds);
  put16(b, l.fclk_post, m.fclk_post_ds);
  put16(b, l.mem_pre, m.memclk_pre_ds);
  put16(b, l.mem_post, m.memclk_post_ds);
  put16(b, l.w_max, m.power_limit);
  put16(b, l.gfx_activity, m.gfx_activity);
  put16(b, l.uclk_activity, m.uclk_activity);
  put16(b, l.socket_power, m.socket_power);
  b[l.fan_pwm] = m.fan_pwm;
  put16(b, l.fan_rpm, m.fan_rpm);
  for (std::size_t i = 0; i < l.temps.size() && i < m.temperatures.size(); ++i)
    put16(b, l.temperature + 2 * i, m.temperatures[i].second);
  for (std::size_t i = 0; i < l.planes.size() && i < m.voltages.size(); ++i)
    put16(b, l.voltage + 2 * i, m.voltages[i].second);
  for (std::size_t i = 0; i < l.throttlers.size() && i < m.throttling.size(); ++i)
    b[l.throttling + i] = m.throttling[i].second;
  return b;
}

}  // namespace wavescope::hw::am
