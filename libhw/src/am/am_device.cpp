#include "wavescope/hw/am/am_device.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <unordered_map>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/regs/register_codec.hpp"

namespace wavescope::hw::am {

namespace {

constexpr std::uint64_t kMmIndex = 0x0, kMmData = 0x1, kMmIndexHi = 0x6;
constexpr std::uint64_t kRccConfigMemsize = 0xDE3;
constexpr std::size_t kBlockDwords = 16384;  // 64 KiB per block transfer

std::string upper(std::string_view s) {
  std::string out(s);
  for (auto &c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

double seconds(Clock::Duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

struct AmDevice::NameCache {
  std::unordered_map<std::string, regs::RegisterRef> refs;
};

AmDevice::AmDevice(PciFunction &function, Clock &clock, AmDeviceOptions options)
    : function_(function), clock_(clock), options_(options), names_(std::make_unique<NameCache>()) {
  vram_ = &function_.map_bar(0);
  doorbells_ = &function_.map_bar(2);
  mmio_ = &function_.map_bar(5);
  mmio_dwords_ = mmio_->size() / 4;
  read_discovery();
  map_ = regs::RegisterMap::from_discovery(discovery_);
  auto optional = [this](std::string_view name) -> std::uint64_t {
    return has_register(name) ? address(name) : 0;
  };
  rsmu_index_ = optional("nbio.BIF_BX_PF0_RSMU_INDEX");
  rsmu_data_ = optional("nbio.BIF_BX_PF0_RSMU_DATA");
  index2_ = optional("nbio.BIF_BX0_PCIE_INDEX2");
  index2_hi_ = optional("nbio.BIF_BX0_PCIE_INDEX2_HI");
  data2_ = optional("nbio.BIF_BX0_PCIE_DATA2");
}

AmDevice::~AmDevice() = default;

void AmDevice::read_discovery() {
  const std::uint32_t mib = read_dword(kRccConfigMemsize);
  if (mib == 0 || mib == 0xFFFF'FFFFu)
    throw Error(ErrorKind::Device,
                fmt::format("{}: RCC_CONFIG_MEMSIZE (register 0xDE3) reads 0x{:08X}: no VRAM size, "
                            "the device is not answering as an AMD GPU",
                            function_.id(), mib));
  vram_size_ = std::uint64_t{mib} << 20;
  large_bar_ = vram_->size() >= vram_size_;
  discovery_bytes_.assign(kDiscoverySize, 0);
  read_vram(vram_size_ - kDiscoveryOffsetFromTop, discovery_bytes_);
  try {
    discovery_ = parse_ip_discovery(discovery_bytes_, {options_.verify_discovery_checksums});
  } catch (const Error &e) {
    throw Error(e.kind(),
                fmt::format("{}: the IP discovery table at VRAM 0x{:X} (top - 64 KiB): "
                            "{}",
                            function_.id(), vram_size_ - kDiscoveryOffsetFromTop, e.what()));
  }
}

std::uint64_t AmDevice::reserved_vram_size() const {
  const auto gc = ip_version("GC");
  return (gc.major == 9 && (gc.minor == 4 || gc.minor == 5)) ? 384ull << 20 : 64ull << 20;
}

regs::IpVersion AmDevice::ip_version(std::string_view hwip) const {
  const auto want = upper(hwip);
  for (const auto &die : discovery_.dies)
    for (const auto &e : die.ips)
      for (const auto &n : hwip_names(e.hw_id))
        if (n == want) return {e.major, e.minor, e.revision};
  return {};
}

unsigned AmDevice::xcc_count() const {
  unsigned n = 0;
  for (const auto &die : discovery_.dies)
    for (const auto &e : die.ips)
      if (e.hw_id == 11) {
        const bool harvested =
            std::any_of(discovery_.harvest.begin(), discovery_.harvest.end(),
                        [&](const auto &h) { return h.hw_id == 11 && h.instance == e.instance; });
        if (!harvested) ++n;
      }
  return n;
}

unsigned AmDevice::instances(std::string_view block) const {
  const auto *b = map_.block(block);
  return b ? static_cast<unsigned>(b->bases.size()) : 0;
}

const regs::RegisterRef &AmDevice::reg(std::string_view name) const {
  const std::string key(name);
  auto it = names_->refs.find(key);
  if (it == names_->refs.end()) it = names_->refs.emplace(key, resolve_register(map_, name)).first;
  return it->second;
}

bool AmDevice::has_register(std::string_view name) const {
  try {
    (void)reg(name);
    return true;
  } catch (const Error &) {
    return false;
  }
}

std::uint64_t AmDevice::address(std::string_view name, unsigned instance) const {
  const auto &r = reg(name);
  return regs::register_address(*r.block, *r.reg, instance);
}

std::uint32_t AmDevice::rreg(std::string_view name, unsigned instance) {
  return read_dword(address(name, instance));
}

void AmDevice::wreg(std::string_view name, std::uint32_t value, unsigned instance) {
  write_dword(address(name, instance), value);
}

std::uint32_t AmDevice::wreg_fields(std::string_view name, Fields fields, unsigned instance,
                                    std::uint32_t base) {
  const auto &r = reg(name);
  std::vector<std::pair<std::string_view, std::uint64_t>> list(fields);
  const auto value = static_cast<std::uint32_t>(regs::update_register_value(*r.reg, base, list));
  wreg(name, value, instance);
  return value;
}

std::uint32_t AmDevice::update(std::string_view name, Fields fields, unsigned instance) {
  const auto &r = reg(name);
  std::vector<std::pair<std::string_view, std::uint64_t>> list(fields);
  const auto addr = address(name, instance);
  return regs::read_modify_write([this](std::uint64_t a) { return read_dword(a); },
                                 [this](std::uint64_t a, std::uint32_t v) { write_dword(a, v); },
                                 addr, *r.reg, list);
}

std::uint64_t AmDevice::rfield(std::string_view name, std::string_view field, unsigned instance) {
  const auto &r = reg(name);
  const auto *f = r.reg->field(field);
  if (!f)
    throw Error(ErrorKind::Usage, fmt::format("register {}.{} has no field '{}'", r.block->name,
                                              r.reg->umr_name(), field));
  return regs::decode_field(*f, rreg(name, instance));
}

void AmDevice::record(bool write, std::uint64_t address, std::uint32_t value,
                      RegisterAccessPath path) {
  if (!options_.record_trace) return;
  if (write)
    trace_.push_back({true, address, value, path});
  else
    append_register_access(trace_, {false, address, value, path});
}

std::uint32_t AmDevice::raw_read(std::uint64_t address) { return mmio_->read32(address * 4); }

void AmDevice::raw_write(std::uint64_t address, std::uint32_t value) {
  mmio_->write32(address * 4, value);
}

std::uint32_t AmDevice::read_dword(std::uint64_t address) {
  if (address >> 32) return read_dword_index2(address & 0xFFFF'FFFFull, (address >> 32) & 3);
  if (address < mmio_dwords_) {
    const auto v = raw_read(address);
    record(false, address, v, RegisterAccessPath::Direct);
    return v;
  }
  if (!rsmu_index_ || !rsmu_data_)
    throw Error(ErrorKind::Usage,
                fmt::format("register 0x{:X} is beyond BAR5 (0x{:X} dwords) and this chip's "
                            "register map has no RSMU INDEX/DATA to reach it",
                            address, mmio_dwords_));
  raw_write(rsmu_index_, static_cast<std::uint32_t>(address * 4));
  const auto v = raw_read(rsmu_data_);
  record(false, address, v, RegisterAccessPath::Rsmu);
  return v;
}

void AmDevice::write_dword(std::uint64_t address, std::uint32_t value) {
  if (address >> 32)
    return write_dword_index2(address & 0xFFFF'FFFFull, value, (address >> 32) & 3);
  if (address < mmio_dwords_) {
    record(true, address, value, RegisterAccessPath::Direct);
    raw_write(address, value);
    return;
  }
  if (!rsmu_index_ || !rsmu_data_)
    throw Error(ErrorKind::Usage,
                fmt::format("register 0x{:X} is beyond BAR5 (0x{:X} dwords) and this chip's "
                            "register map has no RSMU INDEX/DATA to reach it",
                            address, mmio_dwords_));
  record(true, address, value, RegisterAccessPath::Rsmu);
  raw_write(rsmu_index_, static_cast<std::uint32_t>(address * 4));
  raw_write(rsmu_data_, value);
}

void AmDevice::write_dword_index2(std::uint64_t address, std::uint32_t value, unsigned aid) {
  if (!index2_ || !data2_)
    throw Error(ErrorKind::Usage, fmt::format("register 0x{:X} of AID {}: this chip's register map "
                                              "has no PCIE INDEX2/DATA2",
                                              address, aid));
  const std::uint64_t a =
      address * 4 + (aid > 0 ? ((std::uint64_t{aid & 3} << 32) | 1ull << 34) : 0);
  record(true, address | std::uint64_t{aid & 3} << 32, value, RegisterAccessPath::PcieIndex2);
  raw_write(index2_, static_cast<std::uint32_t>(a));
  if ((a >> 32) && index2_hi_) raw_write(index2_hi_, static_cast<std::uint32_t>(a >> 32) & 0xFF);
  raw_write(data2_, value);
  if ((a >> 32) && index2_hi_) raw_write(index2_hi_, 0);
}

std::uint32_t AmDevice::read_dword_index2(std::uint64_t address, unsigned aid) {
  if (!index2_ || !data2_)
    throw Error(ErrorKind::Usage, fmt::format("register 0x{:X} of AID {}: this chip's register map "
                                              "has no PCIE INDEX2/DATA2",
                                              address, aid));
  const std::uint64_t a =
      address * 4 + (aid > 0 ? ((std::uint64_t{aid & 3} << 32) | 1ull << 34) : 0);
  raw_write(index2_, static_cast<std::uint32_t>(a));
  if ((a >> 32) && index2_hi_) raw_write(index2_hi_, static_cast<std::uint32_t>(a >> 32) & 0xFF);
  const auto v = raw_read(data2_);
  if ((a >> 32) && index2_hi_) raw_write(index2_hi_, 0);
  record(false, address | std::uint64_t{aid & 3} << 32, v, RegisterAccessPath::PcieIndex2);
  return v;
}

std::uint32_t AmDevice::wait_reg(std::string_view name, std::uint32_t mask, std::uint32_t value,
                                 Clock::Duration timeout, std::string_view what,
                                 unsigned instance) {
  const auto addr = address(name, instance);
  std::uint32_t last = 0;
  wait_until(
      [&] {
        last = read_dword(addr);
        return (last & mask) == value;
      },
      timeout, what,
      [&] {
        return fmt::format("{} (0x{:X}) & 0x{:08X} == 0x{:08X} never held; last read 0x{:08X}",
                           name, addr, mask, value, last);
      });
  return last;
}

void AmDevice::wait_until(const std::function<bool()> &done, Clock::Duration timeout,
                          std::string_view what, const std::function<std::string()> &describe) {
  const auto start = clock_.now();
  for (;;) {
    if (done()) return;
    if (clock_.now() - start >= timeout)
      throw Error(ErrorKind::Timeout,
                  fmt::format("{}: {} (timeout after {:.3f} s{})", function_.id(), what,
                              seconds(timeout), describe ? ": " + describe() : ""));
    clock_.sleep(options_.poll_interval);
  }
}

std::uint64_t AmDevice::bar0_reach() const { return std::min(vram_->size(), vram_size_); }

std::uint32_t AmDevice::read_vram32(std::uint64_t paddr) {
  if (paddr + 4 <= bar0_reach()) return vram_->read32(paddr);
  write_dword(kMmIndexHi, static_cast<std::uint32_t>(paddr >> 31));
  write_dword(kMmIndex, static_cast<std::uint32_t>((paddr & 0x7FFF'FFFF) | 0x8000'0000));
  return read_dword(kMmData);
}

void AmDevice::write_vram32(std::uint64_t paddr, std::uint32_t value) {
  if (paddr + 4 <= bar0_reach()) return vram_->write32(paddr, value);
  write_dword(kMmIndexHi, static_cast<std::uint32_t>(paddr >> 31));
  write_dword(kMmIndex, static_cast<std::uint32_t>((paddr & 0x7FFF'FFFF) | 0x8000'0000));
  write_dword(kMmData, value);
}

void AmDevice::read_vram(std::uint64_t paddr, std::span<std::uint8_t> out) {
  if (paddr > vram_size_ || out.size() > vram_size_ - paddr)
    throw Error(ErrorKind::Usage, fmt::format("VRAM read of 0x{:X} bytes at 0x{:X} is outside the "
                                              "0x{:X}-byte VRAM",
                                              out.size(), paddr, vram_size_));
  std::size_t i = 0;
  while (i < out.size()) {
    const std::uint64_t p = paddr + i;
    const std::uint64_t aligned = p & ~3ull;
    const std::size_t skip = p - aligned;
    // A run of whole dwords inside BAR0: one block read.
    if (skip == 0 && out.size() - i >= 4 && p + 4 <= bar0_reach()) {
      const std::size_t dwords =
          std::min<std::uint64_t>({(out.size() - i) / 4, (bar0_reach() - p) / 4, kBlockDwords});
      const auto words = vram_->read_block(p, dwords);
      std::memcpy(out.data() + i, words.data(), dwords * 4);
      i += dwords * 4;
      continue;
    }
    const std::uint32_t w = read_vram32(aligned);
    const std::size_t n = std::min<std::size_t>(4 - skip, out.size() - i);
    for (std::size_t k = 0; k < n; ++k)
      out[i + k] = static_cast<std::uint8_t>(w >> (8 * (skip + k)));
    i += n;
  }
}

void AmDevice::write_vram(std::uint64_t paddr, std::span<const std::uint8_t> bytes) {
  if (paddr > vram_size_ || bytes.size() > vram_size_ - paddr)
    throw Error(ErrorKind::Usage, fmt::format("VRAM write of 0x{:X} bytes at 0x{:X} is outside the "
                                              "0x{:X}-byte VRAM",
                                              bytes.size(), paddr, vram_size_));
  std::size_t i = 0;
  std::vector<std::uint32_t> words;
  while (i < bytes.size()) {
    const std::uint64_t p = paddr + i;
    const std::uint64_t aligned = p & ~3ull;
    const std::size_t skip = p - aligned;
    if (skip == 0 && bytes.size() - i >= 4 && p + 4 <= bar0_reach()) {
      const std::size_t dwords =
          std::min<std::uint64_t>({(bytes.size() - i) / 4, (bar0_reach() - p) / 4, kBlockDwords});
      words.resize(dwords);
      std::memcpy(words.data(), bytes.data() + i, dwords * 4);
      vram_->write_block(p, words);
      i += dwords * 4;
      continue;
    }
    const std::size_t n = std::min<std::size_t>(4 - skip, bytes.size() - i);
    std::uint32_t w = n == 4 ? 0 : read_vram32(aligned);
    for (std::size_t k = 0; k < n; ++k) {
      w &= ~(0xFFu << (8 * (skip + k)));
      w |= std::uint32_t{bytes[i + k]} << (8 * (skip + k));
    }
    write_vram32(aligned, w);
    i += n;
  }
}

void AmDevice::zero_vram(std::uint64_t paddr, std::uint64_t size) {
  const std::vector<std::uint8_t> zeros(std::min<std::uint64_t>(size, kBlockDwords * 4), 0);
  for (std::uint64_t done = 0; done < size;) {
    const auto n = std::min<std::uint64_t>(size - done, zeros.size());
    write_vram(paddr + done, std::span(zeros.data(), n));
    done += n;
  }
}

std::uint16_t AmDevice::pci_command() {
  return static_cast<std::uint16_t>(function_.config_read(0x04, 2));
}

void AmDevice::set_bus_master(bool on) {
  const auto command = pci_command();
  function_.config_write(0x04, on ? (command | 0x4) : (command & ~0x4), 2);
  (void)pci_command();  // read back: the write has landed
}

const RegisterNamer &AmDevice::namer() const {
  if (!namer_) namer_ = std::make_unique<RegisterNamer>(map_);
  return *namer_;
}

}  // namespace wavescope::hw::am
