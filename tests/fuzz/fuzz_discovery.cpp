// Fuzz target: arbitrary bytes as an IP discovery binary, and as byte patches over the synthetic
// ROM of every chip profile (so the structured areas are reached without real tables). A
// wavescope::Error is a clean outcome; a crash or another exception is a bug.

#include <cstdint>
#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/ip_discovery.hpp"

namespace {

void exercise(std::span<const std::uint8_t> bytes, bool checksums) {
  try {
    const auto t = wavescope::hw::am::parse_ip_discovery(bytes, {checksums});
    for (const auto &die : t.dies)
      for (const auto &ip : die.ips) (void)wavescope::hw::am::hwip_names(ip.hw_id);
  } catch (const wavescope::Error &) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace wavescope::hw::am;
  static const std::vector<std::vector<std::uint8_t>> roms = [] {
    std::vector<std::vector<std::uint8_t>> r;
    for (const auto &name : chip_profile_names())
      r.push_back(build_discovery_rom(chip_profile(name)));
    return r;
  }();
  exercise({data, size}, true);
  exercise({data, size}, false);
  if (size < 1) return 0;
  auto rom = roms[data[0] % roms.size()];
  // Patch records: u16 offset, u8 value; the last record's offset may also truncate.
  for (std::size_t i = 1; i + 3 <= size; i += 3) {
    const std::size_t at = (data[i] | data[i + 1] << 8) % rom.size();
    rom[at] = data[i + 2];
  }
  if (size % 3 == 2) rom.resize((data[size - 1] * rom.size()) / 256);
  exercise(rom, false);
  exercise(rom, true);
  return 0;
}
