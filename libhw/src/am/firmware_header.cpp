#include "wavescope/hw/am/firmware_header.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::am {

namespace {

std::uint32_t u32(std::span<const std::uint8_t> b, std::size_t at, const char *what) {
  if (at > b.size() || b.size() - at < 4)
    throw_bad_input(fmt::format("firmware: {} at byte 0x{:X} is past the end of the 0x{:X}-byte "
                                "file",
                                what, at, b.size()));
  return std::uint32_t{b[at]} | std::uint32_t{b[at + 1]} << 8 | std::uint32_t{b[at + 2]} << 16 |
         std::uint32_t{b[at + 3]} << 24;
}

// The u32 field names after the common header, by kind and version; empty = unknown version.
std::vector<std::string> field_names(const std::string &kind, unsigned ma, unsigned mi) {
  if (kind == "psp" && ma == 2 && mi == 0) return {"psp_fw_bin_count"};
  if (kind == "psp" && ma == 2 && mi == 1) return {"psp_fw_bin_count", "psp_aux_fw_bin_index"};
  if (kind == "smc" && ma == 1) return {"ucode_start_addr"};
  if (kind == "smc" && ma == 2 && mi == 0)
    return {"ucode_start_addr", "ppt_offset_bytes", "ppt_size_bytes"};
  if (kind == "smc" && ma == 2 && mi == 1)
    return {"ucode_start_addr", "pptable_count", "pptable_entry_offset"};
  if (kind == "sdma" && ma == 1 && mi == 0)
    return {"ucode_feature_version", "ucode_change_version", "jt_offset", "jt_size"};
  if (kind == "sdma" && ma == 1 && mi == 1)
    return {"ucode_feature_version", "ucode_change_version", "jt_offset", "jt_size", "digest_size"};
  if (kind == "sdma" && ma == 2)
    return {"ucode_feature_version", "ctx_ucode_size_bytes", "ctx_jt_offset", "ctx_jt_size",
            "ctl_ucode_offset",      "ctl_ucode_size_bytes", "ctl_jt_offset", "ctl_jt_size"};
  if (kind == "sdma" && ma == 3)
    return {"ucode_feature_version", "ucode_offset_bytes", "ucode_size_bytes"};
  if (kind == "gfx" && ma == 1) return {"ucode_feature_version", "jt_offset", "jt_size"};
  if (kind == "gfx" && ma == 2)
    return {"ucode_feature_version", "ucode_size_bytes",    "ucode_offset_bytes", "data_size_bytes",
            "data_offset_bytes",     "ucode_start_addr_lo", "ucode_start_addr_hi"};
  if (kind == "imu" && ma == 1) return {"iram_size", "iram_offset", "dram_size", "dram_offset"};
  if (kind == "rlc" && ma == 2 && mi <= 3) {
    std::vector<std::string> n = {"ucode_feature_version", "jt_offset", "jt_size"};
    for (int i = 0; i < 15; ++i) n.push_back(fmt::format("rlc_v2_0_field{}", i));
    if (mi >= 1) {
      n.push_back("reg_list_format_direct_reg_list_length");
      for (const char *list :
           {"save_restore_list_cntl", "save_restore_list_gpm", "save_restore_list_srm"})
        for (const char *f : {"ucode_ver", "feature_ver", "size_bytes", "offset_bytes"})
          n.push_back(fmt::format("{}_{}", list, f));
    }
    if (mi >= 2)
      for (const char *f : {"rlc_iram_ucode_size_bytes", "rlc_iram_ucode_offset_bytes",
                            "rlc_dram_ucode_size_bytes", "rlc_dram_ucode_offset_bytes"})
        n.push_back(f);
    if (mi >= 3)
      for (const char *p : {"rlcp", "rlcv"})
        for (const char *f : {"ucode_version", "feature_version", "size_bytes", "offset_bytes"})
          n.push_back(fmt::format("{}_{}", p, f));
    return n;
  }
  return {};
}

}  // namespace

