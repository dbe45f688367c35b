#pragma once
// When the simulated board boots (navi31-flash.md §10.8, a simulator convention, not PSP logic):
// the 0x55AA55AA magic; a $PSP directory at the header's primary (0x14) or backup (0x2C) pointer
// whose Fletcher-32 checksum holds; and an image-slot header referenced by that directory with
// priority != 0, its slot inside the flash and a $PL2 directory at the slot start.

#include <cstdint>
#include <optional>
#include <span>

namespace wavescope::hw::sim {

enum class Slot : std::uint8_t { A = 0, B = 1 };

// The slot the board boots from: `preferred` (the last commit's choice) when it passes the rule,
// else the first slot that does (A before B); nullopt when the image is not bootable.
std::optional<Slot> bootable_slot(std::span<const std::uint8_t> flash, Slot preferred = Slot::A);

inline bool is_bootable(std::span<const std::uint8_t> flash) {
  return bootable_slot(flash).has_value();
}

}  // namespace wavescope::hw::sim
