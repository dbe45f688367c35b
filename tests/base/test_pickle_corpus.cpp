// The pickle reader on every real pickle of the corpus (tinygrad's profile and rewrite pickles),
// against Python's own unpickler: scripts/pickle-reference.py rebuilt each tree with Python and
// wrote the hash of its canonical dump; the reader's tree must dump to the same bytes.

#include <catch2/catch.hpp>

#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "pickle_dump.hpp"
#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/pickle_reader.hpp"

using namespace wavescope;

namespace {

nlohmann::json reference() {
  std::ifstream in(std::string(WAVESCOPE_BASE_TEST_DATA) + "/pickle_reference.json");
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("pickle reader: every corpus pickle reads to the tree Python's unpickler builds") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  const auto ref = reference();
  std::size_t compared = 0;
  for (const auto &[name, expected] : ref.items()) {
    INFO(name);
    const auto doc = pickle::PickleDocument::load(root / name);
    const auto dump = testing::canonical_dump(doc.root());
    if (dump.size() != expected["dump_bytes"].get<std::size_t>()) {
      const auto out = std::filesystem::temp_directory_path() / "wavescope-pickle-dump.txt";
      std::ofstream(out, std::ios::binary) << dump;
      FAIL_CHECK("dump differs in length; ours is in " << out.string());
    }
    CHECK(fmt::format("{:016x}", testing::fnv1a64(dump)) == expected["fnv1a64"].get<std::string>());
    ++compared;
  }
  CHECK(compared == 18);
}

TEST_CASE("pickle reader: bytes of the real pickles are views of the input, not copies") {
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/amd-sqtt/gfx1100_gemm.pkl");
  const auto doc = pickle::PickleDocument::load(file);
  REQUIRE(doc.protocol() == 4);
  const auto &events = doc.root();
  REQUIRE(events.kind() == pickle::Kind::List);
  std::size_t blobs = 0;
  for (const auto *e : events.items()) {
    if (!e->is_global("tinygrad.runtime.ops_amd", "ProfileSQTTEvent")) continue;
    const auto *blob = e->attr("blob");
    REQUIRE(blob);
    const auto bytes = blob->as_bytes();
    const auto offset = blob->bytes_input_offset();
    REQUIRE(offset);
    CHECK(bytes.data() == doc.input().data() + *offset);
    ++blobs;
  }
  CHECK(blobs == 6);
}

TEST_CASE("pickle reader: memoized nodes are shared, not copied") {
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/amd-sqtt/gfx1100_gemm.pkl");
  const auto doc = pickle::PickleDocument::load(file);
  // Every USER range's TracingKey refers to the same memoized class node.
  const pickle::Value *tracing_key_class = nullptr;
  std::size_t keys = 0;
  for (const auto *e : doc.root().items()) {
    const auto *name = e->attr("name");
    if (!name || !name->is_global("tinygrad.helpers", "TracingKey")) continue;
    if (!tracing_key_class) tracing_key_class = name->object_class();
    CHECK(name->object_class() == tracing_key_class);
    ++keys;
  }
  CHECK(keys > 10);
}
