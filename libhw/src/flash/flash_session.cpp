#include "wavescope/hw/flash/flash_session.hpp"

#include <algorithm>
#include <exception>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/base/scope_guard.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"
#include "wavescope/hw/transport/transport_eta.hpp"

namespace wavescope::hw::flash {

using namespace navi31;

namespace {
struct OptionName {
  const char *name;
  bool FlashOptimizations::*field;
};
constexpr OptionName kOptionNames[] = {
    {"session", &FlashOptimizations::session_registers},
    {"no-check-reads", &FlashOptimizations::skip_check_reads},
    {"pipeline", &FlashOptimizations::pipelined_reads},
    {"block-read", &FlashOptimizations::block_status_read},
    {"block-write", &FlashOptimizations::block_writes},
    {"skip-erase", &FlashOptimizations::skip_erase},
};
}  // namespace

FlashOptimizations FlashOptimizations::all() {
  FlashOptimizations o;
  for (const auto &n : kOptionNames) o.*(n.field) = true;
  return o;
}

FlashOptimizations FlashOptimizations::parse(std::string_view list) {
  FlashOptimizations o;
  if (list.empty() || list == "none") return o;
  if (list == "all") return all();
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    const std::string_view item = list.substr(start, end - start);
    bool found = false;
    for (const auto &n : kOptionNames) {
      if (item == n.name) {
        o.*(n.field) = true;
        found = true;
      }
    }
    if (!found)
      throw Error(ErrorKind::Usage,
                  fmt::format("unknown optimization '{}' (choose from: session, no-check-reads, "
                              "pipeline, block-read, block-write, skip-erase; or all / none)",
                              item));
    start = end + 1;
  }
  return o;
}

std::string FlashOptimizations::describe() const {
  std::string out;
  for (const auto &n : kOptionNames) {
    if (this->*(n.field)) out += (out.empty() ? "" : ",") + std::string(n.name);
  }
  return out.empty() ? "none" : out;
}

bool FlashOptimizations::any() const {
  for (const auto &n : kOptionNames)
    if (this->*(n.field)) return true;
  return false;
}

RomSwOptions FlashSession::rom_sw_options(const FlashSessionOptions &o) {
  RomSwOptions r;
  r.prescale = o.prescale;
  r.session_registers = o.optimize.session_registers;
  r.skip_check_reads = o.optimize.skip_check_reads;
  r.block_status_read = o.optimize.block_status_read;
  r.block_writes = o.optimize.block_writes;
  if (o.reference_procedure) {
    r.reference_resets = true;
    r.restore_rom_cntl = false;
  }
  return r;
}

Gd25Options FlashSession::chip_options(const FlashSessionOptions &o) {
  Gd25Options c;
  c.pipelined_reads = o.optimize.pipelined_reads;
  c.assume_lag = o.assume_lag;
  return c;
}

FlashSession::FlashSession(Mmio &bar5, Clock &clock, FlashSessionOptions options,
                           const CancelToken *cancel)
    : bar5_(bar5), clock_(clock), options_(options), cancel_(cancel),
      rom_sw_(bar5, clock, rom_sw_options(options), cancel),
      chip_(rom_sw_, clock, chip_options(options)), eta_(transport_eta(clock, bar5)) {}

FlashSession::~FlashSession() = default;  // rom_sw_ restores the registers on destruction

void FlashSession::open() {
  if (opened_) return;
  if (!options_.reference_procedure) {
    probe_ = probe_board(bar5_);
    require_rom_sw(probe_);
  }
  rom_sw_.open();
  const auto before = bar5_.stats().operations();
  jedec_ = chip_.identify();
  // The gate's primed RDID is two RX transactions: a first measured price for ETAs.
  eta_.assume("rx-transaction", static_cast<double>(bar5_.stats().operations() - before) / 2);
  opened_ = true;
}

void FlashSession::close() {
  if (opened_) {
    // The ROM_SW registers are put back even when the chip could not be finished cleanly.
    const OnFailure close_anyway([this] {
      opened_ = false;
      rom_sw_.close();
    });
    chip_.finish();
  }
  opened_ = false;
  rom_sw_.close();
}

ReadResult FlashSession::read(std::uint32_t address, std::size_t size, ReadCheck check,
                              std::string_view stage, const OperationProgressSink &progress) {
  if (std::uint64_t{address} + size > kFlashSize)
    throw Error(
        ErrorKind::Usage,
        fmt::format("range 0x{:06X}+0x{:X} runs past the end of the 2 MiB flash", address, size));
  ReadResult result;
  result.bytes.reserve(size);
  const std::uint32_t end = address + static_cast<std::uint32_t>(size);
  const std::uint64_t units = (size + kSectorSize - 1) / kSectorSize;
  std::uint64_t done = 0;
  if (!eta_.cost("sector-read")) {
    const double per_txn = eta_.cost("rx-transaction").value_or(25);
    const double txns = options_.optimize.pipelined_reads ? 17 : 32;
    eta_.assume("sector-read", per_txn * txns * (check == ReadCheck::ReadTwice ? 2 : 1));
  }
  for (std::uint32_t p = address; p < end;) {
    const std::uint32_t n =
        std::min<std::uint32_t>(end - p, (p / kSectorSize + 1) * kSectorSize - p);
    auto first = chip_.read(p, n);
    if (check == ReadCheck::ReadTwice) {
      // Two reads must agree; a transient flip shows as a disagreement and is read again.
      auto second = chip_.read(p, n);
      unsigned attempts = 0;
      while (first != second) {
        if (attempts == 0) ++result.reread_sectors;
        if (++attempts > 3) {
          const auto diff = std::mismatch(first.begin(), first.end(), second.begin());
          const auto offset = static_cast<std::uint32_t>(diff.first - first.begin());
          throw Error(ErrorKind::Mismatch,
                      fmt::format("reads of sector {} keep disagreeing (at 0x{:06X}: 0x{:02X} then "
                                  "0x{:02X}, after {} re-reads): the read path is unreliable",
                                  p / kSectorSize, p + offset, *diff.first, *diff.second,
                                  attempts - 1));
        }
        const auto diff = std::mismatch(first.begin(), first.end(), second.begin());
        result.warnings.push_back(fmt::format(
            "sector {}: two reads disagreed at 0x{:06X} (0x{:02X} vs 0x{:02X}); read again",
            p / kSectorSize, p + static_cast<std::uint32_t>(diff.first - first.begin()),
            *diff.first, *diff.second));
        first = std::move(second);
        second = chip_.read(p, n);
      }
    }
    result.bytes.insert(result.bytes.end(), first.begin(), first.end());
    p += n;
    ++done;
    eta_.mark("sector-read");
    if (progress) {
      const auto remaining = eta_.eta({{"sector-read", static_cast<double>(units - done)}});
      progress(eta_.progress(stage, done, units, "sectors", remaining));
    }
  }
  return result;
}

}  // namespace wavescope::hw::flash
