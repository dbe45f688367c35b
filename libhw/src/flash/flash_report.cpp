#include "wavescope/hw/flash/flash_report.hpp"

#include <cctype>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "transport/transport_stats_json.hpp"
#include "wavescope/base/json_line.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"
#include "wavescope/hw/transport/transport_report.hpp"

namespace wavescope::hw::flash {
namespace {

using nlohmann::json;

json run_json(const FlashRun &run) {
  return {{"device", run.device},
          {"optimize", run.optimize},
          {"transport", transport_stats_json(run.transport)}};
}

}  // namespace

std::string describe_status_registers(std::uint8_t sr1, std::uint8_t sr2) {
  return fmt::format(
      "SR1 0x{:02X} (BUSY {}, WEL {}, BP4..0 0x{:02X}, SRP0 {}), SR2 0x{:02X} (SRP1 {}, QE {}, "
      "LB 0x{:X}, CMP {})",
      sr1, sr1 & 1, (sr1 >> 1) & 1, (sr1 >> 2) & 0x1F, sr1 >> 7, sr2, sr2 & 1, (sr2 >> 1) & 1,
      (sr2 >> 3) & 7, (sr2 >> 6) & 1);
}

std::string hex_dump(std::uint64_t address, std::span<const std::uint8_t> bytes) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 16) {
    out += fmt::format("{:08X}:", address + i);
    std::string ascii;
    for (std::size_t k = 0; k < 16; ++k) {
      if (i + k < bytes.size()) {
        out += fmt::format(" {:02X}", bytes[i + k]);
        ascii += std::isprint(bytes[i + k]) ? static_cast<char>(bytes[i + k]) : '.';
      } else {
        out += "   ";
      }
    }
    out += "  |" + ascii + "|\n";
  }
  return out;
}

std::string to_json(const FlashInfoReport &r) {
  const auto &i = r.info;
  json j = run_json(r.run);
  j["state"] = r.board_state;
  j["jedec"] = navi31::hex_bytes(i.jedec.bytes);
  j["part"] = i.part ? i.part->name : "unknown";
  j["sr1"] = i.sr1;
  j["sr2"] = i.sr2;
  j["sr3"] = i.sr3;
  j["cmp"] = (i.sr2 & navi31::kSr2Cmp) != 0;
  j["protected"] = {{"begin", i.protection.begin},
                    {"end", i.protection.end},
                    {"text", i.protection.describe(navi31::kFlashSize)}};
  j["status_register_locked"] = i.status_register_locked;
  j["sfdp"] = navi31::hex_bytes(i.sfdp);
  j["sfdp_signature_offset"] = i.sfdp_signature ? json(*i.sfdp_signature) : json();
  j["density"] = i.sfdp_density ? json(*i.sfdp_density) : json();
  return json_line(j);
}

std::string to_text(const FlashInfoReport &r) {
  const auto &i = r.info;
  std::string out = fmt::format("device     {}\n", r.run.device);
  out += fmt::format("board      {}: {}\n", r.board_state, r.board_explanation);
  out += fmt::format("JEDEC id   {} — {}\n", navi31::hex_bytes(i.jedec.bytes),
                     i.part ? i.part->name : "unknown part");
  out +=
      fmt::format("status     {}, SR3 0x{:02X}\n", describe_status_registers(i.sr1, i.sr2), i.sr3);
  out += fmt::format("protected  {}{}\n", i.protection.describe(navi31::kFlashSize),
                     i.status_register_locked ? " (status register protect bits set)" : "");
  out += fmt::format("SFDP       {}\n", navi31::hex_bytes(i.sfdp));
  out +=
      fmt::format("           signature {}, density {}\n",
                  i.sfdp_signature ? fmt::format("at offset {}", *i.sfdp_signature) : "not found",
                  i.sfdp_density ? fmt::format("{} bytes", *i.sfdp_density) : "unknown");
  out += fmt::format("transport  {}\n", to_text(r.run.transport));
  return out;
}

std::string to_json(const FlashReadReport &r) {
  json j = run_json(r.run);
  j.update({{"address", r.address},
            {"size", r.size},
            {"sha256", r.sha256},
            {"reread_sectors", r.reread_sectors}});
  if (r.output)
    j["output"] = *r.output;
  else
    j["hex"] = navi31::hex_bytes(r.bytes);
  return json_line(j);
}

