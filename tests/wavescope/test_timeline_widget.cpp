// The interactive wave timeline: zoom, pan, fit, measuring, selecting and walking, driven through
// the widget's API and real key, wheel and mouse events; and the aggregation that keeps a frame's
// painted item count bounded whatever the number of events.

#include <catch2/catch.hpp>

#include <QImage>
#include <QPainter>
#include <QScrollBar>
#include <QTest>
#include <QWheelEvent>

#include "capture_fixtures.hpp"
#include "gui_test_app.hpp"
#include "models/wave_timeline_model.hpp"
#include "testdata.hpp"
#include "views/wave_timeline_widget.hpp"

using namespace wavescope::gui;
using wavescope::trace::timeline::RowKind;

namespace {

double span(const WaveTimelineWidget &w) {
  return w.visible_range().second - w.visible_range().first;
}

struct TimelineFixture {
  std::shared_ptr<const CaptureDocument> doc;
  const ShaderEngineTrace *se = nullptr;
  WaveTimelineModel model;
  WaveTimelineWidget widget;

  explicit TimelineFixture(const std::filesystem::path &dir, const std::string &blob) {
    doc = wavescope::testing::open_corpus_capture(dir);
    int kernel = 0;
    se = wavescope::testing::engine_of_blob(*doc, blob, &kernel);
    REQUIRE(se);
    model.set_timeline(&se->timeline, &doc->dispatch(kernel)->code);
    widget.resize(1400, 600);
    widget.set_model(&model);
    widget.show();
    REQUIRE(QTest::qWaitForWindowExposed(&widget));
  }
  // A track of a given kind, and a point inside the plot on it.
  int first_track(TrackKind kind) const {
    for (int t = 0; t < model.rowCount(); ++t)
      if (model.track(t).kind == kind) return t;
    return -1;
  }
};

}  // namespace

TEST_CASE("fit shows the kernel's instruction range, and zoom keeps the anchored cycle") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/gemm");
  TimelineFixture f(dir, "se0.bin");
  const auto [lo, hi] = f.model.fit_range();
  auto [t0, t1] = f.widget.visible_range();
  CHECK(t0 < lo);
  CHECK(t1 > hi);
  CHECK(span(f.widget) < (hi - lo) * 1.1);
  // The clock points reach far beyond the kernel; fit does not.
  CHECK(f.model.full_range().second - f.model.full_range().first > 10 * (hi - lo));

  const auto frame = f.widget.frame();
  const double x = 700;
  const double anchored = WaveTimelinePainter::cycle_at(frame, x);
  const double before = span(f.widget);
  f.widget.zoom(2.0, x);
  CHECK(span(f.widget) == Approx(before / 2));
  CHECK(WaveTimelinePainter::cycle_at(f.widget.frame(), x) == Approx(anchored));
  f.widget.fit();
  CHECK(f.widget.visible_range().first == Approx(t0));
  CHECK(f.widget.visible_range().second == Approx(t1));
}

TEST_CASE("W/S and Ctrl+wheel zoom, A/D pan, F fits") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/gemm");
  TimelineFixture f(dir, "se0.bin");
  const auto fitted = f.widget.visible_range();
  const double s = span(f.widget);
  QTest::keyClick(&f.widget, Qt::Key_W);
  CHECK(span(f.widget) == Approx(s / 1.25));
  QTest::keyClick(&f.widget, Qt::Key_S);
  CHECK(span(f.widget) == Approx(s));
  const double t0 = f.widget.visible_range().first;
  QTest::keyClick(&f.widget, Qt::Key_D);
  CHECK(f.widget.visible_range().first == Approx(t0 + 0.15 * s));
  QTest::keyClick(&f.widget, Qt::Key_A);
  CHECK(f.widget.visible_range().first == Approx(t0));

  const QPointF at(800, 300);
  QWheelEvent wheel(at, f.widget.viewport()->mapToGlobal(at), QPoint(), QPoint(0, 240),
                    Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(f.widget.viewport(), &wheel);
  CHECK(span(f.widget) < s * 0.8);
  QTest::keyClick(&f.widget, Qt::Key_F);
  CHECK(f.widget.visible_range().first == Approx(fitted.first));
  CHECK(f.widget.visible_range().second == Approx(fitted.second));
}

