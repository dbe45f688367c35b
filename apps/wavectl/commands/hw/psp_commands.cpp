// wavectl psp ...: the PSP early boot-firmware mailbox (navi31-flash.md §7): a read-only probe and
// `ifwi-all`, which streams a full IFWI image item by item as the PSP asks for it. The commands the
// reference disables (stream, ifwi-step, live-flash) check --yes, then refuse.

#include <iostream>

#include <fmt/format.h>

#include "commands/hw/hw_cli.hpp"
#include "commands/hw/hw_commands.hpp"
#include "table.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/hw/ifwi/image_check.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"
#include "wavescope/hw/psp/psp_report.hpp"

namespace wavectl {
namespace {

using namespace wavescope;
using namespace wavescope::hw;
using nlohmann::json;

void probe(const hw_cli::DeviceOptions &d, const CliContext &ctx) {
  hw_cli::run_on_device(d, ctx, "psp probe", {true, false}, [&](device::OpenedDevice &dev) {
    const auto r = psp::psp_probe(dev.bar5(), dev.clock());
    return hw_cli::print_report(psp::PspProbeReport{dev.id(), r, dev.bar5().stats()}, ctx);
  });
}

void ifwi_all(const hw_cli::DeviceOptions &d, const std::string &image_path, bool yes, bool force,
              bool fast, const CliContext &ctx) {
  if (!yes)
    throw Error(ErrorKind::Usage,
                "psp ifwi-all streams a firmware image the PSP writes to the flash: add "
                "--yes to confirm (nothing was sent)");
  const auto image = wavescope::read_file_bytes(image_path);
  if (image.size() != navi31::kFlashSize)
    throw Error(ErrorKind::BadInput,
                fmt::format("image {} is {} bytes; ifwi-all needs a 2 MiB image", image_path,
                            image.size()));
  const auto check = ifwi::validate_flash_image(image);
  if (!force) check.require_accepted("pass --force-image to stream it anyway (nothing was sent)");
  wavescope::CancelToken cancel;
  hw_cli::InterruptScope interrupts(cancel);
  hw_cli::run_on_device(d, ctx, "psp ifwi-all", {false, false}, [&](device::OpenedDevice &dev) {
    hw_cli::EtaProgressPrinter progress(!ctx.quiet, dev.simulated());
    psp::IfwiAllOptions options;
    options.mailbox.fast = fast;
    const auto r =
        psp::psp_ifwi_all(dev.bar5(), dev.clock(), image, options, progress.sink(), &cancel);
    progress.finish();
    return hw_cli::print_report(psp::IfwiAllReport{dev.id(), image_path, r, dev.bar5().stats()},
                                ctx);
  });
}

void add_disabled(CLI::App &psp, const char *name, const char *what, const char *args_help) {
  auto *cmd = psp.add_subcommand(name, std::string(what) + " (disabled)");
  auto args = std::make_shared<std::vector<std::string>>();
  auto yes = std::make_shared<bool>(false);
  cmd->add_option("ARGS", *args, args_help);
  cmd->add_flag("--yes", *yes, "Confirm");
  auto device = std::make_shared<hw_cli::DeviceOptions>();
  hw_cli::add_device_options(*cmd, *device);  // accepted, so the refusal explains itself
  cmd->callback([args, yes, device, name] {
    if (!*yes) throw Error(ErrorKind::Usage, fmt::format("psp {} needs --yes", name));
    throw Error(
        ErrorKind::Usage,
        fmt::format("psp {} is disabled: the stock re-flash validation through the PSP failed "
                    "(live update ends in error 0x0C); ROM_SW is the supported recovery path — "
                    "use `wavectl flash write IMAGE --yes` on a board whose PSP is stalled",
                    name));
  });
}

}  // namespace

void register_psp_commands(CLI::App &app, CliContext &context) {
  auto *psp = app.add_subcommand("psp", "The PSP early boot-firmware mailbox: probe, ifwi-all");
  psp->require_subcommand(1);
  {
    auto *cmd =
        psp->add_subcommand("probe", "Query the early PSP (read-only: no transfer is started)");
    auto d = std::make_shared<hw_cli::DeviceOptions>();
    hw_cli::add_device_options(*cmd, *d);
    add_json_flag(*cmd, context);
    cmd->callback([d, &context] { probe(*d, context); });
  }
  {
    auto *cmd = psp->add_subcommand("ifwi-all",
                                    "Stream a full 2 MiB IFWI image through the early PSP mailbox");
    auto d = std::make_shared<hw_cli::DeviceOptions>();
    auto image = std::make_shared<std::string>();
    auto flags = std::make_shared<std::array<bool, 3>>();
    cmd->add_option("IMAGE", *image, "2 MiB IFWI image")->required();
    cmd->add_flag("--yes", (*flags)[0], "Confirm");
    cmd->add_flag("--force-image", (*flags)[1], "Stream an image that fails validation");
    cmd->add_flag(
        "--fast-mailbox", (*flags)[2],
        "3 instead of 6 operations per dword (trust the last READY poll, block-write "
        "the command and argument, skip empty responses; validated only in the simulator)");
    hw_cli::add_device_options(*cmd, *d);
    add_json_flag(*cmd, context);
    cmd->callback([d, image, flags, &context] {
      ifwi_all(*d, *image, (*flags)[0], (*flags)[1], (*flags)[2], context);
    });
  }
  add_disabled(*psp, "stream", "Stream one raw item", "ITEM FILE");
  add_disabled(*psp, "ifwi-step", "Stream only the next requested item", "IMAGE");
  add_disabled(*psp, "live-flash", "Update through the PSP secure OS", "IMAGE");
}

}  // namespace wavectl
