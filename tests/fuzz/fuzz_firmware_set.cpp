// Fuzz target: the firmware load plan (am-driver.md §9.6) over one damaged file. The first byte
// picks a chip and which of its files the input replaces; the rest is XORed over that chip's
// synthetic file (so headers mostly stay parseable and the offsets, sizes, descriptor tables and
// pptable entries behind them get exercised). A wavescope::Error is a clean outcome; a crash or
// another exception is a bug.

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/firmware_set.hpp"

namespace am = wavescope::hw::am;

namespace {

struct Chip {
  am::FirmwareVersions versions;
  std::vector<std::string> files;
};

const std::vector<Chip> &chips() {
  static const std::vector<Chip> list = {
      {{{12, 0, 0}, {14, 0, 2}, {14, 0, 2}, {7, 0, 0}},
       {"psp_14_0_2_sos.bin", "smu_14_0_2.bin", "sdma_7_0_0.bin", "gc_12_0_0_pfp.bin",
        "gc_12_0_0_me.bin", "gc_12_0_0_mec.bin", "gc_12_0_0_imu.bin", "gc_12_0_0_rlc.bin"}},
      {{{11, 0, 0}, {13, 0, 0}, {13, 0, 0}, {6, 0, 0}},
       {"psp_13_0_0_sos.bin", "smu_13_0_0.bin", "sdma_6_0_0.bin", "gc_11_0_0_mec.bin",
        "gc_11_0_0_imu.bin", "gc_11_0_0_rlc.bin"}},
      {{{9, 4, 3}, {13, 0, 6}, {13, 0, 6}, {4, 4, 2}},
       {"psp_13_0_6_sos.bin", "smu_13_0_6.bin", "sdma_4_4_2.bin", "gc_9_4_3_mec.bin",
        "gc_9_4_3_rlc.bin"}}};
  return list;
}

const std::vector<std::uint8_t> &synthetic(const std::string &name) {
  static std::map<std::string, std::vector<std::uint8_t>> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, *am::synthesize_firmware(name)).first;
  return it->second;
}

class OneDamagedFile final : public am::FirmwareSource {
public:
  OneDamagedFile(std::string damaged, std::vector<std::uint8_t> bytes)
      : damaged_(std::move(damaged)), bytes_(std::move(bytes)) {}
  std::string describe() const override { return "fuzz"; }
  std::optional<std::vector<std::uint8_t>> load(const std::string &name) override {
    if (name == damaged_) return bytes_;
    return synthetic(name);
  }

private:
  std::string damaged_;
  std::vector<std::uint8_t> bytes_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size < 1) return 0;
  const auto &chip = chips()[data[0] % chips().size()];
  const auto &name = chip.files[(data[0] / chips().size()) % chip.files.size()];
  auto bytes = synthetic(name);
  // Short inputs also truncate the file: a byte count taken from the second byte.
  if (size >= 2 && (data[1] & 0x80))
    bytes.resize(std::min<std::size_t>(bytes.size(), 64u * (data[1] & 0x7F)));
  for (std::size_t i = 2; i < size && i - 2 < bytes.size(); ++i) bytes[i - 2] ^= data[i];
  OneDamagedFile source(name, std::move(bytes));
  try {
    const am::FirmwareSet set(source, chip.versions);
    (void)set.images().size();
  } catch (const wavescope::Error &) {
  }
  return 0;
}
