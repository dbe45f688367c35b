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

// Tokyo Night, as VIZ's code blocks.
const QColor kKeyword(0xbb, 0x9a, 0xf7);
const QColor kType(0xff, 0x9e, 0x64);
const QColor kFunction(0x7a, 0xa2, 0xf7);
const QColor kNumber(0xff, 0x9e, 0x64);
const QColor kString(0x9e, 0xce, 0x6a);
const QColor kPreprocessor(0x7d, 0xcf, 0xff);
const QColor kValue(0x7d, 0xcf, 0xff);
const QColor kRegister(0x73, 0xda, 0xca);
const QColor kComment(0x56, 0x5f, 0x89);
const QColor kLabel(0xe0, 0xaf, 0x68);

}  // namespace

SourceLanguage source_language(const QString &text) {
  static const QRegularExpression module(QStringLiteral(R"((^|\n)(define|declare) |^; ModuleID)"));
  return module.match(text).hasMatch() ? SourceLanguage::LlvmIr : SourceLanguage::C;
}

SourceHighlighter::SourceHighlighter(QTextDocument *document, SourceLanguage language)
    : QSyntaxHighlighter(document), language_(language) {
  set_language(language);
}

void SourceHighlighter::add(const QString &pattern, const QTextCharFormat &format, int group) {
  rules_.push_back({QRegularExpression(pattern), format, group});
}

void SourceHighlighter::set_language(SourceLanguage language) {
  language_ = language;
  rules_.clear();
  // Later rules win where they overlap: numbers before names, comments last.
  switch (language) {
  case SourceLanguage::C:
    add(QStringLiteral(R"(\b(typedef|struct|union|if|else|for|while|do|return|break|continue|)"
                       R"(switch|case|default|static|inline|extern|const|restrict|volatile|)"
                       R"(__attribute__|sizeof|goto|kernel|__kernel|__global__|vector_size)\b)"),
        char_format(kKeyword, true));
    add(QStringLiteral(R"(\b(void|bool|_Bool|char|short|int|long|unsigned|signed|float|double|)"
                       R"(half|__fp16|__bf16|bfloat16|size_t|u?int(8|16|32|64)_t|)"
                       R"((unsigned_)?(char|short|int|long|float|half|double|bool)[0-9]+)\b)"),
        char_format(kType));
    add(QStringLiteral(R"(\b[A-Za-z_]\w*(?=\())"), char_format(kFunction, true));
    // decimal, hex and hex float literals (0x1.8p+3f), with their suffixes
    add(QStringLiteral(R"(\b(0x[0-9a-fA-F]*\.?[0-9a-fA-F]*([pP][-+]?[0-9]+)?|)"
                       R"([0-9]+\.?[0-9]*([eE][-+]?[0-9]+)?)[uUlLfF]*\b)"),
        char_format(kNumber));
    add(QStringLiteral(R"("([^"\\]|\\.)*")"), char_format(kString));
    add(QStringLiteral(R"(^\s*#.*$)"), char_format(kPreprocessor));
    add(QStringLiteral(R"(//.*$)"), char_format(kComment));
    break;
  case SourceLanguage::LlvmIr:
    add(QStringLiteral(
            R"(\b(define|declare|ret|br|label|phi|load|store|getelementptr|alloca|)"
            R"(add|sub|mul|sdiv|udiv|srem|urem|shl|lshr|ashr|and|or|xor|fneg|fadd|)"
            R"(fsub|fmul|fdiv|frem|icmp|fcmp|select|call|tail|insertelement|)"
            R"(extractelement|shufflevector|bitcast|sext|zext|trunc|fptosi|fptoui|)"
            R"(sitofp|uitofp|fpext|fptrunc|ptrtoint|inttoptr|addrspacecast|fence|)"
            R"(switch|unreachable|attributes|target|datalayout|triple|global|constant)\b)"),
        char_format(kKeyword, true));
    add(QStringLiteral(R"(\b(i1|i8|i16|i32|i64|i128|half|bfloat|float|double|ptr|void|x)\b)"),
        char_format(kType));
    add(QStringLiteral(R"(%[\w.$-]+)"), char_format(kValue));
    add(QStringLiteral(R"(@[\w.$-]+)"), char_format(kFunction, true));
    add(QStringLiteral(R"((?<![\w%@])-?\b([0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?|0x[0-9A-Fa-f]+)\b)"),
        char_format(kNumber));
    add(QStringLiteral(R"(^[\w.$-]+:)"), char_format(kLabel, true));
    add(QStringLiteral(R"((![\w.]+|#[0-9]+))"), char_format(kComment));
    add(QStringLiteral(R"("([^"\\]|\\.)*")"), char_format(kString));
    add(QStringLiteral(R"(;.*$)"), char_format(kComment));
    break;
  case SourceLanguage::Assembly:
    add(QStringLiteral(R"(\b(0x[0-9a-fA-F]+|-?[0-9]+(\.[0-9]+)?)\b)"), char_format(kNumber));
    add(QStringLiteral(R"(\b([svat]|ttmp)([0-9]+|\[[0-9]+:[0-9]+\])|)"
                       R"(\b(vcc|exec|flat_scratch)(_lo|_hi)?\b|\b(scc|m0|null|off)\b)"),
        char_format(kRegister));
    add(QStringLiteral(R"(^\s*[0-9a-f]+:\s+([a-z_][a-z0-9_]*))"), char_format(kKeyword, true), 1);
    add(QStringLiteral(R"(^\s*[0-9a-f]+:)"), char_format(kComment));
    add(QStringLiteral(R"(<[^>]+>:?)"), char_format(kLabel, true));
    add(QStringLiteral(R"((//|;).*$)"), char_format(kComment));
    break;
  case SourceLanguage::UOpList:
    add(QStringLiteral(R"(\b[0-9]+\b)"), char_format(kNumber));
    add(QStringLiteral(R"(\b(void|bool|index|u?int(8|16|32|64)|half|float|double|bfloat16)\b)"
                       R"(\S*)"),
        char_format(kType));
    add(QStringLiteral(R"(^\s*[0-9]+ ([A-Z_0-9]+))"), char_format(kKeyword, true), 1);
    break;
  }
  rehighlight();
}

void SourceHighlighter::highlightBlock(const QString &text) {
  for (const Rule &rule : rules_) {
    auto it = rule.pattern.globalMatch(text);
    while (it.hasNext()) {
      const auto m = it.next();
      if (m.capturedStart(rule.group) < 0) continue;
      setFormat(static_cast<int>(m.capturedStart(rule.group)),
                static_cast<int>(m.capturedLength(rule.group)), rule.format);
    }
  }
}

}  // namespace wavescope::gui
