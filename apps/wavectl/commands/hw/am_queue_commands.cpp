// wavectl am ih: run AM's interrupt handler once on a device (am-driver.md §11): walk IH ring 0
// from its read to its write pointer, decide on each entry (UTCL2 faults read and clear the GC
// fault registers), drain, check and clear the RAS status.
// wavectl am ring: the compute HQDs and SDMA queues as their registers say (§12.4, §12.7), and
// with --submit a one-packet test on a scratch queue that shows the engine executed it.
// Both write registers (IH_RB_RPTR, GRBM_GFX_CNTL, ...): a real GPU needs --yes (untested on
// hardware).

#include <fmt/format.h>

#include "commands/hw/hw_cli.hpp"
#include "commands/hw/hw_commands.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/am_device_bus.hpp"
#include "wavescope/hw/am/gmc.hpp"
#include "wavescope/hw/am/ih_report.hpp"
#include "wavescope/hw/am/ih_ring.hpp"
#include "wavescope/hw/am/queue_status.hpp"
#include "wavescope/hw/am/ring_report.hpp"
#include "wavescope/hw/am/ring_test.hpp"

namespace wavectl {

namespace {
namespace am = wavescope::hw::am;
using wavescope::Error;
using wavescope::ErrorKind;

struct QueueArgs {
  hw_cli::DeviceOptions device;
  bool yes = false;
  std::string submit;
};

void confirm(const QueueArgs &a, const char *command) {
  if (a.yes || a.device.device.starts_with("sim")) return;
  throw Error(ErrorKind::Usage,
              fmt::format("{} writes registers of a real GPU (untested on hardware): add --yes to "
                          "confirm (nothing was written)",
                          command));
}

void run_ih(const QueueArgs &a, const CliContext &ctx) {
  confirm(a, "am ih");
  hw_cli::run_on_device(
      a.device, ctx, "am ih", {false, false}, [&](wavescope::hw::device::OpenedDevice &dev) {
        am::AmDevice gpu(dev.function(), dev.clock());
        am::AmDeviceBus bus(gpu);
        am::AmDeviceVram vram(gpu);
        am::AmRegisters regs(bus, gpu.registers(), dev.clock());
        const auto chip = am::chip_info_from_discovery(gpu.discovery());
        am::GmcBlock gmc(regs, chip);
        gmc.read_apertures();
        const auto rings = am::programmed_ih_rings(regs, gmc);
        if (!rings)
          throw Error(ErrorKind::State,
                      fmt::format("am ih: IH ring 0 of {} is not enabled (IH_RB_CNTL.RB_ENABLE = "
                                  "0): boot the GPU first (wavectl am boot --device {})",
                                  dev.id(), a.device.device));
        am::IhBlock ih(regs, vram, gmc, chip, *rings);
        return hw_cli::print_report(ih.interrupt_handler(), ctx);
      });
}

void run_ring(const QueueArgs &a, const CliContext &ctx) {
  confirm(a, "am ring");
  const auto engine =
      a.submit.empty() ? std::nullopt : std::optional(am::ring_test_engine(a.submit));
  hw_cli::run_on_device(a.device, ctx, "am ring", {false, false},
                        [&](wavescope::hw::device::OpenedDevice &dev) {
                          am::AmDevice gpu(dev.function(), dev.clock());
                          am::AmDeviceBus bus(gpu);
                          am::AmRegisters regs(bus, gpu.registers(), dev.clock());
                          const auto chip = am::chip_info_from_discovery(gpu.discovery());
                          am::RingReport report{dev.id(), am::read_compute_queues(regs, chip),
                                                am::read_sdma_queues(regs, chip), std::nullopt};
                          if (engine) am::run_ring_test(gpu, *engine, report);
                          return hw_cli::print_report(report, ctx);
                        });
}

void add_common(CLI::App &cmd, QueueArgs &a, CliContext &context) {
  hw_cli::add_device_options(cmd, a.device);
  cmd.add_flag("--yes", a.yes,
               "Confirm register writes on a real GPU (untested on hardware; simulators need no "
               "confirmation)");
  add_json_flag(cmd, context);
}
}  // namespace

void register_am_queue_commands(CLI::App &app, CliContext &context) {
  CLI::App *am_cmd = app.get_subcommand("am");
  auto ih_args = std::make_shared<QueueArgs>();
  auto *ih = am_cmd->add_subcommand(
      "ih", "Run AM's interrupt handler once on --device D: every IH ring 0 entry decoded with "
            "its verdict (UTCL2 faults read and clear the fault registers), drain, RAS status");
  add_common(*ih, *ih_args, context);
  ih->callback([ih_args, &context] { run_ih(*ih_args, context); });

  auto ring_args = std::make_shared<QueueArgs>();
  auto *ring = am_cmd->add_subcommand(
      "ring", "Compute HQDs and SDMA queues of --device D as their registers say; --submit "
              "compute|sdma runs a one-packet test on a scratch queue and shows it executed");
  add_common(*ring, *ring_args, context);
  ring->add_option("--submit", ring_args->submit,
                   "compute (PM4 RELEASE_MEM) or sdma (SDMA WRITE): set up queue 0 in scratch "
                   "VRAM, ring its doorbell, check the written dword, take the queue down");
  ring->callback([ring_args, &context] { run_ring(*ring_args, context); });
}

}  // namespace wavectl