TEST_CASE("dragging pans by the dragged cycles and Shift+drag measures a range") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/gemm");
  TimelineFixture f(dir, "se0.bin");
  auto *viewport = f.widget.viewport();
  const auto [t0, t1] = f.widget.visible_range();
  const double cycles_per_px = (t1 - t0) / WaveTimelinePainter::plot_rect(viewport->size()).width();
  QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, QPoint(900, 400));
  QTest::mouseMove(viewport, QPoint(800, 400));
  QTest::mouseMove(viewport, QPoint(700, 400));
  QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, QPoint(700, 400));
  CHECK(f.widget.visible_range().first == Approx(t0 + 200 * cycles_per_px));
  CHECK(span(f.widget) == Approx(t1 - t0));
  CHECK_FALSE(f.widget.selected().valid());  // a drag is not a click

  const double a = WaveTimelinePainter::cycle_at(f.widget.frame(), 500);
  const double b = WaveTimelinePainter::cycle_at(f.widget.frame(), 900);
  QTest::mousePress(viewport, Qt::LeftButton, Qt::ShiftModifier, QPoint(500, 300));
  QTest::mouseMove(viewport, QPoint(700, 300));
  QTest::mouseMove(viewport, QPoint(900, 300));
  QTest::mouseRelease(viewport, Qt::LeftButton, Qt::ShiftModifier, QPoint(900, 300));
  REQUIRE(f.widget.measured());
  CHECK(f.widget.measured()->first == Approx(a));
  CHECK(f.widget.measured()->second == Approx(b));
  CHECK(f.widget.visible_range().first == Approx(t0 + 200 * cycles_per_px));  // no pan
  QTest::keyClick(&f.widget, Qt::Key_Escape);
  CHECK_FALSE(f.widget.measured());
}

TEST_CASE("clicking a dispatch selects it and links its exec event, ←/→ walk the wave row") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/sync");
  TimelineFixture f(dir, "k0_se1.bin");
  const int wave_track = f.first_track(TrackKind::WaveSlot);
  REQUIRE(wave_track >= 0);
  // The first dispatch of wave 0 that an execution unit ran, zoomed so its bar is wide.
  const auto &events =
      f.se->timeline.rows[static_cast<std::size_t>(f.model.track(wave_track).row)].events;
  TimelineEventRef dispatch;
  for (std::size_t i = 0; i < events.size() && !dispatch.valid(); ++i)
    if (f.model.partner({wave_track, 0, i}).valid()) dispatch = {wave_track, 0, i};
  REQUIRE(dispatch.valid());
  const double start = static_cast<double>(f.model.start_of(dispatch));
  f.widget.set_visible_range(start - 40, start + 60);
  const QPoint point = f.widget.point_of(dispatch);
  CHECK(f.widget.event_at(point) == dispatch);
  QTest::mouseClick(f.widget.viewport(), Qt::LeftButton, Qt::NoModifier, point);
  CHECK(f.widget.selected() == dispatch);
  const auto exec = f.model.partner(dispatch);
  CHECK(f.model.track(exec.track).kind == TrackKind::ExecUnit);
  CHECK(f.model.partner(exec) == dispatch);
  CHECK(f.model.start_of(exec) >= f.model.start_of(dispatch));

  QTest::keyClick(&f.widget, Qt::Key_Right);
  const auto next = f.widget.selected();
  CHECK(next.track == wave_track);
  CHECK(next.index == dispatch.index + 1);
  CHECK(f.model.start_of(next) >= f.model.start_of(dispatch));
  QTest::keyClick(&f.widget, Qt::Key_Left);
  CHECK(f.widget.selected() == dispatch);
  // Walking to the end of the row stops there; the view follows the selection.
  while (f.widget.walk(1)) {
  }
  const auto last = f.widget.selected();
  CHECK(last.index == events.size() - 1);
  const auto [t0, t1] = f.widget.visible_range();
  CHECK(f.model.end_of(last) >= t0);
  CHECK(f.model.start_of(last) <= t1);
  CHECK(t1 - t0 == Approx(100));  // the zoom is kept
}

