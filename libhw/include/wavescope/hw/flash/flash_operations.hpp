#pragma once
// The read-side flash procedures (navi31-flash.md §6.1–6.4, with the §9 requirements): info,
// read, dump and verify. Each runs inside an opened FlashSession.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wavescope/hw/flash/flash_session.hpp"
#include "wavescope/hw/navi31/protection.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"

namespace wavescope::hw::flash {

struct FlashInfo {
  JedecCapture jedec;
  std::optional<navi31::KnownFlashPart> part;
  std::uint8_t sr1 = 0, sr2 = 0, sr3 = 0;
  std::vector<std::uint8_t> sfdp;             // 24 bytes from SFDP address 0 as captured
  std::optional<std::size_t> sfdp_signature;  // index of "SFDP" in the capture (expected 1)
  std::optional<std::uint64_t> sfdp_density;  // bytes, from the BFPT's second dword
  navi31::ProtectedRange protection;
  bool status_register_locked = false;  // SRP1, or SRP0 (then WP# decides)
};

// RDID (the gate), SR1/SR2/SR3, SFDP header and density, protection (§6.1).
FlashInfo read_flash_info(FlashSession &session);

// Verifies the chip against a 2 MiB image, sector by sector (§6.4). A mismatch is read again
// once: if the re-read agrees with the image the difference was a transient read error (a
// warning); otherwise Error(Mismatch) names the address and both bytes.
struct VerifyResult {
  std::string sha256;  // of what was read (equal to the image's on success)
  std::vector<std::string> warnings;
};
VerifyResult verify_flash(FlashSession &session, std::span<const std::uint8_t> image,
                          const OperationProgressSink &progress = {});

}  // namespace wavescope::hw::flash
