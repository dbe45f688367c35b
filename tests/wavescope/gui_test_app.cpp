#include "gui_test_app.hpp"

#include <QApplication>

#include <cstdlib>

#include "app/theme.hpp"

namespace wavescope::testing {

QApplication &gui_app() {
  static int argc = 1;
  static char name[] = "wavescope_tests";
  static char *argv[] = {name, nullptr};
  static QApplication *app = [] {
    setenv("QT_QPA_PLATFORM", "offscreen", 0);
    auto *a = new QApplication(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("wavescope-tests"));
    wavescope::gui::theme::apply(*a);
    return a;
  }();
  return *app;
}

}  // namespace wavescope::testing

// Under LeakSanitizer: Graphviz 2.43's dot layout keeps an allocation it never frees, and
// fontconfig caches fonts for the process; neither is ours to free.
extern "C" const char *__lsan_default_suppressions() {
  return "leak:libgvc.so\nleak:libfontconfig.so\n";
}
