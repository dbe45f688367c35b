// Broken capture folders give a message naming the file and the problem, in the app (stderr and
// exit code 3 in screenshot mode) and from the loader; never a crash.

#include <catch2/catch.hpp>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <filesystem>
#include <fstream>

#include "app/capture_document.hpp"
#include "gui_test_app.hpp"
#include "process.hpp"
#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavescope/base/error.hpp"

namespace fs = std::filesystem;
using wavescope::testing::run_process;

namespace {

// A writable copy of a corpus capture (binary files and meta.json only) in `temp`.
fs::path copy_capture(const fs::path &from, const wavescope::testing::TempDir &temp) {
  const fs::path to = temp.path / "capture";
  fs::create_directories(to);
  for (const auto &entry : fs::directory_iterator(from))
    if (entry.path().extension() != ".gz") {
      fs::copy_file(entry.path(), to / entry.path().filename());
      fs::permissions(to / entry.path().filename(), fs::perms::owner_read | fs::perms::owner_write);
    }
  return to;
}

void truncate_file(const fs::path &file, std::uintmax_t size) { fs::resize_file(file, size); }

// Rewrites the size meta.json records for `file` (so only the content is broken).
void record_size(const fs::path &dir, const std::string &file, std::uintmax_t size) {
  QFile meta(QString::fromStdString((dir / "meta.json").string()));
  REQUIRE(meta.open(QIODevice::ReadOnly));
  QJsonObject root = QJsonDocument::fromJson(meta.readAll()).object();
  meta.close();
  for (const char *list : {"programs", "sqtt", "pmc"}) {
    QJsonArray entries = root[list].toArray();
    for (int i = 0; i < entries.size(); ++i) {
      QJsonObject e = entries[i].toObject();
      if (e["file"].toString().toStdString() == file) e["size"] = static_cast<qint64>(size);
      entries[i] = e;
    }
    root[list] = entries;
  }
  REQUIRE(meta.open(QIODevice::WriteOnly | QIODevice::Truncate));
  meta.write(QJsonDocument(root).toJson());
}

std::string load_error(const fs::path &dir) {
  try {
    wavescope::gui::load_capture(QString::fromStdString(dir.string()));
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::BadInput);
    return e.what();
  }
  return {};
}

wavescope::testing::ProcessResult screenshot_of(const fs::path &dir) {
  return run_process({WAVESCOPE_APP_BINARY, dir.string(), "--screenshot",
                      (dir.parent_path() / "screenshot.png").string(), "--view", "waves"},
                     {"QT_QPA_PLATFORM=offscreen"});
}

}  // namespace

TEST_CASE("a folder without meta.json is not a capture") {
  const wavescope::testing::TempDir temp;
  const fs::path dir = temp.path / "empty";
  fs::create_directories(dir);
  const auto r = screenshot_of(dir);
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("without meta.json"));
}

TEST_CASE("a malformed meta.json is named with what is wrong") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(sync, "sqtt/gfx1100/sync");
  const wavescope::testing::TempDir temp;
  const fs::path dir = copy_capture(sync, temp);
  std::ofstream(dir / "meta.json") << "{\"format\": \"sqtt-corpus/1\", \"device\": [";
  CHECK_THAT(load_error(dir), Catch::Contains("meta.json") && Catch::Contains("not valid JSON"));
  std::ofstream(dir / "meta.json") << "{\"format\": \"sqtt-corpus/1\", \"device\": {}}";
  CHECK_THAT(load_error(dir), Catch::Contains("props"));
  const auto r = screenshot_of(dir);
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("error: ") && Catch::Contains("meta.json"));
}

TEST_CASE("a truncated program ELF in a capture is reported, not decoded") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(sync, "sqtt/gfx1100/sync");
  const wavescope::testing::TempDir temp;
  const fs::path dir = copy_capture(sync, temp);
  truncate_file(dir / "program_k1.elf", 300);
  // As meta.json still records the full size, the reader refuses the file outright.
  CHECK_THAT(load_error(dir), Catch::Contains("program_k1.elf") && Catch::Contains("300 bytes"));
  // With the size consistent, the ELF reader finds it truncated.
  record_size(dir, "program_k1.elf", 300);
  const std::string message = load_error(dir);
  CHECK_THAT(message, Catch::Contains("program_k1.elf"));
  const auto r = screenshot_of(dir);
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("program_k1.elf"));
}

TEST_CASE("a truncated SQTT blob is refused by size, or decoded as far as it goes") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(sync, "sqtt/gfx1100/sync");
  const wavescope::testing::TempDir temp;
  const fs::path dir = copy_capture(sync, temp);
  truncate_file(dir / "k0_se1.bin", 1001);
  CHECK_THAT(load_error(dir), Catch::Contains("k0_se1.bin") && Catch::Contains("1001 bytes"));
  CHECK(screenshot_of(dir).exit_code == 3);
  // Consistent with meta.json: the trace simply ends early; the app shows what is there.
  record_size(dir, "k0_se1.bin", 1001);
  const auto doc = wavescope::gui::load_capture(QString::fromStdString(dir.string()));
  const auto *se = doc->engine(0, 1);
  REQUIRE(se);
  CHECK(se->report.decode.packets > 0);
  const auto r = screenshot_of(dir);
  INFO(r.err);
  CHECK(r.exit_code == 0);
}

TEST_CASE("code objects the fuzzer found open with an error, not a crash") {
  struct Case {
    const char *file, *error;
  };
  const Case cases[] = {
      // Crashed LLVM's AMDGPU disassembler.
      {"code_object-gfx950-disasm-segv.elf",
       ": code ends in the middle of an instruction at 0x1b3c"},
      // A NOBITS .text of 0x100000000000450 bytes: read past the end of the file.
      {"code_object-nobits-text.elf",
       ": .text is a NOBITS section of 0x100000000000450 bytes: the file holds no code for it"},
  };
  const wavescope::testing::TempDir temp;
  for (const auto &c : cases) {
    const std::string elf = std::string(WAVESCOPE_FUZZ_REGRESSIONS) + "/fuzz_code_object/" + c.file;
    REQUIRE(fs::exists(elf));
    for (const char *view : {"isa", "cfg"}) {
      INFO(c.file << " in view " << view);
      const auto r = run_process({WAVESCOPE_APP_BINARY, elf, "--screenshot",
                                  (temp.path / "shot.png").string(), "--view", view},
                                 {"QT_QPA_PLATFORM=offscreen"});
      CHECK(r.exit_code == 3);
      CHECK_THAT(r.err, Catch::Contains(elf + c.error));
      CHECK_FALSE(fs::exists(temp.path / "shot.png"));
    }
  }
}
