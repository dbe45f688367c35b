#include "sim/boot_rules.hpp"

#include <array>
#include <cstring>

#include "wavescope/hw/ifwi/ifwi_layout.hpp"

namespace wavescope::hw::sim {

namespace {

std::uint32_t u32(std::span<const std::uint8_t> b, std::uint64_t offset) {
  if (offset + 4 > b.size()) return 0xFFFFFFFF;
  std::uint32_t v;
  std::memcpy(&v, b.data() + offset, 4);
  return v;
}

// True when the image-slot header at `ish` may boot: priority set, slot inside the flash, $PL2
// at the slot start.
bool slot_boots(std::span<const std::uint8_t> flash, std::uint64_t ish) {
  if (ish + ifwi::kIshSize > flash.size()) return false;
  const std::uint32_t priority = u32(flash, ish + 4);
  const std::uint64_t address = u32(flash, ish + 0x10);
  const std::uint64_t size = u32(flash, ish + 0x18);
  if (priority == 0 || priority == 0xFFFFFFFF) return false;
  if (size == 0 || address + size > flash.size()) return false;
  return std::memcmp(flash.data() + address, "$PL2", 4) == 0;
}

}  // namespace

std::optional<Slot> bootable_slot(std::span<const std::uint8_t> flash, Slot preferred) {
  if (flash.size() < ifwi::kEfsHeaderSize || u32(flash, 0) != ifwi::kEfsMagic) return std::nullopt;
  // The ISH locations each slot's directory entry names, from the first valid $PSP directory.
  std::array<std::optional<std::uint64_t>, 2> ish;
  for (const std::uint64_t pointer_at : {0x14u, 0x2Cu}) {
    const std::uint32_t pointer = u32(flash, pointer_at);
    const auto directory = ifwi::parse_directory(flash, pointer, "$PSP");
    if (!directory || !directory->checksum_ok() || directory->entries_truncated()) continue;
    for (const auto &entry : directory->entries) {
      if (entry.type == ifwi::kPspRegionAFirmwareId) ish[0] = entry.location;
      if (entry.type == ifwi::kPspRegionBFirmwareId) ish[1] = entry.location;
    }
    break;
  }
  auto boots = [&](Slot slot) {
    const auto &at = ish[static_cast<unsigned>(slot)];
    return at && slot_boots(flash, *at);
  };
  if (boots(preferred)) return preferred;
  if (boots(Slot::A)) return Slot::A;
  if (boots(Slot::B)) return Slot::B;
  return std::nullopt;
}

}  // namespace wavescope::hw::sim
