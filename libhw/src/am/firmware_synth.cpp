// Synthetic amdgpu firmware files (am-driver.md §9.7 headers, §9.6 piece sizes from Debian's
// 20250410 blobs) for the simulator and the tests, and the firmware-directory source.

#include <fstream>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/firmware_set.hpp"

namespace wavescope::hw::am {

namespace {

// A file under construction: a 32-byte common header, the versioned fields, then pieces of
// deterministic filler placed from `payload` on.
class Blob {
public:
  Blob(const std::string &name, std::uint16_t major, std::uint16_t minor, std::uint32_t payload)
      : name_(name), payload_(payload), end_(payload) {
    put16(8, major);
    put16(10, minor);
    put32(16, 0x0001'0002);  // ucode_version
    put32(24, payload);      // ucode_array_offset_bytes
  }
  void put16(std::size_t at, std::uint32_t v) {
    grow(at + 2);
    b_[at] = v & 0xFF;
    b_[at + 1] = (v >> 8) & 0xFF;
  }
  void put32(std::size_t at, std::uint32_t v) {
    put16(at, v & 0xFFFF);
    put16(at + 2, v >> 16);
  }
  // Appends `size` filler bytes (seeded by the file and piece names) and returns their offset.
  std::uint32_t piece(const std::string &what, std::uint32_t size) {
    const std::uint32_t at = end_;
    grow(at + size);
    // A fixed generator (FNV-1a of the names, then xorshift), the same on every platform.
    std::uint64_t x = 0xCBF2'9CE4'8422'2325ull;
    for (char c : name_ + "/" + what) x = (x ^ static_cast<unsigned char>(c)) * 0x100'0000'01B3ull;
    for (std::uint32_t i = 0; i < size; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      b_[at + i] = static_cast<std::uint8_t>(x);
    }
    end_ = (at + size + 0xFF) & ~0xFFu;
    return at;
  }
  std::vector<std::uint8_t> finish(std::uint32_t ucode_size, std::uint32_t header_size) {
    grow(end_);
    put32(0, static_cast<std::uint32_t>(b_.size()));
    put32(4, header_size);
    put32(20, ucode_size);
    return std::move(b_);
  }
  std::uint32_t payload() const { return payload_; }

private:
  void grow(std::size_t n) {
    if (b_.size() < n) b_.resize(n, 0);
  }
  std::string name_;
  std::uint32_t payload_, end_;
  std::vector<std::uint8_t> b_;
};

struct Parsed {
  std::string prefix;  // psp, smu, sdma, gc
  regs::IpVersion v;
  std::string suffix;  // sos, pfp, me, mec, imu, rlc or ""
};

std::optional<Parsed> parse_name(const std::string &name) {
  if (name.size() < 5 || name.substr(name.size() - 4) != ".bin") return std::nullopt;
  std::vector<std::string> parts;
  std::string cur;
  for (char c : name.substr(0, name.size() - 4)) {
    if (c == '_') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  if (parts.size() < 4) return std::nullopt;
  Parsed p;
  p.prefix = parts[0];
  try {
    p.v = {static_cast<unsigned>(std::stoul(parts[1])), static_cast<unsigned>(std::stoul(parts[2])),
           static_cast<unsigned>(std::stoul(parts[3]))};
  } catch (const std::exception &) {
    return std::nullopt;
  }
  if (parts.size() == 5) p.suffix = parts[4];
  if (parts.size() > 5) return std::nullopt;
  return p;
}

bool is(regs::IpVersion v, unsigned a, unsigned b, unsigned c) {
  return v == regs::IpVersion{a, b, c};
}

std::vector<std::uint8_t> sos(const std::string &name, regs::IpVersion v) {
  using namespace psp_fw;
  std::vector<std::uint32_t> types;
  if (is(v, 13, 0, 0))
    types = {kSysDrv, kSos, kToc, kKdb, kSpl, kRl};
  else if (is(v, 14, 0, 2))
    types = {kKdb, kSysDrv, kSos, kSocDrv, kIntfDrv, kDbgDrv, kToc, kIpKeyMgrDrv, kSpl, kRl};
  else if (is(v, 14, 0, 3))
    types = {kKdb, kSysDrv,      kSos, kSocDrv, kIntfDrv, kDbgDrv,
             kToc, kIpKeyMgrDrv, kSpl, kRasDrv, kRl};
  else if (is(v, 13, 0, 6))
    types = {kSysDrv, kSos, kKdb, kSocDrv, kIntfDrv, kDbgDrv, kRasDrv, kRl};
  else
    return {};
  const bool v21 = is(v, 13, 0, 6);
  Blob b(name, 2, v21 ? 1 : 0, v21 ? 0x200 : 0x100);
  b.put16(12, v.major);
  b.put16(14, v.minor);
  b.put32(32, static_cast<std::uint32_t>(types.size()));
  const std::size_t desc = v21 ? 40 : 36;
  for (std::size_t i = 0; i < types.size(); ++i) {
    const std::uint32_t size = types[i] == kSos      ? 0x3'2000
                               : types[i] == kSysDrv ? 0x8000
                               : types[i] == kToc    ? 0x400
                                                     : 0x1000 + 0x200 * types[i];
    const auto at = b.piece(psp_fw_type_name(types[i]), size);
    b.put32(desc + 16 * i, types[i]);
    b.put32(desc + 16 * i + 4, 0x10000 + types[i]);
    b.put32(desc + 16 * i + 8, at - b.payload());
    b.put32(desc + 16 * i + 12, size);
  }
  return b.finish(0, static_cast<std::uint32_t>(desc + 16 * types.size()));
}

std::vector<std::uint8_t> smu(const std::string &name, regs::IpVersion v) {
  if (is(v, 13, 0, 6)) {  // v2.1, pptable only: one P2S table entry
    Blob b(name, 2, 1, 0x100);
    const auto at = b.piece("p2s", 0x480);
    b.put32(36, 1);
    b.put32(40, 0x40);  // entry offset
    b.put32(0x40, 0x50325358);
    b.put32(0x44, at);
    b.put32(0x48, 0x480);
    return b.finish(0, 0x4C);
  }
  const bool v21 = is(v, 13, 0, 0);
  std::uint32_t size = 0;
  if (v21)
    size = 0x3FE00;
  else if (is(v, 14, 0, 2) || is(v, 14, 0, 3))
    size = 0x4FE00;
  else
    return {};
  Blob b(name, 2, v21 ? 1 : 0, 0x100);
  b.piece("ucode", size);
  return b.finish(size, 44);
}

std::vector<std::uint8_t> sdma(const std::string &name, regs::IpVersion v) {
  if (is(v, 6, 0, 0)) {  // v2.0: TH1 = ctl piece, TH0 = ctx piece at the payload start
    Blob b(name, 2, 0, 0x100);
    b.piece("ctx", 0x4400);
    const auto ctl = b.piece("ctl", 0x4200);
    b.put32(36, 0x4400);
    b.put32(48, ctl);
    b.put32(52, 0x4200);
    return b.finish(0x4400 + 0x4200, 64);
  }
  if (is(v, 7, 0, 0) || is(v, 7, 0, 1)) {  // v3.0
    Blob b(name, 3, 0, 0x100);
    const auto at = b.piece("ucode", 0xB400);
    b.put32(36, at);
    b.put32(40, 0xB400);
    return b.finish(0xB400, 44);
  }
  if (is(v, 4, 4, 2)) {  // v1.0: one image for SDMA0..3
    Blob b(name, 1, 0, 0x100);
    b.piece("ucode", 0x8500);
    return b.finish(0x8500, 48);
  }
  return {};
}

std::vector<std::uint8_t> gfx(const std::string &name, regs::IpVersion v, const std::string &fw) {
  if (is(v, 9, 4, 3)) {
    if (fw != "mec") return {};
    Blob b(name, 1, 0, 0x100);
    b.piece("ucode", 0x41440 + 0x480);
    b.put32(36, 0x41440 / 4);  // jt_offset (dwords)
    b.put32(40, 0x480 / 4);    // jt_size (dwords)
    return b.finish(0x41440 + 0x480, 44);
  }
  std::uint32_t code = 0, stack = 0;
  if (is(v, 11, 0, 0)) {
    if (fw != "mec") return {};
    code = 0x41300, stack = 0x22000;
  } else if (is(v, 12, 0, 0) || is(v, 12, 0, 1)) {
    if (fw == "pfp")
      code = 0x15CD0, stack = 0x40000;
    else if (fw == "me")
      code = 0x27200, stack = 0x40000;
    else if (fw == "mec")
      code = 0x2D2E0, stack = 0x40000;
    else
      return {};
  } else {
    return {};
  }
  Blob b(name, 2, 0, 0x100);
  const auto c = b.piece("code", code);
  const auto s = b.piece("stack", stack);
  b.put32(36, code);
  b.put32(40, c);
  b.put32(44, stack);
  b.put32(48, s);
  b.put32(52, 0x3000);  // ucode start 0x7_0000_3000, as Navi31's MEC
  b.put32(56, 0x7);
  return b.finish(code, 60);
}

std::vector<std::uint8_t> imu(const std::string &name, regs::IpVersion v) {
  if (v.major < 11) return {};
  Blob b(name, 1, 0, 0x100);
  const auto i = b.piece("iram", 0x10200);
  b.piece("dram", 0x10200);  // not at a 256-byte boundary in real files; here it follows IRAM
  b.put32(32, 0x10200);
  b.put32(36, i);
  b.put32(40, 0x10200);
  b.put32(44, i + 0x10200);
  return b.finish(0x20400, 48);
}

std::vector<std::uint8_t> rlc(const std::string &name, regs::IpVersion v) {
  unsigned minor = 0;
  if (is(v, 11, 0, 0))
    minor = 3;
  else if (is(v, 12, 0, 0) || is(v, 12, 0, 1))
    minor = 2;
  else if (is(v, 9, 4, 3))
    minor = 1;
  else
    return {};
  Blob b(name, 2, static_cast<std::uint16_t>(minor), 0x100);
  const std::uint32_t g_size = minor == 1 ? 0x6300 : 0x6200;
  b.piece("rlc_g", g_size);
  auto place = [&](const char *what, std::uint32_t size, std::size_t size_at, std::size_t off_at) {
    const auto at = b.piece(what, size);
    b.put32(size_at, size);
    b.put32(off_at, at);
  };
  if (minor == 1) {
    place("srm_cntl", 0x340, 116, 120);
    place("gpm", 0x700, 132, 136);
    place("srm", 0x1580, 148, 152);
  }
  if (minor >= 2) {
    place("iram", 0x10200, 156, 160);
    place("dram", 0x8200, 164, 168);
  }
  if (minor == 3) {
    place("rlcp", 0x2200, 180, 184);
    place("rlcv", 0x3200, 196, 200);
  }
  const std::uint32_t header = minor == 1 ? 156 : minor == 2 ? 172 : 204;
  return b.finish(g_size, header);
}

}  // namespace

std::optional<std::vector<std::uint8_t>> synthesize_firmware(const std::string &name) {
  const auto p = parse_name(name);
  if (!p) return std::nullopt;
  std::vector<std::uint8_t> out;
  if (p->prefix == "psp" && p->suffix == "sos")
    out = sos(name, p->v);
  else if (p->prefix == "smu" && p->suffix.empty())
    out = smu(name, p->v);
  else if (p->prefix == "sdma" && p->suffix.empty())
    out = sdma(name, p->v);
  else if (p->prefix == "gc" && p->suffix == "imu")
    out = imu(name, p->v);
  else if (p->prefix == "gc" && p->suffix == "rlc")
    out = rlc(name, p->v);
  else if (p->prefix == "gc")
    out = gfx(name, p->v, p->suffix);
  if (out.empty()) return std::nullopt;
  return out;
}

std::optional<std::vector<std::uint8_t>> SyntheticFirmware::load(const std::string &name) {
  return synthesize_firmware(name);
}

std::optional<std::vector<std::uint8_t>> DirectoryFirmware::load(const std::string &name) {
  for (const auto &path : {dir_ / "amdgpu" / name, dir_ / name}) {
    std::ifstream in(path, std::ios::binary);
    if (!in) continue;
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
    return bytes;
  }
  return std::nullopt;
}

}  // namespace wavescope::hw::am
