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
#include "commands/hw/refusal_wording.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/hw/device/dry_run_copy.hpp"
#include "wavescope/hw/flash/flash_backup.hpp"
#include "wavescope/hw/flash/flash_operations.hpp"
#include "wavescope/hw/flash/flash_report.hpp"
#include "wavescope/hw/flash/flash_writer.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"
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

FlashRun flash_run(device::OpenedDevice &dev, const Common &c) {
  return {dev.id(), c.flash.session().optimize.describe(), dev.bar5().stats()};
}

// Reads a range with every sector read twice and compared, in its own session, and reports the
// re-read warnings (read, dump and the dry run's copy of the chip).
ReadResult read_checked(FlashSession &session, std::uint32_t address, std::size_t size,
                        const char *stage, hw_cli::EtaProgressPrinter &progress) {
  auto result = read_verified(session, address, size, stage, progress.sink());
  progress.finish();
  for (const auto &w : result.warnings) std::cerr << "warning: " << w << '\n';
  return result;
}

void info(const Common &c, const CliContext &ctx) {
  hw_cli::run_on_device(c.device, ctx, "flash info", {true, false}, [&](device::OpenedDevice &dev) {
    FlashSession session(dev.bar5(), dev.clock(), c.flash.session());
    FlashInfoReport report;
    report.info = read_flash_info(session);  // opens the session: the probe comes first
    report.board_state = session.probe().state_name();
    report.board_explanation = session.probe().explanation();
    report.run = flash_run(dev, c);
    return hw_cli::print_report(report, ctx);
  });
}

void read(const Common &c, const std::string &address_text, const std::string &size_text,
          const std::string &output, const CliContext &ctx) {
  const auto address = hw_cli::parse_number(address_text, "ADDR");
  const auto size = hw_cli::parse_number(size_text, "SIZE");
  navi31::check_flash_range(address, size);
  hw_cli::run_on_device(c.device, ctx, "flash read", {true, false}, [&](device::OpenedDevice &dev) {
    hw_cli::EtaProgressPrinter progress(!ctx.quiet && size >= 0x10000, dev.simulated());
    FlashSession session(dev.bar5(), dev.clock(), c.flash.session());
    const auto result =
        read_checked(session, static_cast<std::uint32_t>(address), size, "read", progress);
    FlashReadReport report{
        {}, address, size, sha256_hex(result.bytes), result.reread_sectors, std::nullopt, {}};
    if (!output.empty()) {
      hw_cli::write_binary_file(output, result.bytes);
      report.output = output;
    } else {
      report.bytes = result.bytes;
    }
    report.run = flash_run(dev, c);
    json summary = hw_cli::print_report(report, ctx);
    if (!ctx.json) summary.erase("hex");  // the log keeps the bytes only where they were printed
    return summary;
  });
}

void dump(const Common &c, const std::string &output, const CliContext &ctx) {
  hw_cli::run_on_device(c.device, ctx, "flash dump", {true, false}, [&](device::OpenedDevice &dev) {
    hw_cli::EtaProgressPrinter progress(!ctx.quiet, dev.simulated());
    FlashSession session(dev.bar5(), dev.clock(), c.flash.session());
    const auto result = backup_flash(session, dev.id(), output, ".", progress.sink());
    progress.finish();
    for (const auto &w : result.warnings) std::cerr << "warning: " << w << '\n';
    return hw_cli::print_report(FlashDumpReport{flash_run(dev, c), output, result.bytes,
                                                result.sha256, result.reread_sectors},
                                ctx);
  });
}

void verify(const Common &c, const std::string &image_path, const CliContext &ctx) {
  const auto image = wavescope::read_file_bytes(image_path);
  navi31::check_flash_image_size(image.size(), image_path);
  hw_cli::run_on_device(c.device, ctx, "flash verify", {true, false},
                        [&](device::OpenedDevice &dev) {
                          hw_cli::EtaProgressPrinter progress(!ctx.quiet, dev.simulated());
                          FlashSession session(dev.bar5(), dev.clock(), c.flash.session());
                          const auto result = verify_flash(session, image, progress.sink());
                          progress.finish();
                          for (const auto &w : result.warnings)
                            std::cerr << "warning: " << w << '\n';
                          return hw_cli::print_report(
                              FlashVerifyReport{flash_run(dev, c), image_path, result.sha256}, ctx);
                        });
}

struct WriteArgs {
  std::string image;
  bool yes = false, clear_cmp = false, restore_protection = false, resume = false,
       no_backup = false, force_image = false, dry_run = false;
  std::optional<std::uint32_t> start_sector, sector_count;
  std::string backup, journal;
};

