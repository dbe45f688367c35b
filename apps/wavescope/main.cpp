// wavescope: the desktop visualizer.
//
//   wavescope [PATH...]                         open files or capture folders (default: the demo)
//   wavescope [PATH] --screenshot OUT.png [--view NAME] [--select TEXT]
//                                               render one view offscreen, save it, exit
//   wavescope --view flash --device sim:NAME [--sim-root DIR]
//                                               the flash recovery panel on a board

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "app/main_window.hpp"
#include "app/theme.hpp"
#include "wavescope/base/version.hpp"

int main(int argc, char **argv) {
  // Screenshots render offscreen: choose the platform before Qt starts.
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--screenshot") == 0 && !std::getenv("QT_QPA_PLATFORM"))
      setenv("QT_QPA_PLATFORM", "offscreen", 1);

  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("wavescope"));
  QApplication::setOrganizationName(QStringLiteral("wavescope"));
  QApplication::setApplicationVersion(QString::fromUtf8(wavescope::kVersion));
  wavescope::gui::theme::apply(app);

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("wavescope: wave timelines, instruction timing, ISA, CFG, counters and "
                     "rewrite traces for AMD GPUs"));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(
      QStringLiteral("path"),
      QStringLiteral(
          "Code object, capture folder, tinygrad profile.pkl (with SQTT: a capture), tinygrad "
          "rewrites.pkl or rewrite trace (.json), symbolic case file (.jsonl)"),
      QStringLiteral("[PATH...]"));
  QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                QStringLiteral("Render offscreen, save to FILE and exit"),
                                QStringLiteral("FILE"));
  QCommandLineOption view(QStringLiteral("view"), QStringLiteral("The view to show"),
                          QStringLiteral("NAME"));
  QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Window size, e.g. 1600x1000"),
                          QStringLiteral("WxH"), QStringLiteral("1600x1000"));
  QCommandLineOption target(QStringLiteral("target"),
                            QStringLiteral("Processor for code objects whose header names none "
                                           "(e.g. gfx1201 for tinygrad packer ELFs)"),
                            QStringLiteral("GFX"));
  QCommandLineOption device(QStringLiteral("device"),
                            QStringLiteral("Board for the flash panel: usb:N, pci:BDF, sim:NAME or "
                                           "sim-pci:NAME (probed at start, read-only)"),
                            QStringLiteral("SPEC"));
  QCommandLineOption sim_root(
      QStringLiteral("sim-root"),
      QStringLiteral("Directory of simulated boards (default "
                     "$WAVESCOPE_SIM_ROOT, else $XDG_DATA_HOME/wavescope/sim)"),
      QStringLiteral("DIR"));
  QCommandLineOption select(QStringLiteral("select"),
                            QStringLiteral("Select the first navigator item whose text starts "
                                           "with TEXT (e.g. \"View Source\")"),
                            QStringLiteral("TEXT"));
  parser.addOptions({screenshot, view, size, target, device, sim_root, select});
  parser.process(app);

  wavescope::gui::MainWindow window;
  const QStringList wh = parser.value(size).split('x');
  if (wh.size() == 2) window.resize(wh[0].toInt(), wh[1].toInt());
  const bool screenshot_mode = parser.isSet(screenshot);
  window.set_interactive(!screenshot_mode);

  window.set_open_options({parser.value(target)});
  const QStringList paths = parser.positionalArguments();
  // A board named on the command line is what the user came for: no demo beside it.
  if (paths.isEmpty() && !parser.isSet(device)) window.open_demo();
  for (const QString &path : paths) window.open_path(path);
  if (parser.isSet(device)) window.open_flash_device(parser.value(device), parser.value(sim_root));

  if (parser.isSet(view) && !window.show_view(parser.value(view))) {
    std::fprintf(stderr, "error: no view named '%s' (views: %s)\n", qPrintable(parser.value(view)),
                 qPrintable(window.view_names().join(", ")));
    return 2;
  }
  window.show();
  if (!screenshot_mode) return app.exec();

  window.wait_until_idle();
  if (!window.errors().isEmpty()) {
    for (const QString &e : window.errors()) std::fprintf(stderr, "error: %s\n", qPrintable(e));
    return 3;
  }
  if (parser.isSet(select) && !window.select_item(parser.value(select))) {
    std::fprintf(stderr, "error: no navigator item starts with '%s'\n",
                 qPrintable(parser.value(select)));
    return 2;
  }
  if (parser.isSet(view)) window.show_view(parser.value(view));
  window.wait_until_idle();
  QApplication::processEvents();
  const QString out = parser.value(screenshot);
  if (!window.grab().save(out)) {
    std::fprintf(stderr, "error: cannot write screenshot %s\n", qPrintable(out));
    return 1;
  }
  std::printf("wrote %s\n", qPrintable(out));
  return 0;
}

// Under LeakSanitizer: Graphviz 2.43's dot layout keeps an allocation it never frees, and
// fontconfig caches fonts for the process; neither is ours to free.
extern "C" const char *__lsan_default_suppressions() {
  return "leak:libgvc.so\nleak:libfontconfig.so\n";
}
