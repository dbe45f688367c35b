// The simulated GD25LQ16E (navi31-flash.md §10.5) driven frame by frame: identification, SFDP,
// write enable, erase/program semantics and timing, framing rules, protection, status writes,
// and the chip-level faults F1–F5, F8–F11.

#include <catch2/catch.hpp>

#include <algorithm>

#include "sim/gd25_flash_model.hpp"
#include "wavescope/hw/navi31/protection.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"

using namespace wavescope::hw;
using namespace wavescope::hw::sim;
using namespace std::chrono_literals;
namespace spi = navi31::spi;

namespace {

struct Chip {
  SimConfig config;
  FaultPlan faults;
  SimRandom random{1};
  BoardActivity activity;
  Gd25FlashModel model{config, faults, random, activity};
  Clock::TimePoint now{};
  bool power_lost = false;

  Chip() {
    model.on_power_loss([this] { power_lost = true; });
  }
  std::vector<std::uint8_t> frame(std::vector<std::uint8_t> mosi, std::size_t rx = 0) {
    return model.frame(now, mosi, rx);
  }
  std::uint8_t sr1() { return frame({spi::kReadStatus1}, 1).at(0); }
  void wren() { frame({spi::kWriteEnable}); }
  void erase(std::uint32_t a) {
    wren();
    frame({spi::kSectorErase, std::uint8_t(a >> 16), std::uint8_t(a >> 8), std::uint8_t(a)});
  }
  void program(std::uint32_t a, std::vector<std::uint8_t> data) {
    wren();
    std::vector<std::uint8_t> mosi = {spi::kPageProgram, std::uint8_t(a >> 16),
                                      std::uint8_t(a >> 8), std::uint8_t(a)};
    mosi.insert(mosi.end(), data.begin(), data.end());
    frame(mosi);
  }
  std::vector<std::uint8_t> read(std::uint32_t a, std::size_t n) {
    return frame({spi::kRead, std::uint8_t(a >> 16), std::uint8_t(a >> 8), std::uint8_t(a)}, n);
  }
  void wait(Clock::Duration d) { now += d; }
};

}  // namespace

TEST_CASE("RDID streams C8 60 15 cyclically, after any address bytes, and rotates on request") {
  Chip chip;
  CHECK(chip.frame({spi::kReadJedecId}, 7) ==
        std::vector<std::uint8_t>{0xC8, 0x60, 0x15, 0xC8, 0x60, 0x15, 0xC8});
  // Sent with one address byte, the output index starts at 1.
  CHECK(chip.frame({spi::kReadJedecId, 0x00}, 3) == std::vector<std::uint8_t>{0x60, 0x15, 0xC8});
  chip.config.rdid_rotate = 2;
  const auto rotated = chip.frame({spi::kReadJedecId}, 4);
  CHECK(rotated == std::vector<std::uint8_t>{0x15, 0xC8, 0x60, 0x15});
  CHECK(navi31::contains_jedec_cyclically(rotated));
}

TEST_CASE("SFDP answers a dummy byte first, then the JESD216 header and the BFPT") {
  Chip chip;
  const auto header = chip.frame({spi::kReadSfdp, 0, 0, 0}, 9);
  CHECK(header[0] == 0xFF);
  CHECK(std::string(header.begin() + 1, header.begin() + 5) == "SFDP");
  CHECK(header[5] == 0x06);
  CHECK(header[6] == 0x01);
  const auto bfpt = chip.frame({spi::kReadSfdp, 0, 0, 0x30}, 9);
  CHECK(std::vector<std::uint8_t>(bfpt.begin() + 1, bfpt.end()) ==
        std::vector<std::uint8_t>{0xE5, 0x20, 0xF9, 0xFF, 0xFF, 0xFF, 0xFF, 0x00});
}

