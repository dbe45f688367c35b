#include "wavescope/hw/am/ip_discovery.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::am {

namespace {

class Reader {
public:
  explicit Reader(std::span<const std::uint8_t> b) : b_(b) {}
  void need(std::size_t at, std::size_t n, const char *what) const {
    if (at > b_.size() || n > b_.size() - at)
      throw_bad_input(fmt::format("discovery: {} at byte 0x{:X} (+0x{:X}) is past the end of the "
                                  "0x{:X}-byte table",
                                  what, at, n, b_.size()));
  }
  std::uint8_t u8(std::size_t at, const char *what) const {
    need(at, 1, what);
    return b_[at];
  }
  std::uint16_t u16(std::size_t at, const char *what) const {
    need(at, 2, what);
    return static_cast<std::uint16_t>(b_[at] | b_[at + 1] << 8);
  }
  std::uint32_t u32(std::size_t at, const char *what) const {
    need(at, 4, what);
    return std::uint32_t{b_[at]} | std::uint32_t{b_[at + 1]} << 8 |
           std::uint32_t{b_[at + 2]} << 16 | std::uint32_t{b_[at + 3]} << 24;
  }
  std::uint64_t u64(std::size_t at, const char *what) const {
    return u32(at, what) | std::uint64_t{u32(at + 4, what)} << 32;
  }
  std::uint16_t sum16(std::size_t at, std::size_t n, const char *what) const {
    need(at, n, what);
    std::uint32_t s = 0;
    for (std::size_t i = 0; i < n; ++i) s += b_[at + i];
    return static_cast<std::uint16_t>(s);
  }

private:
  std::span<const std::uint8_t> b_;
};

void expect(std::uint64_t found, std::uint64_t expected, std::size_t at, const char *what) {
  if (found != expected)
    throw_bad_input(fmt::format("discovery: bad {} at byte 0x{:X}: expected 0x{:X}, found 0x{:X}",
                                what, at, expected, found));
}

const std::vector<std::string> kGcV1_0 = {"gc_num_se",
                                          "gc_num_wgp0_per_sa",
                                          "gc_num_wgp1_per_sa",
                                          "gc_num_rb_per_se",
                                          "gc_num_gl2c",
                                          "gc_num_gprs",
                                          "gc_num_max_gs_thds",
                                          "gc_gs_table_depth",
                                          "gc_gsprim_buff_depth",
                                          "gc_parameter_cache_depth",
                                          "gc_double_offchip_lds_buffer",
                                          "gc_wave_size",
                                          "gc_max_waves_per_simd",
                                          "gc_max_scratch_slots_per_cu",
                                          "gc_lds_size",
                                          "gc_num_sc_per_se",
                                          "gc_num_sa_per_se",
                                          "gc_num_packer_per_sc",
                                          "gc_num_gl2a"};
const std::vector<std::string> kGcV1_1 = {"gc_num_tcp_per_sa", "gc_num_sdp_interface",
                                          "gc_num_tcps"};
const std::vector<std::string> kGcV1_2 = {"gc_num_tcp_per_wpg",
                                          "gc_tcp_l1_size",
                                          "gc_num_sqc_per_wgp",
                                          "gc_l1_instruction_cache_size_per_sqc",
                                          "gc_l1_data_cache_size_per_sqc",
                                          "gc_gl1c_per_sa",
                                          "gc_gl1c_size_per_instance",
                                          "gc_gl2c_per_gpu"};
const std::vector<std::string> kGcV1_3 = {"gc_tcp_size_per_cu",
                                          "gc_tcp_cache_line_size",
                                          "gc_instruction_cache_size_per_sqc",
                                          "gc_instruction_cache_line_size",
                                          "gc_scalar_data_cache_size_per_sqc",
                                          "gc_scalar_data_cache_line_size",
                                          "gc_tcc_size",
                                          "gc_tcc_cache_line_size"};
const std::vector<std::string> kGcV2_0 = {"gc_num_se",
                                          "gc_num_cu_per_sh",
                                          "gc_num_sh_per_se",
                                          "gc_num_rb_per_se",
                                          "gc_num_tccs",
                                          "gc_num_gprs",
                                          "gc_num_max_gs_thds",
                                          "gc_gs_table_depth",
                                          "gc_gsprim_buff_depth",
                                          "gc_parameter_cache_depth",
                                          "gc_double_offchip_lds_buffer",
                                          "gc_wave_size",
                                          "gc_max_waves_per_simd",
                                          "gc_max_scratch_slots_per_cu",
                                          "gc_lds_size",
                                          "gc_num_sc_per_se",
                                          "gc_num_packer_per_sc"};
const std::vector<std::string> kGcV2_1 = {"gc_num_tcp_per_sh",
                                          "gc_tcp_size_per_cu",
                                          "gc_num_sdp_interface",
                                          "gc_num_cu_per_sqc",
                                          "gc_instruction_cache_size_per_sqc",
                                          "gc_scalar_data_cache_size_per_sqc",
                                          "gc_tcc_size"};

void append(std::vector<std::string> &to, const std::vector<std::string> &from) {
  to.insert(to.end(), from.begin(), from.end());
}

constexpr std::size_t kBinaryHeaderSize = 60;
constexpr std::size_t kIpHeaderSize = 80;

}  // namespace

