// The fault matrix (navi31-flash.md §10.9, §10.13 scenario 5): while writing the synthesized image
// over old random contents (so every sector needs an erase), each fault is injected at a chosen
// point. Every case must end with a clear error naming what failed, the registers restored (I1),
// only the invariants the fault itself breaks violated, the backup intact, and — after the fault
// is gone and the power restored — `--resume` must leave a chip equal to the image.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>

#include "fault/usb_fault_plan.hpp"
#include "support_flash/flash_runs.hpp"
#include "wavescope/hw/flash/flash_journal.hpp"

using namespace wavescope::hw;
using namespace wavescope::hw::flash;
using namespace wavescope::testing;
using wavescope::ErrorKind;
namespace fs = std::filesystem;

namespace {

struct FaultCase {
  const char *name;
  std::function<void(SimBench &)> arm;
  ErrorKind kind;
  const char *message;                 // the error must contain this
  std::vector<std::string> may_break;  // invariants the fault itself may break
  bool optimized = false;              // run with every §9.11 optimization (10× fewer operations)
  bool usb_only = false;
};

void arm(SimBench &bench, const char *spec) { bench.board().arm_fault(sim::parse_fault(spec)); }

const std::vector<FaultCase> &cases() {
  static const std::vector<FaultCase> all = {
      {"F11 power loss at the 1st erase (sector 0, header-last)",
       [](auto &b) { arm(b, "power-loss:op=erase,nth=1"); },
       ErrorKind::Device,
       "not responding",
       {"note", "I4", "I6"}},
      {"F11 power loss at the 3rd erase",
       [](auto &b) { arm(b, "power-loss:op=erase,nth=3"); },
       ErrorKind::Device,
       "not responding",
       {"note", "I4", "I6"},
       true},
      {"F11 power loss at the 300th erase",
       [](auto &b) { arm(b, "power-loss:op=erase,nth=300"); },
       ErrorKind::Device,
       "not responding",
       {"note", "I4", "I6"},
       true},
      {"F11 power loss at the 40th program",
       [](auto &b) { arm(b, "power-loss:op=program,nth=40"); },
       ErrorKind::Device,
       "not responding",
       {"note", "I4", "I6"}},
      {"F11 power loss at the 1000th program",
       [](auto &b) { arm(b, "power-loss:op=program,nth=1000"); },
       ErrorKind::Device,
       "not responding",
       {"note", "I4", "I6"},
       true},
      {"F1 read bit flip on every read after the backup fails the verify",
       [](auto &b) { arm(b, "bitflip:addr=0x20010,bit=2,from=3,to=1000000"); },
       ErrorKind::Mismatch,
       "0x020010",
       {},
       true},
      {"F2 a sector that will not erase",
       [](auto &b) { arm(b, "erase-fail:sector=40,cells=6"); },
       ErrorKind::Mismatch,
       "verify of sector 40 failed",
       {},
       true},
      {"F3 a page that will not program",
       [](auto &b) { arm(b, "program-fail:page=0x210,bits=2"); },
       ErrorKind::Mismatch,
       "verify of sector 33 failed",
       {},
       true},
      {"F4 chip stuck busy after the 20th erase",
       [](auto &b) { arm(b, "stuck-busy:op=erase,nth=20"); },
       ErrorKind::Timeout,
       "still busy 2.0 s after the erase of sector",
       {"I2", "I4"},
       true},
      {"F4 chip stuck busy after the 5th program",
       [](auto &b) { arm(b, "stuck-busy:op=program,nth=5"); },
       ErrorKind::Timeout,
       "after the program of the page",
       {"I2", "I4"},
       true},
      {"F5 chip 100 times slower",
       [](auto &b) { arm(b, "slow:factor=100"); },
       ErrorKind::Timeout,
       "still busy",
       {"I2", "I4"},
       true},
      {"F6 a ROM_SW launch that never completes",
       [](auto &b) { arm(b, "rom-sw-hang:nth=40000"); },
       ErrorKind::Timeout,
       "did not complete within 2.0 s",
       {"I6", "I4", "I2"},
       true},
      {"F7 ROM_SW gated in the middle of the write",
       [](auto &b) { arm(b, "rom-sw-gate:nth=60000"); },
       ErrorKind::State,
       "ROM_SW engine gated",
       {"I4", "I6", "I2"}},
      {"F8 WREN ignored from the 300th on",
       [](auto &b) { arm(b, "wren-ignored:from=300,to=100000000"); },
       ErrorKind::Chip,
       "WEL (bit 1) not set",
       {"I4"},
       true},
      {"F15 link lost at the 4 000 000th BAR5 dword",
       [](auto &b) { arm(b, "link-down:nth=4000000"); },
       ErrorKind::Device,
       "not responding",
       {"note", "I4", "I6"}},
      {"F14 a bulk IN that times out",
       [](auto &b) {
         b.usb_faults()->fail_nth(UsbTransferKind::BulkIn, 40000, UsbFaultEffect::Timeout);
       },
       ErrorKind::Timeout,
       "",
       {"I4", "I2", "I6"},
       true,
       true},
      {"F14 a control OUT that stalls",
       [](auto &b) {
         b.usb_faults()->fail_nth(UsbTransferKind::ControlOut, 120000, UsbFaultEffect::Stall);
       },
       ErrorKind::Device,
       "",
       {"I4", "I2", "I6"},
       true,
       true},
      {"F14 a short bulk IN",
       [](auto &b) {
         b.usb_faults()->fail_nth(UsbTransferKind::BulkIn, 30000, UsbFaultEffect::Short, 2);
       },
       ErrorKind::Device,
       "",
       {"I4", "I2", "I6"},
       true,
       true},
  };
  return all;
}

std::vector<std::uint8_t> slurp(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void run_case(const FaultCase &c, Path path) {
  if (c.usb_only && path != Path::Usb) return;
  const auto &image = SimBench::test_image();
  const auto old = SimBench::random_flash(77);
  TempDir dir;
  SimBench bench({}, old, path);
  CAPTURE(c.name, bench.path_name());
  FlashSessionOptions options;
  if (c.optimized) options.optimize = FlashOptimizations::all();
  c.arm(bench);

  const auto failed = run_write(bench, write_request(image, dir), options);
  REQUIRE(failed.error);
  CHECK(*failed.error == c.kind);
  CHECK_THAT(failed.message, Catch::Contains(c.message));
  CHECK(failed.remedy == Remedy::ResumeWrite);
  // Registers restored and nothing else broken than what the fault breaks.
  for (const auto &f : failed.findings_except(c.may_break))
    FAIL_CHECK(f.check << ": " << f.message);
  // The backup is intact: exactly the old contents.
  const auto journal = FlashJournal::load(journal_path(write_request(image, dir), "sim:bench"));
  REQUIRE(journal);
  CHECK(journal->status == "failed");
  REQUIRE_FALSE(journal->backup_path.empty());
  CHECK((slurp(journal->backup_path) == old));

  // The fault is gone (power restored where it was lost); the same command resumes.
  bench.board().faults().clear();
  if (bench.usb_faults()) bench.usb_faults()->clear();
  if (bench.board().state() == sim::BoardState::Offline || c.kind == ErrorKind::Timeout ||
      c.kind == ErrorKind::State)
    bench.board().power_restore();
  CHECK(bench.board().state() == sim::BoardState::Bricked);  // header-last: never bootable early
  bench.reopen();
  auto resume = write_request(image, dir);
  resume.resume = true;
  const auto resumed = run_write(bench, resume, options);
  INFO(resumed.message);
  REQUIRE(resumed.ok());
  CHECK((bench.board().flash() == image));
  CHECK(resumed.findings.empty());
}

const FaultCase &fault(const std::string &prefix) {
  for (const auto &c : cases())
    if (std::string(c.name).rfind(prefix, 0) == 0) return c;
  throw std::runtime_error("no fault case " + prefix);
}

}  // namespace

#define FAULT_CASE(prefix)                                                                         \
  TEST_CASE("fault matrix: " prefix " ends cleanly and --resume yields the image") {               \
    run_case(fault(prefix), GENERATE(Path::SimPci, Path::Usb));                                    \
  }

FAULT_CASE("F11 power loss at the 1st erase")
FAULT_CASE("F11 power loss at the 3rd erase")
FAULT_CASE("F11 power loss at the 300th erase")
FAULT_CASE("F11 power loss at the 40th program")
FAULT_CASE("F11 power loss at the 1000th program")
FAULT_CASE("F1 read bit flip on every read")
FAULT_CASE("F2 a sector that will not erase")
FAULT_CASE("F3 a page that will not program")
FAULT_CASE("F4 chip stuck busy after the 20th erase")
FAULT_CASE("F4 chip stuck busy after the 5th program")
FAULT_CASE("F5 chip 100 times slower")
FAULT_CASE("F6 a ROM_SW launch that never completes")
FAULT_CASE("F7 ROM_SW gated in the middle")
FAULT_CASE("F8 WREN ignored")
FAULT_CASE("F15 link lost")
FAULT_CASE("F14 a bulk IN that times out")
FAULT_CASE("F14 a control OUT that stalls")
FAULT_CASE("F14 a short bulk IN")

TEST_CASE("faults before any write: a wrong chip is refused at the gate, a transient flip is read "
          "again") {
  const auto &image = SimBench::test_image();
  for (const char *id : {"jedec:id=0xEF6015", "jedec:id=0xFFFFFF", "jedec:id=0x000000"}) {
    TempDir dir;
    SimBench bench({}, SimBench::random_flash(3));
    arm(bench, id);
    const auto outcome = run_write(bench, write_request(image, dir));
    CHECK(outcome.error == ErrorKind::Chip);
    CHECK_THAT(outcome.message, Catch::Contains("not recognised"));
    CHECK(bench.board().activity().erases == 0);
    CHECK(outcome.findings.empty());
  }
  // A one-off flip in a read of the backup is caught by reading twice; the write succeeds.
  TempDir dir;
  const auto old = SimBench::random_flash(4);
  SimBench bench({}, old);
  arm(bench, "bitflip:addr=0x1000,bit=5");
  const auto outcome = run_write(bench, write_request(image, dir));
  REQUIRE(outcome.ok());
  CHECK((slurp(*outcome.summary.backup) == old));
  CHECK_FALSE(outcome.summary.warnings.empty());
  CHECK((bench.board().flash() == image));
}

TEST_CASE("a power loss late in an ascending write could leave a bootable half image, header-last "
          "never does") {
  // With ascending order the synthesized image becomes bootable once sectors 0..0x20 are written
  // (§9.14): a loss after that brings the board back BOOTED with ROM_SW gated. Header-last keeps
  // sector 0 blank until the very end, so the board always comes back BRICKED.
  const auto &image = SimBench::test_image();
  for (bool header_last : {false, true}) {
    TempDir dir;
    SimBench bench({}, SimBench::random_flash(5));
    arm(bench, "power-loss:op=erase,nth=100");
    auto request = write_request(image, dir);
    request.header_last = header_last;
    FlashSessionOptions options;
    options.optimize = FlashOptimizations::all();
    REQUIRE(run_write(bench, request, options).error == ErrorKind::Device);
    bench.board().faults().clear();
    bench.board().power_restore();
    CHECK(bench.board().state() ==
          (header_last ? sim::BoardState::Bricked : sim::BoardState::Booted));
    if (!header_last) {
      bench.reopen();
      auto resume = request;
      resume.resume = true;
      const auto refused = run_write(bench, resume, options);
      CHECK(refused.error == ErrorKind::State);  // the gated refusal the spec expects here
    }
  }
}

TEST_CASE(
    "a fault during the backup stops before anything is erased, a plain rerun then succeeds") {
  const auto &image = SimBench::test_image();
  const auto old = SimBench::random_flash(78);
  TempDir dir;
  SimBench bench({}, old);
  arm(bench, "link-down:nth=1000000");  // the conservative backup reads ~2.8 M dwords
  const auto failed = run_write(bench, write_request(image, dir));
  CHECK(failed.error == ErrorKind::Device);
  CHECK(bench.board().activity().erases == 0);
  CHECK((bench.board().flash() == old));
  CHECK_FALSE(fs::exists(journal_path(write_request(image, dir), "sim:bench")));
  bench.board().faults().clear();
  bench.board().power_restore();
  bench.reopen();
  REQUIRE(run_write(bench, write_request(image, dir)).ok());
  CHECK((bench.board().flash() == image));
}
