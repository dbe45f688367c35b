#include "sim/board_activity.hpp"

#include <fmt/format.h>

#include "wavescope/hw/navi31/spi_flash_facts.hpp"

namespace wavescope::hw::sim {

using navi31::kPageSize;
using navi31::kSectorSize;

namespace {
// Protection-relevant bits: BP4..BP0 and SRP0 in SR1, SRP1 and CMP in SR2.
constexpr std::uint8_t kSr1ProtectionBits = 0xFC;
constexpr std::uint8_t kSr2ProtectionBits = 0x41;
constexpr unsigned kMaxFindingsPerCheck = 20;
}  // namespace

void BoardActivity::erase(std::uint32_t address, std::uint32_t size) {
  ++erases;
  // I4: every sector erased or programmed earlier must have been read back before this erase.
  for (const auto &line : unread_sectors())
    record("I4", "erase at 0x" + fmt::format("{:06X}", address) + " before " + line);
  unread_pages_.clear();
  for (std::uint32_t a = address; a < address + size; a += kSectorSize)
    unread_pages_[a / kSectorSize].set();
}

void BoardActivity::program(std::uint32_t address, std::uint32_t size) {
  ++programs;
  if (size == 0) return;
  for (std::uint32_t a = address / kPageSize * kPageSize; a < address + size; a += kPageSize)
    unread_pages_[a / kSectorSize].set((a % kSectorSize) / kPageSize);
}

void BoardActivity::array_read(std::uint32_t address, std::uint32_t size) {
  // A page counts as read back when one read covers it completely.
  const std::uint32_t end = address + size;
  for (std::uint32_t page = (address + kPageSize - 1) / kPageSize * kPageSize;
       page + kPageSize <= end; page += kPageSize) {
    auto it = unread_pages_.find((page % navi31::kFlashSize) / kSectorSize);
    if (it == unread_pages_.end()) continue;
    it->second.reset((page % kSectorSize) / kPageSize);
    if (it->second.none()) unread_pages_.erase(it);
  }
}

void BoardActivity::status_written(std::uint8_t old_sr1, std::uint8_t old_sr2, std::uint8_t new_sr1,
                                   std::uint8_t new_sr2) {
  ++status_writes;
  if (((old_sr1 ^ new_sr1) & kSr1ProtectionBits) || ((old_sr2 ^ new_sr2) & kSr2ProtectionBits))
    protection_changed = true;
}

void BoardActivity::record(std::string check, std::string message) {
  if (++per_check_[check] > kMaxFindingsPerCheck) return;
  findings_.push_back({std::move(check), std::move(message)});
}

std::vector<std::string> BoardActivity::unread_sectors() const {
  std::vector<std::string> out;
  for (const auto &[sector, pages] : unread_pages_) {
    out.push_back(fmt::format("sector {} (0x{:06X}) was not read back ({} of 16 pages unread)",
                              sector, sector * kSectorSize, pages.count()));
  }
  return out;
}

void BoardActivity::reset() { *this = BoardActivity{}; }

}  // namespace wavescope::hw::sim
