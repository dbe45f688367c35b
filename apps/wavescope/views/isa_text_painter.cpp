#include "views/isa_text_painter.hpp"

#include <QFontMetricsF>

#include "app/theme.hpp"

namespace wavescope::gui {

QColor token_color(IsaToken::Kind kind, compiler::isa::InstCategory category) {
  switch (kind) {
  case IsaToken::Kind::Mnemonic: return theme::category_color(category);
  case IsaToken::Kind::Register: return QColor(0xd8, 0xdc, 0xe4);
  case IsaToken::Kind::Number: return QColor(0xf0, 0xa8, 0x6e);
  case IsaToken::Kind::Modifier: return QColor(0x9f, 0xa8, 0xc0);
  case IsaToken::Kind::Punctuation: return theme::muted_text();
  case IsaToken::Kind::Other: break;
  }
  return theme::text();
}

namespace {
bool token_matches(const IsaToken &token, const IsaToken &wanted) {
  if (wanted.kind == IsaToken::Kind::Register) return registers_overlap(token, wanted);
  return token.kind == wanted.kind && token.text == wanted.text;
}

IsaToken parse_wanted(const QString &highlight) {
  // A lone token classifies as a mnemonic when first; re-tokenize after a dummy mnemonic so a
  // register or number is recognised as such.
  const auto as_operand = tokenize_instruction(QStringLiteral("x ") + highlight);
  if (as_operand.size() == 2 && as_operand[1].kind == IsaToken::Kind::Register)
    return as_operand[1];
  IsaToken mnemonic;
  mnemonic.kind = IsaToken::Kind::Mnemonic;
  mnemonic.text = highlight;
  return mnemonic;
}
}  // namespace

bool instruction_uses(const QString &text, const QString &token) {
  if (token.isEmpty()) return false;
  const IsaToken wanted = parse_wanted(token);
  for (const auto &t : tokenize_instruction(text))
    if (token_matches(t, wanted)) return true;
  return false;
}

qreal paint_instruction(QPainter &painter, const QRectF &rect, const QString &text,
                        compiler::isa::InstCategory category, const IsaPaintOptions &options) {
  const QFontMetricsF metrics(painter.font());
  const qreal baseline = rect.top() + (rect.height() + metrics.ascent() - metrics.descent()) / 2;
  if (!options.search.isEmpty()) {
    for (qsizetype at = text.indexOf(options.search, 0, Qt::CaseInsensitive); at >= 0;
         at = text.indexOf(options.search, at + 1, Qt::CaseInsensitive)) {
      const qreal x0 = rect.left() + metrics.horizontalAdvance(text.left(at));
      const qreal w = metrics.horizontalAdvance(text.mid(at, options.search.size()));
      painter.fillRect(QRectF(x0, rect.top() + 1, w, rect.height() - 2), QColor(0x8a, 0x6d, 0x1c));
    }
  }
  const IsaToken wanted =
      options.highlight.isEmpty() ? IsaToken{} : parse_wanted(options.highlight);
  qreal x = rect.left();
  int drawn = 0;
  for (const auto &token : tokenize_instruction(text)) {
    if (token.start > drawn) x += metrics.horizontalAdvance(text.mid(drawn, token.start - drawn));
    const qreal w = metrics.horizontalAdvance(token.text);
    if (!options.highlight.isEmpty() && token_matches(token, wanted)) {
      painter.setPen(Qt::NoPen);
      painter.setBrush(QColor(0x3d, 0x6d, 0xb0));
      painter.drawRoundedRect(QRectF(x - 1, rect.top() + 1, w + 2, rect.height() - 2), 2, 2);
    }
    painter.setPen(token_color(token.kind, category));
    painter.drawText(QPointF(x, baseline), token.text);
    x += w;
    drawn = token.start + token.length;
  }
  return x;
}

QString token_at(const QString &text, const QFont &font, qreal x) {
  const QFontMetricsF metrics(font);
  for (const auto &token : tokenize_instruction(text)) {
    if (token.kind == IsaToken::Kind::Punctuation) continue;
    const qreal x0 = metrics.horizontalAdvance(text.left(token.start));
    const qreal x1 = x0 + metrics.horizontalAdvance(token.text);
    if (x >= x0 && x < x1) {
      if (token.kind == IsaToken::Kind::Register || token.kind == IsaToken::Kind::Mnemonic)
        return token.text;
      return {};
    }
  }
  return {};
}

}  // namespace wavescope::gui
