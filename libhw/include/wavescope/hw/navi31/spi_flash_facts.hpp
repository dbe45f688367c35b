#pragma once
// The Navi31 board's SPI flash (GD25LQ16E-class, navi31-flash.md §1 and §5): geometry, the SPI
// opcodes and the status-register bits. Shared by the tools and the simulated chip.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace wavescope::hw::navi31 {

inline constexpr std::size_t kFlashSize = 0x200000;                      // 2 MiB
inline constexpr std::size_t kSectorSize = 0x1000;                       // 4 KiB erase unit
inline constexpr std::size_t kPageSize = 0x100;                          // 256-byte program unit
inline constexpr std::size_t kSectorCount = kFlashSize / kSectorSize;    // 512
inline constexpr std::size_t kPagesPerSector = kSectorSize / kPageSize;  // 16
inline constexpr std::size_t kMaxTransferBytes = 256;                    // ROM_SW window
inline constexpr std::uint32_t kImageMagic = 0x55AA55AA;  // first four bytes AA 55 AA 55

namespace spi {
inline constexpr std::uint8_t kWriteStatus = 0x01;  // WRSR: SR1 [, SR2]
inline constexpr std::uint8_t kPageProgram = 0x02;
inline constexpr std::uint8_t kRead = 0x03;
inline constexpr std::uint8_t kWriteDisable = 0x04;  // WRDI
inline constexpr std::uint8_t kReadStatus1 = 0x05;
inline constexpr std::uint8_t kWriteEnable = 0x06;  // WREN
inline constexpr std::uint8_t kFastRead = 0x0B;
inline constexpr std::uint8_t kWriteStatus3 = 0x11;
inline constexpr std::uint8_t kReadStatus3 = 0x15;
inline constexpr std::uint8_t kSectorErase = 0x20;  // 4 KiB
inline constexpr std::uint8_t kWriteStatus2 = 0x31;
inline constexpr std::uint8_t kReadStatus2 = 0x35;
inline constexpr std::uint8_t kReadUniqueId = 0x4B;
inline constexpr std::uint8_t kVolatileSrWriteEnable = 0x50;
inline constexpr std::uint8_t kBlockErase32K = 0x52;
inline constexpr std::uint8_t kReadSfdp = 0x5A;
inline constexpr std::uint8_t kChipErase = 0x60;
inline constexpr std::uint8_t kEnableReset = 0x66;
inline constexpr std::uint8_t kSuspend = 0x75;
inline constexpr std::uint8_t kResume = 0x7A;
inline constexpr std::uint8_t kReadManufacturerDevice = 0x90;  // REMS
inline constexpr std::uint8_t kReset = 0x99;
inline constexpr std::uint8_t kReadJedecId = 0x9F;  // RDID
inline constexpr std::uint8_t kReleasePowerDown = 0xAB;
inline constexpr std::uint8_t kDeepPowerDown = 0xB9;
inline constexpr std::uint8_t kChipErase2 = 0xC7;
inline constexpr std::uint8_t kBlockErase64K = 0xD8;
}  // namespace spi

// Status register 1.
inline constexpr std::uint8_t kSr1Busy = 1u << 0;  // WIP
inline constexpr std::uint8_t kSr1Wel = 1u << 1;
inline constexpr std::uint8_t kSr1BpMask = 0x7C;  // BP4..BP0, bits 6:2
inline constexpr std::uint8_t kSr1Srp0 = 1u << 7;
// Status register 2.
inline constexpr std::uint8_t kSr2Srp1 = 1u << 0;
inline constexpr std::uint8_t kSr2Qe = 1u << 1;
inline constexpr std::uint8_t kSr2Sus2 = 1u << 2;
inline constexpr std::uint8_t kSr2LbMask = 0x38;  // LB1..LB3, bits 5:3 (one-time settable)
inline constexpr std::uint8_t kSr2Cmp = 1u << 6;
inline constexpr std::uint8_t kSr2Sus1 = 1u << 7;

// JEDEC id bytes of the expected part.
inline constexpr std::uint8_t kJedecGigaDevice = 0xC8;
inline constexpr std::uint8_t kJedecType = 0x60;
inline constexpr std::uint8_t kJedecCapacity = 0x15;

// A SPI NOR part we can name from its JEDEC id (manufacturer, type, capacity code).
struct KnownFlashPart {
  std::uint8_t manufacturer, type, capacity;
  const char *name;
  std::size_t size;
  bool supported;  // the part Navi31 boards carry, which the tools write
};

// The part with this id, if it is in our table.
std::optional<KnownFlashPart> find_flash_part(std::uint8_t manufacturer, std::uint8_t type,
                                              std::uint8_t capacity);

// True when C8 60 15 occurs in `capture` read cyclically (capture followed by its first two
// bytes again), the reference's acceptance rule for an RDID capture (§4.4).
bool contains_jedec_cyclically(std::span<const std::uint8_t> capture,
                               std::uint8_t m = kJedecGigaDevice, std::uint8_t t = kJedecType,
                               std::uint8_t c = kJedecCapacity);

// "C8 60 15 C8" style hex of a few bytes.
std::string hex_bytes(std::span<const std::uint8_t> bytes);

// Throws Error(BadInput) unless `size` is the chip's: "image NAME is N bytes; a Navi31 flash image
// is exactly 2 MiB (2097152 bytes)".
void check_flash_image_size(std::size_t size, std::string_view name);
// Throws Error(Usage) unless [address, address + size) lies within the chip.
void check_flash_range(std::uint64_t address, std::uint64_t size);

}  // namespace wavescope::hw::navi31
