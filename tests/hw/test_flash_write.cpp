// `flash write` against the simulated board (navi31-flash.md §6.5, §9): the whole image onto a
// bricked board, skipping what already matches, protection (CMP/BP, lock), the backup rules, the
// journal with --resume, Ctrl-C, header-last order, and refusals before anything is written.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "support_flash/flash_runs.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/hw/flash/flash_journal.hpp"
#include "wavescope/hw/ifwi/test_image.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"

using namespace wavescope::hw;
using namespace wavescope::hw::flash;
using namespace wavescope::testing;
using wavescope::CancelToken;
using wavescope::ErrorKind;
using wavescope::sha256_hex;
namespace fs = std::filesystem;

namespace {
std::vector<std::uint8_t> slurp(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
}  // namespace

TEST_CASE(
    "write puts the image on a bricked board, with a verified backup and a complete journal") {
  TempDir dir;
  const auto &image = SimBench::test_image();
  const auto old = SimBench::random_flash(5);
  SimBench bench({}, old);
  const auto outcome = run_write(bench, write_request(image, dir));
  REQUIRE(outcome.ok());
  CHECK((bench.board().flash() == image));
  CHECK(outcome.summary.range_sha256 == sha256_hex(image));
  CHECK(outcome.summary.image_sha256 == sha256_hex(image));
  CHECK(outcome.summary.sectors_written == 512);
  REQUIRE(outcome.summary.backup);
  CHECK((slurp(*outcome.summary.backup) == old));
  CHECK(outcome.summary.backup_sha256 == sha256_hex(old));
  const auto journal = FlashJournal::load(outcome.summary.journal);
  REQUIRE(journal);
  CHECK(journal->status == "complete");
  CHECK(journal->verified.size() == 512);
  CHECK(outcome.findings.empty());  // I1–I7 hold
  CHECK(bench.board().state() == sim::BoardState::Bricked);
  bench.board().power_cycle();
  CHECK(bench.board().state() == sim::BoardState::Booted);
}

TEST_CASE("a second write of the same image skips every sector and erases nothing") {
  TempDir dir;
  const auto &image = SimBench::test_image();
  SimBench bench({}, image);
  bench.board().force_state(sim::BoardState::Bricked);
  auto request = write_request(image, dir);
  const auto outcome = run_write(bench, request);
  REQUIRE(outcome.ok());
  CHECK(outcome.summary.sectors_skipped == 512);
  CHECK(outcome.summary.erases == 0);
  CHECK(bench.board().activity().erases == 0);
  CHECK(outcome.summary.backup_reused == false);
}

TEST_CASE("blank sectors are programmed without an erase, header-last order keeps sector 0 blank "
          "until the end") {
  TempDir dir;
  const auto &image = SimBench::test_image();
  SimBench bench;  // blank chip
  bench.board().arm_fault(sim::parse_fault("power-loss:op=program,nth=500"));
  const auto outcome = run_write(bench, write_request(image, dir));
  REQUIRE(outcome.error == ErrorKind::Device);
  CHECK(outcome.remedy == Remedy::ResumeWrite);
  CHECK_THAT(outcome.message, Catch::Contains("resume the write"));
  CHECK(bench.board().activity().erases == 0);
  // Sector 0 is still blank: after power returns the board does not boot, ROM_SW stays usable.
  CHECK(std::all_of(bench.board().flash().begin(), bench.board().flash().begin() + 4096,
                    [](auto b) { return b == 0xFF; }));
  bench.board().faults().clear();
  bench.board().power_restore();
  CHECK(bench.board().state() == sim::BoardState::Bricked);
  bench.reopen();
  auto resume = write_request(image, dir);
  resume.resume = true;
  const auto again = run_write(bench, resume);
  REQUIRE(again.ok());
  CHECK((bench.board().flash() == image));
  CHECK(again.summary.sectors_already_done > 0);
}

TEST_CASE("CMP protection refuses the write before any erase, --clear-cmp clears and checks it") {
  TempDir dir;
  const auto &image = SimBench::test_image();
  SimBench bench({}, SimBench::random_flash(1));
  bench.board().arm_fault(sim::parse_fault("protect:cmp=1"));
  const auto refused = run_write(bench, write_request(image, dir));
  CHECK(refused.error == ErrorKind::Chip);
  CHECK_THAT(refused.message, Catch::Contains("whole array"));
  CHECK(refused.remedy == Remedy::ClearProtection);
  CHECK(bench.board().activity().erases == 0);
  CHECK(bench.board().activity().status_writes == 0);
  CHECK_FALSE(fs::exists(journal_path(write_request(image, dir), "sim:bench")));
  bench.board().faults().clear();

  auto request = write_request(image, dir);
  request.clear_protection = true;
  request.restore_protection = true;
  const auto cleared = run_write(bench, request);
  REQUIRE(cleared.ok());
  CHECK(cleared.summary.protection_cleared);
  CHECK(cleared.summary.protection_restored);
  CHECK((bench.board().flash() == image));
  CHECK(bench.board().sr2() == navi31::kSr2Cmp);  // put back
  CHECK(cleared.findings.empty());
}

TEST_CASE("a protected range outside the sectors written does not refuse the write") {
  TempDir dir;
  const auto &image = SimBench::test_image();
  SimBench bench({}, image);
  bench.board().force_state(sim::BoardState::Bricked);
  bench.board().arm_fault(sim::parse_fault("protect:bp=1"));  // top 64 KiB
  const auto random = SimBench::random_flash(3);
  auto request = write_request(random, dir);  // the request only refers to the image's bytes
  request.force_image = true;
  request.start_sector = 0;
  request.sector_count = 16;
  const auto outcome = run_write(bench, request);
  REQUIRE(outcome.ok());
  CHECK(outcome.summary.protection_before == "0x1F0000-0x1FFFFF (64 KiB, top)");
}

TEST_CASE("a locked status register is reported as locked and nothing is erased") {
  TempDir dir;
  SimBench bench({}, SimBench::random_flash(1));
  bench.board().arm_fault(sim::parse_fault("protect:cmp=1,lock"));
  auto request = write_request(SimBench::test_image(), dir);
  request.clear_protection = true;
  const auto outcome = run_write(bench, request);
  CHECK(outcome.error == ErrorKind::Chip);
  CHECK_THAT(outcome.message, Catch::Contains("status register locked (SRP0/SRP1/WP#)"));
  CHECK(bench.board().activity().erases == 0);
}

TEST_CASE("bad requests are refused before anything touches the device") {
  TempDir dir;
  const auto &image = SimBench::test_image();
  struct Case {
    std::function<void(WriteRequest &, std::vector<std::uint8_t> &)> change;
    ErrorKind kind;
    const char *message;
    std::optional<Remedy> remedy;
  };
  const auto bad = [](ifwi::TestImageCorruption c) {
    ifwi::TestImageOptions o;
    o.corruption = c;
    return ifwi::make_test_ifwi_image(o);
  };
  const Case cases[] = {
      {[](auto &r, auto &) { r.confirmed = false; }, ErrorKind::Usage, "must be confirmed",
       Remedy::ConfirmWrite},
      {[](auto &, auto &img) { img.resize(0x100000); }, ErrorKind::BadInput, "exactly 2 MiB",
       std::nullopt},
      {[&](auto &, auto &img) { img = bad(ifwi::TestImageCorruption::BadMagic); },
       ErrorKind::BadInput, "magic is 0x55aa55ab", Remedy::ForceImage},
      {[&](auto &, auto &img) { img = bad(ifwi::TestImageCorruption::PspEntryOutside); },
       ErrorKind::BadInput, "outside the 0x200000-byte image", Remedy::ForceImage},
      {[](auto &r, auto &) { r.start_sector = 512; }, ErrorKind::Usage,
       "start sector 512 is out of range (0-511)", Remedy::StartSectorInRange},
      {[](auto &r, auto &) { r.start_sector = 500, r.sector_count = 13; }, ErrorKind::Usage,
       "sector count 13 is out of range (1-12 from sector 500)", Remedy::SectorCountInRange},
      {[](auto &r, auto &) { r.no_backup = true, r.backup = "x.bin"; }, ErrorKind::Usage,
       "contradict", Remedy::OneBackupChoice},
  };
  for (const auto &c : cases) {
    SimBench bench({}, SimBench::random_flash(2));
    auto request = write_request(image, dir);
    std::vector<std::uint8_t> changed = image;
    c.change(request, changed);
    request.image = changed;
    const auto outcome = run_write(bench, request);
    CHECK(outcome.error == c.kind);
    CHECK_THAT(outcome.message, Catch::Contains(c.message));
    CHECK(outcome.remedy == c.remedy);
    CHECK(outcome.operations == 0);
  }
}

TEST_CASE("an existing backup is used only if its first and last sectors match the chip") {
  TempDir dir;
  const auto &image = SimBench::test_image();
  const auto old = SimBench::random_flash(8);
  SimBench bench({}, old);
  {
    std::ofstream(dir.path() / "wrong.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(image.data()),
               static_cast<std::streamsize>(image.size()));
    std::ofstream(dir.path() / "right.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(old.data()),
               static_cast<std::streamsize>(old.size()));
  }
  auto request = write_request(image, dir);
  request.backup = dir.path() / "wrong.bin";
  const auto refused = run_write(bench, request);
  CHECK(refused.error == ErrorKind::Mismatch);
  CHECK_THAT(refused.message, Catch::Contains("not of this chip"));
  CHECK(bench.board().activity().erases == 0);
  request.backup = dir.path() / "right.bin";
  const auto reused = run_write(bench, request);
  REQUIRE(reused.ok());
  CHECK(reused.summary.backup_reused);
  CHECK((bench.board().flash() == image));
}

TEST_CASE("an unfinished journal blocks a fresh write, --resume continues from the first "
          "unverified sector") {
  TempDir dir;
  const auto &image = SimBench::test_image();
  SimBench bench({}, SimBench::random_flash(4));
  bench.board().arm_fault(sim::parse_fault("wren-ignored:from=40,to=1000000"));
  const auto failed = run_write(bench, write_request(image, dir));
  REQUIRE(failed.error == ErrorKind::Chip);
  CHECK_THAT(failed.message, Catch::Contains("WEL (bit 1) not set"));
  CHECK(failed.remedy == Remedy::ResumeWrite);
  CHECK(failed.findings_except({"I4"}).empty());  // registers restored, WEL clear (WRDI)
  bench.board().faults().clear();
  const auto blocked = run_write(bench, write_request(image, dir));
  CHECK(blocked.error == ErrorKind::Usage);
  CHECK_THAT(blocked.message, Catch::Contains("an unfinished write"));
  CHECK(blocked.remedy == Remedy::ResumeOrDeleteJournal);
  auto resume = write_request(image, dir);
  resume.resume = true;
  const auto resumed = run_write(bench, resume);
  REQUIRE(resumed.ok());
  CHECK((bench.board().flash() == image));
  CHECK(resumed.summary.backup_reused);
  CHECK(resumed.summary.sectors_already_done > 0);
}

TEST_CASE("a first Ctrl-C finishes the current sector and stops with a resume hint") {
  TempDir dir;
  const auto &image = SimBench::test_image();
  SimBench bench({}, SimBench::random_flash(6));
  CancelToken cancel;
  cancel.request();
  const auto stopped = run_write(bench, write_request(image, dir), {}, &cancel);
  REQUIRE(stopped.ok());
  CHECK(stopped.summary.interrupted);
  REQUIRE(stopped.summary.resume);
  CHECK(stopped.summary.resume->remedy == Remedy::ResumeWrite);
  CHECK_THAT(stopped.summary.resume_hint, Catch::Contains("resume the write"));
  CHECK(stopped.findings.empty());
  CancelToken none;
  auto resume = write_request(image, dir);
  resume.resume = true;
  REQUIRE(run_write(bench, resume, {}, &none).ok());
  CHECK((bench.board().flash() == image));
}

TEST_CASE("a sector range writes only those sectors") {
  TempDir dir;
  const auto old = SimBench::random_flash(9);
  const auto image = SimBench::random_flash(10);
  SimBench bench({}, old);
  auto request = write_request(image, dir);
  request.force_image = true;
  request.start_sector = 16;
  request.sector_count = 8;
  const auto outcome = run_write(bench, request);
  REQUIRE(outcome.ok());
  const auto &flash = bench.board().flash();
  CHECK(std::equal(flash.begin(), flash.begin() + 16 * 4096, old.begin()));
  CHECK(
      std::equal(flash.begin() + 16 * 4096, flash.begin() + 24 * 4096, image.begin() + 16 * 4096));
  CHECK(std::equal(flash.begin() + 24 * 4096, flash.end(), old.begin() + 24 * 4096));
}

TEST_CASE(
    "write refuses a booted, an SOS and a silent board at the state probe, without an SPI frame") {
  TempDir dir;
  const auto &image = SimBench::test_image();
  SimBench booted({}, image);
  const auto a = run_write(booted, write_request(image, dir));
  CHECK(a.error == ErrorKind::State);
  CHECK_THAT(a.message, Catch::Contains("ROM_SW is gated"));
  CHECK(booted.board().activity().launches == 0);
  SimBench sos({}, image);
  sos.board().load_driver();
  const auto b = run_write(sos, write_request(image, dir));
  CHECK(b.error == ErrorKind::State);
  CHECK_THAT(b.message, Catch::Contains("secure OS"));
  SimBench gone;
  gone.board().link_down();
  const auto c = run_write(gone, write_request(image, dir));
  CHECK(c.error == ErrorKind::Device);
  CHECK_THAT(c.message, Catch::Contains("not responding"));
}

TEST_CASE(
    "plan_write_from_file: the confirmation gate comes before the file, then the image is read "
    "and checked") {
  TempDir dir;
  const auto missing = dir.path() / "missing.bin";
  WriteRequest unconfirmed;
  try {
    (void)plan_write_from_file(unconfirmed, missing);
    FAIL("accepted");
  } catch (const Refusal &e) {  // refused for the confirmation, not for the missing file
    CHECK(e.advice().remedy == Remedy::ConfirmWrite);
  }
  WriteRequest confirmed;
  confirmed.confirmed = true;
  try {
    (void)plan_write_from_file(confirmed, missing);
    FAIL("accepted");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == ErrorKind::BadInput);
    CHECK_THAT(e.what(), Catch::Contains("image") && Catch::Contains(missing.string()));
  }
  const auto image = ifwi::make_test_ifwi_image();
  const auto path = dir.path() / "image.bin";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char *>(image.data()), std::streamsize(image.size()));
  auto planned = plan_write_from_file(confirmed, path);
  const PlannedWrite moved = std::move(planned);  // the request's view follows the bytes
  CHECK(moved.image == image);
  CHECK(moved.request.image.data() == moved.image.data());
  CHECK(moved.request.image.size() == navi31::kFlashSize);
  CHECK(moved.request.image_path == path.string());
  CHECK(moved.plan.image_sha256 == sha256_hex(image));
  CHECK(moved.plan.sector_count == navi31::kSectorCount);
}
