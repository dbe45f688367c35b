// The synthetic discovery ROM (am-driver.md §3.3 layout): binary header, IP header at 0x3C, dies
// from 0x8C, GC info, then the harvest table; every checksum filled in. Bases of the non-mock
// profiles are plausible distinct values until real tables are captured (tier 2).

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/ip_discovery.hpp"

namespace wavescope::hw::am {

namespace {

void put16(std::vector<std::uint8_t> &b, std::size_t at, std::uint32_t v) {
  if (b.size() < at + 2) b.resize(at + 2);
  b[at] = v & 0xFF;
  b[at + 1] = (v >> 8) & 0xFF;
}
void put32(std::vector<std::uint8_t> &b, std::size_t at, std::uint32_t v) {
  put16(b, at, v & 0xFFFF);
  put16(b, at + 2, v >> 16);
}
std::uint16_t sum16(const std::vector<std::uint8_t> &b, std::size_t at, std::size_t n) {
  std::uint32_t s = 0;
  for (std::size_t i = 0; i < n; ++i) s += b[at + i];
  return static_cast<std::uint16_t>(s);
}

IpEntry ip(std::uint16_t hw, std::uint8_t inst, std::uint8_t ma, std::uint8_t mi, std::uint8_t rev,
           std::vector<std::uint64_t> bases) {
  return IpEntry{hw, inst, ma, mi, rev, std::move(bases)};
}

const std::vector<std::uint64_t> kGcBases = {0x1260, 0xA000, 0x1C000, 0x2402C00};
const std::vector<std::uint64_t> kMmBases = {0x1A000, 0x2408800};
const std::vector<std::uint64_t> kNbBases = {0x0, 0x14, 0xD20, 0x10400, 0x241B000, 0x4040000};
// NBIO 7.9 (MI300) addresses segments up to 8 (BIFC_*, DOORBELL0_CTRL_ENTRY_*): three more
// plausible bases, beyond BAR5 (reached through RSMU).
const std::vector<std::uint64_t> kMiNbBases = {0x0,       0x14,      0xD20,     0x10400,  0x241B000,
                                               0x4040000, 0x4C00000, 0x5000000, 0x5400000};
const std::vector<std::uint64_t> kMpBases = {0x16000, 0xDC0000, 0xE00000, 0xE40000, 0x243FC00};
const std::vector<std::uint64_t> kHdpBases = {0xF20, 0x240A400};
const std::vector<std::uint64_t> kOssBases = {0x10A0, 0x240A000};

std::vector<IpEntry> rdna(std::uint8_t gc_mi, std::uint8_t gc_rev, std::uint8_t gc_ma,
                          std::uint8_t sd_ma, std::uint8_t sd_mi, std::uint8_t sd_rev,
                          std::uint8_t mm_ma, std::uint8_t mm_mi, std::uint8_t nb_ma,
                          std::uint8_t nb_mi, std::uint8_t nb_rev, std::uint8_t mp_ma,
                          std::uint8_t mp_mi, std::uint8_t mp_rev, std::uint8_t hdp_ma,
                          std::uint8_t oss_ma) {
  return {ip(11, 0, gc_ma, gc_mi, gc_rev, kGcBases),  ip(42, 0, sd_ma, sd_mi, sd_rev, kGcBases),
          ip(34, 0, mm_ma, mm_mi, 0, kMmBases),       ip(108, 0, nb_ma, nb_mi, nb_rev, kNbBases),
          ip(255, 0, mp_ma, mp_mi, mp_rev, kMpBases), ip(1, 0, mp_ma, mp_mi, mp_rev, kMpBases),
          ip(41, 0, hdp_ma, 0, 0, kHdpBases),         ip(40, 0, oss_ma, 0, 0, kOssBases)};
}

}  // namespace

std::vector<std::string> chip_profile_names() {
  return {"tinygrad-mock", "navi31", "navi48", "mi300x", "mi300x-harvest"};
}

ChipProfile chip_profile(const std::string &name) {
  ChipProfile p;
  p.name = name;
  if (name == "tinygrad-mock") {
    p.pad_bases = 10;
    p.dies = {{0, rdna(0, 0, 12, 7, 0, 0, 4, 1, 6, 3, 1, 14, 0, 2, 7, 7)}};
    p.gc_major = 2;
    p.gc_minor = 1;
    // se, cu/sh, sh/se, rb/se, tccs, gprs, gs thds, gs table, gsprim, param cache, dbl lds,
    // wave size, waves/simd, scratch slots, lds KiB
    p.gc_values = {2, 8, 2, 4, 8, 0, 0, 0, 0, 0, 0, 32, 16, 32, 64};
  } else if (name == "navi31") {
    p.dies = {{0, rdna(0, 0, 11, 6, 0, 0, 3, 0, 4, 3, 0, 13, 0, 0, 6, 6)}};
    p.gc_major = 1;
    p.gc_minor = 2;
    p.gc_values = {6, 4, 4, 4, 24, 1536, 0, 0, 0, 0, 1, 32, 16, 32, 64, 2, 2, 4, 16};
  } else if (name == "navi48") {
    p.dies = {{0, rdna(0, 1, 12, 7, 0, 1, 4, 1, 6, 3, 1, 14, 0, 3, 7, 7)}};  // SDMA 7.0.1
    p.gc_major = 1;
    p.gc_minor = 3;
    p.gc_values = {4, 4, 4, 4, 16, 1536, 0, 0, 0, 0, 1, 32, 16, 32, 64, 2, 2, 4, 16};
  } else if (name == "mi300x" || name == "mi300x-harvest") {
    p.base_addr_64_bit = true;
    for (std::uint16_t aid = 0; aid < 4; ++aid) {
      Die die{aid, {}};
      const std::uint64_t off = std::uint64_t{aid} << 32;
      for (std::uint8_t x = 0; x < 2; ++x) {
        const std::uint8_t xcc = static_cast<std::uint8_t>(aid * 2 + x);
        die.ips.push_back(
            ip(11, xcc, 9, 4, 3,
               {0x1260 + off, 0xA000 + off + xcc * 0x10000u, 0x1C000 + off, 0x2402C00 + off}));
      }
      die.ips.push_back(
          ip(34, static_cast<std::uint8_t>(aid), 1, 8, 0, {0x1A000 + off, 0x2408800 + off}));
      if (aid == 0) {
        die.ips.push_back(ip(42, 0, 4, 4, 2, kGcBases));
        die.ips.push_back(ip(108, 0, 7, 9, 0, kMiNbBases));
        die.ips.push_back(ip(255, 0, 13, 0, 6, kMpBases));
        die.ips.push_back(ip(1, 0, 13, 0, 6, kMpBases));
        die.ips.push_back(ip(41, 0, 4, 4, 2, kHdpBases));
        die.ips.push_back(ip(40, 0, 4, 4, 2, kOssBases));
      }
      p.dies.push_back(std::move(die));
    }
    if (name == "mi300x-harvest") p.harvest = {{11, 1}};
    p.gc_major = 2;
    p.gc_minor = 1;
    p.gc_values = {1, 10, 4, 4, 16, 0, 0, 0, 0, 0, 0, 64, 8, 32, 64};
  } else {
    throw Error(ErrorKind::Usage, fmt::format("unknown chip profile '{}' (known: {})", name,
                                              fmt::join(chip_profile_names(), ", ")));
  }
  return p;
}

std::vector<std::uint8_t> build_discovery_rom(const ChipProfile &p) {
  std::vector<std::uint8_t> b(60, 0);
  const std::size_t ip_at = 0x3C;
  b.resize(ip_at + 80, 0);
  put32(b, ip_at, kIpDiscoverySignature);
  put16(b, ip_at + 4, 4);
  put16(b, ip_at + 12, static_cast<std::uint32_t>(p.dies.size()));
  b[ip_at + 78] = p.base_addr_64_bit ? 1 : 0;
  const std::size_t base_size = p.base_addr_64_bit ? 8 : 4;
  std::size_t at = ip_at + 80;
  for (std::size_t d = 0; d < p.dies.size(); ++d) {
    put16(b, ip_at + 14 + 4 * d, p.dies[d].die_id);
    put16(b, ip_at + 16 + 4 * d, static_cast<std::uint32_t>(at));
    put16(b, at, p.dies[d].die_id);
    put16(b, at + 2, static_cast<std::uint32_t>(p.dies[d].ips.size()));
    at += 4;
    for (const auto &e : p.dies[d].ips) {
      const std::size_t n = std::max<std::size_t>(e.bases.size(), p.pad_bases);
      b.resize(at + 8 + n * base_size, 0);
      put16(b, at, e.hw_id);
      b[at + 2] = e.instance;
      b[at + 3] = static_cast<std::uint8_t>(n);
      b[at + 4] = e.major;
      b[at + 5] = e.minor;
      b[at + 6] = e.revision;
      for (std::size_t k = 0; k < e.bases.size(); ++k) {
        put32(b, at + 8 + k * base_size, static_cast<std::uint32_t>(e.bases[k]));
        if (base_size == 8)
          put32(b, at + 12 + k * base_size, static_cast<std::uint32_t>(e.bases[k] >> 32));
      }
      at += 8 + n * base_size;
    }
  }
  const std::size_t ip_size = at - ip_at;
  put16(b, ip_at + 6, static_cast<std::uint32_t>(ip_size));
  put16(b, 12, ip_at);
  put16(b, 14, sum16(b, ip_at, ip_size));
  put16(b, 16, static_cast<std::uint32_t>(ip_size));

  const auto names = gc_info_field_names(p.gc_major, p.gc_minor);
  const std::size_t gc_at = at, gc_size = 12 + 4 * names.size();
  b.resize(gc_at + gc_size, 0);
  put32(b, gc_at, 1);
  put16(b, gc_at + 4, p.gc_major);
  put16(b, gc_at + 6, p.gc_minor);
  put32(b, gc_at + 8, static_cast<std::uint32_t>(gc_size));
  for (std::size_t i = 0; i < names.size() && i < p.gc_values.size(); ++i)
    put32(b, gc_at + 12 + 4 * i, p.gc_values[i]);
  put16(b, 20, gc_at);
  put16(b, 22, sum16(b, gc_at, gc_size));
  put16(b, 24, static_cast<std::uint32_t>(gc_size));
  at = gc_at + gc_size;

  if (!p.harvest.empty()) {
    const std::size_t hv_at = at, hv_size = 8 + 32 * 4;
    b.resize(hv_at + hv_size, 0);
    put32(b, hv_at, kHarvestSignature);
    put16(b, hv_at + 4, 1);
    put16(b, hv_at + 6, static_cast<std::uint32_t>(hv_size));
    for (std::size_t i = 0; i < p.harvest.size() && i < 32; ++i)
      put32(b, hv_at + 8 + 4 * i, p.harvest[i].hw_id | std::uint32_t{p.harvest[i].instance} << 16);
    put16(b, 28, hv_at);
    put16(b, 30, sum16(b, hv_at, hv_size));
    put16(b, 32, static_cast<std::uint32_t>(hv_size));
    at = hv_at + hv_size;
  }

  put32(b, 0, kBinarySignature);
  put16(b, 4, 1);
  put16(b, 10, static_cast<std::uint32_t>(at));
  put16(b, 8, sum16(b, 12, at - 12));
  return b;
}

}  // namespace wavescope::hw::am
