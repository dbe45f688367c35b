// Bad code objects give a clear wavescope::Error, never a crash: not an ELF, truncated ELFs,
// unknown targets, a .text that ends mid-instruction, and deterministic random mutations.

#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/disassembler.hpp"

using namespace wavescope::compiler::isa;

namespace {

std::vector<std::uint8_t> corpus_elf(const char *rel) {
  const auto bytes = wavescope::testing::read_file(wavescope::testing::testdata_root() / rel);
  return {bytes.begin(), bytes.end()};
}

std::string error_of(std::vector<std::uint8_t> bytes, CodeObjectOptions options = {}) {
  try {
    const auto code = CodeObject::from_bytes(std::move(bytes), options, "test.elf");
    disassemble_text(code);
  } catch (const wavescope::Error &e) {
    return e.what();
  }
  return {};
}

// The file offset of the header of the section named `name` in an ELF64 image.
std::size_t section_header(const std::vector<std::uint8_t> &elf, const char *name) {
  std::uint64_t shoff;
  std::uint16_t shnum, shstrndx;
  std::memcpy(&shoff, &elf[0x28], 8);
  std::memcpy(&shnum, &elf[0x3c], 2);
  std::memcpy(&shstrndx, &elf[0x3e], 2);
  std::uint64_t strtab;
  std::memcpy(&strtab, &elf[shoff + 64 * shstrndx + 24], 8);
  for (std::uint16_t i = 0; i < shnum; ++i) {
    std::uint32_t name_offset;
    std::memcpy(&name_offset, &elf[shoff + 64 * i], 4);
    if (std::strcmp(reinterpret_cast<const char *>(&elf[strtab + name_offset]), name) == 0)
      return shoff + 64 * i;
  }
  FAIL("no section " << name);
  return 0;
}

template <typename T> void put(std::vector<std::uint8_t> &elf, std::size_t offset, T value) {
  std::memcpy(&elf[offset], &value, sizeof value);
}

// Elf64_Shdr field offsets.
constexpr std::size_t kShType = 4, kShAddr = 16, kShSize = 32;

void set_section_size(std::vector<std::uint8_t> &elf, const char *name, std::uint64_t size) {
  put(elf, section_header(elf, name) + kShSize, size);
}

}  // namespace

TEST_CASE("not an ELF") {
  CHECK_THAT(error_of({'h', 'e', 'l', 'l', 'o'}), Catch::Contains("not an ELF file"));
  CHECK_THAT(error_of({}), Catch::Contains("not an ELF file"));
  CHECK_THAT(error_of({0x7f, 'E', 'L', 'F', 1}), Catch::Contains("truncated ELF"));
  CHECK_THROWS_WITH(CodeObject::load("/nonexistent/x.elf"),
                    Catch::Contains("cannot open code object /nonexistent/x.elf"));
}

TEST_CASE("a 32-bit, big-endian or non-AMDGPU ELF is refused by name") {
  std::vector<std::uint8_t> elf(64, 0);
  std::memcpy(elf.data(),
              "\x7f"
              "ELF",
              4);
  elf[4] = 1;
  CHECK_THAT(error_of(elf), Catch::Contains("not ELF64"));
  elf[4] = 2;
  elf[5] = 2;
  CHECK_THAT(error_of(elf), Catch::Contains("big-endian"));
  elf[5] = 1;
  elf[18] = 62;  // EM_X86_64
  CHECK_THAT(error_of(elf), Catch::Contains("e_machine is 62"));
}

TEST_CASE("truncated corpus ELFs fail cleanly at every length") {
  WAVESCOPE_REQUIRE_TESTDATA(path, "sqtt/gfx1100/gemm/program.elf");
  const auto full = corpus_elf("sqtt/gfx1100/gemm/program.elf");
  std::size_t errors = 0;
  for (std::size_t length = 0; length < full.size(); length += 7) {
    std::vector<std::uint8_t> cut(full.begin(), full.begin() + static_cast<long>(length));
    if (!error_of(cut).empty()) ++errors;
  }
  // Cutting off the section headers (at the end of the file) must always be noticed.
  CHECK(errors == (full.size() + 6) / 7);
}

TEST_CASE("an unknown target is refused") {
  WAVESCOPE_REQUIRE_TESTDATA(path, "sqtt/gfx1100/gemm/program.elf");
  CHECK_THAT(error_of(corpus_elf("sqtt/gfx1100/gemm/program.elf"), {"gfx9999", {}}),
             Catch::Contains("unknown AMDGPU target 'gfx9999'"));
}

