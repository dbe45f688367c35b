#include "views/source_highlighter.hpp"

#include <QColor>
#include <QFont>

namespace wavescope::gui {
namespace {

QTextCharFormat char_format(const QColor &color, bool bold = false) {
  QTextCharFormat f;
  f.setForeground(color);
  if (bold) f.setFontWeight(QFont::Bold);
  return f;
}

}  // namespace

SourceHighlighter::SourceHighlighter(QTextDocument *document) : QSyntaxHighlighter(document) {
  // Tokyo Night, as VIZ's code blocks.
  rules_.push_back({QRegularExpression(QStringLiteral(
                        R"(\b(typedef|struct|union|if|else|for|while|do|return|break|continue|)"
                        R"(switch|case|default|static|inline|extern|const|restrict|volatile|)"
                        R"(__attribute__|sizeof|goto|kernel|__kernel|__global__|extern)\b)")),
                    char_format(QColor(0xbb, 0x9a, 0xf7), true)});
  rules_.push_back({QRegularExpression(QStringLiteral(
                        R"(\b(void|bool|_Bool|char|short|int|long|unsigned|signed|float|double|)"
                        R"(half|__fp16|__bf16|bfloat16|size_t|u?int(8|16|32|64)_t|)"
                        R"((unsigned_)?(char|short|int|long|float|half|double|bool)[0-9]+)\b)")),
                    char_format(QColor(0xff, 0x9e, 0x64))});
  rules_.push_back({QRegularExpression(QStringLiteral(R"(\b[A-Za-z_]\w*(?=\())")),
                    char_format(QColor(0x7a, 0xa2, 0xf7), true)});
  rules_.push_back({QRegularExpression(QStringLiteral(
                        R"(\b(0x[0-9a-fA-F]+|[0-9]+\.?[0-9]*([eE][-+]?[0-9]+)?)[uUlLfF]*\b)")),
                    char_format(QColor(0xff, 0x9e, 0x64))});
  rules_.push_back({QRegularExpression(QStringLiteral(R"("([^"\\]|\\.)*")")),
                    char_format(QColor(0x9e, 0xce, 0x6a))});
  rules_.push_back(
      {QRegularExpression(QStringLiteral(R"(^\s*#.*$)")), char_format(QColor(0x7d, 0xcf, 0xff))});
  rules_.push_back(
      {QRegularExpression(QStringLiteral(R"(//.*$)")), char_format(QColor(0x56, 0x5f, 0x89))});
}

void SourceHighlighter::highlightBlock(const QString &text) {
  for (const Rule &rule : rules_) {
    auto it = rule.pattern.globalMatch(text);
    while (it.hasNext()) {
      const auto m = it.next();
      setFormat(static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()),
                rule.format);
    }
  }
}

}  // namespace wavescope::gui