TEST_CASE("erase sets 0xFF after t_se, program only clears bits after t_pp, both need WEL") {
  Chip chip;
  chip.model.array()[0x1000] = 0x0F;
  chip.frame({spi::kSectorErase, 0, 0x10, 0});  // no WREN: ignored
  CHECK(chip.sr1() == 0);
  CHECK(chip.read(0x1000, 1)[0] == 0x0F);
  chip.erase(0x1234);  // aligned down to the sector
  CHECK(chip.sr1() == (navi31::kSr1Busy | navi31::kSr1Wel));
  CHECK(chip.read(0x1000, 1)[0] == 0xFF);     // a busy chip drives nothing
  CHECK(chip.model.array()[0x1000] == 0x0F);  // not yet applied
  chip.wait(50ms);
  CHECK(chip.sr1() == 0);  // WEL clears when the erase completes
  CHECK(chip.read(0x1000, 1)[0] == 0xFF);
  chip.program(0x1000, {0xF0, 0x3C});
  chip.wait(1ms);
  chip.program(0x1000, {0x0F, 0xFF});
  chip.wait(1ms);
  CHECK(chip.read(0x1000, 2) == std::vector<std::uint8_t>{0x00, 0x3C});
}

TEST_CASE("write-type commands need exact framing") {
  Chip chip;
  chip.frame({spi::kWriteEnable, 0x00});  // extra byte: ignored
  CHECK(chip.sr1() == 0);
  chip.frame({spi::kWriteEnable}, 1);  // RX clocks: ignored
  CHECK(chip.sr1() == 0);
  chip.wren();
  CHECK(chip.sr1() == navi31::kSr1Wel);
  chip.frame({spi::kSectorErase, 0x00, 0x10});  // two address bytes: ignored
  CHECK(chip.sr1() == navi31::kSr1Wel);
  chip.frame({spi::kWriteDisable});
  CHECK(chip.sr1() == 0);
}

TEST_CASE("page program wraps within the page and keeps only the last 256 bytes") {
  Chip chip;
  std::vector<std::uint8_t> data(300);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i);
  chip.program(0x2080, data);
  chip.wait(1ms);
  // The last 256 bytes (44..299) start at 0x2080 and wrap to 0x2000.
  CHECK(chip.read(0x2080, 1)[0] == 44);
  CHECK(chip.read(0x20FF, 1)[0] == static_cast<std::uint8_t>(44 + 127));
  CHECK(chip.read(0x2000, 1)[0] == static_cast<std::uint8_t>(44 + 128));
}

TEST_CASE(
    "CMP = 1 with BP = 0 protects the whole array: erase and program are refused, WEL clears") {
  Chip chip;
  chip.model.preset_status(0, navi31::kSr2Cmp);
  chip.model.array()[0] = 0x00;
  chip.erase(0);
  CHECK(chip.sr1() == 0);
  chip.wait(50ms);
  CHECK(chip.read(0, 1)[0] == 0x00);
  chip.program(0x1000, {0x00});
  CHECK(chip.sr1() == 0);
  CHECK(chip.read(0x1000, 1)[0] == 0xFF);
}

TEST_CASE("the BP/CMP table selects the GigaDevice 16 Mbit ranges") {
  using navi31::protected_range;
  using navi31::ProtectedRange;
  constexpr std::size_t size = 0x200000;
  CHECK(protected_range(0, 0, size).empty());
  CHECK(protected_range(0, navi31::kSr2Cmp, size) == ProtectedRange{0, 0x200000});
  CHECK(protected_range(1 << 2, 0, size) == ProtectedRange{0x1F0000, 0x200000});  // top 1/32
  CHECK(protected_range((1 << 2) | (1 << 5), 0, size) ==
        ProtectedRange{0, 0x10000});                                                // bottom 64 KiB
  CHECK(protected_range((5 << 2), 0, size) == ProtectedRange{0x100000, 0x200000});  // top half
  CHECK(protected_range((1 << 2) | (1 << 6), 0, size) ==
        ProtectedRange{0x1FF000, 0x200000});  // top 4 KiB
  CHECK(protected_range(6 << 2, 0, size) == ProtectedRange{0, 0x200000});
  CHECK(protected_range(1 << 2, navi31::kSr2Cmp, size) ==
        ProtectedRange{0, 0x1F0000});  // complement
  CHECK(protected_range(1 << 2, navi31::kSr2Cmp, size).describe(size) ==
        "0x000000-0x1EFFFF (1984 KiB, bottom)");
}

