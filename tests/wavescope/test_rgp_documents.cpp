// .rgp files opened in the app: each of rgptool's files opens as the capture of its capture folder
// (told by content, whichever way it is opened), with the same waves and mapped instructions.

#include <catch2/catch.hpp>

#include "app/document_loader.hpp"
#include "capture_fixtures.hpp"
#include "gui_test_app.hpp"
#include "testdata.hpp"

using namespace wavescope::gui;

TEST_CASE("rgp documents: every rgptool file opens as the capture of its folder") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(rgps, "rgp");
  WAVESCOPE_REQUIRE_TESTDATA(folders, "sqtt");
  std::size_t opened = 0, engines = 0;
  for (const std::string name :
       {"gfx1100_empty", "gfx1100_gemm", "gfx1100_plus", "gfx1100_sync", "gfx1200_empty",
        "gfx1200_gemm", "gfx1200_handwritten", "gfx1200_plus", "gfx1200_sync"}) {
    INFO(name);
    const QString path = QString::fromStdString((rgps / (name + ".rgp")).string());
    REQUIRE(detect_document_kind(path) == DocumentKind::Capture);
    const auto doc = std::dynamic_pointer_cast<CaptureDocument>(load_document(path));
    REQUIRE(doc);
    const auto underscore = name.find('_');
    const auto folder = wavescope::testing::open_corpus_capture(
        folders / (name.substr(0, underscore) + "/" + name.substr(underscore + 1)));
    REQUIRE(doc->kernel_count() == folder->kernel_count());
    for (int k = 0; k < doc->kernel_count(); ++k) {
      const auto &a = *doc->dispatch(k), &b = *folder->dispatch(k);
      CHECK(a.code.instructions.size() == b.code.instructions.size());
      CHECK(a.waves == b.waves);
      REQUIRE(a.engines.size() == b.engines.size());
      for (std::size_t e = 0; e < a.engines.size(); ++e) {
        CHECK(a.engines[e].blob->file_name == b.engines[e].blob->file_name);
        CHECK(a.engines[e].timeline.waves.size() == b.engines[e].timeline.waves.size());
        CHECK(a.engines[e].mapped_instructions == b.engines[e].mapped_instructions);
        ++engines;
      }
    }
    ++opened;
  }
  CHECK(opened == 9);
  CHECK(engines == 54);
}
