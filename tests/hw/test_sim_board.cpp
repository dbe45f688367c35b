// The simulated board at register level (navi31-flash.md §10.2–10.8): the ROM_SW engine's byte
// orders and one-transaction RX lag, gating, the strict profile's set-up checks, the ROM
// aperture, board states and power cycles, config space, and persistence.

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "sim/boot_rules.hpp"
#include "support_flash/sim_bench.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/navi31/bar5_registers.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"

using namespace wavescope::hw;
using namespace wavescope::hw::navi31;
using wavescope::testing::SimBench;

namespace {

// Hands the SPI pads to the controller and sets the transaction bits, as the tools do.
void set_up(sim::Navi31Board &b) {
  b.bar_write32(5, kGpioPadMask, 0);
  b.bar_write32(5, kGpioPadA, 0);
  b.bar_write32(5, kGpioPadEn, 0);
  b.bar_write32(5, kPageMirrorCntl, 0x06000000);
  b.bar_write32(5, kRomCntl, 0x8);
}

void launch(sim::Navi31Board &b, std::uint32_t command, std::uint32_t cntl) {
  b.bar_write32(5, kRomSwStatus, 0);
  b.bar_write32(5, kRomSwCommand, command);
  b.bar_write32(5, kRomSwCntl, cntl);
  CHECK((b.bar_read32(5, kRomSwStatus) & 1) == 1);
}

constexpr std::uint32_t kRx4 = (1u << 19) | 4;

}  // namespace

TEST_CASE("the RX window shows the previous RX capture (lag 1), little-endian per dword") {
  SimBench bench;
  auto &b = bench.board();
  set_up(b);
  launch(b, spi::kReadJedecId, kRx4);
  CHECK(b.bar_read32(5, kRomSwData1) == 0);  // the shadow starts zero
  launch(b, spi::kReadJedecId, kRx4);
  CHECK(b.bar_read32(5, kRomSwData1) == 0xC81560C8);
}

TEST_CASE("with rx_lag 0 the window shows the launch's own capture") {
  sim::SimConfig config;
  config.rx_lag = 0;
  SimBench bench(config);
  set_up(bench.board());
  launch(bench.board(), spi::kReadJedecId, kRx4);
  CHECK(bench.board().bar_read32(5, kRomSwData1) == 0xC81560C8);
}

TEST_CASE("TX payload bytes are taken big-endian from the DATA dwords") {
  SimBench bench;
  auto &b = bench.board();
  set_up(b);
  launch(b, spi::kWriteEnable, 0);
  b.bar_write32(5, kRomSwData1, 0x11223344);
  launch(b, (0x001000u << 8) | spi::kPageProgram, (3u << 16) | 4);
  bench.clock().advance(std::chrono::milliseconds(1));
  CHECK(b.flash()[0x1000] == 0x11);
  CHECK(b.flash()[0x1003] == 0x44);
}

TEST_CASE("rx_lag_trigger any: a TX launch loads the window with the last RX capture") {
  sim::SimConfig config;
  config.rx_lag_trigger = sim::RxLagTrigger::Any;
  SimBench bench(config);
  auto &b = bench.board();
  set_up(b);
  launch(b, spi::kReadJedecId, kRx4);
  b.bar_write32(5, kRomSwData1, 0xDEADBEEF);
  launch(b, spi::kWriteDisable, 0);
  CHECK(b.bar_read32(5, kRomSwData1) == 0xC81560C8);
}

TEST_CASE("a booted board gates ROM_SW: STATUS reads 0x04000800 and writes are ignored") {
  SimBench bench({}, SimBench::test_image());
  auto &b = bench.board();
  CHECK(b.state() == sim::BoardState::Booted);
  set_up(b);
  b.bar_write32(5, kRomSwStatus, 0);
  CHECK(b.bar_read32(5, kRomSwStatus) == kRomSwStatusGated);
  b.bar_write32(5, kRomSwCommand, spi::kReadJedecId);
  CHECK(b.bar_read32(5, kRomSwCommand) == 0);
  CHECK(b.activity().launches == 0);
}

TEST_CASE("strict profile: a launch without the pad release reads 0xFF and is logged") {
  SimBench bench;
  auto &b = bench.board();
  b.begin_run({});
  launch(b, spi::kReadJedecId, kRx4);
  launch(b, spi::kReadJedecId, kRx4);
  CHECK(b.bar_read32(5, kRomSwData1) == 0xFFFFFFFF);
  const auto findings = b.end_run();
  REQUIRE_FALSE(findings.empty());
  CHECK(findings.back().check == "protocol");
  CHECK_THAT(findings.back().message, Catch::Contains("GPIO pads 7-10 not released"));
}

