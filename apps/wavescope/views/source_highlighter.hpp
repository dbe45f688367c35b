#pragma once
// Colors the texts of VIZ's program view steps in Tokyo Night, as VIZ's code blocks: a kernel's
// rendered C (keywords, types including vector types such as float4, hex float literals,
// comments, preprocessor lines), LLVM IR (instructions, types, %values, @globals, metadata,
// labels), an AMDGPU disassembly listing (mnemonics, registers, constants, comments) and a
// linearized UOp list (ops, dtypes).

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <vector>

namespace wavescope::gui {

enum class SourceLanguage { C, LlvmIr, Assembly, UOpList };

// The language of a rendered program: LLVM IR when it reads as a module (a `define` line or a
// ModuleID comment), else C.
SourceLanguage source_language(const QString &text);

class SourceHighlighter : public QSyntaxHighlighter {
public:
  explicit SourceHighlighter(QTextDocument *document, SourceLanguage language = SourceLanguage::C);

  SourceLanguage language() const { return language_; }
  // Switches the rules and colors the document again.
  void set_language(SourceLanguage language);

protected:
  void highlightBlock(const QString &text) override;

private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
    int group = 0;  // the capture group colored (0: the whole match)
  };
  void add(const QString &pattern, const QTextCharFormat &format, int group = 0);
  SourceLanguage language_;
  std::vector<Rule> rules_;
};

}  // namespace wavescope::gui
