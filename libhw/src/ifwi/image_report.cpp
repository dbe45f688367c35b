#include "wavescope/hw/ifwi/image_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/base/text_table.hpp"

namespace wavescope::hw::ifwi {
namespace {

using nlohmann::json;
using Table = TextTable;

std::string hex(std::uint64_t value) { return fmt::format("{:#x}", value); }

json directory_json(const PspDirectory &dir) {
  json j = {{"offset", dir.offset},           {"cookie", dir.cookie},
            {"checksum", dir.checksum},       {"checksum_ok", dir.checksum_ok()},
            {"entry_count", dir.entry_count}, {"additional_info", dir.additional_info},
            {"entries", json::array()}};
  if (dir.entries_truncated()) j["entries_in_image"] = dir.entries_in_image;
  for (const auto &e : dir.entries)
    j["entries"].push_back({{"type", e.type}, {"size", e.size}, {"location", e.location}});
  return j;
}

// A directory's checksum status, and the note on an overlong table's entry list, as text.
std::string checksum_status(bool ok, std::optional<std::uint32_t> computed) {
  if (ok) return "ok";
  if (!computed) return "not checked: the entries run past the image";
  return fmt::format("expected {:#010x}", *computed);
}

std::string overlong_note(std::uint32_t in_image, std::size_t listed, bool truncated) {
  if (!truncated) return {};
  return fmt::format("  {} entries fit in the image; the first {} are listed\n", in_image, listed);
}

json layout_json(const IfwiLayout &layout) {
  json j = json::object();
  if (layout.efs)
    j["efs"] = {{"magic", layout.efs->magic},
                {"psp_directory", layout.efs->psp_directory},
                {"backup_psp_directory", layout.efs->backup_psp_directory}};
  j["psp_directories"] = json::array();
  for (const auto *dir : {&layout.primary_psp, &layout.backup_psp})
    if (*dir) j["psp_directories"].push_back(directory_json(**dir));
  if (layout.sgn) {
    json sgn = {{"offset", layout.sgn->offset},
                {"checksum", layout.sgn->checksum},
                {"checksum_ok", layout.sgn->checksum_ok()},
                {"entry_count", layout.sgn->entry_count},
                {"entries", json::array()}};
    if (layout.sgn->entries_truncated()) sgn["entries_in_image"] = layout.sgn->entries_in_image;
    for (const auto &e : layout.sgn->entries)
      sgn["entries"].push_back(
          {{"sign_type", e.sign_type}, {"size", e.size}, {"offset", e.offset}});
    j["sgn"] = sgn;
  }
  j["image_slot_headers"] = json::array();
  for (const auto *ish : {&layout.ish_a, &layout.ish_b}) {
    if (!*ish) continue;
    const auto &h = **ish;
    j["image_slot_headers"].push_back({{"slot", std::string(1, h.slot)},
                                       {"offset", h.offset},
                                       {"checksum", h.checksum},
                                       {"priority", h.priority},
                                       {"update_retries", h.update_retries},
                                       {"glitch_retries", h.glitch_retries},
                                       {"slot_address", h.slot_address},
                                       {"psp_id", h.psp_id},
                                       {"slot_max_size", h.slot_max_size}});
  }
  j["partitions"] = json::array();
  for (const auto &p : layout.partitions) {
    json part = {{"slot", std::string(1, p.slot)}, {"offset", p.offset}, {"size", p.size}};
    if (p.directory) part["directory"] = directory_json(*p.directory);
    if (p.option_rom) {
      const auto &rom = *p.option_rom;
      part["vbios"] = {{"offset", rom.offset},
                       {"length", rom.length},
                       {"amd_signature", rom.amd_signature},
                       {"atom", rom.has_atom_table}};
      if (rom.pcir_device_id) {
        part["vbios"]["vendor_id"] = *rom.pcir_vendor_id;
        part["vbios"]["device_id"] = *rom.pcir_device_id;
      }
    }
    j["partitions"].push_back(part);
  }
  j["halves_identical"] = layout.halves_identical;
  return j;
}

std::string directory_text(const PspDirectory &dir, std::string_view name) {
  std::string out = fmt::format("{} {} at {:#08x}: {} entries, checksum {:#010x} ({})\n", name,
                                dir.cookie, dir.offset, dir.entry_count, dir.checksum,
                                checksum_status(dir.checksum_ok(), dir.computed_checksum));
  out += overlong_note(dir.entries_in_image, dir.entries.size(), dir.entries_truncated());
  Table table({"  type", "size", "location"},
              {Table::Align::Left, Table::Align::Right, Table::Align::Right});
  for (const auto &e : dir.entries)
    table.add_row({"  " + hex(e.type), hex(e.size), hex(e.location)});
  if (table.rows()) out += table.render();
  return out;
}

}  // namespace

ImageReport inspect_image(std::span<const std::uint8_t> image, std::string file) {
  ImageReport report;
  report.file = std::move(file);
  report.size = image.size();
  report.sha256 = sha256_hex(image);
  report.check = validate_flash_image(image);
  report.items = resolve_all_ifwi_items(image);
  return report;
}

std::string to_json(const IfwiLayout &layout) { return json_line(layout_json(layout)); }

std::string to_text(const IfwiLayout &layout) {
  std::string out;
  if (layout.efs)
    out +=
        fmt::format("EFS header: magic {:#010x}, $PSP pointer {:#x}, backup {:#x}\n",
                    layout.efs->magic, layout.efs->psp_directory, layout.efs->backup_psp_directory);
  if (layout.primary_psp) out += directory_text(*layout.primary_psp, "primary");
  if (layout.backup_psp) out += directory_text(*layout.backup_psp, "backup");
  if (layout.sgn) {
    const auto &sgn = *layout.sgn;
    out += fmt::format("$SGN at {:#08x} (pointer at 0x001000): {} entries, checksum {:#010x} "
                       "({})\n",
                       sgn.offset, sgn.entry_count, sgn.checksum,
                       sgn.checksum_ok()       ? "ok"
                       : sgn.computed_checksum ? "differs from CRC-32"
                                               : "not checked: the entries run past the image");
    out += overlong_note(sgn.entries_in_image, sgn.entries.size(), sgn.entries_truncated());
    Table table({"  sign type", "offset", "size"},
                {Table::Align::Left, Table::Align::Right, Table::Align::Right});
    for (const auto &e : sgn.entries)
      table.add_row({"  " + std::to_string(e.sign_type), hex(e.offset), hex(e.size)});
    if (table.rows()) out += table.render();
  }
  for (const auto *ish : {&layout.ish_a, &layout.ish_b}) {
    if (!*ish) continue;
    const auto &h = **ish;
    out += fmt::format("ISH {} at {:#08x}: slot {:#x} max size {:#x}, priority {}, update "
                       "retries {}, glitch retries {}, checksum {:#010x}\n",
                       h.slot, h.offset, h.slot_address, h.slot_max_size, h.priority,
                       h.update_retries, h.glitch_retries, h.checksum);
  }
  for (const auto &p : layout.partitions) {
    out += fmt::format("partition {} at {:#08x}..{:#08x}", p.slot, p.offset, p.offset + p.size);
    if (p.directory)
      out += fmt::format(", {} with {} entries", p.directory->cookie, p.directory->entry_count);
    if (p.option_rom) {
      const auto &rom = *p.option_rom;
      out += fmt::format(", VBIOS at {:#x} ({} KiB", rom.offset, rom.length / 1024);
      if (rom.pcir_device_id)
        out += fmt::format(", PCI {:04x}:{:04x}", *rom.pcir_vendor_id, *rom.pcir_device_id);
      if (rom.has_atom_table) out += ", ATOM";
      out += ")";
    }
    out += '\n';
  }
  return out;
}

std::string to_json(const ImageReport &report) {
  const auto &check = report.check;
  json j = {{"file", report.file},           {"size", report.size},
            {"sha256", report.sha256},       {"accepted", check.accepted()},
            {"errors", check.error_count()}, {"warnings", check.warning_count()}};
  j.update(layout_json(check.layout));
  j["items"] = json::array();
  for (const auto &r : report.items) {
    json item = {{"item", r.item}};
    if (r.resolved) {
      item["offset"] = r.resolved->offset;
      item["size"] = r.resolved->size;
      item["description"] = r.resolved->description;
    } else {
      item["error"] = r.error;
    }
    j["items"].push_back(item);
  }
  j["findings"] = json::array();
  for (const auto &f : check.findings)
    j["findings"].push_back(
        {{"severity", to_string(f.severity)}, {"offset", f.offset}, {"message", f.message}});
  return json_line(j);
}

std::string to_text(const ImageReport &report) {
  const auto &check = report.check;
  std::string out =
      fmt::format("{}: {} bytes, SHA-256 {}\n", report.file, report.size, report.sha256);
  out += to_text(check.layout);
  Table table({"item", "offset", "size", "what"},
              {Table::Align::Left, Table::Align::Right, Table::Align::Right, Table::Align::Left});
  for (const auto &r : report.items) {
    if (r.resolved)
      table.add_row({fmt::format("{:#04x}", r.item), hex(r.resolved->offset), hex(r.resolved->size),
                     r.resolved->description});
    else
      table.add_row({fmt::format("{:#04x}", r.item), "-", "-", "unresolved: " + r.error});
  }
  out += "PSP recovery items:\n" + table.render();
  for (const auto &f : check.findings)
    out += fmt::format("{}: {}\n", to_string(f.severity), f.message);
  out += check.accepted()
             ? fmt::format("verdict: accepted for flashing ({} warnings)\n", check.warning_count())
             : fmt::format("verdict: flash write would refuse this image ({} errors)\n",
                           check.error_count());
  return out;
}

std::string to_json(const TestImageReport &report) {
  return json_line(json{{"output", report.output},
                        {"size", report.size},
                        {"sha256", report.sha256},
                        {"seed", report.options.seed},
                        {"slot_size", report.options.slot_size},
                        {"device_id", report.options.device_id},
                        {"corruption", to_string(report.options.corruption)}});
}

std::string to_text(const TestImageReport &report) {
  return fmt::format("wrote {} ({} bytes, SHA-256 {})\n", report.output, report.size,
                     report.sha256);
}

}  // namespace wavescope::hw::ifwi
