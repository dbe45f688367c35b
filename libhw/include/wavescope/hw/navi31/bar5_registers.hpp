#pragma once
// Navi31 BAR5 registers used by the flash-recovery paths (navi31-flash.md §3). All values are
// byte offsets into BAR5; the tools and the simulated board share these names.

#include <cstdint>

namespace wavescope::hw::navi31 {

inline constexpr std::uint64_t kBar5Size = 0x100000;  // 1 MiB register BAR
inline constexpr unsigned kRegisterBar = 5;

// SMUIO ROM sub-block (base 0x5A380).
inline constexpr std::uint32_t kRomCntl = 0x5A380;
inline constexpr std::uint32_t kPageMirrorCntl = 0x5A384;
inline constexpr std::uint32_t kRomStatus = 0x5A388;
inline constexpr std::uint32_t kCgttRomClkCtrl0 = 0x5A38C;
inline constexpr std::uint32_t kRomIndex = 0x5A390;
inline constexpr std::uint32_t kRomData = 0x5A394;
inline constexpr std::uint32_t kRomStart = 0x5A398;
inline constexpr std::uint32_t kRomSwCntl = 0x5A3A0;
inline constexpr std::uint32_t kRomSwStatus = 0x5A3A4;
inline constexpr std::uint32_t kRomSwCommand = 0x5A3A8;
inline constexpr std::uint32_t kRomSwGap = 0x5A3AC;  // between COMMAND and DATA_1
inline constexpr std::uint32_t kRomSwData1 = 0x5A3B0;
inline constexpr unsigned kRomSwDataDwords = 64;  // DATA_1 .. DATA_64: the 256-byte window
inline constexpr std::uint32_t kRomSwDataEnd = kRomSwData1 + 4 * kRomSwDataDwords;

// ROM_CNTL fields.
inline constexpr std::uint32_t kRomCntlClockGatingEn = 1u << 0;
inline constexpr std::uint32_t kRomCntlTransactionNibble =
    0x8;  // bits 3:0 forced during a transaction
inline constexpr std::uint32_t kRomCntlPrescaleMask =
    0x1F000000;  // bits 28:24 (override + prescale)
inline constexpr std::uint32_t kRomCntlPrescaleOverride = 1u << 28;
inline constexpr unsigned kRomCntlPrescaleShift = 24;

// PAGE_MIRROR_CNTL: bits 27:25 = 0b011 (ENABLE, USAGE 1) during a transaction.
inline constexpr std::uint32_t kPageMirrorTransactionMask = 0x0E000000;
inline constexpr std::uint32_t kPageMirrorTransactionBits = 0x06000000;

// ROM_SW_CNTL fields. The RX enable is bit 19 on Navi31 (public SMUIO 9/11 headers say 18).
inline constexpr std::uint32_t kRomSwCntlDataSizeMask = 0xFFFF;
inline constexpr unsigned kRomSwCntlCommandSizeShift = 16;
inline constexpr std::uint32_t kRomSwCntlRxEnable = 1u << 19;
inline constexpr std::uint32_t kRomSwCntlReservedBit18 = 1u << 18;

// ROM_SW_STATUS: bit 0 DONE; a gated engine reads this pattern and ignores writes.
inline constexpr std::uint32_t kRomSwStatusDone = 1u << 0;
inline constexpr std::uint32_t kRomSwStatusGated = 0x04000800;

// SMUIO GPIO pad sub-block (base 0x5A500). Pads 7..10 carry the SPI pins.
inline constexpr std::uint32_t kGpioPadSwIntStat = 0x5A500;
inline constexpr std::uint32_t kGpioPadMask = 0x5A504;
inline constexpr std::uint32_t kGpioPadA = 0x5A508;
inline constexpr std::uint32_t kGpioPadTxImpSel = 0x5A50C;
inline constexpr std::uint32_t kGpioPadEn = 0x5A510;
inline constexpr std::uint32_t kGpioPadY = 0x5A514;
inline constexpr std::uint32_t kGpioSpiPads = 0x780;

// MP0 (PSP) mailbox registers.
inline constexpr std::uint32_t kPspCommand = 0x582CC;     // C2PMSG_115: command / status
inline constexpr std::uint32_t kPspData = 0x582D0;        // C2PMSG_116: argument / response
inline constexpr std::uint32_t kPspDoorbell = 0x58224;    // C2PMSG_73
inline constexpr std::uint32_t kPspSosAlive = 0x58244;    // C2PMSG_81: non-zero once SOS runs
inline constexpr std::uint32_t kPspBootLoader = 0x5818C;  // C2PMSG_35: PSP boot-loader mailbox
inline constexpr std::uint32_t kPspReady = 1u << 31;

// A register that reads this value means the device does not answer (link down, power loss).
inline constexpr std::uint32_t kAllOnes = 0xFFFFFFFF;

// PCI identity of the only board the tools accept.
inline constexpr std::uint16_t kAmdVendorId = 0x1002;
inline constexpr std::uint16_t kNavi31DeviceId = 0x744C;

}  // namespace wavescope::hw::navi31