TEST_CASE(".text that ends in the middle of an instruction") {
  WAVESCOPE_REQUIRE_TESTDATA(path, "sqtt/gfx1100/gemm/program.elf");
  auto elf = corpus_elf("sqtt/gfx1100/gemm/program.elf");
  // The first instruction (s_load_b128) is 8 bytes: a 4-byte .text cuts it in half.
  set_section_size(elf, ".text", 4);
  CHECK_THAT(error_of(elf), Catch::Contains("middle of an instruction at 0x1700"));
  set_section_size(elf, ".text", 6);
  CHECK_THAT(error_of(elf), Catch::Contains("not a whole number of 4-byte words"));
}

TEST_CASE("deterministic random inputs never crash the reader or disassembler") {
  WAVESCOPE_REQUIRE_TESTDATA(gfx1100, "sqtt/gfx1100/gemm/program.elf");
  WAVESCOPE_REQUIRE_TESTDATA(gfx1200, "sqtt/gfx1200/handwritten/program.elf");
  WAVESCOPE_REQUIRE_TESTDATA(gfx950, "sqtt/gfx950/plus/program.elf");
  std::mt19937 rng(20261129);
  std::vector<std::vector<std::uint8_t>> seeds;
  for (const char *rel : {"sqtt/gfx1100/gemm/program.elf", "sqtt/gfx1200/handwritten/program.elf",
                          "sqtt/gfx950/plus/program.elf"})
    seeds.push_back(corpus_elf(rel));
  std::size_t loaded = 0, rejected = 0;
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::uint8_t> bytes;
    if (round % 10 == 0) {
      bytes.resize(rng() % 512);
      for (auto &b : bytes) b = static_cast<std::uint8_t>(rng());
      if (bytes.size() >= 4 && round % 20 == 0)
        std::memcpy(bytes.data(),
                    "\x7f"
                    "ELF",
                    4);
    } else {
      bytes = seeds[rng() % seeds.size()];
      const int flips = 1 + static_cast<int>(rng() % 8);
      for (int f = 0; f < flips; ++f)
        bytes[rng() % bytes.size()] = static_cast<std::uint8_t>(rng());
    }
    try {
      const auto code = CodeObject::from_bytes(std::move(bytes), {"gfx1100", {}}, "fuzz");
      disassemble_text(code);
      ++loaded;
    } catch (const wavescope::Error &) {
      ++rejected;
    }
  }
  // Both outcomes occur: the mutations are neither all harmless nor all fatal.
  CHECK(loaded > 0);
  CHECK(rejected > 0);
}

TEST_CASE("a NOBITS .text is refused: the file holds no code to disassemble") {
  WAVESCOPE_REQUIRE_TESTDATA(path, "sqtt/gfx1100/gemm/program.elf");
  auto elf = corpus_elf("sqtt/gfx1100/gemm/program.elf");
  const auto text = section_header(elf, ".text");
  put<std::uint32_t>(elf, text + kShType, 8);  // SHT_NOBITS
  // The size the fuzzer chose: far past the end of the file.
  put<std::uint64_t>(elf, text + kShSize, 0x100000000000450);
  CHECK(error_of(elf) ==
        "test.elf: .text is a NOBITS section of 0x100000000000450 bytes: the file holds no "
        "code for it");
  // An empty NOBITS .text holds no instructions either, and that is not an error.
  put<std::uint64_t>(elf, text + kShSize, 0);
  CHECK_THAT(error_of(elf), !Catch::Contains("NOBITS"));
}

TEST_CASE("a section whose range wraps the 64-bit address space is refused") {
  WAVESCOPE_REQUIRE_TESTDATA(path, "sqtt/gfx1100/gemm/program.elf");
  auto elf = corpus_elf("sqtt/gfx1100/gemm/program.elf");
  const auto text = section_header(elf, ".text");
  put<std::uint32_t>(elf, text + kShType, 8);  // NOBITS: the size is not bounded by the file
  put<std::uint64_t>(elf, text + kShAddr, 0xfffffffffffff000);
  put<std::uint64_t>(elf, text + kShSize, 0x2000);
  CHECK(error_of(elf) ==
        "test.elf: section .text at 0xfffffffffffff000 of 0x2000 bytes wraps around the 64-bit "
        "address space");
}