TEST_CASE(
    "WRSR needs WEL, completes after t_w, keeps LB one-time bits, and is refused when locked") {
  Chip chip;
  chip.frame({spi::kWriteStatus, 0x04, 0x40});  // no WEL
  CHECK(chip.frame({spi::kReadStatus2}, 1)[0] == 0);
  chip.wren();
  chip.frame({spi::kWriteStatus, 0x04, 0x48});  // BP0, CMP, LB1
  CHECK((chip.sr1() & navi31::kSr1Busy) != 0);
  CHECK(chip.frame({spi::kReadStatus2}, 1)[0] == 0);  // not yet
  chip.wait(5ms);
  CHECK(chip.sr1() == 0x04);
  CHECK(chip.frame({spi::kReadStatus2}, 1)[0] == 0x48);
  chip.wren();
  chip.frame({spi::kWriteStatus, 0x00, 0x00});
  chip.wait(5ms);
  CHECK(chip.frame({spi::kReadStatus2}, 1)[0] == 0x08);  // LB1 stays set
  chip.wren();
  chip.frame({spi::kWriteStatus, 0x00, navi31::kSr2Srp1});  // SRP1: locked from now on
  chip.wait(5ms);
  chip.wren();
  chip.frame({spi::kWriteStatus, 0x7C, 0x01});
  CHECK(chip.sr1() == 0);  // not executed, WEL cleared
}

TEST_CASE("a volatile status write (0x50) needs no WEL, is not busy, and is lost at power cycle") {
  Chip chip;
  chip.frame({spi::kVolatileSrWriteEnable});
  chip.frame({spi::kWriteStatus2, navi31::kSr2Cmp});
  CHECK(chip.frame({spi::kReadStatus2}, 1)[0] == navi31::kSr2Cmp);
  CHECK(chip.sr1() == 0);
  chip.model.power_cycle(chip.now);
  CHECK(chip.frame({spi::kReadStatus2}, 1)[0] == 0);
}

TEST_CASE("F1: a transient bit flip hits one read of the byte, a sticky one every read") {
  Chip chip;
  chip.faults.arm(parse_fault("bitflip:addr=0x10,bit=3"));
  CHECK(chip.read(0x10, 1)[0] == 0xF7);
  CHECK(chip.read(0x10, 1)[0] == 0xFF);
  chip.faults.clear();
  chip.faults.arm(parse_fault("bitflip:addr=0x10,bit=0,sticky"));
  CHECK(chip.read(0x0F, 2) == std::vector<std::uint8_t>{0xFF, 0xFE});
  CHECK(chip.read(0x10, 1)[0] == 0xFE);
  CHECK(chip.model.array()[0x10] == 0xFF);
}

TEST_CASE("F2: cells of a failing sector keep their old value, F3: bits of a failing page stay 1") {
  Chip chip;
  std::fill(chip.model.array().begin(), chip.model.array().begin() + 0x3000, 0x00);
  chip.faults.arm(parse_fault("erase-fail:sector=1,cells=5"));
  chip.faults.arm(parse_fault("program-fail:page=0x20,bits=3"));
  chip.erase(0x1000);
  chip.wait(50ms);
  const auto sector = chip.read(0x1000, 0x1000);
  const auto stuck = std::count(sector.begin(), sector.end(), 0x00);
  CHECK(stuck >= 1);
  CHECK(stuck <= 5);
  chip.erase(0x2000);
  chip.wait(50ms);
  chip.program(0x2000, std::vector<std::uint8_t>(256, 0x00));
  chip.wait(1ms);
  const auto page = chip.read(0x2000, 256);
  unsigned ones = 0;
  for (auto b : page) ones += static_cast<unsigned>(__builtin_popcount(b));
  CHECK(ones == 3);
}

