// wavectl flash ...: the Navi31 SPI flash through ROM_SW (navi31-flash.md §6, §9): info, read,
// dump, verify, and a safe write (image validation, verified backup, protection checks, skipping
// matching sectors, header-last order, journal and --resume, Ctrl-C finishing the sector, final
// verify). Output files are written atomically.

#include <chrono>
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>

#include "commands/hw/hw_cli.hpp"
#include "commands/hw/hw_commands.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/hw/flash/flash_operations.hpp"
#include "wavescope/hw/flash/flash_writer.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"
#include "wavescope/hw/sim/navi31_board.hpp"
#include "wavescope/hw/sim/sim_store.hpp"
#include "wavescope/hw/transport/clock.hpp"

namespace wavectl {
namespace {

using namespace wavescope;
using namespace wavescope::hw;
using namespace wavescope::hw::flash;
using nlohmann::json;

struct Common {
  hw_cli::DeviceOptions device;
  hw_cli::FlashOptions flash;
};

void add_common(CLI::App &cmd, Common &c, CliContext &context) {
  hw_cli::add_device_options(cmd, c.device);
  hw_cli::add_flash_options(cmd, c.flash);
  add_json_flag(cmd, context);
}

json base_summary(device::OpenedDevice &dev, const Common &c) {
  return {{"device", dev.id()}, {"optimize", c.flash.session().optimise.describe()}};
}

std::string status_bits(std::uint8_t sr1, std::uint8_t sr2) {
  return fmt::format(
      "SR1 0x{:02X} (BUSY {}, WEL {}, BP4..0 0x{:02X}, SRP0 {}), SR2 0x{:02X} (SRP1 {}, QE {}, "
      "LB 0x{:X}, CMP {})",
      sr1, sr1 & 1, (sr1 >> 1) & 1, (sr1 >> 2) & 0x1F, sr1 >> 7, sr2, sr2 & 1, (sr2 >> 1) & 1,
      (sr2 >> 3) & 7, (sr2 >> 6) & 1);
}

// Reads a range with every sector read twice and compared, in its own session, and reports the
// re-read warnings (read, dump and the dry run's copy of the chip).
ReadResult read_checked(FlashSession &session, std::uint32_t address, std::size_t size,
                        const char *stage, hw_cli::EtaProgressPrinter &progress) {
  session.open();
  auto result = session.read(address, size, ReadCheck::ReadTwice, stage, progress.sink());
  session.close();
  progress.finish();
  for (const auto &w : result.warnings) std::cerr << "warning: " << w << '\n';
  return result;
}

void info(const Common &c, const CliContext &ctx) {
  hw_cli::run_on_device(c.device, ctx, "flash info", {true, false}, [&](device::OpenedDevice &dev) {
    FlashSession session(dev.bar5(), dev.clock(), c.flash.session());
    const auto i = read_flash_info(session);
    json j = base_summary(dev, c);
    j["state"] = session.probe().state_name();
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
    j["transport"] = hw_cli::transport_json(dev.bar5().stats());
    if (ctx.json) {
      print_json_line(j);
      return j;
    }
    std::cout << fmt::format("device     {}\n", dev.id());
    std::cout << fmt::format("board      {}: {}\n", session.probe().state_name(),
                             session.probe().explanation());
    std::cout << fmt::format("JEDEC id   {} — {}\n", navi31::hex_bytes(i.jedec.bytes),
                             i.part ? i.part->name : "unknown part");
    std::cout << fmt::format("status     {}, SR3 0x{:02X}\n", status_bits(i.sr1, i.sr2), i.sr3);
    std::cout << fmt::format("protected  {}{}\n", i.protection.describe(navi31::kFlashSize),
                             i.status_register_locked ? " (status register protect bits set)" : "");
    std::cout << fmt::format("SFDP       {}\n", navi31::hex_bytes(i.sfdp));
    std::cout << fmt::format("           signature {}, density {}\n",
                             i.sfdp_signature ? fmt::format("at offset {}", *i.sfdp_signature)
                                              : "not found",
                             i.sfdp_density ? fmt::format("{} bytes", *i.sfdp_density) : "unknown");
    std::cout << fmt::format("transport  {}\n", hw_cli::transport_text(dev.bar5().stats()));
    return j;
  });
}

void read(const Common &c, const std::string &address_text, const std::string &size_text,
          const std::string &output, const CliContext &ctx) {
  const auto address = hw_cli::parse_number(address_text, "ADDR");
  const auto size = hw_cli::parse_number(size_text, "SIZE");
  if (address > navi31::kFlashSize || size > navi31::kFlashSize - address)
    throw Error(ErrorKind::Usage,
                fmt::format("range 0x{:X}+0x{:X} is outside the 2 MiB flash", address, size));
  hw_cli::run_on_device(c.device, ctx, "flash read", {true, false}, [&](device::OpenedDevice &dev) {
    hw_cli::EtaProgressPrinter progress(!ctx.quiet && size >= 0x10000, dev.simulated());
    FlashSession session(dev.bar5(), dev.clock(), c.flash.session());
    const auto result =
        read_checked(session, static_cast<std::uint32_t>(address), size, "read", progress);
    const auto sha = sha256_hex(result.bytes);
    json j = base_summary(dev, c);
    j.update({{"address", address},
              {"size", size},
              {"sha256", sha},
              {"reread_sectors", result.reread_sectors},
              {"transport", hw_cli::transport_json(dev.bar5().stats())}});
    if (!output.empty()) {
      hw_cli::write_binary_file(output, result.bytes);
      j["output"] = output;
    } else if (ctx.json) {
      j["hex"] = navi31::hex_bytes(result.bytes);
    }
    if (ctx.json)
      print_json_line(j);
    else if (output.empty())
      std::cout << hw_cli::hex_dump(static_cast<std::uint32_t>(address), result.bytes);
    else
      std::cout << fmt::format("read 0x{:X} bytes at 0x{:06X} into {}, SHA-256 {}\n", size, address,
                               output, sha);
    return j;
  });
}

void dump(const Common &c, const std::string &output, const CliContext &ctx) {
  hw_cli::run_on_device(c.device, ctx, "flash dump", {true, false}, [&](device::OpenedDevice &dev) {
    hw_cli::EtaProgressPrinter progress(!ctx.quiet, dev.simulated());
    FlashSession session(dev.bar5(), dev.clock(), c.flash.session());
    const auto result = read_checked(session, 0, navi31::kFlashSize, "dump", progress);
    hw_cli::write_binary_file(output, result.bytes);
    const auto sha = sha256_hex(result.bytes);
    json j = base_summary(dev, c);
    j.update({{"output", output},
              {"bytes", result.bytes.size()},
              {"sha256", sha},
              {"reread_sectors", result.reread_sectors},
              {"transport", hw_cli::transport_json(dev.bar5().stats())}});
    if (ctx.json)
      print_json_line(j);
    else
      std::cout << fmt::format(
          "dumped 2 MiB to {} (every sector read twice and equal; {} re-read), SHA-256 {}\n{}\n",
          output, result.reread_sectors, sha, hw_cli::transport_text(dev.bar5().stats()));
    return j;
  });
}

void verify(const Common &c, const std::string &image_path, const CliContext &ctx) {
  const auto image = wavescope::read_file_bytes(image_path);
  if (image.size() != navi31::kFlashSize)
    throw Error(ErrorKind::BadInput,
                fmt::format("image {} is {} bytes; a Navi31 flash image is exactly 2 MiB",
                            image_path, image.size()));
  hw_cli::run_on_device(
      c.device, ctx, "flash verify", {true, false}, [&](device::OpenedDevice &dev) {
        hw_cli::EtaProgressPrinter progress(!ctx.quiet, dev.simulated());
        FlashSession session(dev.bar5(), dev.clock(), c.flash.session());
        const auto result = verify_flash(session, image, progress.sink());
        progress.finish();
        for (const auto &w : result.warnings) std::cerr << "warning: " << w << '\n';
        json j = base_summary(dev, c);
        j.update({{"image", image_path},
                  {"matches", true},
                  {"sha256", result.sha256},
                  {"transport", hw_cli::transport_json(dev.bar5().stats())}});
        if (ctx.json)
          print_json_line(j);
        else
          std::cout << fmt::format("flash matches {}, SHA-256 {}\n", image_path, result.sha256);
        return j;
      });
}

struct WriteArgs {
  std::string image;
  bool yes = false, clear_cmp = false, restore_protection = false, resume = false,
       no_backup = false, force_image = false, dry_run = false;
  std::optional<std::uint32_t> start_sector, sector_count;
  std::string backup, journal;
};

// A --dry-run's source: the device's chip (read twice and equal) and its status registers.
struct DryRunSource {
  std::string device;
  std::vector<std::uint8_t> chip;
  std::string chip_sha256;
  std::uint8_t sr1 = 0, sr2 = 0;
};

// Writes on an opened device (the real one, or a dry run's simulated copy) and prints the
// summary; returns it as JSON.
json write_on(device::OpenedDevice &dev, const Common &c, const WriteArgs &a,
              const WriteRequest &request, const WritePlan &plan, CancelToken &cancel,
              const CliContext &ctx, bool &interrupted, const DryRunSource *dry_run) {
  hw_cli::EtaProgressPrinter progress(!ctx.quiet, dev.simulated());
  const auto started = dev.clock().now();
  FlashSession session(dev.bar5(), dev.clock(), c.flash.session(), &cancel);
  const auto s = write_flash(session, dev.id(), request, plan, progress.sink());
  progress.finish();
  for (const auto &w : s.warnings) std::cerr << "warning: " << w << '\n';
  interrupted = s.interrupted;
  const double seconds = std::chrono::duration<double>(dev.clock().now() - started).count();
  json j = base_summary(dev, c);
  j.update({{"image", a.image},
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
            {"backup", s.backup && !dry_run ? json(s.backup->string()) : json()},
            {"backup_sha256", s.backup_sha256},
            {"backup_reused", s.backup_reused},
            {"journal", dry_run ? json() : json(s.journal.string())},
            {"protection_before", s.protection_before},
            {"protection_cleared", s.protection_cleared},
            {"protection_restored", s.protection_restored},
            {"interrupted", s.interrupted},
            {"next_sector", s.next_sector ? json(*s.next_sector) : json()},
            {"resume_hint", s.resume_hint},
            {"transport", hw_cli::transport_json(dev.bar5().stats())}});
  if (dry_run)
    j.update({{"dry_run", true},
              {"device", dry_run->device},
              {"simulated_seconds", seconds},
              {"chip_sha256", dry_run->chip_sha256}});
  if (ctx.json) {
    print_json_line(j);
    return j;
  }
  if (dry_run)
    std::cout << fmt::format(
        "dry run    on a simulated copy of {} (chip read twice and equal, SHA-256 {}); "
        "nothing was written to the device\n",
        dry_run->device, dry_run->chip_sha256);
  if (s.backup)
    std::cout << fmt::format("backup     {} ({}), SHA-256 {}\n",
                             dry_run ? std::string("would be taken") : s.backup->string(),
                             s.backup_reused ? "existing, checked" : "read twice, equal",
                             s.backup_sha256);
  else
    std::cout << "backup     none (--no-backup)\n";
  if (s.protection_cleared)
    std::cout << fmt::format("protection {} cleared{}\n", s.protection_before,
                             s.protection_restored ? ", restored after the final verify" : "");
  std::cout << fmt::format(
      "sectors    {}-{}: {} written, {} already matching, {} done by an earlier run; {} "
      "erases ({} skipped), {} pages programmed\n",
      s.start_sector, s.start_sector + s.sector_count - 1, s.sectors_written, s.sectors_skipped,
      s.sectors_already_done, s.erases, s.erases_skipped, s.pages_programmed);
  if (s.interrupted) {
    std::cout << "stopped    on Ctrl-C after a complete sector: " << s.resume_hint << '\n';
  } else {
    std::cout << fmt::format(
        "verified   the whole range read back equal to the image; range SHA-256 {}\n",
        s.range_sha256);
    std::cout << fmt::format("image      {}, SHA-256 {}\n", a.image, s.image_sha256);
  }
  std::cout << fmt::format("transport  {}\n", hw_cli::transport_text(dev.bar5().stats()));
  if (dry_run)
    std::cout << fmt::format("time       {:.1f} s simulated (chip busy times and polls; the "
                             "transport's own latency comes on top)\n",
                             seconds);
  return j;
}

// Reads the device's chip and status registers for a dry run (the device is only read).
DryRunSource read_dry_run_source(const Common &c, const CliContext &ctx) {
  DryRunSource source;
  hw_cli::run_on_device(
      c.device, ctx, "flash write --dry-run", {true, false}, [&](device::OpenedDevice &dev) {
        hw_cli::EtaProgressPrinter progress(!ctx.quiet, dev.simulated());
        FlashSession session(dev.bar5(), dev.clock(), c.flash.session());
        const auto info = read_flash_info(session);
        auto read = read_checked(session, 0, navi31::kFlashSize, "read for dry run", progress);
        source = {dev.id(), std::move(read.bytes), {}, info.sr1, info.sr2};
        source.chip_sha256 = sha256_hex(source.chip);
        return json{{"device", dev.id()}, {"dry_run_read", true}};
      });
  return source;
}

// --dry-run: the whole write, run unchanged on a simulated board seeded from the device's chip
// and status registers, in a throw-away simulator root. Reports what the write would do
// (sectors, erases, operations, chip time) and whether it would be refused.
void dry_run_write(const Common &c, const WriteArgs &a, WriteRequest request, const WritePlan &plan,
                   const CliContext &ctx) {
  if (a.resume) throw Error(ErrorKind::Usage, "--dry-run cannot --resume a journalled write");
  const DryRunSource source = read_dry_run_source(c, ctx);
  const hw_cli::ScratchDirectory root("wavescope-dry-run");
  {
    VirtualClock clock;
    sim::Navi31Board board(sim::SimConfig{}, clock, source.chip);
    board.force_state(sim::BoardState::Bricked);  // the device answered on ROM_SW
    board.chip().preset_status(source.sr1, source.sr2);
    sim::SimStore(root.path()).create("copy", board);
  }
  request.confirmed = true;  // the copy, not the device
  request.work_dir = root.path();
  request.backup.reset();
  request.journal.reset();
  Common copy = c;
  const bool direct = source.device.starts_with("pci:") || source.device.starts_with("sim-pci:");
  copy.device = {};
  copy.device.device = direct ? "sim-pci:copy" : "sim:copy";
  copy.device.sim_root = root.path().string();
  copy.device.log = c.device.log;
  CancelToken cancel;
  bool interrupted = false;
  hw_cli::run_on_device(copy.device, ctx, "flash write --dry-run (on the copy)",
                        {false, a.clear_cmp}, [&](device::OpenedDevice &dev) {
                          return write_on(dev, copy, a, request, plan, cancel, ctx, interrupted,
                                          &source);
                        });
}

void write(const Common &c, const WriteArgs &a, const CliContext &ctx) {
  // Everything that can refuse the request does so before the device is opened.
  WriteRequest request;
  request.confirmed = a.yes || a.dry_run;
  if (!request.confirmed) check_write_request(request);  // the --yes gate, before the image
  const auto image = wavescope::read_file_bytes(a.image);
  request.image = image;
  request.image_path = a.image;
  request.force_image = a.force_image;
  request.start_sector = a.start_sector;
  request.sector_count = a.sector_count;
  request.resume = a.resume;
  request.clear_protection = a.clear_cmp;
  request.restore_protection = a.restore_protection;
  if (!a.backup.empty()) request.backup = a.backup;
  request.no_backup = a.no_backup;
  if (!a.journal.empty()) request.journal = a.journal;
  const auto plan = check_write_request(request);
  for (const auto &f : plan.image_findings) std::cerr << "image: " << f << '\n';
  if (a.dry_run) return dry_run_write(c, a, request, plan, ctx);

  CancelToken cancel;
  hw_cli::InterruptScope interrupts(cancel);
  bool interrupted = false;
  try {
    hw_cli::run_on_device(
        c.device, ctx, "flash write", {false, a.clear_cmp}, [&](device::OpenedDevice &dev) {
          return write_on(dev, c, a, request, plan, cancel, ctx, interrupted, nullptr);
        });
  } catch (const Error &e) {
    if (cancel.abort_requested()) {
      std::cerr << "error: " << e.what() << '\n';
      std::exit(130);
    }
    throw;
  }
  if (interrupted) std::exit(130);
}

}  // namespace

void register_flash_commands(CLI::App &app, CliContext &context) {
  auto *flash = app.add_subcommand(
      "flash", "Read, verify and rewrite a Navi31 board's 2 MiB SPI flash through ROM_SW");
  flash->require_subcommand(1);
  {
    auto *cmd =
        flash->add_subcommand("info", "Board state, JEDEC id, status registers, protection, SFDP");
    auto c = std::make_shared<Common>();
    add_common(*cmd, *c, context);
    cmd->callback([c, &context] { info(*c, context); });
  }
  {
    auto *cmd = flash->add_subcommand(
        "read", "Read a range (each sector read twice); hex on stdout or -o FILE");
    auto c = std::make_shared<Common>();
    auto address = std::make_shared<std::string>();
    auto size = std::make_shared<std::string>();
    auto output = std::make_shared<std::string>();
    cmd->add_option("ADDR", *address, "Start address (0x hex or decimal)")->required();
    cmd->add_option("SIZE", *size, "Byte count")->required();
    cmd->add_option("-o,--output", *output, "Write the bytes to FILE (atomically)");
    add_common(*cmd, *c, context);
    cmd->callback(
        [c, address, size, output, &context] { read(*c, *address, *size, *output, context); });
  }
  {
    auto *cmd =
        flash->add_subcommand("dump", "Read the whole chip twice, compare, write OUT atomically");
    auto c = std::make_shared<Common>();
    auto output = std::make_shared<std::string>();
    cmd->add_option("OUT", *output, "Output file")->required();
    add_common(*cmd, *c, context);
    cmd->callback([c, output, &context] { dump(*c, *output, context); });
  }
  {
    auto *cmd = flash->add_subcommand("verify", "Compare the chip with a 2 MiB image");
    auto c = std::make_shared<Common>();
    auto image = std::make_shared<std::string>();
    cmd->add_option("IMAGE", *image, "2 MiB image")->required();
    add_common(*cmd, *c, context);
    cmd->callback([c, image, &context] { verify(*c, *image, context); });
  }
  {
    auto *cmd = flash->add_subcommand(
        "write",
        "Write an image safely: validated, backed up, sector by sector, journalled, verified");
    auto c = std::make_shared<Common>();
    auto a = std::make_shared<WriteArgs>();
    cmd->add_option("IMAGE", a->image, "2 MiB image to write")->required();
    cmd->add_flag("--yes", a->yes, "Confirm: erase and program the chip");
    cmd->add_flag(
        "--clear-cmp", a->clear_cmp,
        "Clear write protection (SR2.CMP and SR1.BP) when it covers the sectors to write");
    cmd->add_flag("--restore-protection", a->restore_protection,
                  "Write the old SR1/SR2 back after the final verify");
    cmd->add_option("--start-sector", a->start_sector, "First 4 KiB sector (default 0)");
    cmd->add_option("--sector-count", a->sector_count, "Number of sectors (default: to the end)");
    cmd->add_flag("--resume", a->resume, "Continue the write recorded in the journal");
    auto *backup =
        cmd->add_option("--backup", a->backup,
                        "Backup file: taken there (read twice) or, if it exists, checked "
                        "against the chip (default ./wavescope-backup-DEVICE-SHA.bin)");
    auto *no_backup =
        cmd->add_flag("--no-backup", a->no_backup, "Take no backup (not recommended)");
    backup->excludes(no_backup);
    cmd->add_option("--journal", a->journal, "Journal file (default beside the backup)");
    cmd->add_flag("--force-image", a->force_image, "Write an image that fails validation");
    cmd->add_flag("--dry-run", a->dry_run,
                  "Only read the device: run the write on a simulated copy of its chip and "
                  "status registers, and report what it would do (no --yes needed)");
    add_common(*cmd, *c, context);
    cmd->callback([c, a, &context] { write(*c, *a, context); });
  }
}

}  // namespace wavectl
