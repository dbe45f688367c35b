// The acceptance scenarios of navi31-flash.md §10.13 (1–4 and 6; 5 is test_faults_matrix.cpp),
// each run through the direct sim-pci path and through the real ASM24 USB transport over the
// simulated bridge, with the board's invariants I1–I7 checked after every tool run.

#include <catch2/catch.hpp>

#include <cstring>

#include "support_flash/flash_runs.hpp"
#include "wavescope/hw/flash/flash_operations.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"
#include "wavescope/hw/psp/psp_procedures.hpp"
#include "wavescope/hw/rom/rom_aperture.hpp"

using namespace wavescope::hw;
using namespace wavescope::hw::flash;
using namespace wavescope::testing;
using wavescope::ErrorKind;

namespace {
Path path_under_test() { return GENERATE(Path::SimPci, Path::Usb); }
}  // namespace

TEST_CASE(
    "scenario 1: a bricked board with an empty chip is identified, flashed, verified and boots") {
  const Path path = path_under_test();
  TempDir dir;
  const auto &image = SimBench::test_image();
  SimBench bench({}, SimBench::blank_flash(), path);
  CAPTURE(bench.path_name());

  FlashInfo info;
  auto outcome = run(bench, true, false, [&](RunOutcome &) {
    FlashSession session(bench.bar5(), bench.clock());
    info = read_flash_info(session);
  });
  REQUIRE(outcome.ok());
  CHECK(navi31::hex_bytes(info.jedec.bytes) == "C8 60 15 C8");
  CHECK(info.sfdp_signature == 1u);
  CHECK(info.sfdp_density == 0x200000u);
  CHECK(outcome.findings.empty());

  outcome = run_write(bench, write_request(image, dir));
  REQUIRE(outcome.ok());
  CHECK((bench.board().flash() == image));
  CHECK(outcome.findings.empty());

  outcome = run_verify(bench, image);
  REQUIRE(outcome.ok());
  CHECK(outcome.findings.empty());

  bench.board().power_cycle();
  CHECK(bench.board().state() == sim::BoardState::Booted);
}

TEST_CASE("scenario 2: with CMP = 1 the write is refused, and --clear-cmp clears it and succeeds") {
  const Path path = path_under_test();
  TempDir dir;
  const auto &image = SimBench::test_image();
  SimBench bench({}, SimBench::blank_flash(), path);
  CAPTURE(bench.path_name());
  bench.board().chip().preset_status(0, navi31::kSr2Cmp);

  auto outcome = run_write(bench, write_request(image, dir));
  CHECK(outcome.error == ErrorKind::Chip);
  CHECK(bench.board().activity().erases + bench.board().activity().programs == 0);
  CHECK(outcome.findings.empty());

  auto request = write_request(image, dir);
  request.clear_protection = true;
  outcome = run_write(bench, request);
  REQUIRE(outcome.ok());
  CHECK((bench.board().flash() == image));
  CHECK((bench.board().sr2() & navi31::kSr2Cmp) == 0);
  CHECK(outcome.findings.empty());
}

TEST_CASE("scenario 3: a booted board refuses ROM_SW, answers the PSP, dumps through ROM_DATA and "
          "takes ifwi-all") {
  const Path path = path_under_test();
  TempDir dir;
  const auto &image = SimBench::test_image();
  SimBench bench({}, image, path);
  CAPTURE(bench.path_name());
  REQUIRE(bench.board().state() == sim::BoardState::Booted);

  // Refused already at the state probe: no SPI frame is issued.
  auto outcome = run_write(bench, write_request(image, dir));
  CHECK(outcome.error == ErrorKind::State);
  CHECK(bench.board().activity().launches == 0);
  CHECK(outcome.findings.empty());

  psp::PspProbeResult probe;
  outcome = run(bench, true, false,
                [&](RunOutcome &) { probe = psp::psp_probe(bench.bar5(), bench.clock()); });
  REQUIRE(outcome.ok());
  CHECK(probe.transfer_type == 0x001u);
  CHECK(outcome.findings.empty());

  rom::RomDumpResult dump;
  outcome = run(bench, true, false,
                [&](RunOutcome &) { dump = rom::rom_dump(bench.bar5(), bench.clock()); });
  REQUIRE(outcome.ok());
  CHECK((dump.bytes == image));
  CHECK(outcome.findings.empty());  // ROM_CNTL and ROM_INDEX restored exactly

  psp::IfwiAllResult streamed;
  outcome = run(bench, false, false, [&](RunOutcome &) {
    streamed = psp::psp_ifwi_all(bench.bar5(), bench.clock(), image);
  });
  REQUIRE(outcome.ok());
  CHECK(streamed.completed);
  CHECK(streamed.items.size() == 18);
  CHECK(outcome.findings.empty());

  outcome = run(bench, true, false,
                [&](RunOutcome &) { probe = psp::psp_probe(bench.bar5(), bench.clock()); });
  CHECK(probe.update_gated);
  const auto &flash = bench.board().flash();
  for (std::size_t i = 0; i < image.size(); ++i) {
    const bool allowed = (i >= 0x50 && i < 0x54) || (i >= 0x13000 && i < 0x13004) ||
                         (i >= 0x13008 && i < 0x1300C) || (i >= 0x1EF000 && i < 0x1F0000);
    if (!allowed && flash[i] != image[i]) FAIL("flash differs from the image at " << i);
  }
  bench.board().power_cycle();
  CHECK(bench.board().booted_slot() == sim::Slot::B);
}

TEST_CASE("scenario 4: with the PSP secure OS loaded, probe reports gating and flash is refused") {
  const Path path = path_under_test();
  TempDir dir;
  const auto &image = SimBench::test_image();
  SimBench bench({}, image, path);
  CAPTURE(bench.path_name());
  bench.board().load_driver();

  psp::PspProbeResult probe;
  auto outcome = run(bench, true, false,
                     [&](RunOutcome &) { probe = psp::psp_probe(bench.bar5(), bench.clock()); });
  REQUIRE(outcome.ok());
  CHECK(probe.update_gated);

  outcome = run_write(bench, write_request(image, dir));
  CHECK(outcome.error == ErrorKind::State);
  CHECK_THAT(outcome.message, Catch::Contains("C2PMSG_81"));
  CHECK(bench.board().activity().launches == 0);
}

TEST_CASE(
    "scenario 6: both lags and both lag hypotheses give identical results, primed and pipelined") {
  const Path path = path_under_test();
  const auto flash = SimBench::random_flash(61);
  for (unsigned lag : {0u, 1u}) {
    for (auto trigger : {sim::RxLagTrigger::Rx, sim::RxLagTrigger::Any}) {
      for (bool pipelined : {false, true}) {
        sim::SimConfig config;
        config.rx_lag = lag;
        config.rx_lag_trigger = trigger;
        SimBench bench(config, flash, path);
        CAPTURE(bench.path_name(), lag, pipelined);
        FlashSessionOptions options;
        options.optimize.pipelined_reads = pipelined;
        const auto outcome = run_dump(bench, options);
        REQUIRE(outcome.ok());
        CHECK((outcome.bytes == flash));
        CHECK(outcome.findings.empty());
      }
    }
  }
}
