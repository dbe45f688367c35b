#include "views/isa_tokens.hpp"

#include <QRegularExpression>

namespace wavescope::gui {
namespace {

const QRegularExpression &register_pattern() {
  // s0, v12, a3, ttmp4, s[4:7], v[1:2], a[0:15], ttmp[4:5]
  static const QRegularExpression re(QStringLiteral(R"(^(ttmp|s|v|a)(?:(\d+)|\[(\d+):(\d+)\])$)"));
  return re;
}

bool is_special_register(const QString &t) {
  static const QStringList names = {QStringLiteral("vcc"),
                                    QStringLiteral("vcc_lo"),
                                    QStringLiteral("vcc_hi"),
                                    QStringLiteral("exec"),
                                    QStringLiteral("exec_lo"),
                                    QStringLiteral("exec_hi"),
                                    QStringLiteral("m0"),
                                    QStringLiteral("scc"),
                                    QStringLiteral("null"),
                                    QStringLiteral("flat_scratch"),
                                    QStringLiteral("flat_scratch_lo"),
                                    QStringLiteral("flat_scratch_hi"),
                                    QStringLiteral("off")};
  return names.contains(t);
}

bool is_number(const QString &t) {
  static const QRegularExpression re(
      QStringLiteral(R"(^-?(0x[0-9a-fA-F]+|\d+(\.\d+)?(e[-+]?\d+)?)$)"));
  return re.match(t).hasMatch();
}

IsaToken classify(const QString &text, int start, bool first) {
  IsaToken token;
  token.start = start;
  token.length = static_cast<int>(text.size());
  token.text = text;
  if (first) {
    token.kind = IsaToken::Kind::Mnemonic;
    return token;
  }
  if (const auto m = register_pattern().match(text); m.hasMatch()) {
    token.kind = IsaToken::Kind::Register;
    token.register_file = m.captured(1);
    token.first = m.captured(2).isEmpty() ? m.captured(3).toInt() : m.captured(2).toInt();
    token.last = m.captured(2).isEmpty() ? m.captured(4).toInt() : token.first;
  } else if (is_special_register(text)) {
    token.kind = IsaToken::Kind::Register;
    token.register_file = text == "vcc_lo" || text == "vcc_hi"     ? QStringLiteral("vcc")
                          : text == "exec_lo" || text == "exec_hi" ? QStringLiteral("exec")
                                                                   : text;
  } else if (is_number(text)) {
    token.kind = IsaToken::Kind::Number;
  } else if (text.contains(':') || text.contains('(')) {
    token.kind = IsaToken::Kind::Modifier;  // offset:16, lgkmcnt(0), instid0(VALU_DEP_1)
  }
  return token;
}

}  // namespace

QVector<IsaToken> tokenize_instruction(const QString &text) {
  QVector<IsaToken> tokens;
  int i = 0;
  const int n = static_cast<int>(text.size());
  bool first = true;
  while (i < n) {
    const QChar c = text[i];
    if (c.isSpace()) {
      ++i;
      continue;
    }
    if (c == ',' || c == '|') {
      IsaToken p;
      p.kind = IsaToken::Kind::Punctuation;
      p.start = i;
      p.length = 1;
      p.text = QString(c);
      tokens.push_back(p);
      ++i;
      continue;
    }
    // A token runs to the next space or comma, keeping brackets and parentheses whole.
    int j = i, depth = 0;
    while (j < n) {
      const QChar d = text[j];
      if (d == '[' || d == '(') ++depth;
      if (d == ']' || d == ')') --depth;
      if (depth <= 0 && (d.isSpace() || d == ',')) break;
      ++j;
    }
    const QString word = text.mid(i, j - i);
    // "::" separates the two halves of a VOPD dual instruction; the next word is a mnemonic.
    if (word == QStringLiteral("::")) {
      IsaToken p;
      p.kind = IsaToken::Kind::Punctuation;
      p.start = i;
      p.length = 2;
      p.text = word;
      tokens.push_back(p);
      first = true;
    } else {
      tokens.push_back(classify(word, i, first));
      first = false;
    }
    i = j;
  }
  return tokens;
}

bool registers_overlap(const IsaToken &a, const IsaToken &b) {
  if (a.kind != IsaToken::Kind::Register || b.kind != IsaToken::Kind::Register) return false;
  if (a.register_file != b.register_file) return false;
  return a.first <= b.last && b.first <= a.last;
}

}  // namespace wavescope::gui
