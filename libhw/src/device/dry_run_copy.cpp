#include "wavescope/hw/device/dry_run_copy.hpp"

#include <vector>

#include "sim/navi31_board.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/hw/flash/flash_operations.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"
#include "wavescope/hw/remedy/refusal.hpp"
#include "wavescope/hw/sim/sim_store.hpp"
#include "wavescope/hw/transport/clock.hpp"

namespace wavescope::hw::device {

void check_dry_run_request(const flash::WriteRequest &request) {
  if (request.resume) throw Refusal(ErrorKind::Usage, {Remedy::DryRunCannotResume, "", {}});
}

DryRunSource read_dry_run_source(flash::FlashSession &session, const std::string &device_id,
                                 const OperationProgressSink &progress) {
  const auto info = flash::read_flash_info(session);  // opens the session: the probe comes first
  session.open();
  auto read = session.read(0, navi31::kFlashSize, flash::ReadCheck::ReadTwice, "read for dry run",
                           progress);
  session.close();
  DryRunSource source{device_id, std::move(read.bytes),   {}, info.sr1,
                      info.sr2,  std::move(read.warnings)};
  source.chip_sha256 = sha256_hex(source.chip);
  return source;
}

std::string create_dry_run_copy(const std::filesystem::path &sim_root, std::string_view device_id,
                                std::span<const std::uint8_t> chip, std::uint8_t sr1,
                                std::uint8_t sr2) {
  VirtualClock clock;
  sim::Navi31Board board(sim::SimConfig{}, clock,
                         std::vector<std::uint8_t>(chip.begin(), chip.end()));
  board.force_state(sim::BoardState::Bricked);  // the device answered on ROM_SW
  board.chip().preset_status(sr1, sr2);
  sim::SimStore(sim_root).create("copy", board);
  const bool direct = device_id.starts_with("pci:") || device_id.starts_with("sim-pci:");
  return direct ? "sim-pci:copy" : "sim:copy";
}

DryRunCopy prepare_dry_run_copy(const std::filesystem::path &sim_root, const DryRunSource &source,
                                flash::WriteRequest request) {
  DryRunCopy copy;
  copy.device_spec =
      create_dry_run_copy(sim_root, source.device, source.chip, source.sr1, source.sr2);
  request.confirmed = true;  // the copy, not the device
  request.work_dir = sim_root;
  request.backup.reset();
  request.journal.reset();
  copy.request = std::move(request);
  return copy;
}

}  // namespace wavescope::hw::device
