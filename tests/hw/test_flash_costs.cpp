// Transport-operation costs of the flash procedures against the simulator, compared with the
// figures of navi31-flash.md §6.7 (measured there against a model of §10 with op_cost 125 µs):
// the reference procedure reproduces them exactly, and the §9.1 baseline costs what §6.7 says.

#include <catch2/catch.hpp>

#include <filesystem>

#include "support_flash/sim_bench.hpp"
#include "support_flash/temp_dir.hpp"
#include "wavescope/hw/flash/flash_operations.hpp"
#include "wavescope/hw/flash/flash_writer.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"

using namespace wavescope::hw;
using namespace wavescope::hw::flash;
using wavescope::testing::SimBench;
using wavescope::testing::TempDir;
using wavescope::testing::usb_timing_config;

namespace {
FlashSessionOptions reference() {
  FlashSessionOptions o;
  o.reference_procedure = true;
  return o;
}
}  // namespace

TEST_CASE("a ROM_SW transaction costs 25 (RX) or 24 (no data) operations in the reference "
          "procedure, 22 or 21 in the baseline") {
  for (bool ref : {true, false}) {
    SimBench bench(usb_timing_config());
    RomSwOptions options;
    options.reference_resets = ref;
    RomSwSession session(bench.bar5(), bench.clock(), options);
    session.open();
    const auto before = bench.operations();
    session.execute({navi31::spi::kReadJedecId, 0, 0, {}, 4}, 4);
    CHECK(bench.operations() - before == (ref ? 25u : 22u));
    const auto before_tx = bench.operations();
    session.execute({navi31::spi::kWriteEnable, 0, 0, {}, 0}, 0);
    CHECK(bench.operations() - before_tx == (ref ? 24u : 21u));  // no RX window read
  }
}

TEST_CASE(
    "reference info costs the §6.7 302 operations plus one primed SFDP read for the density") {
  SimBench bench(usb_timing_config());
  FlashSession session(bench.bar5(), bench.clock(), reference());
  const auto info = read_flash_info(session);
  CHECK(bench.operations() == 302 + 50);
  CHECK(info.sfdp_signature == 1u);
}

TEST_CASE("reference dump costs exactly the 409 652 operations of §6.7") {
  SimBench bench(usb_timing_config());
  FlashSession session(bench.bar5(), bench.clock(), reference());
  session.open();
  session.read(0, navi31::kFlashSize, ReadCheck::Single);
  session.close();
  CHECK(bench.operations() == 409652);
}

TEST_CASE("the §9.1 baseline dump costs the 360 499 operations of §6.7") {
  SimBench bench(usb_timing_config());
  FlashSession session(bench.bar5(), bench.clock());
  session.open();
  session.read(0, navi31::kFlashSize, ReadCheck::Single);
  session.close();
  CHECK(bench.operations() == 360499);
}

TEST_CASE("reference flash of one sector of random data costs §6.7's 4 742 plus our SR1 read") {
  TempDir dir;
  const auto image = SimBench::random_flash(7);
  SimBench bench(usb_timing_config(), SimBench::random_flash(99));
  FlashSession session(bench.bar5(), bench.clock(), reference());
  WriteRequest request;
  request.image = image;
  request.confirmed = true;
  request.force_image = true;
  request.start_sector = 5;
  request.sector_count = 1;
  request.no_backup = true;
  request.work_dir = dir.path();
  request.skip_unchanged = false;
  request.final_verify = false;
  const auto plan = check_write_request(request);
  const auto summary = write_flash(session, "sim:bench", request, plan);
  CHECK(summary.sectors_written == 1);
  CHECK(bench.operations() == 4742 + 50);
  CHECK(std::equal(image.begin() + 5 * 4096, image.begin() + 6 * 4096,
                   bench.board().flash().begin() + 5 * 4096));
}
