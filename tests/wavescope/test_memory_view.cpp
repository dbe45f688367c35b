// The memory view: the buffer model against libtrace's profile (QAbstractItemModelTester), the
// graph's hit-testing and drawing counts, the buffer inspector (dtype, size, lifetime, users) and
// the links between a buffer's users and the timeline, both ways; screenshots.

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QImage>
#include <QTest>

#include <array>

#include "app/document_loader.hpp"
#include "app/selection.hpp"
#include "app/workspace.hpp"
#include "gui_test_app.hpp"
#include "models/memory_model.hpp"
#include "models/profile_track_model.hpp"
#include "screenshot_check.hpp"
#include "testdata.hpp"
#include "views/memory_graph_widget.hpp"
#include "views/memory_view.hpp"
#include "views/profile_timeline_view.hpp"
#include "views/profile_timeline_widget.hpp"
#include "wavescope/trace/profile/memory_layout.hpp"
#include "wavescope/trace/profile/open_profile.hpp"

using namespace wavescope::gui;
using wavescope::testing::check_screenshot;
namespace tp = wavescope::trace::profile;

namespace {

constexpr std::array kCpuWorkloads{"elementwise", "matmul_relu_sum", "softmax"};

// A workspace with one document and the two profile views over one selection.
struct Views {
  Workspace workspace;
  Selection selection;
  ProfileTimelineView timeline{workspace, selection};
  MemoryView memory{workspace, selection};
  explicit Views(const std::filesystem::path &file) {
    workspace.add(load_document(QString::fromStdString(file.string())));
    for (QWidget *w : {static_cast<QWidget *>(&timeline), static_cast<QWidget *>(&memory)}) {
      w->resize(1400, 900);
      w->show();
    }
    QApplication::processEvents();
    memory.graph().reset();
  }
};

}  // namespace

TEST_CASE("memory model: one row per memory track, its buffers as children, as the library") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  std::size_t tracks = 0, buffers = 0;
  for (const std::string name : kCpuWorkloads) {
    INFO(name);
    const tp::Profile p = tp::open_profile(root / name / "profile.pkl");
    MemoryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.set_profile(&p);
    REQUIRE(model.rowCount() == 2);  // CPU Memory, PYTHON Memory
    for (int m = 0; m < model.rowCount(); ++m) {
      const tp::Track &track = p.tracks[static_cast<std::size_t>(model.profile_track(m))];
      CHECK(track.kind == tp::TrackKind::Memory);
      const QModelIndex row = model.index(m, 0);
      CHECK(model.data(row).toString().toStdString() == track.name);
      CHECK(model.data(row, MemoryModel::BytesRole).toULongLong() == tp::layout_memory(track).peak);
      REQUIRE(model.rowCount(row) == static_cast<int>(track.buffers.size()));
      for (int b = 0; b < model.rowCount(row); ++b) {
        const tp::Buffer &buf = track.buffers[static_cast<std::size_t>(b)];
        CHECK(model.data(model.index(b, MemoryModel::DtypeColumn, row)).toString().toStdString() ==
              buf.dtype);
        CHECK(model.data(model.index(b, 0, row), MemoryModel::BytesRole).toULongLong() ==
              buf.bytes());
        CHECK(model.data(model.index(b, MemoryModel::UsersColumn, row)).toInt() ==
              static_cast<int>(buf.users.size()));
        CHECK(model.index_of(model.profile_track(m), b) == model.index(b, 0, row));
        ++buffers;
      }
      ++tracks;
    }
  }
  CHECK(tracks == 6);
  CHECK(buffers == 8 + 3 + 9 + 3 + 7 + 3);
}

TEST_CASE("memory model: sizes and times read in units") {
  CHECK(format_bytes(0) == "0 B");
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(16384) == "16.4 kB");
  CHECK(format_bytes(33312) == "33.3 kB");
  CHECK(format_bytes(1.5e9) == "1.50 GB");
  CHECK(format_bytes(5000, 5000) == "5 kB");
  CHECK(format_bytes(0, 5000) == "0 B");
  CHECK(format_bytes(2500, 500) == "2.5 kB");
}

