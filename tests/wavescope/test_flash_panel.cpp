// The flash recovery panel (--view flash): its controller runs the recovery of
// docs/flash-recovery.md on simulated boards through libhw's flash calls — a bricked board with
// an erased chip gets a verified backup, the synthesized image written and verified, and boots
// it afterwards; refusals (no confirmation, a wrong-size image, protection, a foreign chip) and
// injected faults (a power loss mid-write) arrive with the library's message; cancel finishes
// the sector and the journal resumes the write. The device list is an item model
// (QAbstractItemModelTester); the view shows a probed board; screenshots of --view flash.

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "app/flash_controller.hpp"
#include "gui_test_app.hpp"
#include "models/flash_device_model.hpp"
#include "screenshot_check.hpp"
#include "temp_dir.hpp"
#include "views/flash_view.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/hw/ifwi/test_image.hpp"
#include "wavescope/hw/sim/board_commands.hpp"
#include "wavescope/hw/sim/board_creation.hpp"
#include "wavescope/hw/sim/board_export.hpp"

using namespace wavescope::gui;
namespace fs = std::filesystem;
namespace sim = wavescope::hw::sim;
using wavescope::testing::check_screenshot;
using wavescope::testing::TempDir;

namespace {

constexpr std::size_t kFlashSize = 0x200000;

void write_file(const fs::path &path, const std::vector<std::uint8_t> &bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char *>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

// A board in `root`: an erased chip (bricked) unless `flash` is given; `faults` armed.
void create_board(const fs::path &root, const std::string &name,
                  std::vector<std::uint8_t> flash = std::vector<std::uint8_t>(kFlashSize, 0xFF),
                  const std::vector<std::string> &faults = {}) {
  sim::SimStore store(root);
  sim::BoardRecipe recipe;
  recipe.flash = sim::BoardRecipe::Flash::Image;
  recipe.image = std::move(flash);
  sim::create_board(store, name, recipe);
  if (!faults.empty()) sim::arm_board_faults(store, name, faults, false);
}

// The board as the store keeps it after the panel's commands.
struct BoardAfter {
  std::string state;
  std::vector<std::uint8_t> flash;
};
BoardAfter board_after(const fs::path &root, const std::string &name, bool power_cycle = false) {
  sim::SimStore store(root);
  const auto status =
      power_cycle ? sim::power_cycle_board(store, name) : sim::stored_board_status(store, name);
  const auto image = root / (name + ".after.bin");
  sim::export_board(store, name, image);
  return {status.state, wavescope::read_file_bytes(image)};
}

// A controller on `root` working on `device`, backups and journals in root/work.
struct Panel {
  explicit Panel(const TempDir &dir, const QString &device) {
    wavescope::testing::gui_app();
    fs::create_directories(dir.path / "work");
    c.set_sim_root(QString::fromStdString(dir.path.string()));
    c.set_work_dir(QString::fromStdString((dir.path / "work").string()));
    c.refresh_devices();
    c.set_device(device);
  }
  FlashOutcome run(bool started) {
    REQUIRE(started);
    REQUIRE(c.wait());
    REQUIRE(c.last_outcome());
    return *c.last_outcome();
  }
  FlashOutcome probe() { return run(c.start_probe()); }
  FlashOutcome backup() { return run(c.start_backup()); }
  FlashOutcome write(const fs::path &image, bool confirmed = true, bool resume = false) {
    FlashWriteOptions o;
    o.image = QString::fromStdString(image.string());
    o.confirmed = confirmed;
    o.resume = resume;
    return run(c.start_write(o));
  }
  FlashOutcome verify(const fs::path &image) {
    return run(c.start_verify(QString::fromStdString(image.string())));
  }
  bool has_phase(const QString &stage) const {
    return std::any_of(c.phases().begin(), c.phases().end(),
                       [&](const FlashPhase &p) { return p.stage == stage && p.complete(); });
  }
  FlashController c;
};

std::string text(const QString &s) { return s.toStdString(); }

}  // namespace

TEST_CASE("flash panel: a bricked simulated board is backed up, written and verified, then boots") {
  TempDir dir;
  create_board(dir.path, "practice");
  const auto image = wavescope::hw::ifwi::make_test_ifwi_image();
  write_file(dir.path / "image.bin", image);
  Panel p(dir, QStringLiteral("sim:practice"));

  // The device list: the simulated board, bricked; an item model that passes the tester.
  FlashDeviceModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.set_devices(p.c.devices());
  const int row = model.row_of(QStringLiteral("sim:practice"));
  REQUIRE(row >= 0);
  CHECK(model.index(row, FlashDeviceModel::StateColumn).data().toString() ==
        QStringLiteral("bricked"));
  CHECK(model.index(row, 0).data(FlashDeviceModel::SpecRole).toString() ==
        QStringLiteral("sim:practice"));

  // 1. Probe: state, the C8 60 15 gate, status registers, no protection.
  const auto &probe = p.probe();
  INFO(text(probe.error));
  REQUIRE(probe.ok);
  CHECK(probe.board_state == QStringLiteral("bricked"));
  REQUIRE(probe.info);
  CHECK(probe.info->info.jedec.expected);
  CHECK(probe.info->info.protection.empty());
  CHECK(probe.report.contains(QStringLiteral("C8 60 15")));

  // 2. A verified backup of what is on the chip (all erased), under the name a write reuses.
  const auto &backup = p.backup();
  INFO(text(backup.error));
  REQUIRE(backup.ok);
  REQUIRE(backup.backup);
  const auto erased = std::vector<std::uint8_t>(kFlashSize, 0xFF);
  CHECK(backup.backup->sha256 == wavescope::sha256_hex(erased));
  CHECK(wavescope::read_file_bytes(backup.backup->output) == erased);
  CHECK(backup.backup->output.parent_path() == dir.path / "work");
  CHECK(p.has_phase(QStringLiteral("backup")));

  // 3. The validation report accepts the synthesized image.
  const auto v = p.c.validate_image(QString::fromStdString((dir.path / "image.bin").string()));
  INFO(text(v.error));
  CHECK(v.accepted);
  CHECK(v.errors == 0);
  CHECK(v.size == static_cast<qint64>(kFlashSize));
  CHECK(!v.report.isEmpty());

  // 4. Write, with progress and an ETA per phase.
  std::vector<FlashPhase> seen;
  QObject::connect(&p.c, &FlashController::progress,
                   [&](const FlashPhase &phase) { seen.push_back(phase); });
  const auto &write = p.write(dir.path / "image.bin");
  INFO(text(write.error));
  REQUIRE(write.ok);
  REQUIRE(write.write);
  CHECK(write.write->backup_reused);  // the backup of step 2
  CHECK(write.write->sectors_written > 0);
  CHECK(write.write->range_sha256 == wavescope::sha256_hex(image));
  CHECK(p.has_phase(QStringLiteral("write")));
  CHECK(p.has_phase(QStringLiteral("final verify")));
  CHECK(std::any_of(seen.begin(), seen.end(), [](const FlashPhase &ph) {
    return ph.stage == QStringLiteral("write") && !ph.complete() && ph.eta_seconds &&
           ph.simulated_time;
  }));
  CHECK(p.c.journal().status == QStringLiteral("complete"));

  // 5. Verify against the image.
  const auto &verify = p.verify(dir.path / "image.bin");
  INFO(text(verify.error));
  CHECK(verify.ok);
  CHECK(verify.sha256 == QString::fromStdString(wavescope::sha256_hex(image)));

  // The board holds the image and boots it after a power cycle; ROM_SW is then gated, which the
  // probe reports with the library's message and the board state.
  const auto after = board_after(dir.path, "practice", true);
  CHECK(after.flash == image);
  CHECK(after.state == "booted");
  const auto &booted = p.probe();
  CHECK(!booted.ok);
  CHECK(booted.board_state == QStringLiteral("booted"));
  CHECK(booted.error.contains(QStringLiteral("ROM_SW is not usable")));
  CHECK(booted.exit_code == 5);
}

TEST_CASE("flash panel: refusals carry the library's message and touch nothing") {
  TempDir dir;
  create_board(dir.path, "b");
  create_board(dir.path, "locked", std::vector<std::uint8_t>(kFlashSize, 0xFF), {"protect:cmp=1"});
  create_board(dir.path, "foreign", std::vector<std::uint8_t>(kFlashSize, 0xFF),
               {"jedec:id=0xEF6015"});
  write_file(dir.path / "image.bin", wavescope::hw::ifwi::make_test_ifwi_image());
  write_file(dir.path / "half.bin", std::vector<std::uint8_t>(kFlashSize / 2, 0xFF));
  Panel p(dir, QStringLiteral("sim:b"));

  SECTION("no confirmation") {
    const auto &o = p.write(dir.path / "image.bin", false);
    CHECK(!o.ok);
    CHECK(o.error.contains(QStringLiteral("nothing was read or written")));
    CHECK(o.exit_code == 2);
    CHECK(!p.c.journal().exists);
  }
  SECTION("an image of the wrong size: in the validation report and from the write") {
    const auto v = p.c.validate_image(QString::fromStdString((dir.path / "half.bin").string()));
    CHECK(!v.accepted);
    CHECK(v.error.contains(QStringLiteral("exactly 2 MiB")));
    const auto &o = p.write(dir.path / "half.bin");
    CHECK(!o.ok);
    CHECK(o.error.contains(QStringLiteral("is 1048576 bytes")));
    CHECK(o.exit_code == 3);
  }
  SECTION("write protection over the range") {
    p.c.set_device(QStringLiteral("sim:locked"));
    const auto &probe = p.probe();
    REQUIRE(probe.info);
    CHECK(!probe.info->info.protection.empty());
    const auto &o = p.write(dir.path / "image.bin");
    CHECK(!o.ok);
    CHECK(o.error.contains(QStringLiteral("write protection covers")));
    CHECK(o.exit_code == 6);
    CHECK(board_after(dir.path, "locked").flash == std::vector<std::uint8_t>(kFlashSize, 0xFF));
  }
  SECTION("a chip that is not the GD25LQ16E") {
    p.c.set_device(QStringLiteral("sim:foreign"));
    const auto &o = p.probe();
    CHECK(!o.ok);
    CHECK(o.board_state == QStringLiteral("bricked"));
    CHECK(o.error.contains(QStringLiteral("C8 60 15")));
    CHECK(o.exit_code == 6);
  }
  SECTION("a board that does not exist") {
    p.c.set_device(QStringLiteral("sim:nothing"));
    const auto &o = p.probe();
    CHECK(!o.ok);
    CHECK(o.exit_code == 4);
    CHECK(!o.error.isEmpty());
  }
}

TEST_CASE("flash panel: a power loss mid-write stops it, and power-cycle and resume finish it") {
  TempDir dir;
  create_board(dir.path, "b", std::vector<std::uint8_t>(kFlashSize, 0xFF),
               {"power-loss:op=program,nth=300"});
  const auto image = wavescope::hw::ifwi::make_test_ifwi_image();
  write_file(dir.path / "image.bin", image);
  Panel p(dir, QStringLiteral("sim:b"));

  const auto failed = p.write(dir.path / "image.bin");
  CHECK(!failed.ok);
  CAPTURE(text(failed.error));
  CHECK(failed.error.contains(QStringLiteral("resume the write")));  // the library's resume remedy
  const auto journal = p.c.journal();
  CHECK(journal.resumable());
  CHECK(journal.status == QStringLiteral("failed"));
  CHECK(journal.verified > 0);
  CHECK(journal.verified < journal.sectors);

  REQUIRE(p.run(p.c.start_power_cycle()).ok);
  // Powered again: a fresh write refuses to start over an unfinished journal.
  const auto fresh = p.write(dir.path / "image.bin");
  INFO(text(fresh.error));
  CHECK(!fresh.ok);
  CHECK(fresh.error.contains(QStringLiteral("unfinished write")));

  const auto &resumed = p.write(dir.path / "image.bin", true, true);
  INFO(text(resumed.error));
  REQUIRE(resumed.ok);
  CHECK(resumed.write->sectors_already_done == static_cast<unsigned>(journal.verified));
  CHECK(p.verify(dir.path / "image.bin").ok);
  CHECK(board_after(dir.path, "b").flash == image);
}

TEST_CASE("flash panel: cancel finishes the current sector, and the journal resumes the write") {
  TempDir dir;
  create_board(dir.path, "b");
  const auto image = wavescope::hw::ifwi::make_test_ifwi_image();
  write_file(dir.path / "image.bin", image);
  Panel p(dir, QStringLiteral("sim-pci:b"));
  bool cancelled = false;
  QObject::connect(&p.c, &FlashController::progress, [&](const FlashPhase &phase) {
    if (!cancelled && phase.stage == QStringLiteral("write") && phase.done >= 8) {
      cancelled = true;
      p.c.cancel();
    }
  });
  const auto &stopped = p.write(dir.path / "image.bin");
  CHECK(!stopped.ok);
  CHECK(stopped.interrupted);
  CHECK(stopped.error.contains(QStringLiteral("resume the write")));
  const auto journal = p.c.journal();
  CHECK(journal.status == QStringLiteral("interrupted"));
  CHECK(journal.verified >= 8);
  CHECK(journal.verified < journal.sectors);

  const auto &resumed = p.write(dir.path / "image.bin", true, true);
  INFO(text(resumed.error));
  REQUIRE(resumed.ok);
  CHECK(p.c.journal().status == QStringLiteral("complete"));
  CHECK(board_after(dir.path, "b").flash == image);
}

TEST_CASE("flash view: a probed board and the device list") {
  wavescope::testing::gui_app();
  TempDir dir;
  create_board(dir.path, "practice");
  FlashView view;
  view.controller().set_sim_root(QString::fromStdString(dir.path.string()));
  view.controller().refresh_devices();
  CHECK(view.devices().row_of(QStringLiteral("sim:practice")) >= 0);
  view.open_device(QStringLiteral("sim:practice"));
  REQUIRE(view.controller().wait());
  CHECK(view.board_text().contains(QStringLiteral("bricked")));
  CHECK(view.board_text().contains(QStringLiteral("C8 60 15")));
  CHECK(view.log_text().contains(QStringLiteral("probe done")));

  // A write the user does not confirm asks and stops; nothing reaches the board.
  write_file(dir.path / "image.bin", wavescope::hw::ifwi::make_test_ifwi_image());
  QString asked;
  view.set_confirmation([&](const QString &question) {
    asked = question;
    return false;
  });
  view.set_image(QString::fromStdString((dir.path / "image.bin").string()));
  CHECK(view.validation_text().contains(QStringLiteral("accepted")));
  view.write();
  CHECK(asked.contains(QStringLiteral("sim:practice")));
  CHECK(!view.controller().busy());
  CHECK(view.log_text().contains(QStringLiteral("not confirmed")));
}

TEST_CASE("screenshot of the flash view on simulated boards") {
  TempDir dir;
  create_board(dir.path, "bricked");
  create_board(dir.path, "booted", wavescope::hw::ifwi::make_test_ifwi_image());
  const std::string root = dir.path.string();
  check_screenshot({"--device", "sim:bricked", "--sim-root", root}, "flash", "flash-sim-bricked");
  check_screenshot({"--device", "sim:booted", "--sim-root", root}, "flash", "flash-sim-booted");
}
