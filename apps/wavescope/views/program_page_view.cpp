#include "views/program_page_view.hpp"

#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

#include "app/theme.hpp"

namespace wavescope::gui {

QString program_page_name(ProgramPage page) {
  switch (page) {
  case ProgramPage::UOpList: return QObject::tr("View UOp List");
  case ProgramPage::Source: return QObject::tr("View Source");
  case ProgramPage::Disassembly: return QObject::tr("View Disassembly");
  case ProgramPage::None: break;
  }
  return {};
}

ProgramPageView::ProgramPageView(QWidget *parent)
    : QWidget(parent), title_(new QLabel(this)), text_(new QPlainTextEdit(this)),
      highlighter_(new SourceHighlighter(text_->document())) {
  // VIZ's code panel: Tokyo Night's background and text.
  setStyleSheet(QStringLiteral("background: #1a1b26;"));
  title_->setTextFormat(Qt::PlainText);
  title_->setContentsMargins(12, 6, 12, 4);
  title_->setStyleSheet(QStringLiteral("color: #7a88cf; background: #16161e;"));
  text_->setReadOnly(true);
  text_->setLineWrapMode(QPlainTextEdit::NoWrap);
  text_->setFont(theme::monospace_font(10));
  text_->setFrameShape(QFrame::NoFrame);
  text_->setStyleSheet(
      QStringLiteral("QPlainTextEdit { background: #1a1b26; color: #c0caf5; padding: 8px; }"));
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(title_);
  layout->addWidget(text_, 1);
}

void ProgramPageView::show_page(ProgramPage page, const QString &kernel,
                                const std::optional<QString> &text, const QString &missing) {
  page_ = page;
  SourceLanguage language = SourceLanguage::C;
  QString what;
  switch (page) {
  case ProgramPage::UOpList:
    language = SourceLanguage::UOpList;
    what = tr("the linearized list the renderer walked");
    break;
  case ProgramPage::Disassembly:
    language = SourceLanguage::Assembly;
    what = tr("the compiled code object");
    break;
  case ProgramPage::Source:
  case ProgramPage::None:
    language = text ? source_language(*text) : SourceLanguage::C;
    what =
        language == SourceLanguage::LlvmIr ? tr("the rendered LLVM IR") : tr("the rendered source");
    break;
  }
  if (highlighter_->language() != language) highlighter_->set_language(language);
  text_->setPlainText(text ? *text : missing);
  const int lines = text ? text_->blockCount() : 0;
  title_->setText(tr("%1  \u00b7  %2 of %3%4")
                      .arg(program_page_name(page), what, kernel,
                           lines ? tr("  \u00b7  %1 lines").arg(lines) : QString()));
}

QString ProgramPageView::text() const { return text_->toPlainText(); }

}  // namespace wavescope::gui