TEST_CASE("strict profile: more than 256 data bytes fails the launch, bit 18 is flagged") {
  SimBench bench;
  auto &b = bench.board();
  set_up(b);
  b.begin_run({});
  b.bar_write32(5, kRomSwData1, 0x12345678);
  launch(b, spi::kReadJedecId, (1u << 19) | 300);
  CHECK(b.bar_read32(5, kRomSwData1) == 0x12345678);
  launch(b, spi::kReadJedecId, (1u << 18) | 4);
  const auto findings = b.end_run();
  REQUIRE(findings.size() >= 2);
  CHECK_THAT(findings[0].message, Catch::Contains("asks for 300 data bytes"));
  CHECK_THAT(findings[1].message, Catch::Contains("reserved bit 18"));
}

TEST_CASE("I6: a launch before the previous DONE was observed is recorded") {
  SimBench bench;
  auto &b = bench.board();
  set_up(b);
  b.begin_run({});
  b.bar_write32(5, kRomSwCntl, 0);
  b.bar_write32(5, kRomSwCntl, 0);
  const auto findings = b.end_run();
  REQUIRE_FALSE(findings.empty());
  CHECK(findings[0].check == "I6");
}

TEST_CASE("ROM_DATA streams the flash little-endian from ROM_INDEX, 1 MiB apertures mirror") {
  auto flash = SimBench::blank_flash();
  flash[0x100000] = 0x11;
  flash[0x100003] = 0x44;
  SimBench bench({}, flash);
  auto &b = bench.board();
  b.bar_write32(5, kRomIndex, 0x100000);
  CHECK(b.bar_read32(5, kRomData) == 0x44FFFF11);
  CHECK(b.bar_read32(5, kRomIndex) == 0x100004);
  b.arm_fault(sim::parse_fault("aperture:mode=mirror"));
  b.bar_write32(5, kRomIndex, 0x100000);
  CHECK(b.bar_read32(5, kRomData) == 0xFFFFFFFF);  // shows 0x000000 instead
  b.arm_fault(sim::parse_fault("aperture:mode=absent"));
  CHECK(b.bar_read32(5, kRomCntl) == 0xFFFFFFFF);
}

TEST_CASE("I5: ROM_DATA inside a block read is recorded") {
  SimBench bench;
  auto &b = bench.board();
  b.begin_run({});
  b.bar_read_block(5, kRomData, 2);
  const auto findings = b.end_run();
  CHECK(std::count_if(findings.begin(), findings.end(),
                      [](const auto &f) { return f.check == "I5"; }) == 1);
  // The ROM_DATA read also moved ROM_INDEX, which the run did not restore.
  CHECK(findings[0].check == "I1");
}

TEST_CASE("board states: bricked until a power cycle boots a flashed image, SOS after a driver") {
  SimBench bench;
  auto &b = bench.board();
  CHECK(b.state() == sim::BoardState::Bricked);
  CHECK(b.bar_read32(5, kPspCommand) == 0);  // dead mailbox
  b.mutable_flash() = SimBench::test_image();
  CHECK(b.state() == sim::BoardState::Bricked);
  b.power_cycle();
  CHECK(b.state() == sim::BoardState::Booted);
  CHECK(b.bar_read32(5, kPspCommand) == kPspReady);
  b.load_driver();
  CHECK(b.state() == sim::BoardState::Sos);
  CHECK(b.bar_read32(5, kPspSosAlive) == 1);
}

TEST_CASE("a link-down fault takes the board offline: every read is all-ones until power returns") {
  SimBench bench;
  auto &b = bench.board();
  b.arm_fault(sim::parse_fault("link-down:nth=3"));
  CHECK(b.bar_read32(5, kRomCntl) == 1);
  CHECK(b.bar_read32(5, kRomCntl) == 1);
  CHECK(b.bar_read32(5, kRomCntl) == 0xFFFFFFFF);
  CHECK(b.config_read(0, 4) == 0xFFFFFFFF);
  CHECK(b.state() == sim::BoardState::Offline);
  b.faults().clear();
  b.power_restore();
  CHECK(b.state() == sim::BoardState::Bricked);
  CHECK(b.bar_read32(5, kRomCntl) == 1);
}

TEST_CASE("the bootable rule needs magic, a checksummed $PSP directory and a slot with $PL2") {
  auto image = SimBench::test_image();
  CHECK(sim::bootable_slot(image) == sim::Slot::A);
  CHECK(sim::bootable_slot(image, sim::Slot::B) == sim::Slot::B);
  auto broken_primary = image;
  broken_primary[0x2004] ^= 1;  // primary $PSP checksum wrong: the backup at 0x3000 serves
  CHECK(sim::is_bootable(broken_primary));
  auto no_pl2 = image;
  no_pl2[0x20000] = 'X';
  CHECK(sim::bootable_slot(no_pl2) == sim::Slot::B);
  auto no_magic = image;
  no_magic[0] = 0;
  CHECK_FALSE(sim::is_bootable(no_magic));
}

