#pragma once
// One of VIZ's view steps after a kernel's linearize/render, shown in place of the rewrite graph:
// the linearized UOp list, the rendered source (C or LLVM IR) or the code object's disassembly,
// as highlighted read-only text on VIZ's dark code panel, under a title line saying what it is.

#include <QWidget>

#include <optional>

#include "app/selection.hpp"
#include "views/source_highlighter.hpp"

class QLabel;
class QPlainTextEdit;

namespace wavescope::gui {

class ProgramPageView : public QWidget {
  Q_OBJECT
public:
  explicit ProgramPageView(QWidget *parent = nullptr);

  // Shows `text` (or, when it is absent, VIZ's "No source found" words in `missing`) as `page`
  // of the kernel `kernel`.
  void show_page(ProgramPage page, const QString &kernel, const std::optional<QString> &text,
                 const QString &missing);

  ProgramPage page() const { return page_; }
  QString text() const;
  SourceLanguage language() const { return highlighter_->language(); }
  QPlainTextEdit &editor() { return *text_; }

private:
  QLabel *title_;
  QPlainTextEdit *text_;
  SourceHighlighter *highlighter_;
  ProgramPage page_ = ProgramPage::None;
};

// "View UOp List", "View Source", "View Disassembly"; empty for None.
QString program_page_name(ProgramPage page);

}  // namespace wavescope::gui