TEST_CASE("memory view: clicking a band selects its buffer and the inspector shows its users") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/softmax/profile.pkl");
  Views v(file);
  MemoryGraphWidget &graph = v.memory.graph();
  MemoryModel &model = v.memory.model();
  REQUIRE(model.track_count() == 2);
  // The first-drawn graph is the device with the largest peak (CPU Memory, 33.3 kB).
  const int cpu = 0;
  REQUIRE(model.track(cpu).name == "CPU Memory");
  // The buffer with the most users: click the middle of its band.
  int target = -1;
  std::size_t most = 0;
  for (std::size_t b = 0; b < model.track(cpu).buffers.size(); ++b)
    if (model.track(cpu).buffers[b].users.size() > most) {
      most = model.track(cpu).buffers[b].users.size();
      target = static_cast<int>(b);
    }
  REQUIRE(most > 1);
  const QPointF at = graph.point_of({cpu, target});
  REQUIRE(at.x() > MemoryGraphWidget::kGutter);
  CHECK(graph.buffer_at(at) == MemoryGraphWidget::BufferRef{cpu, target});
  QTest::mouseClick(&graph, Qt::LeftButton, {}, at.toPoint());
  REQUIRE(graph.selected() == MemoryGraphWidget::BufferRef{cpu, target});
  const tp::Buffer &b = model.track(cpu).buffers[static_cast<std::size_t>(target)];
  const QString text = v.memory.inspector_text();
  INFO(text.toStdString());
  CHECK(text.contains("DType"));
  CHECK(text.contains(QString::fromStdString(b.dtype)));
  CHECK(text.contains(format_bytes(static_cast<double>(b.bytes()))));
  CHECK(text.contains("Lifetime"));
  CHECK(text.contains(format_time(static_cast<double>(b.freed - b.allocated))));
  for (const tp::BufferUser &u : b.users)
    CHECK(text.contains(
        QStringLiteral("%1@data%2").arg(QLatin1String(tp::to_string(u.mode))).arg(u.argument)));
  CHECK(text.contains(QString::fromStdString(tp::plain_text(b.users.front().kernel))));
  // The shared selection holds the buffer.
  CHECK(v.selection.profile_item().is_buffer());
  CHECK(v.selection.profile_item().buffer == target);
  CHECK(v.selection.profile_item().track == model.profile_track(cpu));
  // The graph drew every buffer alive in the window.
  const QImage frame = graph.grab().toImage();
  CHECK(!frame.isNull());
  std::size_t in_window = 0;
  for (int m = 0; m < model.track_count(); ++m)
    for (const tp::Buffer &x : model.track(m).buffers)
      in_window += x.freed > x.allocated && static_cast<double>(x.freed) >= graph.window_start() &&
                   static_cast<double>(x.allocated) <= graph.window_end();
  CHECK(graph.last_drawn_bands() == in_window);
  CHECK(graph.last_drawn_segments() >= in_window);
  // Keys: `.` moves to the next buffer, Esc clears.
  QTest::keyClick(&graph, Qt::Key_Period);
  CHECK(graph.selected()->buffer ==
        std::min<int>(target + 1, static_cast<int>(model.track(cpu).buffers.size()) - 1));
  QTest::keyClick(&graph, Qt::Key_Escape);
  CHECK_FALSE(graph.selected());
}

TEST_CASE("memory view: a CPU kernel without a span links to the moment it ran in the timeline") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/matmul_relu_sum/profile.pkl");
  Views v(file);
  const tp::Profile &p = *v.memory.model().profile();
  MemoryModel &model = v.memory.model();
  int linked = 0;
  for (int m = 0; m < model.track_count(); ++m)
    for (std::size_t b = 0; b < model.track(m).buffers.size(); ++b) {
      const tp::Buffer &buf = model.track(m).buffers[b];
      if (buf.users.empty()) continue;
      v.memory.graph().select_buffer({m, static_cast<int>(b)});
      v.memory.open_user(0);
      const int x = tp::execution_of(p, buf.users.front().exec);
      REQUIRE(x >= 0);
      const qint64 when = p.executions[static_cast<std::size_t>(x)].time;
      CHECK(v.selection.profile_item().time == when);
      REQUIRE(v.timeline.timeline().marked_time());
      CHECK(*v.timeline.timeline().marked_time() == static_cast<double>(when));
      CHECK(v.timeline.timeline().window_start() <= static_cast<double>(when));
      CHECK(v.timeline.timeline().window_end() >= static_cast<double>(when));
      CHECK(v.timeline.inspector_text().contains(
          QString::fromStdString(tp::plain_text(buf.users.front().kernel)).simplified()));
      ++linked;
    }
  CHECK(linked > 3);
}

TEST_CASE("memory view: on a GPU profile a buffer's user selects its kernel span and back") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/amd-sqtt/gfx1100_gemm.pkl");
  Views v(file);
  MemoryModel &model = v.memory.model();
  const tp::Profile &p = *model.profile();
  REQUIRE(model.track_count() >= 1);
  const int m = 0;
  REQUIRE(model.track(m).name == "AMD Memory");
  int b = -1;
  for (std::size_t i = 0; i < model.track(m).buffers.size(); ++i)
    if (!model.track(m).buffers[i].users.empty()) b = static_cast<int>(i);
  REQUIRE(b >= 0);
  v.memory.graph().select_buffer({m, b});
  v.memory.open_user(0);
  const auto spans = tp::spans_of_users(p, model.track(m).buffers[static_cast<std::size_t>(b)]);
  REQUIRE(spans.front().track >= 0);
  const auto sel = v.timeline.timeline().selected();
  REQUIRE(sel);
  CHECK(sel->track == spans.front().track);
  CHECK(sel->span == spans.front().span);
  // The span's inspector lists the buffers the run used, the clicked one among them.
  const QString text = v.timeline.inspector_text();
  INFO(text.toStdString());
  CHECK(text.contains("Buffers"));
  CHECK(text.contains(
      QStringLiteral("buffer %1").arg(model.track(m).buffers[static_cast<std::size_t>(b)].key)));
  // Back: another buffer of the run, chosen through the selection as the inspector link does.
  const tp::SpanDetails *d = p.details(
      p.tracks[static_cast<std::size_t>(sel->track)].spans[static_cast<std::size_t>(sel->span)]);
  REQUIRE(d);
  REQUIRE(d->exec);
  const auto used = tp::buffers_of_run(p, *d->exec);
  REQUIRE(used.size() >= 2);
  ProfileItem item;
  item.document = 0;
  item.track = used.back().track;
  item.buffer = used.back().buffer;
  v.selection.select_profile_item(item);
  REQUIRE(v.memory.graph().selected());
  CHECK(v.memory.graph().selected()->buffer == used.back().buffer);
  CHECK(model.profile_track(v.memory.graph().selected()->track) == used.back().track);
}

TEST_CASE("screenshot of the memory view on tinygrad profiles and the demo") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  for (const std::string name : kCpuWorkloads)
    check_screenshot({(root / name / "profile.pkl").string()}, "memory", name + "-memory");
  check_screenshot({(root / "amd-sqtt" / "gfx1100_gemm.pkl").string()}, "memory",
                   "gfx1100_gemm-memory");
  check_screenshot({}, "memory", "demo-memory");
}