TEST_CASE("config space: Navi31 ids, BAR size masks, Resizable BAR up to 32 GiB") {
  SimBench bench;
  auto &b = bench.board();
  CHECK(b.config_read(0, 4) == 0x744C1002);
  b.config_write(0x24, 0xFFFFFFFF, 4);
  CHECK(b.config_read(0x24, 4) == 0xFFF00000);  // BAR5: 1 MiB, 32-bit memory
  b.config_write(0x20, 0xFFFFFFFF, 4);
  CHECK(b.config_read(0x20, 4) == 0xFFFFFF01);   // BAR4: 256 bytes I/O
  CHECK(b.config_read(0x104, 4) == 0x000FF000);  // 256 MiB .. 32 GiB supported
  b.config_write(0x108, 15u << 8, 4);
  b.config_write(0x10, 0xFFFFFFFF, 4);
  b.config_write(0x14, 0xFFFFFFFF, 4);
  CHECK(b.config_read(0x10, 4) == 0x0000000C);
  CHECK(b.config_read(0x14, 4) == 0xFFFFFFF8);
}

TEST_CASE("a saved board loads with its state, status registers, faults, registers and time") {
  SimBench bench({}, SimBench::test_image());
  auto &b = bench.board();
  b.arm_fault(sim::parse_fault("protect:cmp=1"));
  b.arm_fault(sim::parse_fault("power-loss:op=erase,nth=4"));
  b.bar_write32(5, kRomCntl, 0x12345678);
  bench.clock().advance(std::chrono::seconds(3));
  const auto saved = b.save();
  VirtualClock clock;
  clock.advance(std::chrono::nanoseconds(saved.at("time_ns").get<std::int64_t>()));
  auto loaded = sim::Navi31Board::load(saved, clock, b.flash());
  CHECK(loaded->state() == sim::BoardState::Booted);
  CHECK(loaded->sr2() == kSr2Cmp);
  CHECK(loaded->faults().all().size() == 2);
  CHECK(loaded->faults().all()[1].describe() == "power-loss:op=erase,nth=4");
  CHECK(loaded->bar_read32(5, kRomCntl) == 0x12345678);
  CHECK(loaded->bar_read32(5, kRomSwStatus) == kRomSwStatusGated);
  CHECK(loaded->save() == saved);
}

TEST_CASE("a damaged saved state is refused with an error, not a crash") {
  SimBench bench;
  const auto good = bench.board().save();
  auto try_load = [&](nlohmann::json j) {
    VirtualClock clock;
    try {
      sim::Navi31Board::load(j, clock, SimBench::blank_flash());
    } catch (const wavescope::Error &e) {
      CHECK(e.kind() == wavescope::ErrorKind::BadInput);
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  auto zero_aperture = good;
  zero_aperture["config"]["aperture_size"] = 0;
  CHECK_THAT(try_load(zero_aperture), Catch::Contains("aperture_size"));
  auto wild_operation = good;
  wild_operation["chip"]["pending"] = {
      {"kind", 0},      {"address", 0x1FFF00}, {"result", std::vector<int>(0x1000, 0)},
      {"start_ns", 0},  {"end_ns", 1},         {"never_ends", false},
      {"sr", {0, 0, 0}}};
  CHECK_THAT(try_load(wild_operation), Catch::Contains("outside the chip"));
  auto bad_register = good;
  bad_register["registers"]["nonsense"] = 1;
  CHECK_THAT(try_load(bad_register), Catch::Contains("damaged"));
  auto missing = good;
  missing.erase("engine");
  CHECK_THAT(try_load(missing), Catch::Contains("damaged"));
  CHECK(try_load(good) == "loaded");
}

TEST_CASE("with sw_latency the RX window changes only when DONE is set") {
  sim::SimConfig config;
  config.rx_lag = 0;
  config.sw_latency = std::chrono::microseconds(300);
  SimBench bench(config);
  auto &b = bench.board();
  set_up(b);
  b.bar_write32(5, kRomSwStatus, 0);
  b.bar_write32(5, kRomSwCommand, spi::kReadJedecId);
  b.bar_write32(5, kRomSwCntl, kRx4);
  CHECK(b.bar_read32(5, kRomSwStatus) == 0);  // not done yet
  CHECK(b.bar_read32(5, kRomSwData1) == 0);   // the old window
  bench.clock().advance(std::chrono::microseconds(300));
  CHECK(b.bar_read32(5, kRomSwStatus) == 1);
  CHECK(b.bar_read32(5, kRomSwData1) == 0xC81560C8);
}
