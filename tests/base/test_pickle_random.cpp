// The pickle reader on deterministic random input: random bytes, random opcode sequences and
// mutations of real pickles. Every input either reads or is refused with Error(BadInput) naming
// a byte offset; nothing else may happen (no crash, no other exception). The sanitizer preset
// runs the same inputs under ASan and UBSan.

#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "pickle_dump.hpp"
#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/pickle_reader.hpp"

using namespace wavescope;

namespace {

struct Outcomes {
  std::size_t read = 0, refused = 0;
  void run(const std::string &input) {
    try {
      const auto doc = pickle::PickleDocument::parse(
          {reinterpret_cast<const std::uint8_t *>(input.data()), input.size()});
      (void)testing::canonical_dump(doc.root());
      ++read;
    } catch (const Error &e) {
      REQUIRE(e.kind() == ErrorKind::BadInput);
      REQUIRE_THAT(std::string(e.what()), Catch::Contains("byte "));
      ++refused;
    }
  }
};

// Opcodes with small random arguments, so streams get past the first few bytes.
std::string random_opcodes(std::mt19937_64 &rng) {
  static const std::string opcodes = "(.012FIJKLMNPQRSTUVXabcd}eghijl]opqrstu)GBC";
  std::string s = "\x80\x04";
  const std::size_t n = rng() % 64;
  for (std::size_t i = 0; i < n; ++i) {
    const auto r = rng();
    unsigned char op;
    if (r % 3 == 0)
      op = static_cast<unsigned char>(0x80 + (r >> 8) % 0x19);
    else
      op = static_cast<unsigned char>(opcodes[(r >> 8) % opcodes.size()]);
    s += static_cast<char>(op);
    const std::size_t args = (r >> 16) % 5;
    for (std::size_t k = 0; k < args; ++k)
      s += static_cast<char>((rng() % 4 == 0) ? '\n' : rng() % 8);
  }
  if (rng() % 2) s += '.';
  return s;
}

std::string mutate(const std::vector<unsigned char> &seed, std::mt19937_64 &rng) {
  std::string s(seed.begin(), seed.end());
  const auto kind = rng() % 4;
  if (kind == 0) {
    s.resize(rng() % (s.size() + 1));  // truncate
  } else if (kind == 1) {
    for (int i = 0; i < 1 + static_cast<int>(rng() % 8); ++i)
      s[rng() % s.size()] ^= static_cast<char>(1u << (rng() % 8));  // bit flips
  } else if (kind == 2) {
    for (int i = 0; i < 1 + static_cast<int>(rng() % 4); ++i)
      s[rng() % s.size()] = static_cast<char>(rng());  // byte overwrites
  } else {
    const auto at = rng() % s.size();
    s.insert(at, std::string(1 + rng() % 8, static_cast<char>(rng())));  // insertions
  }
  return s;
}

}  // namespace

TEST_CASE("pickle reader: random bytes and random opcode sequences never crash") {
  std::mt19937_64 rng(20260901);
  Outcomes o;
  for (int i = 0; i < 3000; ++i) {
    std::string s(rng() % 200, '\0');
    for (auto &c : s) c = static_cast<char>(rng());
    if (i % 2) s.insert(0, "\x80\x04");
    o.run(s);
  }
  for (int i = 0; i < 20000; ++i) o.run(random_opcodes(rng));
  CHECK(o.read + o.refused == 23000);
  CHECK(o.refused > 0);
  CHECK(o.read > 0);  // some random opcode streams are valid pickles
}

TEST_CASE("pickle reader: mutated real pickles read or are refused cleanly") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  const std::vector<std::string> seeds = {"amd-sqtt/gfx1100_gemm.pkl", "amd-sqtt/gfx950_empty.pkl",
                                          "softmax/profile.pkl", "elementwise/rewrites.pkl"};
  std::mt19937_64 rng(7);
  Outcomes o;
  for (const auto &name : seeds) {
    const auto bytes = testing::read_file(root / name);
    REQUIRE(!bytes.empty());
    for (int i = 0; i < 300; ++i) o.run(mutate(bytes, rng));
  }
  CHECK(o.read + o.refused == 1200);
  CHECK(o.refused > 0);
}
