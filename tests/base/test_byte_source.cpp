// ByteSource: bytes read the same from a file, a range of a file, and memory; reads past the end
// are refused naming the file and offset.

#include <catch2/catch.hpp>

#include <fstream>

#include "temp_dir.hpp"
#include "wavescope/base/byte_source.hpp"
#include "wavescope/base/error.hpp"

using wavescope::ByteSource;

namespace {
std::vector<std::uint8_t> iota_bytes(std::size_t n) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(i * 7);
  return v;
}
}  // namespace

TEST_CASE("byte source: file, file range, owned memory and slices read the same bytes") {
  wavescope::testing::TempDir dir;
  const auto bytes = iota_bytes(1000);
  const auto file = dir.path / "blob.bin";
  std::ofstream(file, std::ios::binary)
      .write(reinterpret_cast<const char *>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));

  const auto whole = ByteSource::whole_file(file);
  CHECK(whole.size() == 1000);
  CHECK_FALSE(whole.in_memory());
  CHECK(whole.read_all() == bytes);
  CHECK(whole.describe() == file.string());

  const auto range = ByteSource::file_range(file, 100, 50);
  CHECK(range.read_all() == std::vector<std::uint8_t>(bytes.begin() + 100, bytes.begin() + 150));
  CHECK(range.describe() == file.string() + " bytes 100..150");
  std::uint8_t two[2];
  range.read(48, 2, two);
  CHECK(two[0] == bytes[148]);

  const auto memory = ByteSource::owned(bytes);
  CHECK(memory.in_memory());
  REQUIRE(memory.view());
  CHECK(memory.view()->size() == 1000);
  CHECK(memory.read_all() == bytes);
  CHECK(memory.describe() == "1000 bytes in memory");

  CHECK(whole.slice(10, 5).read_all() == memory.slice(10, 5).read_all());
  CHECK(range.slice(10, 5).read_all() ==
        std::vector<std::uint8_t>(bytes.begin() + 110, bytes.begin() + 115));
  CHECK(ByteSource().empty());
  CHECK(ByteSource().read_all().empty());
}

TEST_CASE("byte source: reads past the end, missing and shrunken files are refused") {
  wavescope::testing::TempDir dir;
  const auto file = dir.path / "short.bin";
  std::ofstream(file, std::ios::binary) << "abcd";
  std::uint8_t buf[16];
  const auto range = ByteSource::file_range(file, 2, 10);  // claims more than the file holds
  CHECK_THROWS_WITH(range.read(0, 10, buf),
                    Catch::Contains(file.string()) && Catch::Contains("offset 2"));
  CHECK_THROWS_WITH(ByteSource::owned({1, 2, 3}).read(2, 2, buf),
                    Catch::Contains("cannot read 2 bytes at offset 2 of 3"));
  CHECK_THROWS_WITH(ByteSource::owned({1, 2, 3}).slice(2, 5), Catch::Contains("past its end"));
  CHECK_THROWS_AS(ByteSource::whole_file(dir.path / "missing.bin"), wavescope::Error);
  CHECK_THROWS_WITH(ByteSource::file_range(dir.path / "missing.bin", 0, 1).read(0, 1, buf),
                    Catch::Contains("missing.bin"));
}