std::string firmware_kind_of(const std::string &name) {
  auto has = [&](const char *s) { return name.find(s) != std::string::npos; };
  if (name.rfind("psp_", 0) == 0 && has("_sos")) return "psp";
  if (name.rfind("smu_", 0) == 0) return "smc";
  if (name.rfind("sdma_", 0) == 0) return "sdma";
  if (name.rfind("gc_", 0) == 0) return has("_rlc") ? "rlc" : has("_imu") ? "imu" : "gfx";
  throw Error(ErrorKind::Usage,
              fmt::format("cannot tell the firmware kind of '{}' (expected psp_*_sos, smu_*, "
                          "sdma_* or gc_*)",
                          name));
}

FirmwareHeader parse_firmware_header(std::span<const std::uint8_t> b, const std::string &kind) {
  FirmwareHeader h;
  h.size_bytes = u32(b, 0, "size_bytes");
  h.header_size_bytes = u32(b, 4, "header_size_bytes");
  const std::uint32_t versions = u32(b, 8, "header version");
  h.header_version_major = versions & 0xFFFF;
  h.header_version_minor = versions >> 16;
  const std::uint32_t ip = u32(b, 12, "ip version");
  h.ip_version_major = ip & 0xFFFF;
  h.ip_version_minor = ip >> 16;
  h.ucode_version = u32(b, 16, "ucode_version");
  h.ucode_size_bytes = u32(b, 20, "ucode_size_bytes");
  h.ucode_array_offset_bytes = u32(b, 24, "ucode_array_offset_bytes");
  h.crc32 = u32(b, 28, "crc32");
  if (h.size_bytes != b.size())
    throw_bad_input(fmt::format("firmware: size_bytes at byte 0x0: expected 0x{:X} (the file's "
                                "length), found 0x{:X}",
                                b.size(), h.size_bytes));
  const auto names = field_names(kind, h.header_version_major, h.header_version_minor);
  if (names.empty())
    throw_bad_input(fmt::format("firmware: {} header version {}.{} at byte 0x8 is not one "
                                "§9.7 names",
                                kind, h.header_version_major, h.header_version_minor));
  constexpr std::size_t fields_at = 32;
  if (h.header_size_bytes < 32 || h.header_size_bytes > b.size())
    throw_bad_input(fmt::format("firmware: header_size_bytes at byte 0x4 is 0x{:X}, outside "
                                "0x20..0x{:X}",
                                h.header_size_bytes, b.size()));
  if (std::uint64_t{h.ucode_array_offset_bytes} + h.ucode_size_bytes > b.size())
    throw_bad_input(fmt::format("firmware: ucode at 0x{:X} (+0x{:X}, bytes 0x18/0x14) ends past "
                                "the 0x{:X}-byte file",
                                h.ucode_array_offset_bytes, h.ucode_size_bytes, b.size()));
  for (std::size_t i = 0; i < names.size(); ++i)
    h.fields.emplace_back(names[i], u32(b, fields_at + 4 * i, names[i].c_str()));
  if (kind == "psp") {
    const std::uint32_t count = h.fields[0].second;
    const std::size_t desc_at = h.header_version_minor == 0 ? 0x24 : 0x28;
    if (count > (b.size() - std::min(b.size(), desc_at)) / 16)
      throw_bad_input(fmt::format("firmware: psp_fw_bin_count at byte 0x20 is 0x{:X}, more "
                                  "descriptors than fit in the file",
                                  count));
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::size_t at = desc_at + 16 * i;
      PspComponent c{u32(b, at, "fw_type"), u32(b, at + 4, "fw_version"),
                     u32(b, at + 8, "offset_bytes"), u32(b, at + 12, "size_bytes"), 0};
      c.file_offset = std::size_t{c.offset_bytes} + h.ucode_array_offset_bytes;
      if (std::uint64_t{c.file_offset} + c.size_bytes > b.size())
        throw_bad_input(fmt::format("firmware: PSP component {} (descriptor at byte 0x{:X}) at "
                                    "0x{:X} (+0x{:X}) ends past the 0x{:X}-byte file",
                                    i, at, c.file_offset, c.size_bytes, b.size()));
      h.psp_components.push_back(c);
    }
  }
  return h;
}

}  // namespace wavescope::hw::am
