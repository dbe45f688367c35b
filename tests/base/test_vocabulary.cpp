// The shared vocabulary in base: SHA-256 (FIPS 180-2 vectors, incremental equals one-shot, files
// read in chunks), reading whole files with the project's error, the restore-on-failure guard and
// the ETA estimator.

#include <catch2/catch.hpp>

#include <fstream>
#include <stdexcept>
#include <string>

#include "temp_dir.hpp"
#include "wavescope/base/byte_source.hpp"
#include "wavescope/base/cancel_token.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/progress_eta.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/base/scope_guard.hpp"
#include "wavescope/base/sha256.hpp"

using namespace wavescope;

namespace {
std::span<const std::uint8_t> bytes_of(const std::string &text) {
  return {reinterpret_cast<const std::uint8_t *>(text.data()), text.size()};
}
}  // namespace

TEST_CASE("SHA-256 matches the FIPS 180-2 test vectors") {
  CHECK(sha256_hex(bytes_of("abc")) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex(bytes_of("")) ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex(bytes_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("SHA-256: updates in pieces equal one update, a file source equals its bytes") {
  std::string text;
  for (int i = 0; i < 300000; ++i) text += static_cast<char>('a' + i % 26);
  Sha256 pieces;
  for (std::size_t at = 0; at < text.size(); at += 7777)
    pieces.update(std::string_view(text).substr(at, 7777));
  CHECK(to_hex(pieces.finish()) == sha256_hex(bytes_of(text)));

  testing::TempDir dir;
  const auto file = dir.path / "blob.bin";
  std::ofstream(file, std::ios::binary) << text;
  // 300000 bytes from a file, hashed in chunks; a range of it equal to hashing the range.
  CHECK(sha256_hex(ByteSource::whole_file(file)) == sha256_hex(bytes_of(text)));
  CHECK(sha256_hex(ByteSource::file_range(file, 1000, 5000)) ==
        sha256_hex(bytes_of(text.substr(1000, 5000))));
}

TEST_CASE("read_file: the whole file, or BadInput naming the file and its role") {
  testing::TempDir dir;
  const auto file = dir.path / "image.bin";
  const std::string content("\x00\xff\x10 text\n", 8);
  std::ofstream(file, std::ios::binary) << content;
  CHECK(read_file_text(file) == content);
  const auto bytes = read_file_bytes(file);
  CHECK(std::string(bytes.begin(), bytes.end()) == content);

  try {
    read_file_bytes(dir.path / "missing.elf", "code object");
    FAIL("no error");
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::BadInput);
    CHECK_THAT(e.what(), Catch::StartsWith("cannot open code object " +
                                           (dir.path / "missing.elf").string() + ": "));
  }
  try {
    read_file_text(dir.path);
    FAIL("no error");
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::BadInput);
    CHECK_THAT(e.what(), Catch::EndsWith("it is a directory"));
  }
}

TEST_CASE("OnFailure runs only when the scope is left by an exception, its own failure is quiet") {
  int restored = 0;
  {
    const OnFailure guard([&] { ++restored; });
  }
  CHECK(restored == 0);
  try {
    const OnFailure guard([&] {
      ++restored;
      throw std::logic_error("the restore failed too");
    });
    throw Error(ErrorKind::Device, "the first error");
  } catch (const Error &e) {
    CHECK(std::string(e.what()) == "the first error");  // not replaced by the restore's
  }
  CHECK(restored == 1);
  // A guard made while another exception is in flight (in a destructor) still tells them apart.
  struct Unwinder {
    int &count;
    ~Unwinder() {
      const OnFailure inner([&] { ++count; });
    }
  };
  try {
    Unwinder u{restored};
    throw Error(ErrorKind::Device, "outer");
  } catch (const Error &) {
  }
  CHECK(restored == 1);
  best_effort([] { throw std::runtime_error("swallowed"); });
}

TEST_CASE("ETA: measured operations per kind priced with the measured time per operation") {
  std::chrono::nanoseconds now{0};
  std::uint64_t operations = 100;  // operations before the estimator started do not count
  EtaEstimator eta([&] { return now; }, [&] { return operations; });
  CHECK_FALSE(eta.seconds_per_operation());
  CHECK_FALSE(eta.eta({{"sector", 3}}));
  operations += 40;
  now += std::chrono::milliseconds(4);
  eta.mark("sector");
  CHECK(eta.cost("sector") == Approx(40));
  CHECK(*eta.seconds_per_operation() == Approx(1e-4));
  CHECK(*eta.eta({{"sector", 3}}) == Approx(3 * 40 * 1e-4));
  CHECK_FALSE(eta.eta({{"erase", 1}}));  // a kind never measured: no estimate yet
  eta.assume("erase", 10);
  CHECK(*eta.eta({{"sector", 1}, {"erase", 2}}) == Approx((40 + 20) * 1e-4));
  const auto p = eta.progress("write", 1, 4, "sectors", 0.5);
  CHECK(p.operations == 40);
  CHECK(p.op_latency_us == Approx(100));
}

TEST_CASE("cancel token: the first request stops cleanly, the second aborts") {
  CancelToken token;
  CHECK_FALSE(token.stop_requested());
  token.request();
  CHECK(token.stop_requested());
  CHECK_FALSE(token.abort_requested());
  token.request();
  CHECK(token.abort_requested());
}