TEST_CASE("F4: a stuck erase never clears WIP and leaves the array, power cycle abandons it") {
  Chip chip;
  chip.model.array()[0x4000] = 0x12;
  chip.faults.arm(parse_fault("stuck-busy:op=erase"));
  chip.erase(0x4000);
  chip.wait(10s);
  CHECK((chip.sr1() & navi31::kSr1Busy) != 0);
  chip.model.power_cycle(chip.now);
  CHECK(chip.sr1() == 0);
  CHECK(chip.read(0x4000, 1)[0] == 0x12);
}

TEST_CASE("F5 slows the chip, F8 leaves WEL clear, F10 answers another JEDEC id") {
  Chip chip;
  chip.faults.arm(parse_fault("slow:factor=10"));
  chip.erase(0);
  chip.wait(100ms);
  CHECK((chip.sr1() & navi31::kSr1Busy) != 0);
  chip.wait(400ms);
  CHECK(chip.sr1() == 0);
  chip.faults.arm(parse_fault("wren-ignored"));
  chip.wren();
  CHECK(chip.sr1() == 0);
  chip.faults.arm(parse_fault("jedec:id=0xEF6015"));
  CHECK(chip.frame({spi::kReadJedecId}, 3) == std::vector<std::uint8_t>{0xEF, 0x60, 0x15});
}

TEST_CASE(
    "F11: power lost during an erase leaves a partly erased sector, during a program a prefix") {
  Chip chip;
  std::fill(chip.model.array().begin(), chip.model.array().begin() + 0x2000, 0x00);
  chip.faults.arm(parse_fault("power-loss:op=erase,nth=1"));
  chip.erase(0);
  CHECK(chip.power_lost);
  const auto erased =
      std::count(chip.model.array().begin(), chip.model.array().begin() + 0x1000, 0xFF);
  CHECK(erased > 0);
  CHECK(erased < 0x1000);
  chip.model.power_cycle(chip.now);
  chip.power_lost = false;
  chip.faults.clear();
  chip.erase(0x1000);
  chip.wait(50ms);
  chip.faults.arm(parse_fault("power-loss:op=program,nth=1"));
  chip.program(0x1000, std::vector<std::uint8_t>(256, 0x00));
  CHECK(chip.power_lost);
  const auto page = std::vector<std::uint8_t>(chip.model.array().begin() + 0x1000,
                                              chip.model.array().begin() + 0x1100);
  const auto programmed = std::find(page.begin(), page.end(), 0xFF) - page.begin();
  CHECK(std::all_of(page.begin() + programmed, page.end(), [](auto b) { return b == 0xFF; }));
  CHECK(programmed < 256);
}

TEST_CASE("fault specs parse, describe themselves and reject nonsense") {
  CHECK(parse_fault("power-loss:op=program,nth=3").describe() == "power-loss:op=program,nth=3");
  CHECK(parse_fault("bitflip:addr=0x1234,bit=3,sticky").describe() ==
        "bitflip:addr=0x001234,bit=3,always");
  CHECK(parse_fault("protect:cmp=1,bp=0,lock").describe() ==
        "protect:sr1=0x00,sr2=0x40,lock,always");
  CHECK_THROWS_WITH(parse_fault("meteor"), Catch::Contains("unknown fault 'meteor'"));
  CHECK_THROWS_WITH(parse_fault("bitflip:bit=3"), Catch::Contains("needs addr="));
  CHECK_THROWS_WITH(parse_fault("stuck-busy:op=dance"), Catch::Contains("op='dance'"));
  CHECK_THROWS_WITH(parse_fault("slow:factor=2,color=red"), Catch::Contains("unknown key 'color'"));
}