// Writes on an opened device (the real one, or a dry run's simulated copy) and prints the
// summary; returns it as JSON.
json write_on(device::OpenedDevice &dev, const Common &c, const WriteArgs &a,
              const WriteRequest &request, const WritePlan &plan, CancelToken &cancel,
              const CliContext &ctx, bool &interrupted, const device::DryRunSource *dry_run) {
  hw_cli::EtaProgressPrinter progress(!ctx.quiet, dev.simulated());
  const auto started = dev.clock().now();
  FlashSession session(dev.bar5(), dev.clock(), c.flash.session(), &cancel);
  auto s = write_flash(session, dev.id(), request, plan, progress.sink());
  progress.finish();
  for (const auto &w : s.warnings) std::cerr << "warning: " << w << '\n';
  if (s.resume) s.resume_hint = hw_cli::cli_wording(*s.resume);
  interrupted = s.interrupted;
  FlashWriteReport report{flash_run(dev, c), a.image, s, std::nullopt};
  if (dry_run)
    report.dry_run =
        FlashDryRun{dry_run->device, dry_run->chip_sha256,
                    std::chrono::duration<double>(dev.clock().now() - started).count()};
  return hw_cli::print_report(report, ctx);
}

// --dry-run: the whole write, run unchanged on a simulated board seeded from the device's chip
// and status registers, in a throw-away simulator root. Reports what the write would do
// (sectors, erases, operations, chip time) and whether it would be refused.
void dry_run_write(const Common &c, const WriteArgs &a, const WriteRequest &request,
                   const WritePlan &plan, const CliContext &ctx) {
  device::check_dry_run_request(request);
  device::DryRunSource source;
  hw_cli::run_on_device(c.device, ctx, "flash write --dry-run", {true, false},
                        [&](device::OpenedDevice &dev) {
                          hw_cli::EtaProgressPrinter progress(!ctx.quiet, dev.simulated());
                          FlashSession session(dev.bar5(), dev.clock(), c.flash.session());
                          source = device::read_dry_run_source(session, dev.id(), progress.sink());
                          progress.finish();
                          for (const auto &w : source.warnings)
                            std::cerr << "warning: " << w << '\n';
                          return json{{"device", dev.id()}, {"dry_run_read", true}};
                        });
  const hw_cli::ScratchDirectory root("wavescope-dry-run");
  const auto copy = device::prepare_dry_run_copy(root.path(), source, request);
  Common on_copy = c;
  on_copy.device = {};
  on_copy.device.device = copy.device_spec;
  on_copy.device.sim_root = root.path().string();
  on_copy.device.log = c.device.log;
  CancelToken cancel;
  bool interrupted = false;
  hw_cli::run_on_device(on_copy.device, ctx, "flash write --dry-run (on the copy)",
                        {false, a.clear_cmp}, [&](device::OpenedDevice &dev) {
                          return write_on(dev, on_copy, a, copy.request, plan, cancel, ctx,
                                          interrupted, &source);
                        });
}

void write(const Common &c, const WriteArgs &a, const CliContext &ctx) {
  // Everything that can refuse the request does so before the device is opened.
  WriteRequest request;
  request.confirmed = a.yes || a.dry_run;
  request.force_image = a.force_image;
  request.start_sector = a.start_sector;
  request.sector_count = a.sector_count;
  request.resume = a.resume;
  request.clear_protection = a.clear_cmp;
  request.restore_protection = a.restore_protection;
  if (!a.backup.empty()) request.backup = a.backup;
  request.no_backup = a.no_backup;
  if (!a.journal.empty()) request.journal = a.journal;
  const auto planned = plan_write_from_file(std::move(request), a.image);
  const auto &checked = planned.request;
  const auto &plan = planned.plan;
  for (const auto &f : plan.image_findings) std::cerr << "image: " << f << '\n';
  if (a.dry_run) return dry_run_write(c, a, checked, plan, ctx);

  CancelToken cancel;
  hw_cli::InterruptScope interrupts(cancel);
  bool interrupted = false;
  try {
    hw_cli::run_on_device(
        c.device, ctx, "flash write", {false, a.clear_cmp}, [&](device::OpenedDevice &dev) {
          return write_on(dev, c, a, checked, plan, cancel, ctx, interrupted, nullptr);
        });
  } catch (const Error &e) {
    if (cancel.abort_requested()) throw Error(ErrorKind::Interrupted, hw_cli::cli_message(e));
    throw;
  }
  if (interrupted)
    throw Error(ErrorKind::Interrupted,
                "interrupted after a whole sector; the summary above says where the write stopped");
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
