// The profile timeline: profiles without SQTT and Chrome/Perfetto trace JSON open as profile
// documents; the track model follows the library's profile (checked against open_profile, read
// independently of the app); level-of-detail runs cover every span exactly once; the view renders.

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>

#include <algorithm>
#include <array>

#include "app/document_loader.hpp"
#include "app/profile_document.hpp"
#include "gui_test_app.hpp"
#include "models/profile_track_model.hpp"
#include "screenshot_check.hpp"
#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavescope/trace/profile/chrome_trace.hpp"
#include "wavescope/trace/profile/open_profile.hpp"
#include "wavescope/trace/profile/span_lod.hpp"

using namespace wavescope::gui;
using wavescope::testing::check_screenshot;
namespace profile = wavescope::trace::profile;

namespace {

constexpr std::array kCpuWorkloads{"elementwise", "matmul_relu_sum", "softmax"};

std::size_t span_total(const profile::Profile &p) {
  std::size_t n = 0;
  for (const auto &t : p.tracks) n += t.spans.size();
  return n;
}

// Every track's model row against the library's profile read straight from the file.
void check_tracks(const ProfileDocument &doc, const profile::Profile &expected) {
  ProfileTrackModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.set_profile(doc.profile());
  REQUIRE(model.rowCount() == static_cast<int>(expected.tracks.size()));
  for (int row = 0; row < model.rowCount(); ++row) {
    const auto &track = expected.tracks[static_cast<std::size_t>(row)];
    INFO(track.name);
    const QModelIndex index = model.index(row);
    CHECK(model.data(index).toString().toStdString() == track.name);
    CHECK(model.data(index, ProfileTrackModel::SpanCountRole).toULongLong() == track.spans.size());
    CHECK(model.levels(row).span_count() == track.spans.size());
    CHECK(model.row_of(QString::fromStdString(track.name)) == row);
  }
}

}  // namespace

TEST_CASE(
    "profile timeline: tinygrad profiles without SQTT open as profiles, tracks as the library") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  std::size_t opened = 0;
  for (const std::string name : kCpuWorkloads) {
    INFO(name);
    const auto path = root / name / "profile.pkl";
    const auto doc = std::dynamic_pointer_cast<ProfileDocument>(
        load_document(QString::fromStdString(path.string())));
    REQUIRE(doc);
    CHECK(doc->kind() == DocumentKind::Profile);
    const profile::Profile expected = profile::open_profile(path);
    REQUIRE(span_total(expected) > 0);
    CHECK(span_total(*doc->profile()) == span_total(expected));
    check_tracks(*doc, expected);
    ++opened;
  }
  CHECK(opened == kCpuWorkloads.size());
}

TEST_CASE("profile timeline: a Chrome trace JSON opens as a profile with the same spans") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(pkl, "tinygrad-viz/matmul_relu_sum/profile.pkl");
  const wavescope::testing::TempDir temp;
  const auto json = temp.path / "matmul.json";
  profile::write_chrome_trace(profile::open_profile(pkl), json);
  const QString path = QString::fromStdString(json.string());
  CHECK(detect_document_kind(path) == DocumentKind::Profile);
  const auto doc = std::dynamic_pointer_cast<ProfileDocument>(load_document(path));
  REQUIRE(doc);
  const profile::Profile expected = profile::read_chrome_trace(json);
  CHECK(span_total(*doc->profile()) == span_total(expected));
  CHECK(span_total(expected) > 0);
  check_tracks(*doc, expected);
}

TEST_CASE("profile timeline: level-of-detail runs cover each visible span exactly once") {
  profile::Track track;
  // 1,000 back-to-back 10 ps spans, one long span above them: a pixel of 100 ps merges the small.
  for (int i = 0; i < 1000; ++i) {
    profile::Span s;
    s.start = i * 10;
    s.end = i * 10 + 10;
    track.spans.push_back(s);
  }
  const auto levels = profile::levels_of(track);
  REQUIRE(levels.span_count() == 1000);
  for (const auto &level : levels.levels) {
    std::vector<profile::LodRun> runs;
    profile::visible_runs(track, level, 0, 10000, 0, runs);
    CHECK(runs.size() == level.size());  // no merging without a pixel width
    runs.clear();
    profile::visible_runs(track, level, 0, 10000, 100, runs);
    std::size_t covered = 0;
    for (const auto &r : runs) covered += r.count;
    CHECK(covered == level.size());
    CHECK(runs.size() < level.size() / 5);
  }
}

TEST_CASE("screenshot of the timeline view on tinygrad profiles and the demo") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  for (const std::string name : kCpuWorkloads)
    check_screenshot({(root / name / "profile.pkl").string()}, "timeline", name + "-timeline");
  check_screenshot({}, "timeline", "demo-timeline");
}
