// The §9.11 optimizations, each an explicit option: every combination reads and writes the same
// bytes as the conservative procedure under both RX lags and both lag hypotheses (§10.13
// scenario 6), pipelining calibrates the lag and its markers stop a wrong assumption, and the
// fully optimized procedure needs at most a quarter of the reference's operations.

#include <catch2/catch.hpp>

#include "support_flash/flash_runs.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"

using namespace wavescope::hw;
using namespace wavescope::hw::flash;
using namespace wavescope::testing;
using wavescope::ErrorKind;

namespace {

sim::SimConfig lag_config(unsigned lag, sim::RxLagTrigger trigger) {
  sim::SimConfig c;
  c.rx_lag = lag;
  c.rx_lag_trigger = trigger;
  return c;
}

FlashSessionOptions with(FlashOptimizations o) {
  FlashSessionOptions options;
  options.optimize = o;
  return options;
}

}  // namespace

TEST_CASE("optimization names parse and print, unknown names are refused") {
  CHECK(FlashOptimizations::parse("none").describe() == "none");
  CHECK(FlashOptimizations::parse("all").describe() ==
        "session,no-check-reads,pipeline,block-read,block-write,skip-erase");
  CHECK(FlashOptimizations::parse("pipeline,session").describe() == "session,pipeline");
  CHECK_THROWS_WITH(FlashOptimizations::parse("warp"),
                    Catch::Contains("unknown optimization 'warp'"));
}

TEST_CASE(
    "every option alone and all together dump the same bytes under both lags and both hypotheses") {
  const auto flash = SimBench::random_flash(21);
  const char *variants[] = {"none",        "session", "no-check-reads", "pipeline", "block-read",
                            "block-write", "all"};
  for (unsigned lag : {0u, 1u}) {
    for (auto trigger : {sim::RxLagTrigger::Rx, sim::RxLagTrigger::Any}) {
      for (const char *variant : variants) {
        CAPTURE(lag, trigger == sim::RxLagTrigger::Rx ? "rx" : "any", variant);
        SimBench bench(lag_config(lag, trigger), flash);
        const auto outcome = run_dump(bench, with(FlashOptimizations::parse(variant)));
        REQUIRE(outcome.ok());
        CHECK((outcome.bytes == flash));
        CHECK(outcome.findings.empty());
      }
    }
  }
}

TEST_CASE("every option writes the same image under both lags (random old contents force erases)") {
  const auto &image = SimBench::test_image();
  for (unsigned lag : {0u, 1u}) {
    for (const char *variant : {"pipeline", "session,no-check-reads,block-write", "all"}) {
      CAPTURE(lag, variant);
      TempDir dir;
      SimBench bench(lag_config(lag, sim::RxLagTrigger::Any), SimBench::random_flash(lag + 30));
      const auto outcome =
          run_write(bench, write_request(image, dir), with(FlashOptimizations::parse(variant)));
      REQUIRE(outcome.ok());
      CHECK((bench.board().flash() == image));
      CHECK(outcome.findings.empty());
    }
  }
}

TEST_CASE("pipelining measures the lag of the engine it talks to") {
  for (unsigned lag : {0u, 1u}) {
    SimBench bench(lag_config(lag, sim::RxLagTrigger::Rx));
    FlashSession session(bench.bar5(), bench.clock(), with(FlashOptimizations::parse("pipeline")));
    session.open();
    CHECK(session.chip().lag() == lag);
    session.close();
  }
}

TEST_CASE("a tool that does not prime reads shifted data from a lag-1 engine") {
  const auto flash = SimBench::random_flash(22);
  SimBench bench(lag_config(1, sim::RxLagTrigger::Rx), flash);
  auto options = with(FlashOptimizations::parse("pipeline"));
  options.assume_lag = 0;  // trusts every window as its own capture
  const auto outcome = run_dump(bench, options);
  // Two reads agree with each other, yet both are wrong: why markers are mandatory (§9.3).
  REQUIRE(outcome.ok());
  CHECK((outcome.bytes != flash));
}

TEST_CASE("pipelining forced to assume lag 1 on a lag-0 engine is stopped by its markers") {
  SimBench bench(lag_config(0, sim::RxLagTrigger::Rx), SimBench::random_flash(23));
  auto options = with(FlashOptimizations::parse("pipeline"));
  options.assume_lag = 1;
  const auto outcome = run_dump(bench, options);
  CHECK(outcome.error == ErrorKind::Mismatch);
  CHECK_THAT(outcome.message, Catch::Contains("RX window out of step"));
}

TEST_CASE("skip-erase programs without erasing when the image only clears bits") {
  TempDir dir;
  auto image = SimBench::random_flash(24);
  SimBench bench;  // blank chip: reachable by programming alone
  auto request = write_request(image, dir);
  request.force_image = true;
  request.header_last = false;
  request.start_sector = 8;
  request.sector_count = 4;
  // First half of the sector written, then the image ANDs more zeros in: no erase needed.
  auto first = image;
  for (auto &b : first) b |= 0x0F;
  auto first_request = request;
  first_request.image = first;
  REQUIRE(run_write(bench, first_request, with(FlashOptimizations::parse("skip-erase"))).ok());
  const auto outcome = run_write(bench, request, with(FlashOptimizations::parse("skip-erase")));
  REQUIRE(outcome.ok());
  CHECK(outcome.summary.erases == 0);
  CHECK(outcome.summary.erases_skipped == 4);
  CHECK(std::equal(image.begin() + 8 * 4096, image.begin() + 12 * 4096,
                   bench.board().flash().begin() + 8 * 4096));
}

TEST_CASE("the fully optimized procedure needs at most a quarter of the reference's operations") {
  // Reference (§6.7): 409 652 for a dump, 2 375 782 for a full flash of random data.
  SimBench dump_bench(usb_timing_config(), SimBench::random_flash(25));
  const auto dump = run_dump(dump_bench, with(FlashOptimizations::all()));  // reads twice
  REQUIRE(dump.ok());
  CHECK(dump.operations * 4 <= 409652);

  TempDir dir;
  const auto image = SimBench::random_flash(26);
  SimBench write_bench(usb_timing_config());
  auto request = write_request(image, dir);
  request.force_image = true;
  request.no_backup = true;
  const auto write = run_write(write_bench, request, with(FlashOptimizations::all()));
  REQUIRE(write.ok());
  CHECK(write.operations * 4 <= 2375782);
}

TEST_CASE("block reads use their window only when its STATUS dword shows DONE (slow engine)") {
  sim::SimConfig config;
  config.sw_latency = std::chrono::microseconds(300);  // DONE after a few 1 µs operations
  const auto flash = SimBench::random_flash(27);
  for (const char *variant : {"block-read", "all"}) {
    CAPTURE(variant);
    SimBench bench(config, flash);
    const auto outcome = run_dump(bench, with(FlashOptimizations::parse(variant)));
    REQUIRE(outcome.ok());
    CHECK((outcome.bytes == flash));
  }
}