std::vector<std::string> gc_info_field_names(std::uint16_t major, std::uint16_t minor) {
  std::vector<std::string> names;
  if (major == 1 && minor <= 3) {
    append(names, kGcV1_0);
    if (minor >= 1) append(names, kGcV1_1);
    if (minor >= 2) append(names, kGcV1_2);
    if (minor >= 3) append(names, kGcV1_3);
  } else if (major == 2 && minor <= 1) {
    append(names, kGcV2_0);
    if (minor >= 1) append(names, kGcV2_1);
  }
  return names;
}

std::uint32_t GcInfo::field(const std::string &name) const {
  for (const auto &[n, v] : fields)
    if (n == name) return v;
  throw_bad_input(
      fmt::format("discovery: GC info v{}.{} has no field {}", version_major, version_minor, name));
}

std::vector<std::string> hwip_names(std::uint16_t hw_id) {
  switch (hw_id) {
  case 11: return {"GC"};
  case 41: return {"HDP"};
  case 42: return {"SDMA0"};
  case 43: return {"SDMA1"};
  case 68: return {"SDMA2"};
  case 69: return {"SDMA3"};
  case 91: return {"LSDMA"};
  case 34: return {"MMHUB"};
  case 35: return {"ATHUB"};
  case 108: return {"NBIO", "NBIF"};
  case 255: return {"MP0"};
  case 1: return {"MP1"};
  case 12: return {"VCN"};
  case 32: return {"VCE"};
  case 46: return {"DF"};
  case 271: return {"DCE"};
  case 40: return {"OSSSYS"};
  case 4: return {"SMUIO"};
  case 10: return {"PWR"};
  case 3: return {"THM"};
  case 6: return {"CLK"};
  case 150: return {"UMC"};
  case 200: return {"XGMI"};
  case 15: return {"DCI"};
  case 70: return {"PCIE"};
  case 21: return {"VPE"};
  case 44: return {"ISP"};
  default: return {};
  }
}

