// tinygrad profile pickles opened in the app: a profile recorded with SQTT opens as the capture
// of its capture folder, whichever way it is opened (the loader File > Open, the command line
// and drag and drop all use); other pickles are told apart or refused clearly.

#include <catch2/catch.hpp>

#include "app/document_loader.hpp"
#include "capture_fixtures.hpp"
#include "corpus_names.hpp"
#include "gui_test_app.hpp"
#include "testdata.hpp"
#include "wavescope/base/error.hpp"

using wavescope::testing::folder_of;
using wavescope::testing::kSqttPickles;

using namespace wavescope::gui;

namespace {

std::size_t timeline_events(const wavescope::trace::timeline::SeTimeline &tl) {
  std::size_t n = tl.clock.size();
  for (const auto &row : tl.rows) n += row.events.size();
  return n;
}

}  // namespace

TEST_CASE("profile documents: every amd-sqtt pickle opens as the capture of its folder") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(pickles, "tinygrad-viz/amd-sqtt");
  WAVESCOPE_REQUIRE_TESTDATA(folders, "sqtt");
  std::size_t opened = 0, engines = 0;
  for (const std::string name : kSqttPickles) {
    INFO(name);
    const QString path = QString::fromStdString((pickles / (name + ".pkl")).string());
    REQUIRE(detect_document_kind(path) == DocumentKind::Capture);
    const auto doc = std::dynamic_pointer_cast<CaptureDocument>(load_document(path));
    REQUIRE(doc);
    const auto folder = wavescope::testing::open_corpus_capture(folders / folder_of(name));
    REQUIRE(doc->kernel_count() == folder->kernel_count());
    for (int k = 0; k < doc->kernel_count(); ++k) {
      const auto &a = *doc->dispatch(k), &b = *folder->dispatch(k);
      CHECK(a.code.name == b.code.name);
      CHECK(a.code.instructions.size() == b.code.instructions.size());
      CHECK(a.waves == b.waves);
      CHECK(a.counters.size() == b.counters.size());
      REQUIRE(a.engines.size() == b.engines.size());
      for (std::size_t e = 0; e < a.engines.size(); ++e) {
        CHECK(a.engines[e].blob->file_name == b.engines[e].blob->file_name);
        CHECK(a.engines[e].timeline.waves.size() == b.engines[e].timeline.waves.size());
        CHECK(timeline_events(a.engines[e].timeline) == timeline_events(b.engines[e].timeline));
        CHECK(a.engines[e].mapped_instructions == b.engines[e].mapped_instructions);
        ++engines;
      }
    }
    CHECK(doc->notes == folder->notes);
    ++opened;
  }
  CHECK(opened == 12);
  CHECK(engines == 150);
}

TEST_CASE("profile documents: a profile without SQTT opens as a profile, rewrites.pkl not as a "
          "capture") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz/softmax");
  const QString profile = QString::fromStdString((root / "profile.pkl").string());
  CHECK(detect_document_kind(profile) == DocumentKind::Capture);  // a pickle, told apart on load
  const auto doc = load_document(profile);
  REQUIRE(doc);
  CHECK(doc->kind() == DocumentKind::Profile);
  CHECK(std::dynamic_pointer_cast<CaptureDocument>(doc) == nullptr);
  CHECK(detect_document_kind(QString::fromStdString((root / "rewrites.pkl").string())) !=
        DocumentKind::Capture);
}
