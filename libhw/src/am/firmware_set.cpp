// What AM loads from its firmware files, in its order (am-driver.md §9.6).

#include "wavescope/hw/am/firmware_set.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/hw/am/firmware_header.hpp"

namespace wavescope::hw::am {

namespace {

std::uint32_t field(const FirmwareHeader &h, const std::string &name, const std::string &file) {
  for (const auto &[n, v] : h.fields)
    if (n == name) return v;
  throw Error(ErrorKind::BadInput,
              fmt::format("firmware {}: header {}.{} has no field {}", file, h.header_version_major,
                          h.header_version_minor, name));
}

std::uint32_t u32_at(std::span<const std::uint8_t> b, std::size_t at, const std::string &file) {
  if (at + 4 > b.size())
    throw Error(ErrorKind::BadInput,
                fmt::format("firmware {}: byte 0x{:X} is past the end of the 0x{:X}-byte file",
                            file, at, b.size()));
  return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | std::uint32_t{b[at + 3]} << 24;
}

}  // namespace

std::string gfx_fw_type_name(std::uint32_t t) {
  using namespace gfx_fw;
  switch (t) {
  case kCpMec: return "CP_MEC";
  case kCpMecMe1: return "CP_MEC_ME1";
  case kRlcV: return "RLC_V";
  case kRlcG: return "RLC_G";
  case kSdma0: return "SDMA0";
  case kSdma1: return "SDMA1";
  case kSmu: return "SMU";
  case kRlcRestoreListGpmMem: return "RLC_RESTORE_LIST_GPM_MEM";
  case kRlcRestoreListSrmMem: return "RLC_RESTORE_LIST_SRM_MEM";
  case kRlcRestoreListSrmCntl: return "RLC_RESTORE_LIST_SRM_CNTL";
  case kRlcP: return "RLC_P";
  case kRlcIram: return "RLC_IRAM";
  case kRlcDramBoot: return "RLC_DRAM_BOOT";
  case kSdma2: return "SDMA2";
  case kSdma3: return "SDMA3";
  case kRegList: return "REG_LIST";
  case kImuI: return "IMU_I";
  case kImuD: return "IMU_D";
  case kSdmaUcodeTh0: return "SDMA_UCODE_TH0";
  case kSdmaUcodeTh1: return "SDMA_UCODE_TH1";
  case kRs64Pfp: return "RS64_PFP";
  case kRs64Me: return "RS64_ME";
  case kRs64Mec: return "RS64_MEC";
  case kRs64PfpP0Stack: return "RS64_PFP_P0_STACK";
  case kRs64MeP0Stack: return "RS64_ME_P0_STACK";
  case kRs64MecP0Stack: return "RS64_MEC_P0_STACK";
  case kP2sTable: return "P2S_TABLE";
  default: return fmt::format("TYPE_{}", t);
  }
}

std::string psp_fw_type_name(std::uint32_t t) {
  static const char *const names[] = {"NONE",     "SOS",     "SYS_DRV", "KDB",
                                      "TOC",      "SPL",     "RL",      "SOC_DRV",
                                      "INTF_DRV", "DBG_DRV", "RAS_DRV", "IPKEYMGR_DRV"};
  return t < std::size(names) ? names[t] : fmt::format("TYPE_{}", t);
}

std::string firmware_file_name(const std::string &prefix, regs::IpVersion v,
                               const std::string &suffix) {
  return fmt::format("{}_{}_{}_{}{}.bin", prefix, v.major, v.minor, v.revision,
                     suffix.empty() ? "" : "_" + suffix);
}

FirmwareSet::~FirmwareSet() = default;

std::span<const std::uint8_t> FirmwareSet::keep(const std::string &name,
                                                std::vector<std::uint8_t> bytes) {
  files_.push_back({name, sha256_hex(bytes), bytes.size()});
  auto &stored = blobs_[name] = std::move(bytes);
  return stored;
}

FirmwareImage FirmwareSet::image(const std::string &file, std::uint64_t offset, std::uint64_t size,
                                 std::vector<std::uint32_t> types) {
  const auto &blob = blobs_.at(file);
  if (offset > blob.size() || size > blob.size() - offset)
    throw Error(ErrorKind::BadInput,
                fmt::format("firmware {}: the {} image at 0x{:X} (+0x{:X}) ends past the "
                            "0x{:X}-byte file",
                            file, gfx_fw_type_name(types.front()), offset, size, blob.size()));
  return {std::move(types), file, offset, size, std::span(blob).subspan(offset, size)};
}

FirmwareSet::FirmwareSet(FirmwareSource &source, const FirmwareVersions &v)
    : versions_(v), source_(source.describe()) {
  auto load = [&](const std::string &name, const std::string &kind) {
    auto bytes = source.load(name);
    if (!bytes)
      throw Error(ErrorKind::BadInput,
                  fmt::format("firmware {} not found in {}", name, source.describe()));
    const auto header = parse_firmware_header(*bytes, kind);
    const auto span = keep(name, std::move(*bytes));
    return std::pair{span, header};
  };
  // SOS container (§9.2).
  {
    const auto name = firmware_file_name("psp", v.mp0, "sos");
    const auto [blob, h] = load(name, "psp");
    for (const auto &c : h.psp_components)
      sos_[c.fw_type] = blob.subspan(c.file_offset, c.size_bytes);
  }
  // SMU (not MP1 13.0.12).
  if (!(v.mp1 == regs::IpVersion{13, 0, 12})) {
    const auto name = firmware_file_name("smu", v.mp1);
    const auto [blob, h] = load(name, "smc");
    if (v.gc.major >= 11) {
      smu_ = image(name, h.ucode_array_offset_bytes, h.ucode_size_bytes, {gfx_fw::kSmu});
    } else if (h.header_version_major == 2 && h.header_version_minor == 1) {
      const auto count = field(h, "pptable_count", name);
      const auto at = field(h, "pptable_entry_offset", name);
      for (std::uint32_t i = 0; i < count; ++i) {
        const auto e = at + 12 * i;
        if (u32_at(blob, e, name) == 0x50325358)
          images_.push_back(image(name, u32_at(blob, e + 4, name), u32_at(blob, e + 8, name),
                                  {gfx_fw::kP2sTable}));
      }
    }
  }
  // SDMA.
  {
    const auto name = firmware_file_name("sdma", v.sdma0);
    const auto [blob, h] = load(name, "sdma");
    if (h.header_version_major == 1) {
      images_.push_back(image(name, h.ucode_array_offset_bytes, h.ucode_size_bytes,
                              {gfx_fw::kSdma0, gfx_fw::kSdma1, gfx_fw::kSdma2, gfx_fw::kSdma3}));
    } else if (h.header_version_major == 2) {
      images_.push_back(image(name, field(h, "ctl_ucode_offset", name),
                              field(h, "ctl_ucode_size_bytes", name), {gfx_fw::kSdmaUcodeTh1}));
      images_.push_back(image(name, h.ucode_array_offset_bytes,
                              field(h, "ctx_ucode_size_bytes", name), {gfx_fw::kSdmaUcodeTh0}));
    } else {
      images_.push_back(image(name, h.ucode_array_offset_bytes, field(h, "ucode_size_bytes", name),
                              {gfx_fw::kSdmaUcodeTh0}));
    }
  }
  // PFP, ME (GC >= 12) and MEC.
  std::vector<std::string> cps;
  if (v.gc.major >= 12) cps = {"pfp", "me"};
  cps.push_back("mec");
  for (const auto &cp : cps) {
    const auto name = firmware_file_name("gc", v.gc, cp);
    const auto [blob, h] = load(name, "gfx");
    const std::string upper = cp == "pfp" ? "PFP" : cp == "me" ? "ME" : "MEC";
    const auto off = h.ucode_array_offset_bytes;
    if (h.header_version_major == 1) {
      if (cp != "mec")
        throw Error(ErrorKind::BadInput,
                    fmt::format("firmware {}: a v1 header for {} is not supported (AM loads "
                                "v1 only for MEC on GC 9)",
                                name, upper));
      const auto jt_size = field(h, "jt_size", name), jt_offset = field(h, "jt_offset", name);
      images_.push_back(image(name, off, h.ucode_size_bytes - jt_size * 4, {gfx_fw::kCpMec}));
      images_.push_back(image(name, off + jt_offset * 4, jt_size * 4, {gfx_fw::kCpMecMe1}));
    } else {
      const std::uint32_t code = cp == "pfp"  ? gfx_fw::kRs64Pfp
                                 : cp == "me" ? gfx_fw::kRs64Me
                                              : gfx_fw::kRs64Mec;
      const std::uint32_t stack = cp == "pfp"  ? gfx_fw::kRs64PfpP0Stack
                                  : cp == "me" ? gfx_fw::kRs64MeP0Stack
                                               : gfx_fw::kRs64MecP0Stack;
      images_.push_back(image(name, off, field(h, "ucode_size_bytes", name), {code}));
      images_.push_back(image(name, field(h, "data_offset_bytes", name),
                              field(h, "data_size_bytes", name), {stack}));
      ucode_start_[upper] = field(h, "ucode_start_addr_lo", name) |
                            std::uint64_t{field(h, "ucode_start_addr_hi", name)} << 32;
    }
  }
  // IMU (GC >= 11): IMU_D is the dram-size bytes right after IMU_I.
  if (v.gc.major >= 11) {
    const auto name = firmware_file_name("gc", v.gc, "imu");
    const auto [blob, h] = load(name, "imu");
    const auto iram = field(h, "iram_size", name);
    images_.push_back(image(name, h.ucode_array_offset_bytes, iram, {gfx_fw::kImuI}));
    images_.push_back(image(name, h.ucode_array_offset_bytes + iram, field(h, "dram_size", name),
                            {gfx_fw::kImuD}));
  }
  // RLC.
  {
    const auto name = firmware_file_name("gc", v.gc, "rlc");
    const auto [blob, h] = load(name, "rlc");
    const auto minor = h.header_version_minor;
    if (minor == 1) {
      const std::pair<const char *, std::uint32_t> lists[] = {
          {"save_restore_list_cntl", gfx_fw::kRlcRestoreListSrmCntl},
          {"save_restore_list_gpm", gfx_fw::kRlcRestoreListGpmMem},
          {"save_restore_list_srm", gfx_fw::kRlcRestoreListSrmMem}};
      for (const auto &[list, type] : lists)
        images_.push_back(image(name, field(h, fmt::format("{}_offset_bytes", list), name),
                                field(h, fmt::format("{}_size_bytes", list), name), {type}));
    }
    if (minor >= 2) {
      images_.push_back(image(name, field(h, "rlc_iram_ucode_offset_bytes", name),
                              field(h, "rlc_iram_ucode_size_bytes", name), {gfx_fw::kRlcIram}));
      images_.push_back(image(name, field(h, "rlc_dram_ucode_offset_bytes", name),
                              field(h, "rlc_dram_ucode_size_bytes", name), {gfx_fw::kRlcDramBoot}));
    }
    if (minor == 3) {
      images_.push_back(image(name, field(h, "rlcp_offset_bytes", name),
                              field(h, "rlcp_size_bytes", name), {gfx_fw::kRlcP}));
      images_.push_back(image(name, field(h, "rlcv_offset_bytes", name),
                              field(h, "rlcv_size_bytes", name), {gfx_fw::kRlcV}));
    }
    images_.push_back(image(name, h.ucode_array_offset_bytes, h.ucode_size_bytes, {gfx_fw::kRlcG}));
  }
}

std::span<const std::uint8_t> FirmwareSet::sos(std::uint32_t type) const {
  const auto it = sos_.find(type);
  if (it == sos_.end())
    throw Error(ErrorKind::BadInput,
                fmt::format("the PSP SOS container has no {} component", psp_fw_type_name(type)));
  return it->second;
}

}  // namespace wavescope::hw::am