DiscoveryTable parse_ip_discovery(std::span<const std::uint8_t> bytes,
                                  const ParseOptions &options) {
  Reader r(bytes);
  DiscoveryTable t;
  r.need(0, kBinaryHeaderSize, "binary header");
  expect(r.u32(0, "binary signature"), kBinarySignature, 0, "binary signature");
  t.binary_version_major = r.u16(4, "version");
  t.binary_version_minor = r.u16(6, "version");
  const std::uint16_t binary_size = r.u16(10, "binary size");
  if (options.verify_checksums) {
    if (binary_size < 12 || binary_size > bytes.size())
      throw_bad_input(fmt::format("discovery: binary_size at byte 0xA is 0x{:X}, outside "
                                  "0xC..0x{:X} (the table's length)",
                                  binary_size, bytes.size()));
    expect(r.sum16(12, binary_size - 12u, "binary"), r.u16(8, "checksum"), 8, "binary checksum");
  }
  auto table = [&](unsigned i) {
    return std::pair{r.u16(12 + 8 * i, "table offset"), r.u16(14 + 8 * i, "table checksum")};
  };

  // IP discovery header.
  const auto [ip_at, ip_sum] = table(0);
  r.need(ip_at, kIpHeaderSize, "IP discovery header");
  expect(r.u32(ip_at, "IP signature"), kIpDiscoverySignature, ip_at, "IP discovery signature");
  t.ip_version = r.u16(ip_at + 4, "IP version");
  if (t.ip_version < 1 || t.ip_version > 4)
    throw_bad_input(fmt::format("discovery: IP discovery header version at byte 0x{:X} is {}, "
                                "expected 1..4",
                                ip_at + 4, t.ip_version));
  const std::uint16_t ip_size = r.u16(ip_at + 6, "IP size");
  if (options.verify_checksums)
    expect(r.sum16(ip_at, ip_size, "IP discovery table"), ip_sum, 12, "IP discovery checksum");
  const std::uint16_t num_dies = r.u16(ip_at + 12, "num_dies");
  if (num_dies > 16)
    throw_bad_input(fmt::format("discovery: num_dies at byte 0x{:X} is 0x{:X}, at most 0x10",
                                ip_at + 12, num_dies));
  t.base_addr_64_bit = t.ip_version >= 4 && (r.u8(ip_at + 78, "flags") & 1);
  const std::size_t base_size = t.base_addr_64_bit ? 8 : 4;
  for (unsigned d = 0; d < num_dies; ++d) {
    const std::size_t info = ip_at + 14 + 4 * d;
    Die die;
    die.die_id = r.u16(info, "die id");
    const std::size_t die_at = r.u16(info + 2, "die offset");
    r.need(die_at, 4, "die header");
    expect(r.u16(die_at, "die header id"), die.die_id, die_at, "die header id");
    const std::uint16_t num_ips = r.u16(die_at + 2, "num_ips");
    std::size_t at = die_at + 4;
    for (unsigned i = 0; i < num_ips; ++i) {
      r.need(at, 8, "IP entry");
      IpEntry e;
      e.hw_id = r.u16(at, "hw_id");
      e.instance = r.u8(at + 2, "instance");
      const unsigned n = r.u8(at + 3, "num_base_address");
      e.major = r.u8(at + 4, "major");
      e.minor = r.u8(at + 5, "minor");
      e.revision = r.u8(at + 6, "revision");
      r.need(at + 8, n * base_size, "IP entry base addresses");
      for (unsigned k = 0; k < n; ++k)
        e.bases.push_back(base_size == 8 ? r.u64(at + 8 + 8 * k, "base")
                                         : r.u32(at + 8 + 4 * k, "base"));
      at += 8 + n * base_size;
      die.ips.push_back(std::move(e));
    }
    t.dies.push_back(std::move(die));
  }

  // GC info.
  const auto [gc_at, gc_sum] = table(1);
  if (gc_at != 0) {
    r.need(gc_at, 12, "GC info header");
    t.has_gc_info = true;
    t.gc_info.version_major = r.u16(gc_at + 4, "GC info version");
    t.gc_info.version_minor = r.u16(gc_at + 6, "GC info version");
    const std::uint32_t size = r.u32(gc_at + 8, "GC info size");
    const auto names = gc_info_field_names(t.gc_info.version_major, t.gc_info.version_minor);
    if (names.empty())
      throw_bad_input(fmt::format("discovery: GC info version at byte 0x{:X} is {}.{}, expected "
                                  "1.0-1.3 or 2.0-2.1",
                                  gc_at + 4, t.gc_info.version_major, t.gc_info.version_minor));
    expect(size, 12 + 4 * names.size(), gc_at + 8, "GC info size");
    if (options.verify_checksums)
      expect(r.sum16(gc_at, size, "GC info table"), gc_sum, 20, "GC info checksum");
    for (std::size_t i = 0; i < names.size(); ++i)
      t.gc_info.fields.emplace_back(names[i], r.u32(gc_at + 12 + 4 * i, "GC info field"));
  }

  // Harvest.
  const auto [hv_at, hv_sum] = table(2);
  if (hv_at != 0 && r.u32(hv_at, "harvest signature") == kHarvestSignature) {
    r.need(hv_at, 8 + 32 * 4, "harvest table");
    if (options.verify_checksums)
      expect(r.sum16(hv_at, 8 + 32 * 4, "harvest table"), hv_sum, 28, "harvest checksum");
    for (unsigned i = 0; i < 32; ++i) {
      const std::uint32_t e = r.u32(hv_at + 8 + 4 * i, "harvest entry");
      const HarvestEntry h{static_cast<std::uint16_t>(e & 0xFFFF),
                           static_cast<std::uint8_t>((e >> 16) & 0xFF)};
      if (!hwip_names(h.hw_id).empty()) t.harvest.push_back(h);
    }
  }
  return t;
}

}  // namespace wavescope::hw::am
