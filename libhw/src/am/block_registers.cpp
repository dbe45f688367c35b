#include "wavescope/hw/am/block_registers.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/regs/register_codec.hpp"

namespace wavescope::hw::am {

namespace {
using Fields = std::span<const std::pair<std::string_view, std::uint64_t>>;

// Hardware ids (§3.2 table).
constexpr std::uint16_t kHwGc = 11, kHwSdma0 = 42, kHwNbio = 108, kHwOsssys = 40, kHwHdp = 41,
                        kHwMmhub = 34, kHwMp0 = 255;
}  // namespace

void AmRegisterBus::write_aid(std::uint64_t dword_address, std::uint32_t value, unsigned aid) {
  throw Error(ErrorKind::Usage,
              fmt::format("register {:#x} <- {:#x} for AID {}: this device has no PCIE INDEX2 path "
                          "to other AIDs",
                          dword_address, value, aid));
}

AmChipInfo chip_info_from_discovery(const DiscoveryTable &table) {
  AmChipInfo info;
  std::set<unsigned> gc_instances, mmhub_instances, sdma_instances;
  for (const auto &die : table.dies) {
    for (const auto &ip : die.ips) {
      const regs::IpVersion v{ip.major, ip.minor, ip.revision};
      switch (ip.hw_id) {
      case kHwGc:
        info.gc = v;
        gc_instances.insert(ip.instance);
        break;
      case kHwSdma0:
        info.sdma = v;
        sdma_instances.insert(ip.instance);
        break;
      case kHwNbio: info.nbio = v; break;
      case kHwOsssys: info.osssys = v; break;
      case kHwHdp: info.hdp = v; break;
      case kHwMmhub:
        info.mmhub = v;
        mmhub_instances.insert(ip.instance);
        break;
      case kHwMp0: info.mp0 = v; break;
      default: break;
      }
    }
  }
  for (const auto &h : table.harvest)
    if (h.hw_id == kHwGc) gc_instances.erase(h.instance);
  info.xccs = std::max<unsigned>(1, static_cast<unsigned>(gc_instances.size()));
  info.mmhubs = std::max<unsigned>(1, static_cast<unsigned>(mmhub_instances.size()));
  info.sdma_instances = std::max<unsigned>(1, static_cast<unsigned>(sdma_instances.size()));
  return info;
}

AmRegisters::AmRegisters(AmRegisterBus &bus, const regs::RegisterMap &map, Clock &clock)
    : bus_(bus), map_(map), clock_(clock) {}

const regs::Register &AmRegisters::reg(std::string_view name) const {
  const auto ref = regs::resolve_register(map_, name);
  if (ref.field)
    throw Error(ErrorKind::Internal, fmt::format("{} names a field, not a register", name));
  return *ref.reg;
}

std::uint64_t AmRegisters::address(std::string_view name, unsigned inst) const {
  const auto ref = regs::resolve_register(map_, name);
  return regs::register_address(*ref.block, *ref.reg, inst);
}

bool AmRegisters::has(std::string_view name) const {
  try {
    const auto ref = regs::resolve_register(map_, name);
    return ref.reg != nullptr;
  } catch (const Error &) {
    return false;
  }
}

std::uint32_t AmRegisters::read(std::string_view name, unsigned inst) {
  return bus_.read(address(name, inst));
}

void AmRegisters::write(std::string_view name, std::uint32_t value, unsigned inst) {
  bus_.write(address(name, inst), value);
}

std::uint32_t AmRegisters::encode(std::string_view name, FieldValues fields) const {
  return static_cast<std::uint32_t>(regs::update_register_value(reg(name), 0, Fields(fields)));
}

std::uint32_t AmRegisters::write_fields(std::string_view name, FieldValues fields, unsigned inst) {
  return write_fields(name, 0, fields, inst);
}

std::uint32_t AmRegisters::write_fields(std::string_view name, std::uint32_t base,
                                        FieldValues fields, unsigned inst) {
  const auto value =
      static_cast<std::uint32_t>(regs::update_register_value(reg(name), base, Fields(fields)));
  write(name, value, inst);
  return value;
}

std::uint32_t AmRegisters::update(std::string_view name, FieldValues fields, unsigned inst) {
  const std::uint64_t addr = address(name, inst);
  const auto value = static_cast<std::uint32_t>(
      regs::update_register_value(reg(name), bus_.read(addr), Fields(fields)));
  bus_.write(addr, value);
  return value;
}

std::uint64_t AmRegisters::field(std::string_view name, std::string_view field_name,
                                 std::uint32_t value) const {
  const auto &r = reg(name);
  const regs::Field *f = r.field(field_name);
  if (!f)
    throw Error(ErrorKind::Internal,
                fmt::format("register {} has no field {}", r.base_name(), field_name));
  return regs::decode_field(*f, value);
}

void AmRegisters::write_pair(std::string_view name, std::string_view lo_suffix,
                             std::string_view hi_suffix, std::uint64_t value, unsigned inst) {
  write(fmt::format("{}{}", name, lo_suffix), static_cast<std::uint32_t>(value), inst);
  write(fmt::format("{}{}", name, hi_suffix), static_cast<std::uint32_t>(value >> 32), inst);
}

void AmRegisters::write_aid(std::string_view name, std::uint32_t value, unsigned aid) {
  bus_.write_aid(address(name, 0), value, aid);
}

void AmRegisters::wait(std::string_view name, std::uint32_t mask, std::uint32_t value,
                       unsigned inst, std::string_view what, std::chrono::milliseconds timeout) {
  const std::uint64_t addr = address(name, inst);
  const auto start = clock_.now();
  for (;;) {
    const std::uint32_t got = bus_.read(addr);
    if ((got & mask) == value) return;
    if (clock_.now() - start >= timeout)
      throw Error(ErrorKind::Timeout,
                  fmt::format("{}: {} (instance {}, register {:#x}) reads {:#010x}, waited {} ms "
                              "for (value & {:#x}) == {:#x}",
                              what, reg(name).umr_name(), inst, addr, got, timeout.count(), mask,
                              value));
    clock_.sleep(kPollInterval);
  }
}

void AmRegisters::throw_timeout(std::string_view what, std::chrono::milliseconds timeout) const {
  throw Error(ErrorKind::Timeout, fmt::format("{}: not done after {} ms", what, timeout.count()));
}

}  // namespace wavescope::hw::am
