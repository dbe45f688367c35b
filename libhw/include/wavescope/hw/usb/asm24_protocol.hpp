#pragma once
// The custom-firmware ASM24 USB-to-PCIe bridge protocol (transport.md B.2, B.4, B.6, B.7): vendor
// control requests, endpoints, TLP encodings, timeouts and the bus/window plan of the bring-up.
// Shared by the transport that encodes requests and the simulated bridge that decodes them.

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace wavescope::hw::asm24 {

// USB identities the flash tools enumerate, in this order (transport.md B.1).
inline constexpr std::uint16_t kVendorNew = 0x3801;
inline constexpr std::uint16_t kVendorTiny = 0xADD1;
inline constexpr std::uint16_t kProduct = 0x0001;

// Control transfers: vendor type, device recipient.
inline constexpr std::uint8_t kRequestTypeOut = 0x40;
inline constexpr std::uint8_t kRequestTypeIn = 0xC0;

inline constexpr std::uint8_t kReadXdata = 0xE4;    // IN: wValue = address, wLength = n (<= 255)
inline constexpr std::uint8_t kWriteXdata = 0xE5;   // OUT: wValue = address, wIndex = byte
inline constexpr std::uint8_t kPcieRequest = 0xF0;  // OUT: 12 bytes; IN: 8-byte completion
inline constexpr std::uint8_t kSramDma = 0xF2;      // OUT: arm the SRAM DMA engine
inline constexpr std::uint8_t kPciePower = 0xF3;    // OUT: wValue 1 = on, 0 = off

// 0xF0 wIndex: the request mode.
inline constexpr std::uint16_t kModeSingleTlp = 0;
inline constexpr std::uint16_t kModeStreamWrite = 1;
inline constexpr std::uint16_t kModeStreamRead = 2;

inline constexpr std::uint8_t kBulkOut = 0x02;
inline constexpr std::uint8_t kBulkIn = 0x81;

// Timeouts in milliseconds (transport.md B.6).
inline constexpr unsigned kControlTimeoutMs = 1000;
inline constexpr unsigned kPcieRequestTimeoutMs = 5000;
inline constexpr unsigned kPowerTimeoutMs = 10000;
inline constexpr unsigned kBulkOutTimeoutMs = 1000;
inline constexpr unsigned kStreamReadTimeoutMs = 30000;
inline constexpr unsigned kSramReadTimeoutMs = 10000;

inline constexpr std::size_t kMaxXdataRead = 255;
// Largest streaming transfer: the reference's bulk buffer (4 MiB).
inline constexpr std::size_t kMaxStreamBytes = 4u << 20;

// Bridge XDATA map (transport.md B.4.4).
inline constexpr std::uint16_t kXdataLtssm = 0xB450;
inline constexpr std::uint8_t kLtssmLinkUp = 0x78;
inline constexpr std::uint16_t kXdataSram = 0xF000;
inline constexpr std::size_t kSramSize = 512u << 10;
inline constexpr std::size_t kSramSlotSize = 16u << 10;
inline constexpr std::size_t kSramSectorSize = 512;

// TLP fmt_type values (transport.md B.4.2).
inline constexpr std::uint8_t kConfigRead0 = 0x04;
inline constexpr std::uint8_t kConfigRead1 = 0x05;
inline constexpr std::uint8_t kConfigWrite0 = 0x44;
inline constexpr std::uint8_t kConfigWrite1 = 0x45;
inline constexpr std::uint8_t kMemoryRead64 = 0x20;
inline constexpr std::uint8_t kMemoryWrite64 = 0x60;

inline constexpr bool is_posted(std::uint8_t fmt_type) {
  return (fmt_type & 0xDF) == 0x40 || (fmt_type & 0xB8) == 0x30;  // memory write or message
}
inline constexpr bool is_config(std::uint8_t fmt_type) { return (fmt_type & 0xBE) == 0x04; }

// Completion status in bits 7:5 of byte 4 of the 0xF0 IN reply.
enum class CompletionStatus : std::uint8_t {
  Success = 0,
  UnsupportedRequest = 1,
  ConfigRetry = 2,  // Configuration Request Retry Status
  CompleterAbort = 4,
};
std::string describe(CompletionStatus status);

// Byte enables of a 1..4-byte access at `offset & 3` (must not cross the dword).
std::uint8_t byte_enables(std::uint32_t offset, unsigned size);

// Config address: (bus << 24) | (device << 19) | (function << 16) | register.
std::uint32_t config_address(unsigned bus, unsigned device, unsigned function, std::uint32_t reg);

// The 12-byte data stage of a 0xF0 OUT request: address low, address high, value (LE).
std::array<std::uint8_t, 12> pcie_request_payload(std::uint64_t address, std::uint32_t value);

// The 8-byte 0xF0 IN reply.
struct TlpCompletion {
  std::uint32_t data = 0;
  CompletionStatus status = CompletionStatus::Success;
  std::uint8_t raw_status = 0;  // bits 7:5 of byte 4 as sent
  std::uint8_t return_status = 0;
};
TlpCompletion parse_completion(std::span<const std::uint8_t> reply);
std::array<std::uint8_t, 8> encode_completion(std::uint32_t data, std::uint8_t completion_status,
                                              std::uint8_t return_status);

// The PCIe topology behind the bridge and the windows of the bring-up (transport.md B.7).
inline constexpr unsigned kGpuBus = 4;
inline constexpr unsigned kBridgeCount = 4;  // buses 0-1 ASM24 ports, 2-3 Navi31 switch ports
inline constexpr std::uint64_t kNonPrefetchableBase = 0x1000'0000;
inline constexpr std::uint64_t kPrefetchableBase = 0x8'0000'0000;  // 32 GiB
inline constexpr std::uint64_t kBarPoolAlignment = 2u << 20;       // pools advance in 2 MiB

}  // namespace wavescope::hw::asm24
