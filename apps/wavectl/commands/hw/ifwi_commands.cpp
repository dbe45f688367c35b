// wavectl's ifwi subcommands: inspect a Navi31 flash image, make the synthesized test image.

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>

#include <fmt/format.h>

#include "commands/hw/hw_commands.hpp"
#include "table.hpp"
#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/hw/ifwi/checksums.hpp"
#include "wavescope/hw/ifwi/ifwi_items.hpp"
#include "wavescope/hw/ifwi/image_check.hpp"
#include "wavescope/hw/ifwi/test_image.hpp"

namespace wavectl {
namespace {

using namespace wavescope::hw::ifwi;
using nlohmann::json;

std::string hex(std::uint64_t value) { return fmt::format("{:#x}", value); }

json directory_json(const PspDirectory &dir) {
  json j = {{"offset", dir.offset},           {"cookie", dir.cookie},
            {"checksum", dir.checksum},       {"checksum_ok", dir.checksum_ok()},
            {"entry_count", dir.entry_count}, {"additional_info", dir.additional_info},
            {"entries", json::array()}};
  for (const auto &e : dir.entries)
    j["entries"].push_back({{"type", e.type}, {"size", e.size}, {"location", e.location}});
  return j;
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

void print_directory_text(const PspDirectory &dir, std::string_view name) {
  std::cout << fmt::format(
      "{} {} at {:#08x}: {} entries, checksum {:#010x} ({})\n", name, dir.cookie, dir.offset,
      dir.entry_count, dir.checksum,
      dir.checksum_ok() ? "ok" : fmt::format("expected {:#010x}", dir.computed_checksum));
  Table table({"  type", "size", "location"},
              {Table::Align::Left, Table::Align::Right, Table::Align::Right});
  for (const auto &e : dir.entries)
    table.add_row({"  " + hex(e.type), hex(e.size), hex(e.location)});
  if (table.rows()) std::cout << table.render();
}

void print_layout_text(const IfwiLayout &layout) {
  if (layout.efs)
    std::cout << fmt::format("EFS header: magic {:#010x}, $PSP pointer {:#x}, backup {:#x}\n",
                             layout.efs->magic, layout.efs->psp_directory,
                             layout.efs->backup_psp_directory);
  if (layout.primary_psp) print_directory_text(*layout.primary_psp, "primary");
  if (layout.backup_psp) print_directory_text(*layout.backup_psp, "backup");
  if (layout.sgn) {
    const auto &sgn = *layout.sgn;
    std::cout << fmt::format("$SGN at {:#08x} (pointer at 0x001000): {} entries, checksum {:#010x} "
                             "({})\n",
                             sgn.offset, sgn.entry_count, sgn.checksum,
                             sgn.checksum_ok() ? "ok" : "differs from CRC-32");
    Table table({"  sign type", "offset", "size"},
                {Table::Align::Left, Table::Align::Right, Table::Align::Right});
    for (const auto &e : sgn.entries)
      table.add_row({"  " + std::to_string(e.sign_type), hex(e.offset), hex(e.size)});
    if (table.rows()) std::cout << table.render();
  }
  for (const auto *ish : {&layout.ish_a, &layout.ish_b}) {
    if (!*ish) continue;
    const auto &h = **ish;
    std::cout << fmt::format("ISH {} at {:#08x}: slot {:#x} max size {:#x}, priority {}, update "
                             "retries {}, glitch retries {}, checksum {:#010x}\n",
                             h.slot, h.offset, h.slot_address, h.slot_max_size, h.priority,
                             h.update_retries, h.glitch_retries, h.checksum);
  }
  for (const auto &p : layout.partitions) {
    std::cout << fmt::format("partition {} at {:#08x}..{:#08x}", p.slot, p.offset,
                             p.offset + p.size);
    if (p.directory)
      std::cout << fmt::format(", {} with {} entries", p.directory->cookie,
                               p.directory->entry_count);
    if (p.option_rom) {
      const auto &rom = *p.option_rom;
      std::cout << fmt::format(", VBIOS at {:#x} ({} KiB", rom.offset, rom.length / 1024);
      if (rom.pcir_device_id)
        std::cout << fmt::format(", PCI {:04x}:{:04x}", *rom.pcir_vendor_id, *rom.pcir_device_id);
      if (rom.has_atom_table) std::cout << ", ATOM";
      std::cout << ")";
    }
    std::cout << '\n';
  }
}

void run_inspect(const std::string &file, bool check_only, const CliContext &context) {
  const auto image = wavescope::read_file_bytes(file);
  const auto check = validate_flash_image(image);
  const auto items = resolve_all_ifwi_items(image);
  const std::string digest = sha256_hex(image);
  if (context.json) {
    json j = {{"file", file},
              {"size", image.size()},
              {"sha256", digest},
              {"accepted", check.accepted()},
              {"errors", check.error_count()},
              {"warnings", check.warning_count()}};
    j.update(layout_json(check.layout));
    j["items"] = json::array();
    for (const auto &r : items) {
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
    print_json_line(j);
  } else {
    std::cout << fmt::format("{}: {} bytes, SHA-256 {}\n", file, image.size(), digest);
    print_layout_text(check.layout);
    Table table({"item", "offset", "size", "what"},
                {Table::Align::Left, Table::Align::Right, Table::Align::Right, Table::Align::Left});
    for (const auto &r : items) {
      if (r.resolved)
        table.add_row({fmt::format("{:#04x}", r.item), hex(r.resolved->offset),
                       hex(r.resolved->size), r.resolved->description});
      else
        table.add_row({fmt::format("{:#04x}", r.item), "-", "-", "unresolved: " + r.error});
    }
    std::cout << "PSP recovery items:\n" << table.render();
    for (const auto &f : check.findings)
      std::cout << fmt::format("{}: {}\n", to_string(f.severity), f.message);
    std::cout << (check.accepted()
                      ? fmt::format("verdict: accepted for flashing ({} warnings)\n",
                                    check.warning_count())
                      : fmt::format("verdict: flash write would refuse this image ({} errors)\n",
                                    check.error_count()));
  }
  if (check_only) check.require_accepted();
}

struct MakeTestImageArgs {
  std::string output;
  std::uint32_t seed = TestImageOptions{}.seed;
  std::uint32_t slot_size = TestImageOptions{}.slot_size;
  std::uint16_t device_id = TestImageOptions{}.device_id;
  std::string corruption = "none";
};

void run_make_test_image(const MakeTestImageArgs &args, const CliContext &context) {
  TestImageOptions options;
  options.seed = args.seed;
  options.slot_size = args.slot_size;
  options.device_id = args.device_id;
  options.corruption = parse_test_image_corruption(args.corruption);
  const auto image = make_test_ifwi_image(options);
  wavescope::write_file_atomically(args.output,
                                   std::span<const unsigned char>(image.data(), image.size()));
  const std::string digest = sha256_hex(image);
  if (context.json) {
    print_json_line({{"output", args.output},
                     {"size", image.size()},
                     {"sha256", digest},
                     {"seed", args.seed},
                     {"slot_size", args.slot_size},
                     {"device_id", args.device_id},
                     {"corruption", args.corruption}});
  } else {
    std::cout << fmt::format("wrote {} ({} bytes, SHA-256 {})\n", args.output, image.size(),
                             digest);
  }
}

}  // namespace

void register_ifwi_commands(CLI::App &app, CliContext &context) {
  auto *ifwi = app.add_subcommand("ifwi", "Navi31 flash images (IFWI): inspect, make a test image");
  ifwi->require_subcommand(1);

  auto *inspect = ifwi->add_subcommand(
      "inspect", "Show an image's EFS header, $PSP directories, $SGN table, ISH A/B, partitions, "
                 "PSP recovery items, and whether `flash write` would accept it");
  auto file = std::make_shared<std::string>();
  auto check_only = std::make_shared<bool>(false);
  inspect->add_option("FILE", *file, "2 MiB flash image")->required();
  inspect->add_flag("--check", *check_only,
                    "Exit with code 3 when `flash write` would refuse the image");
  add_json_flag(*inspect, context);
  inspect->callback([=, &context] { run_inspect(*file, *check_only, context); });

  auto *make = ifwi->add_subcommand(
      "make-test-image",
      "Write the deterministic synthesized Navi31 image (navi31-flash.md §10.12), atomically");
  auto args = std::make_shared<MakeTestImageArgs>();
  make->add_option("OUT", args->output, "Output file")->required();
  make->add_option("--seed", args->seed, "PRNG seed (default 0x1F31)");
  make->add_option("--slot-size", args->slot_size,
                   "Partition slot size, a multiple of 0x1000 in [0x30000, 0xE0000] "
                   "(default 0xC0000; 0x40000 is the small profile)");
  make->add_option("--device-id", args->device_id, "PCI device id in the VBIOS (default 0x744C)");
  make->add_option("--corrupt", args->corruption,
                   "Make a broken image for testing refusals: bad-magic, missing-psp, "
                   "bad-psp-checksum, psp-entry-outside, sgn-pointer-out-of-range, bad-sgn-magic, "
                   "missing-sgn-type, ish-slot-outside, ish-slot-size-unaligned, mirrored-halves, "
                   "truncated, wrong-device-id");
  add_json_flag(*make, context);
  make->callback([=, &context] { run_make_test_image(*args, context); });
}

}  // namespace wavectl
