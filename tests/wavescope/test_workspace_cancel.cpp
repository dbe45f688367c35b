// Stopping an open in progress: Workspace::cancel_pending makes a pending capture load stop at its
// next progress report and end in open_cancelled (not open_failed, not a document); the main
// window's Cancel button beside the progress bar does the same.

#include <catch2/catch.hpp>

#include <memory>

#include <QApplication>
#include <QSemaphore>
#include <QSignalSpy>
#include <QThreadPool>
#include <QToolButton>

#include "app/main_window.hpp"
#include "app/workspace.hpp"
#include "gui_test_app.hpp"
#include "models/rewrite_navigation.hpp"
#include "testdata.hpp"
#include "views/rewrite_view.hpp"

using namespace wavescope::gui;

namespace {

// Holds the only worker thread of the global pool until release(), so that an open queued
// meanwhile starts only after the test has cancelled it.
class PoolBlocker {
public:
  PoolBlocker() : saved_(QThreadPool::globalInstance()->maxThreadCount()) {
    QThreadPool::globalInstance()->setMaxThreadCount(1);
    QThreadPool::globalInstance()->start([this] { gate_.acquire(); });
  }
  void release() { gate_.release(); }
  ~PoolBlocker() {
    QThreadPool::globalInstance()->waitForDone();
    QThreadPool::globalInstance()->setMaxThreadCount(saved_);
  }

private:
  QSemaphore gate_;
  int saved_;
};

}  // namespace

TEST_CASE("cancelling a pending open ends it in open_cancelled, with no document") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(capture, "sqtt/gfx1100/gemm");
  Workspace workspace;
  QSignalSpy added(&workspace, &Workspace::document_added);
  QSignalSpy failed(&workspace, &Workspace::open_failed);
  QSignalSpy cancelled(&workspace, &Workspace::open_cancelled);
  {
    PoolBlocker blocker;
    workspace.open(QString::fromStdString(capture.string()));
    CHECK(workspace.busy());
    workspace.cancel_pending();
    blocker.release();
    workspace.wait_until_idle();
  }
  CHECK(added.count() == 0);
  CHECK(failed.count() == 0);
  REQUIRE(cancelled.count() == 1);
  CHECK(cancelled.front().front().toString() == QString::fromStdString(capture.string()));
  CHECK(workspace.size() == 0);

  // The next open is not affected.
  workspace.open(QString::fromStdString(capture.string()));
  workspace.wait_until_idle();
  CHECK(added.count() == 1);
  CHECK(workspace.size() == 1);
}

TEST_CASE("a load stopped mid-way by its CancelToken is reported as cancelled") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(capture, "sqtt/gfx1100/gemm");
  Workspace workspace;
  QSignalSpy cancelled(&workspace, &Workspace::open_cancelled);
  QSignalSpy failed(&workspace, &Workspace::open_failed);
  // Cancel at the first progress report, in the loading thread (the GUI thread only waits), so the
  // load is under way when it meets the request at its next report.
  QObject::connect(
      &workspace, &Workspace::progress, &workspace, [&workspace] { workspace.cancel_pending(); },
      Qt::DirectConnection);
  workspace.open(QString::fromStdString(capture.string()));
  workspace.wait_until_idle();
  CHECK(failed.count() == 0);
  CHECK(cancelled.count() == 1);
  CHECK(workspace.size() == 0);
}

TEST_CASE("the main window shows a Cancel button while a file is opening") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(capture, "sqtt/gfx1100/gemm");
  MainWindow w;
  QToolButton *cancel = nullptr;
  for (auto *b : w.findChildren<QToolButton *>())
    if (b->text() == QObject::tr("Cancel")) cancel = b;
  REQUIRE(cancel);
  CHECK(cancel->isHidden());
  {
    PoolBlocker blocker;
    w.open_path(QString::fromStdString(capture.string()));
    QApplication::processEvents();
    CHECK_FALSE(cancel->isHidden());
    cancel->click();
    blocker.release();
    w.workspace().wait_until_idle();
  }
  CHECK(w.workspace().size() == 0);
  CHECK(cancel->isHidden());
}

TEST_CASE("a window closed while a rewrite graph lays out on a worker waits for it first") {
  // The worker reads the trace document, which the workspace (deleted before the views) owns:
  // the window must not let the documents go while a layout runs (under the asan preset a
  // use-after-free; in a plain build heap corruption that crashed later, now and then).
  WAVESCOPE_REQUIRE_TESTDATA(cases, "symbolic/dev.jsonl");
  wavescope::testing::gui_app();
  for (int round = 0; round < 3; ++round) {
    auto window = std::make_unique<MainWindow>();
    window->set_interactive(false);
    auto *view = window->findChild<RewriteView *>();
    REQUIRE(view);
    view->set_background_layout_threshold(100);
    window->open_path(QString::fromStdString(cases.string()));
    window->workspace().wait_until_idle();
    REQUIRE(window->workspace().size() == 1);
    window->selection().set_focus(focus_of(0, {20 + round, 0, 0}));  // a record not laid out yet
    CHECK(view->layout_pending());
    window.reset();
  }
}