std::string to_text(const FlashReadReport &r) {
  if (!r.output) return hex_dump(r.address, r.bytes);
  return fmt::format("read 0x{:X} bytes at 0x{:06X} into {}, SHA-256 {}\n", r.size, r.address,
                     *r.output, r.sha256);
}

std::string to_json(const FlashDumpReport &r) {
  json j = run_json(r.run);
  j.update({{"output", r.output},
            {"bytes", r.bytes},
            {"sha256", r.sha256},
            {"reread_sectors", r.reread_sectors}});
  return json_line(j);
}

std::string to_text(const FlashDumpReport &r) {
  return fmt::format(
      "dumped 2 MiB to {} (every sector read twice and equal; {} re-read), SHA-256 {}\n{}\n",
      r.output, r.reread_sectors, r.sha256, to_text(r.run.transport));
}

std::string to_json(const FlashVerifyReport &r) {
  json j = run_json(r.run);
  j.update({{"image", r.image}, {"matches", true}, {"sha256", r.sha256}});
  return json_line(j);
}

std::string to_text(const FlashVerifyReport &r) {
  return fmt::format("flash matches {}, SHA-256 {}\n", r.image, r.sha256);
}

std::string to_json(const FlashWriteReport &r) {
  const auto &s = r.summary;
  const bool dry = r.dry_run.has_value();
  json j = run_json(r.run);
  j.update({{"image", r.image},
            {"image_sha256", s.image_sha256},
            {"range_sha256", s.range_sha256},
            {"start_sector", s.start_sector},
            {"sector_count", s.sector_count},
            {"sectors_written", s.sectors_written},
            {"sectors_skipped", s.sectors_skipped},
            {"sectors_already_done", s.sectors_already_done},
            {"erases", s.erases},
            {"erases_skipped", s.erases_skipped},
            {"pages_programmed", s.pages_programmed},
            {"backup", s.backup && !dry ? json(s.backup->string()) : json()},
            {"backup_sha256", s.backup_sha256},
            {"backup_reused", s.backup_reused},
            {"journal", dry ? json() : json(s.journal.string())},
            {"protection_before", s.protection_before},
            {"protection_cleared", s.protection_cleared},
            {"protection_restored", s.protection_restored},
            {"interrupted", s.interrupted},
            {"next_sector", s.next_sector ? json(*s.next_sector) : json()},
            {"resume_hint", s.resume_hint}});
  if (dry)
    j.update({{"dry_run", true},
              {"device", r.dry_run->device},
              {"simulated_seconds", r.dry_run->simulated_seconds},
              {"chip_sha256", r.dry_run->chip_sha256}});
  return json_line(j);
}

std::string to_text(const FlashWriteReport &r) {
  const auto &s = r.summary;
  const auto &dry = r.dry_run;
  std::string out;
  if (dry)
    out +=
        fmt::format("dry run    on a simulated copy of {} (chip read twice and equal, SHA-256 {}); "
                    "nothing was written to the device\n",
                    dry->device, dry->chip_sha256);
  if (s.backup)
    out +=
        fmt::format("backup     {} ({}), SHA-256 {}\n",
                    dry ? std::string("would be taken") : s.backup->string(),
                    s.backup_reused ? "existing, checked" : "read twice, equal", s.backup_sha256);
  else
    out += "backup     none (as asked)\n";
  if (s.protection_cleared)
    out += fmt::format("protection {} cleared{}\n", s.protection_before,
                       s.protection_restored ? ", restored after the final verify" : "");
  out += fmt::format(
      "sectors    {}-{}: {} written, {} already matching, {} done by an earlier run; {} "
      "erases ({} skipped), {} pages programmed\n",
      s.start_sector, s.start_sector + s.sector_count - 1, s.sectors_written, s.sectors_skipped,
      s.sectors_already_done, s.erases, s.erases_skipped, s.pages_programmed);
  if (s.interrupted) {
    out += "stopped    on Ctrl-C after a complete sector: " + s.resume_hint + '\n';
  } else {
    out += fmt::format("verified   the whole range read back equal to the image; range SHA-256 "
                       "{}\n",
                       s.range_sha256);
    out += fmt::format("image      {}, SHA-256 {}\n", r.image, s.image_sha256);
  }
  out += fmt::format("transport  {}\n", to_text(r.run.transport));
  if (dry)
    out += fmt::format("time       {:.1f} s simulated (chip busy times and polls; the "
                       "transport's own latency comes on top)\n",
                       dry->simulated_seconds);
  return out;
}

}  // namespace wavescope::hw::flash
