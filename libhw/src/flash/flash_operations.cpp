#include "wavescope/hw/flash/flash_operations.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/base/sha256.hpp"

namespace wavescope::hw::flash {

using namespace navi31;

FlashInfo read_flash_info(FlashSession &session) {
  session.open();
  auto &chip = session.chip();
  FlashInfo info;
  info.jedec = session.jedec();
  const auto &b = info.jedec.bytes;
  for (std::size_t i = 0; i < 4 && !info.part; ++i)
    info.part = find_flash_part(b[i], b[(i + 1) % 4], b[(i + 2) % 4]);
  info.sr1 = chip.read_status(spi::kReadStatus1);
  info.sr2 = chip.read_status(spi::kReadStatus2);
  info.sr3 = chip.read_status(spi::kReadStatus3);
  info.sfdp = chip.read_sfdp(0, 24);
  for (std::size_t i = 0; i + 4 <= info.sfdp.size(); ++i) {
    if (std::memcmp(info.sfdp.data() + i, "SFDP", 4) == 0) {
      info.sfdp_signature = i;
      break;
    }
  }
  if (info.sfdp_signature && *info.sfdp_signature + 16 <= info.sfdp.size()) {
    // Parameter header 0 → the Basic Flash Parameter Table; its dword 2 is the density.
    const std::size_t at = *info.sfdp_signature;
    const std::uint32_t pointer =
        info.sfdp[at + 12] | (info.sfdp[at + 13] << 8) | (info.sfdp[at + 14] << 16);
    if (pointer < 0x100) {
      const auto bfpt = chip.read_sfdp(pointer, at + 8);
      const std::uint32_t density = bfpt[at + 4] | (bfpt[at + 5] << 8) | (bfpt[at + 6] << 16) |
                                    (std::uint32_t{bfpt[at + 7]} << 24);
      if (!(density & 0x80000000u)) info.sfdp_density = (std::uint64_t{density} + 1) / 8;
    }
  }
  (void)chip.identify();  // the reference ends info with a second RDID
  info.protection = protected_range(info.sr1, info.sr2, kFlashSize);
  info.status_register_locked = (info.sr2 & kSr2Srp1) || (info.sr1 & kSr1Srp0);
  session.close();
  return info;
}

VerifyResult verify_flash(FlashSession &session, std::span<const std::uint8_t> image,
                          const OperationProgressSink &progress) {
  navi31::check_flash_image_size(image.size(), "to verify against");
  session.open();
  VerifyResult result;
  std::vector<std::uint8_t> read;
  read.reserve(kFlashSize);
  for (std::uint32_t sector = 0; sector < kSectorCount; ++sector) {
    const std::uint32_t base = sector * kSectorSize;
    auto bytes = session.read(base, kSectorSize, ReadCheck::Single, "verify").bytes;
    const auto expected = image.subspan(base, kSectorSize);
    if (!std::equal(bytes.begin(), bytes.end(), expected.begin())) {
      const auto again = session.read(base, kSectorSize, ReadCheck::Single, "verify").bytes;
      const auto diff = std::mismatch(again.begin(), again.end(), expected.begin());
      if (diff.first != again.end()) {
        const auto offset = static_cast<std::uint32_t>(diff.first - again.begin());
        throw Error(
            ErrorKind::Mismatch,
            fmt::format("flash differs from the image at 0x{:06X} (sector {}): flash 0x{:02X}, "
                        "image 0x{:02X}",
                        base + offset, sector, *diff.first, *diff.second));
      }
      const auto first = std::mismatch(bytes.begin(), bytes.end(), expected.begin());
      result.warnings.push_back(fmt::format(
          "sector {}: a first read differed at 0x{:06X} (0x{:02X}), a second read matched the "
          "image "
          "(transient read error)",
          sector, base + static_cast<std::uint32_t>(first.first - bytes.begin()), *first.first));
      bytes = again;
    }
    read.insert(read.end(), bytes.begin(), bytes.end());
    if (progress) {
      auto &eta = session.eta();
      progress(
          eta.progress("verify", sector + 1, kSectorCount, "sectors",
                       eta.eta({{"sector-read", static_cast<double>(kSectorCount - sector - 1)}})));
    }
  }
  result.sha256 = sha256_hex(read);
  session.close();
  return result;
}

}  // namespace wavescope::hw::flash
