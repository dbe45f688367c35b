// The firmware AM loads (am-driver.md §9.2, §9.6, §9.7): synthetic files with the headers and
// piece sizes of Debian's 20250410 blobs, parsed into the load plan of each chip — the [run]
// lists of §9.6 — and the SOS components.

#include <catch2/catch.hpp>

#include "temp_dir.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/firmware_header.hpp"
#include "wavescope/hw/am/firmware_set.hpp"

#include <fstream>

using namespace wavescope;
using namespace wavescope::hw::am;
namespace fw = gfx_fw;

namespace {

using Plan = std::vector<std::pair<std::uint32_t, std::uint64_t>>;  // (type, bytes) per LOAD_IP_FW

Plan plan_of(const FirmwareSet &set) {
  Plan out;
  if (set.smu_image()) out.emplace_back(fw::kSmu, set.smu_image()->size);
  for (const auto &image : set.images())
    for (const auto t : image.fw_types) out.emplace_back(t, image.size);
  return out;
}

}  // namespace

TEST_CASE("firmware: synthetic files parse with the §9.7 header versions of Debian 20250410") {
  const std::tuple<const char *, const char *, int, int> files[] = {
      {"psp_13_0_0_sos.bin", "psp", 2, 0}, {"psp_14_0_2_sos.bin", "psp", 2, 0},
      {"psp_13_0_6_sos.bin", "psp", 2, 1}, {"smu_13_0_0.bin", "smc", 2, 1},
      {"smu_14_0_2.bin", "smc", 2, 0},     {"smu_13_0_6.bin", "smc", 2, 1},
      {"sdma_6_0_0.bin", "sdma", 2, 0},    {"sdma_7_0_0.bin", "sdma", 3, 0},
      {"sdma_4_4_2.bin", "sdma", 1, 0},    {"gc_11_0_0_mec.bin", "gfx", 2, 0},
      {"gc_12_0_0_pfp.bin", "gfx", 2, 0},  {"gc_12_0_0_mec.bin", "gfx", 2, 0},
      {"gc_11_0_0_rlc.bin", "rlc", 2, 3},  {"gc_12_0_0_rlc.bin", "rlc", 2, 2},
      {"gc_11_0_0_imu.bin", "imu", 1, 0},  {"gc_9_4_3_mec.bin", "gfx", 1, 0},
      {"gc_9_4_3_rlc.bin", "rlc", 2, 1}};
  for (const auto &[name, kind, major, minor] : files) {
    INFO(name);
    const auto bytes = synthesize_firmware(name);
    REQUIRE(bytes);
    const auto h = parse_firmware_header(*bytes, kind);
    CHECK(h.header_version_major == major);
    CHECK(h.header_version_minor == minor);
    CHECK(h.ucode_array_offset_bytes ==
          (std::string(name) == "psp_13_0_6_sos.bin" ? 0x200u : 0x100u));
    CHECK(firmware_kind_of(name) == kind);
  }
  CHECK_FALSE(synthesize_firmware("gc_10_3_0_mec.bin"));
  CHECK_FALSE(synthesize_firmware("nonsense"));
  // Deterministic: the same bytes every time.
  CHECK(synthesize_firmware("gc_12_0_0_mec.bin") == synthesize_firmware("gc_12_0_0_mec.bin"));
}

TEST_CASE("firmware: the Navi31 load plan is §9.6's list") {
  SyntheticFirmware source;
  const FirmwareSet set(source, {{11, 0, 0}, {13, 0, 0}, {13, 0, 0}, {6, 0, 0}});
  CHECK(plan_of(set) == Plan{{fw::kSmu, 0x3FE00},
                             {fw::kSdmaUcodeTh1, 0x4200},
                             {fw::kSdmaUcodeTh0, 0x4400},
                             {fw::kRs64Mec, 0x41300},
                             {fw::kRs64MecP0Stack, 0x22000},
                             {fw::kImuI, 0x10200},
                             {fw::kImuD, 0x10200},
                             {fw::kRlcIram, 0x10200},
                             {fw::kRlcDramBoot, 0x8200},
                             {fw::kRlcP, 0x2200},
                             {fw::kRlcV, 0x3200},
                             {fw::kRlcG, 0x6200}});
  CHECK(set.ucode_start().at("MEC") == 0x7'0000'3000);  // PRGRM_CNTR_START 0xC00, _HI 0x1C000
  // psp_13_0_0_sos: SYS_DRV, SOS, TOC, KDB, SPL, RL.
  CHECK(set.sos_components().size() == 6);
  CHECK(set.has_sos(psp_fw::kToc));
  CHECK_FALSE(set.has_sos(psp_fw::kSocDrv));
}

