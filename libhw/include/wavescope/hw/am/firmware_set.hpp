#pragma once
// The firmware the AM driver loads (am-driver.md §9.2, §9.6, §9.8): where the files come from
// (a firmware directory — `<dir>/amdgpu/<name>` or `<dir>/<name>`, plain files; the SHA-256 of
// each is kept, nothing is pinned — or synthetic files built in code for the simulator and the
// tests), and what is loaded from them: the SOS container's components, the SMU image, and the
// ordered list of LOAD_IP_FW images with their GFX_FW_TYPEs.

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wavescope/hw/regs/register_table.hpp"

namespace wavescope::hw::am {

// GFX_FW_TYPE ids (psp_gfx_if.h) that AM loads.
namespace gfx_fw {
inline constexpr std::uint32_t kCpMec = 4, kCpMecMe1 = 5, kRlcV = 7, kRlcG = 8, kSdma0 = 9,
                               kSdma1 = 10, kSmu = 18, kRlcRestoreListGpmMem = 20,
                               kRlcRestoreListSrmMem = 21, kRlcRestoreListSrmCntl = 22, kRlcP = 25,
                               kRlcIram = 26, kRlcDramBoot = 48, kSdma2 = 52, kSdma3 = 53,
                               kRegList = 67, kImuI = 68, kImuD = 69, kSdmaUcodeTh0 = 71,
                               kSdmaUcodeTh1 = 72, kRs64Pfp = 87, kRs64Me = 88, kRs64Mec = 89,
                               kRs64PfpP0Stack = 90, kRs64MeP0Stack = 92, kRs64MecP0Stack = 94,
                               kP2sTable = 129;
}  // namespace gfx_fw
// "RS64_MEC", "SDMA_UCODE_TH0", ...; "TYPE_<n>" for others.
std::string gfx_fw_type_name(std::uint32_t type);

// PSP SOS container component types (§9.2).
namespace psp_fw {
inline constexpr std::uint32_t kSos = 1, kSysDrv = 2, kKdb = 3, kToc = 4, kSpl = 5, kRl = 6,
                               kSocDrv = 7, kIntfDrv = 8, kDbgDrv = 9, kRasDrv = 10,
                               kIpKeyMgrDrv = 11;
}
std::string psp_fw_type_name(std::uint32_t type);  // "SOS", "SYS_DRV", ...

class FirmwareSource {
public:
  virtual ~FirmwareSource() = default;
  virtual std::string describe() const = 0;
  // The file's bytes; nullopt when it is not there.
  virtual std::optional<std::vector<std::uint8_t>> load(const std::string &name) = 0;
};

// Files under a directory: `<dir>/amdgpu/<name>`, else `<dir>/<name>` (plain files only).
class DirectoryFirmware final : public FirmwareSource {
public:
  explicit DirectoryFirmware(std::filesystem::path dir) : dir_(std::move(dir)) {}
  std::string describe() const override { return dir_.string(); }
  std::optional<std::vector<std::uint8_t>> load(const std::string &name) override;

private:
  std::filesystem::path dir_;
};

// Firmware files synthesised in code (correct §9.7 headers, deterministic filler payloads whose
// piece sizes are those of Debian's 20250410 blobs, §9.6): psp_*_sos, smu_*, sdma_*,
// gc_*_{pfp,me,mec,imu,rlc} for the IP versions of the fake chip profiles (GC 11.0.0, 12.0.0,
// 12.0.1, 9.4.3; MP 13.0.0, 13.0.6, 14.0.2, 14.0.3; SDMA 4.4.2, 6.0.0, 7.0.0, 7.0.1).
class SyntheticFirmware final : public FirmwareSource {
public:
  std::string describe() const override { return "synthetic firmware"; }
  std::optional<std::vector<std::uint8_t>> load(const std::string &name) override;
};
// The synthetic file of that name, or nullopt when the name is not one it makes.
std::optional<std::vector<std::uint8_t>> synthesize_firmware(const std::string &name);

// One LOAD_IP_FW image: the same bytes loaded once per type.
struct FirmwareImage {
  std::vector<std::uint32_t> fw_types;
  std::string file;
  std::uint64_t offset = 0, size = 0;   // within the file
  std::span<const std::uint8_t> bytes;  // into FirmwareSet's copy of the file
};

struct FirmwareFile {
  std::string name;
  std::string sha256;
  std::uint64_t size = 0;
};

// The IP versions that name the files (§9.6: "<ip>_<maj>_<min>_<rev>").
struct FirmwareVersions {
  regs::IpVersion gc, mp0, mp1, sdma0;
};

class FirmwareSet {
public:
  // Loads and parses every file AM needs for these versions (§9.6 order). Error(BadInput) for a
  // missing file (naming it and the source) or a bad header.
  FirmwareSet(FirmwareSource &source, const FirmwareVersions &versions);
  ~FirmwareSet();

  const FirmwareVersions &versions() const { return versions_; }
  std::string source() const { return source_; }
  const std::vector<FirmwareFile> &files() const { return files_; }
  // The SOS container's components by PSP fw type.
  const std::map<std::uint32_t, std::span<const std::uint8_t>> &sos_components() const {
    return sos_;
  }
  bool has_sos(std::uint32_t type) const { return sos_.count(type) != 0; }
  std::span<const std::uint8_t> sos(std::uint32_t type) const;
  // GC >= 11: the SMU image (loaded before the TMR).
  const std::optional<FirmwareImage> &smu_image() const { return smu_; }
  // Every other image in load order.
  const std::vector<FirmwareImage> &images() const { return images_; }
  // RS64 ucode start addresses ("PFP", "ME", "MEC"), lo | hi << 32.
  const std::map<std::string, std::uint64_t> &ucode_start() const { return ucode_start_; }

private:
  std::span<const std::uint8_t> keep(const std::string &name, std::vector<std::uint8_t> bytes);
  FirmwareImage image(const std::string &file, std::uint64_t offset, std::uint64_t size,
                      std::vector<std::uint32_t> types);

  FirmwareVersions versions_;
  std::string source_;
  std::map<std::string, std::vector<std::uint8_t>> blobs_;
  std::vector<FirmwareFile> files_;
  std::map<std::uint32_t, std::span<const std::uint8_t>> sos_;
  std::optional<FirmwareImage> smu_;
  std::vector<FirmwareImage> images_;
  std::map<std::string, std::uint64_t> ucode_start_;
};

// "psp_14_0_2_sos.bin" style names.
std::string firmware_file_name(const std::string &prefix, regs::IpVersion version,
                               const std::string &suffix = "");

}  // namespace wavescope::hw::am
