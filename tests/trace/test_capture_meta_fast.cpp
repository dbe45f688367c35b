// meta.json's fast reader (simdjson): it takes every corpus capture, agrees with nlohmann on
// what it reads, and leaves whatever nlohmann rejects (even in members nothing reads) to the
// nlohmann reader's errors.

#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

// The fast reader is libtrace-internal (src/capture); its declaration is included from there.
#include "../../libtrace/src/capture/meta_fast.hpp"
#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/trace/capture.hpp"

using wavescope::trace::Capture;
using wavescope::trace::detail::BlobEntry;
using wavescope::trace::detail::read_meta_fast;

TEST_CASE("meta.json's fast reader takes every corpus capture, with nlohmann's values") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  const auto dirs = wavescope::testing::sqtt_capture_dirs();
  REQUIRE(dirs.size() == 12);
  std::size_t entries_seen = 0;
  for (const auto &dir : dirs) {
    INFO(dir.string());
    const std::string text = wavescope::read_file_text(dir / "meta.json");
    nlohmann::json meta;
    std::vector<BlobEntry> entries;
    REQUIRE(read_meta_fast(text, meta, entries));
    const auto slow = nlohmann::json::parse(text);
    for (const char *key : {"format", "example", "arch", "device", "programs", "pmc"}) {
      INFO(key);
      CHECK(meta.contains(key) == slow.contains(key));
      if (slow.contains(key)) CHECK(meta[key] == slow[key]);
    }
    const auto &list = slow.at("sqtt");
    REQUIRE(entries.size() == list.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const auto &e = entries[i];
      const auto &j = list[i];
      CHECK(e.file == j.at("file").get<std::string>());
      CHECK(e.se == j.at("se").get<std::uint64_t>());
      CHECK(e.kern == j.at("kern").get<std::uint64_t>());
      CHECK(e.size == j.at("size").get<std::uint64_t>());
      CHECK(e.has_order == j.contains("order"));
      CHECK(e.program == j.value("program", std::string()));
      CHECK(e.sha256 == j.value("sha256", std::string()));
      CHECK(e.itrace == j.value("itrace", false));
      CHECK(e.synthetic_header == j.value("synthetic_header", false));
    }
    entries_seen += entries.size();
    // What the capture reader makes of them.
    const auto c = Capture::open(dir);
    REQUIRE(c.blobs.size() == entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) CHECK(c.blobs[i].file_name == entries[i].file);
  }
  CHECK(entries_seen > 12);
}

TEST_CASE("meta.json's fast reader leaves what nlohmann rejects, anywhere, to nlohmann") {
  nlohmann::json meta;
  std::vector<BlobEntry> entries;
  const std::string head =
      R"({"format":"sqtt-corpus/1","device":{"props":{"gfx_target_version":110000}},"programs":[],)";
  const std::string good = R"("sqtt":[{"file":"se0.bin","se":0,"kern":7,"size":10}]})";
  CHECK(read_meta_fast(head + good, meta, entries));
  CHECK(entries.size() == 1);
  CHECK(meta["sqtt"] == nlohmann::json::array());
  CHECK(meta["device"]["props"]["gfx_target_version"].is_number_unsigned());
  // Malformed JSON in members nothing reads: the fast reader does not take it.
  for (const char *odd :
       {R"("skipped":[1 2],)", R"("skipped":tru,)", R"("skipped":01,)", R"("skipped":"\udc00",)",
        R"("skipped":"\ud800",)", R"("skipped":1e5012,)", R"("skipped":18446744073709551616,)"}) {
    INFO(odd);
    CHECK(!read_meta_fast(head + odd + good, meta, entries));
  }
  // Entries the reader would not take as they are, and documents that are not an object.
  for (const std::string &odd :
       {std::string(R"("sqtt":[{"file":"se0.bin","se":-1,"kern":7,"size":10}]})"),
        std::string(R"("sqtt":[{"file":"se0.bin","se":0,"kern":7,"size":10.0}]})"),
        std::string(R"("sqtt":[{"file":"se0.bin","kern":7,"size":10}]})"),
        std::string(R"("sqtt":[{"file":"se0.bin","se":0,"kern":7,"size":10,"itrace":null}]})"),
        std::string(R"("sqtt":[3]})"), std::string(R"("sqtt":{}})"),
        std::string(R"("sqtt":[],"sqtt":[]})"), std::string(R"("pmc":[]})")}) {
    INFO(odd);
    CHECK(!read_meta_fast(head + odd, meta, entries));
  }
  CHECK(!read_meta_fast("[]", meta, entries));
  CHECK(!read_meta_fast("", meta, entries));
}

TEST_CASE("a malformed member nothing reads still makes meta.json invalid") {
  // As with nlohmann alone: the fast reader validates the whole text, or leaves it to nlohmann.
  const wavescope::testing::TempDir temp;
  const auto &dir = temp.path;
  auto error = [&](const std::string &text) -> std::string {
    std::ofstream(dir / "meta.json") << text;
    try {
      Capture::open(dir);
    } catch (const wavescope::Error &e) {
      CHECK(e.kind() == wavescope::ErrorKind::BadInput);
      return e.what();
    }
    return "no error";
  };
  const std::string tail =
      R"("format":"sqtt-corpus/1","device":{"props":{"gfx_target_version":110000}},"programs":[],"sqtt":[]})";
  CHECK(error("{" + tail) == "no error");
  CHECK_THAT(error(R"({"reference":[1 2],)" + tail), Catch::Contains("not valid JSON"));
  CHECK_THAT(error(R"({"reference":"\udc00",)" + tail),
             Catch::Contains("not valid JSON") && Catch::Contains("surrogate"));
  CHECK_THAT(error(R"({"reference":1e5012,)" + tail),
             Catch::Contains("not valid JSON") && Catch::Contains("number overflow"));
}
