#include "rgp_devices.hpp"

#include <charconv>

namespace wavescope::trace::rgp {
namespace {

// Boards with all facts known; for the others only the processor and chip (0 = not known).
constexpr KnownDevice kDevices[] = {
    {0x744c, "gfx1100", "NAVI31", 2500, 1250, 24, 384, 6144, 96},  // RX 7900 XTX (20 Gbps GDDR6)
    {0x7550, "gfx1201", "NAVI48", 2970, 1250, 16, 256, 8192, 64},  // RX 9070 XT (20 Gbps GDDR6)
    {0x7448, "gfx1100", "NAVI31", 0, 0, 0, 0, 0, 0},               // Radeon PRO W7900
    {0x747e, "gfx1101", "NAVI32", 0, 0, 0, 0, 0, 0},               // RX 7800 XT
    {0x7480, "gfx1102", "NAVI33", 0, 0, 0, 0, 0, 0},               // RX 7600
    {0x7590, "gfx1200", "NAVI44", 0, 0, 0, 0, 0, 0},               // RX 9060 XT
};

}  // namespace

const KnownDevice *known_device(std::uint32_t pci_id) {
  for (const auto &d : kDevices)
    if (d.pci_id == pci_id) return &d;
  return nullptr;
}

const KnownDevice *known_device(std::string_view processor) {
  for (const auto &d : kDevices)
    if (d.processor == processor) return &d;
  return nullptr;
}

unsigned gfx_target_version_of(std::string_view processor) {
  if (!processor.starts_with("gfx") || processor.size() < 6) return 0;
  const auto digits = processor.substr(3);
  unsigned major = 0;
  const auto major_text = digits.substr(0, digits.size() - 2);
  const auto [p, ec] =
      std::from_chars(major_text.data(), major_text.data() + major_text.size(), major);
  if (ec != std::errc() || p != major_text.data() + major_text.size()) return 0;
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  const int minor = hex(digits[digits.size() - 2]), stepping = hex(digits.back());
  if (minor < 0 || stepping < 0) return 0;
  return major * 10000 + static_cast<unsigned>(minor) * 100 + static_cast<unsigned>(stepping);
}

std::uint32_t gfxip_level_of(std::string_view processor) {
  const unsigned v = gfx_target_version_of(processor);
  const unsigned major = v / 10000, minor = v / 100 % 100;
  if (major == 12) return 0x10;
  if (major == 11) return minor >= 5 ? 0xd : 0xc;
  if (major == 10) return minor >= 3 ? 0x9 : 0x7;
  if (major == 9) return 0x5;
  if (major == 8) return minor >= 1 ? 0x4 : 0x3;
  return 0;
}

std::uint32_t sqtt_version_of(std::string_view processor) {
  const unsigned major = gfx_target_version_of(processor) / 10000;
  if (major == 12) return 0xc;
  if (major == 11) return 0xb;
  if (major == 10) return 0x7;
  if (major == 9) return 0x6;
  if (major == 8) return 0x5;
  return 0;
}

std::string processor_of_gfxip_level(std::uint32_t level) {
  switch (level) {
  case 0x3: return "gfx801";
  case 0x4: return "gfx810";
  case 0x5: return "gfx900";
  case 0x7: return "gfx1010";
  case 0x9: return "gfx1030";
  case 0xc: return "gfx1100";
  case 0xd: return "gfx1150";
  case 0x10: return "gfx1200";
  default: return {};
  }
}

}  // namespace wavescope::trace::rgp
