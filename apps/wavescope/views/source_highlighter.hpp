#pragma once
// Colors a kernel's rendered C-like source as VIZ's source view does (keywords, types including
// vector types such as float4 and half4, numbers, strings, comments, preprocessor lines).

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <vector>

namespace wavescope::gui {

class SourceHighlighter : public QSyntaxHighlighter {
public:
  explicit SourceHighlighter(QTextDocument *document);

protected:
  void highlightBlock(const QString &text) override;

private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
  };
  std::vector<Rule> rules_;
};

}  // namespace wavescope::gui
