// The app-wide selection: focus history and PC/highlight signals.

#include <catch2/catch.hpp>

#include <QSignalSpy>

#include "app/selection.hpp"
#include "gui_test_app.hpp"

using namespace wavescope::gui;

TEST_CASE("focus moves keep a back/forward history") {
  wavescope::testing::gui_app();
  Selection selection;
  QSignalSpy spy(&selection, &Selection::focus_changed);
  Focus a, b, c;
  a.document = 0;
  b.document = 0, b.kernel = 1;
  c.document = 1;
  selection.set_focus(a);
  selection.set_focus(b);
  selection.set_focus(b);  // no change, no signal
  selection.set_focus(c);
  CHECK(spy.count() == 3);
  selection.back();
  CHECK(selection.focus() == b);
  selection.back();
  CHECK(selection.focus() == a);
  CHECK(selection.can_go_forward());
  selection.forward();
  CHECK(selection.focus() == b);
  selection.set_focus(a);  // a new move drops the forward history
  CHECK_FALSE(selection.can_go_forward());
}

TEST_CASE("a PC selection is announced once and cleared by a focus move") {
  wavescope::testing::gui_app();
  Selection selection;
  QSignalSpy spy(&selection, &Selection::pc_selected);
  selection.select_pc(0x1700);
  selection.select_pc(0x1700);
  CHECK(spy.count() == 1);
  Focus f;
  f.document = 2;
  selection.set_focus(f);
  CHECK_FALSE(selection.pc());
}

TEST_CASE("highlighting a token toggles") {
  wavescope::testing::gui_app();
  Selection selection;
  selection.toggle_highlight("s4");
  CHECK(selection.highlight() == "s4");
  selection.toggle_highlight("v1");
  CHECK(selection.highlight() == "v1");
  selection.toggle_highlight("v1");
  CHECK(selection.highlight().isEmpty());
}