TEST_CASE("a selected dispatch and its exec partner are outlined and joined on screen") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1200/handwritten");
  TimelineFixture f(dir, "se1.bin");
  const int wave_track = f.first_track(TrackKind::WaveSlot);
  REQUIRE(wave_track >= 0);
  TimelineEventRef dispatch;
  for (std::size_t i = 40; !dispatch.valid(); ++i)
    if (f.model.partner({wave_track, 0, i}).valid()) dispatch = {wave_track, 0, i};
  const double start = static_cast<double>(f.model.start_of(dispatch));
  f.widget.set_visible_range(start - 6, start + 14);  // ~60 px per cycle
  f.widget.select(dispatch);
  f.widget.set_pc(f.model.event(dispatch)->pc);
  const QImage shot = f.widget.viewport()->grab().toImage();
  std::filesystem::create_directories(WAVESCOPE_BUILD_SCREENSHOTS);
  shot.save(QString::fromUtf8(WAVESCOPE_BUILD_SCREENSHOTS) + "/timeline-selection.png");
  // The selection outline is drawn around both bars.
  const QRect a = f.widget.painter_rect(dispatch).toAlignedRect().adjusted(-2, -2, 2, 2);
  const QRect b =
      f.widget.painter_rect(f.model.partner(dispatch)).toAlignedRect().adjusted(-2, -2, 2, 2);
  auto has_outline = [&](const QRect &r) {
    for (int x = std::max(0, r.left()); x <= std::min(shot.width() - 1, r.right()); ++x)
      for (const int y : {r.top(), r.top() + 1, r.bottom(), r.bottom() - 1})
        if (y >= 0 && y < shot.height() && shot.pixelColor(x, y) == QColor(0x00, 0xc7, 0x2f))
          return true;
    return false;
  };
  CHECK(has_outline(a));
  CHECK(has_outline(b));
  CHECK(f.widget.last_paint().texts > 0);  // zoomed in, bars carry their mnemonic
}

TEST_CASE("sub-pixel bars merge into pixel columns, so a frame's items stay bounded") {
  wavescope::testing::gui_app();
  using namespace wavescope::trace::timeline;
  // One wave row with a million one-cycle events, an exec row with as many, and a long barrier.
  SeTimeline tl;
  tl.rows.resize(2);
  tl.rows[0].kind = RowKind::ExecUnit;
  tl.rows[0].name = "ALUEXEC:0 VALU";
  tl.rows[1].kind = RowKind::WaveSlot;
  tl.rows[1].name = "WAVE:0";
  constexpr std::int64_t kEvents = 1'000'000;
  for (std::int64_t i = 0; i < kEvents; ++i) {
    TimelineEvent e;
    e.start = 3 * i;
    e.end = e.start + 1;
    e.name = "VALU";
    e.category = EventCategory::Valu;
    tl.rows[0].events.push_back(e);
    e.name = i == kEvents / 2 ? "BARRIER" : "SALU";
    e.category = i == kEvents / 2 ? EventCategory::Barrier : EventCategory::Salu;
    if (i == kEvents / 2) e.end = e.start + 200'000;  // a long wait inside a dense stretch
    tl.rows[1].events.push_back(e);
  }
  for (auto &row : tl.rows)
    for (const auto &e : row.events) row.max_duration = std::max(row.max_duration, e.end - e.start);
  tl.begin = 0;
  tl.end = 3 * kEvents;
  WaveTimelineModel model;
  model.set_timeline(&tl);
  const WaveTimelinePainter painter(model);
  QImage image(1600, 500, QImage::Format_RGB32);
  QPainter p(&image);
  TimelineFrame frame;
  frame.size = image.size();
  frame.t0 = 0;
  frame.t1 = 3.0 * kEvents;
  const auto all = painter.paint(p, frame);
  const double width = WaveTimelinePainter::plot_rect(frame.size).width();
  CHECK(all.items() <= static_cast<std::size_t>(2 * 2 * width));
  CHECK(all.columns > 0);
  CHECK(all.bars >= 1);  // the barrier is wide enough to be drawn on its own

  frame.t0 = 1'500'000;  // a window of about 400 events per row
  frame.t1 = 1'501'200;
  const auto zoomed = painter.paint(p, frame);
  CHECK(zoomed.bars >= 2 * 390);
  CHECK(zoomed.items() <= 2 * 402 + 10);
}
