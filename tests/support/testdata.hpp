#pragma once
// Locating the real corpus (../shared/data) from tests.
//
// The corpus path is $WAVESCOPE_TESTDATA, else the path configured at build time. Where the corpus
// is absent a test skips with a message, except under CI=true, where absence is a failure.

#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace wavescope::testing {

// The corpus root (it may not exist).
std::filesystem::path testdata_root();

// The source tree's root, for files that ship in the repository (resources/).
std::filesystem::path source_root();

// True when running under CI (the environment variable CI equals "true").
bool running_in_ci();

// Reads a whole file as bytes; throws std::runtime_error when it cannot.
std::vector<unsigned char> read_file(const std::filesystem::path &path);

// Every capture folder of the SQTT corpus (<arch>/<example>), sorted; empty if the corpus is
// absent.
std::vector<std::filesystem::path> sqtt_capture_dirs();

}  // namespace wavescope::testing

// Resolves `rel` inside the corpus into `var`; when the corpus part is missing, skips the test
// (WARN + return) or, under CI=true, fails it.
#define WAVESCOPE_REQUIRE_TESTDATA(var, rel)                                                       \
  const std::filesystem::path var = ::wavescope::testing::testdata_root() / (rel);                 \
  if (!std::filesystem::exists(var)) {                                                             \
    if (::wavescope::testing::running_in_ci())                                                     \
      FAIL("test data missing under CI: " << var.string());                                        \
    WARN("skipped: test data not found at " << var.string() << " (set WAVESCOPE_TESTDATA)");       \
    return;                                                                                        \
  }

namespace wavescope::testing {
// The lines of a gzip-compressed text file (e.g. the corpus' *.jsonl.gz); throws if unreadable.
std::vector<std::string> read_gz_lines(const std::filesystem::path &path);
}  // namespace wavescope::testing

namespace wavescope::testing {
// A code object of the SQTT corpus as its capture's meta.json describes it.
struct CorpusProgram {
  std::filesystem::path elf;
  std::filesystem::path capture;  // the capture folder
  std::string name;               // kernel name (the ELF may not carry it)
  std::string target;             // processor from the device's gfx_target_version
  std::uint64_t text_address = 0, text_size = 0, entry_pc = 0;
  unsigned num_insts = 0;  // instructions tinygrad decodes in .text
};
std::vector<CorpusProgram> corpus_programs();
}  // namespace wavescope::testing
