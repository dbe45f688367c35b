#pragma once
// GUI tests share one offscreen QApplication, created on first use.

class QApplication;

namespace wavescope::testing {
QApplication &gui_app();
}