TEST_CASE("firmware: the Navi48 load plan is §9.6's list") {
  SyntheticFirmware source;
  const FirmwareSet set(source, {{12, 0, 1}, {14, 0, 3}, {14, 0, 3}, {7, 0, 1}});
  CHECK(plan_of(set) == Plan{{fw::kSmu, 0x4FE00},
                             {fw::kSdmaUcodeTh0, 0xB400},
                             {fw::kRs64Pfp, 0x15CD0},
                             {fw::kRs64PfpP0Stack, 0x40000},
                             {fw::kRs64Me, 0x27200},
                             {fw::kRs64MeP0Stack, 0x40000},
                             {fw::kRs64Mec, 0x2D2E0},
                             {fw::kRs64MecP0Stack, 0x40000},
                             {fw::kImuI, 0x10200},
                             {fw::kImuD, 0x10200},
                             {fw::kRlcIram, 0x10200},
                             {fw::kRlcDramBoot, 0x8200},
                             {fw::kRlcG, 0x6200}});
  CHECK(set.has_sos(psp_fw::kRasDrv));  // psp_14_0_3 has RAS_DRV; 14_0_2 does not
  SyntheticFirmware again;
  const FirmwareSet mock(again, {{12, 0, 0}, {14, 0, 2}, {14, 0, 2}, {7, 0, 0}});
  CHECK_FALSE(mock.has_sos(psp_fw::kRasDrv));
}

TEST_CASE("firmware: the MI300X load plan is §9.6's list") {
  SyntheticFirmware source;
  const FirmwareSet set(source, {{9, 4, 3}, {13, 0, 6}, {13, 0, 6}, {4, 4, 2}});
  CHECK_FALSE(set.smu_image());  // GC 9: the P2S table instead
  CHECK(plan_of(set) == Plan{{fw::kP2sTable, 0x480},
                             {fw::kSdma0, 0x8500},
                             {fw::kSdma1, 0x8500},
                             {fw::kSdma2, 0x8500},
                             {fw::kSdma3, 0x8500},
                             {fw::kCpMec, 0x41440},
                             {fw::kCpMecMe1, 0x480},
                             {fw::kRlcRestoreListSrmCntl, 0x340},
                             {fw::kRlcRestoreListGpmMem, 0x700},
                             {fw::kRlcRestoreListSrmMem, 0x1580},
                             {fw::kRlcG, 0x6300}});
  CHECK_FALSE(set.has_sos(psp_fw::kToc));
  CHECK(set.has_sos(psp_fw::kRl));
}

TEST_CASE("firmware: a directory source, a missing file and a bad header") {
  testing::TempDir tmp;
  std::filesystem::create_directories(tmp.path / "amdgpu");
  DirectoryFirmware dir(tmp.path);
  CHECK_THROWS_WITH(FirmwareSet(dir, {{12, 0, 0}, {14, 0, 2}, {14, 0, 2}, {7, 0, 0}}),
                    Catch::Contains("firmware psp_14_0_2_sos.bin not found in"));
  for (const char *name :
       {"psp_14_0_2_sos.bin", "smu_14_0_2.bin", "sdma_7_0_0.bin", "gc_12_0_0_pfp.bin",
        "gc_12_0_0_me.bin", "gc_12_0_0_mec.bin", "gc_12_0_0_imu.bin", "gc_12_0_0_rlc.bin"}) {
    const auto bytes = *synthesize_firmware(name);
    std::ofstream(tmp.path / "amdgpu" / name, std::ios::binary)
        .write(reinterpret_cast<const char *>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
  }
  const FirmwareSet set(dir, {{12, 0, 0}, {14, 0, 2}, {14, 0, 2}, {7, 0, 0}});
  CHECK(set.files().size() == 8);
  CHECK(set.files().front().sha256.size() == 64);
  std::ofstream(tmp.path / "amdgpu" / "smu_14_0_2.bin", std::ios::binary) << "garbage";
  CHECK_THROWS_AS(FirmwareSet(dir, {{12, 0, 0}, {14, 0, 2}, {14, 0, 2}, {7, 0, 0}}), Error);
}
