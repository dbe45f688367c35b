#include "wavescope/hw/am/am_smi.hpp"

#include <functional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/am_gpu.hpp"
#include "wavescope/hw/am/memory_manager.hpp"
#include "wavescope/hw/am/pte_flags.hpp"
#include "wavescope/hw/am/smu.hpp"

namespace wavescope::hw::am {

namespace {

// Bytes of VRAM the VMID-0 page tables map (valid, non-system leaves), walked read-only from the
// root (§15 "Memory used").
std::uint64_t mapped_vram(AmGpu &gpu) {
  auto &dev = gpu.device();
  DeviceVram vram(dev);
  const auto generation = pt_generation_for_gc(dev.ip_version("GC").major);
  std::uint64_t used = 0;
  std::function<void(std::uint64_t, int)> walk = [&](std::uint64_t table, int level) {
    std::vector<std::uint8_t> page(4096);
    dev.read_vram(table, page);
    for (unsigned i = 0; i < 512; ++i) {
      std::uint64_t e = 0;
      for (int b = 7; b >= 0; --b) e = e << 8 | page[8 * i + b];
      if (!(e & 1)) continue;
      if (pte_is_leaf(generation, level, e)) {
        if (!(e & 2)) used += std::uint64_t{1} << (39 - 9 * level);
        continue;
      }
      const std::uint64_t next = (e & 0x0000'FFFF'FFFF'F000ull) - gpu.gmc().paddr_base();
      if (level < 3 && next + 4096 <= dev.vram_size()) walk(next, level + 1);
    }
  };
  walk(gpu.mm().root_paddr(), 0);
  return used;
}

}  // namespace

AmSmiReport am_smi(AmGpu &gpu, const std::string &device) {
  auto &dev = gpu.device();
  AmSmiReport r;
  r.device = device;
  r.gc_version = dev.ip_version("GC").to_string();
  const auto mp1 = dev.ip_version("MP1");
  r.mp1_version = mp1.to_string();
  r.vf = (dev.read_dword(0xDE5) & 1) != 0;  // RCC_IOV_FUNC_IDENTIFIER
  r.metrics = decode_smu_metrics(mp1, gpu.smu().read_metrics(smu_metrics_size(mp1)));
  r.activity_threshold = mp1 == regs::IpVersion{14, 0, 2} ? 5 : 15;
  const auto &m = r.metrics;
  r.gfxclk = m.gfx_activity <= r.activity_threshold ? m.gfxclk_post_ds : m.gfxclk_pre_ds;
  r.memclk = m.uclk_activity <= r.activity_threshold ? m.memclk_post_ds : m.memclk_pre_ds;
  r.fclk = m.uclk_activity <= r.activity_threshold ? m.fclk_post_ds : m.fclk_pre_ds;
  r.vram_size = dev.vram_size();
  r.vram_used = mapped_vram(gpu);
  return r;
}

std::string to_json(const AmSmiReport &r) {
  const auto &m = r.metrics;
  nlohmann::ordered_json j;
  j["device"] = r.device;
  j["gc"] = r.gc_version;
  j["mp1"] = r.mp1_version;
  j["vf"] = r.vf;
  j["gfx_activity"] = m.gfx_activity;
  j["mem_activity"] = m.uclk_activity;
  j["gfxclk_mhz"] = r.gfxclk;
  j["memclk_mhz"] = r.memclk;
  j["fclk_mhz"] = r.fclk;
  j["power_w"] = m.socket_power;
  j["power_limit_w"] = m.power_limit;
  nlohmann::ordered_json temps = nlohmann::ordered_json::object();
  for (const auto &[n, v] : m.temperatures)
    if (v) temps[n] = v;
  j["temperatures_c"] = temps;
  nlohmann::ordered_json volts = nlohmann::ordered_json::object();
  for (const auto &[n, v] : m.voltages)
    if (v) volts[n] = v;
  j["voltages_mv"] = volts;
  j["fan_rpm"] = m.fan_rpm;
  j["fan_pwm"] = m.fan_pwm;
  nlohmann::ordered_json throttle = nlohmann::ordered_json::object();
  for (const auto &[n, v] : m.throttling)
    if (v) throttle[n] = v;
  j["throttling"] = throttle;
  j["vram_used"] = r.vram_used;
  j["vram_size"] = r.vram_size;
  return json_line(j) + '\n';
}

std::string to_text(const AmSmiReport &r) {
  const auto &m = r.metrics;
  std::string out = fmt::format("{} (GC {}, SMU {}{})\n", r.device, r.gc_version, r.mp1_version,
                                r.vf ? ", VF" : "");
  out += fmt::format("  GFX {:3}% {:5} MHz   MEM {:3}% {:5} MHz   FCLK {:5} MHz\n", m.gfx_activity,
                     r.gfxclk, m.uclk_activity, r.memclk, r.fclk);
  out += fmt::format("  power {} W / {} W   fan {} rpm ({}%)\n", m.socket_power, m.power_limit,
                     m.fan_rpm, m.fan_pwm);
  std::string temps;
  for (const auto &[n, v] : m.temperatures)
    if (v) temps += fmt::format(" {} {}°C", n, v);
  out += "  temperatures:" + (temps.empty() ? std::string(" none") : temps) + "\n";
  std::string volts;
  for (const auto &[n, v] : m.voltages)
    if (v) volts += fmt::format(" {} {} mV", n, v);
  out += "  voltages:" + (volts.empty() ? std::string(" none") : volts) + "\n";
  std::string throttle;
  for (const auto &[n, v] : m.throttling)
    if (v) throttle += fmt::format(" {} {}%", n, v);
  out += "  throttling:" + (throttle.empty() ? std::string(" none") : throttle) + "\n";
  out += fmt::format("  VRAM used {} MiB of {} MiB\n", r.vram_used >> 20, r.vram_size >> 20);
  return out;
}

}  // namespace wavescope::hw::am
