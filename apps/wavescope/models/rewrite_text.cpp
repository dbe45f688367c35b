#include "models/rewrite_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <variant>

#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/symbolic/expression.hpp"

namespace wavescope::gui {

using compiler::Int;
using compiler::Op;
using compiler::UOp;

namespace {

QString qs(const std::string &s) { return QString::fromStdString(s); }

QString int_text(Int v) {
  if (v >= compiler::kIntInfinity) return QStringLiteral("inf");
  if (v <= -compiler::kIntInfinity) return QStringLiteral("-inf");
  return qs(compiler::to_string(v));
}

QString elide_middle(const QString &text, int max_chars) {
  if (max_chars <= 0 || text.size() <= max_chars) return text;
  const int keep = std::max(1, max_chars - 1);
  return text.left(keep - keep / 2) + QChar(0x2026) + text.right(keep / 2);
}

}  // namespace

QString arg_text(const UOp &node) {
  const compiler::Arg &arg = node.arg();
  if (compiler::is_none(arg)) return {};
  if (std::holds_alternative<compiler::InvalidValue>(arg)) return QStringLiteral("invalid");
  if (const auto *p = std::get_if<compiler::ParamArg>(&arg)) {
    QString text = p->name.empty() ? QStringLiteral("slot %1").arg(p->slot) : qs(p->name);
    if (p->bounds &&
        (compiler::is_finite(p->bounds->first) || compiler::is_finite(p->bounds->second)))
      text += QStringLiteral(" \u2208 [%1, %2]")
                  .arg(int_text(p->bounds->first), int_text(p->bounds->second));
    if (p->multiple_of != 1) text += QStringLiteral(" \u00d7%1").arg(int_text(p->multiple_of));
    if (p->addrspace != compiler::AddrSpace::Alu)
      text += QStringLiteral(" \u00b7 %1").arg(qs(std::string(to_string(p->addrspace))));
    return text;
  }
  if (const auto *r = std::get_if<compiler::RangeArg>(&arg)) {
    const QString type = qs(std::string(to_string(r->type)));
    const QString name = qs(compiler::node_name(node));
    return QStringLiteral("%1 \u00b7 %2 \u00b7 axis %3").arg(name, type).arg(r->axis);
  }
  if (const auto *t = std::get_if<compiler::DType>(&arg))
    return QStringLiteral("\u2192 %1").arg(qs(to_string(*t)));
  if (const auto *s = std::get_if<std::string>(&arg)) return elide_middle(qs(*s), 60);
  if (const auto *f = std::get_if<compiler::FloatValue>(&arg))
    return qs(fmt::format("{}", f->value));
  return elide_middle(qs(compiler::to_string(arg)), 60);
}

QString dtype_text(compiler::DType dtype) {
  if (dtype == compiler::dtypes::void_) return {};
  return qs(to_string(dtype));
}

QString bounds_text(const UOp &node) {
  using namespace compiler;
  if (node.op() == Op::CONST || node.op() == Op::PARAM || node.op() == Op::BUFFER) return {};
  const DType t = node.dtype();
  if (t.is_pointer() || t.is_vector() || !(is_int(t) || is_bool(t))) return {};
  const Int lo = node.vmin(), hi = node.vmax();
  if (!is_finite(lo) && !is_finite(hi)) return {};
  if (is_bool(t) && lo == 0 && hi == 1) return {};  // says nothing; [0, 0] or [1, 1] would
  if (is_sized_int(t) && lo == dtype_min(t) && hi == dtype_max(t)) return {};
  return QStringLiteral("[%1, %2]").arg(int_text(lo), int_text(hi));
}

std::size_t ExpressionTexts::tree_size(const UOp &node) {
  if (auto it = sizes_.find(node.get()); it != sizes_.end()) return it->second;
  // Iterative post-order, saturating: shared nodes count once per use, as printing repeats them.
  std::vector<std::pair<UOp, bool>> stack{{node, false}};
  while (!stack.empty()) {
    auto [u, expanded] = stack.back();
    stack.pop_back();
    if (sizes_.count(u.get())) continue;
    if (!expanded) {
      stack.emplace_back(u, true);
      for (const UOp &s : u.src())
        if (!sizes_.count(s.get())) stack.emplace_back(s, false);
      continue;
    }
    std::size_t size = 1;
    for (const UOp &s : u.src()) size = std::min(kMaxTreeSize + 1, size + sizes_.at(s.get()));
    sizes_.emplace(u.get(), size);
  }
  return sizes_.at(node.get());
}

QString ExpressionTexts::text(const UOp &node, int max_chars) {
  if (tree_size(node) > kMaxTreeSize) return {};
  auto it = texts_.find(node.get());
  if (it == texts_.end())
    it = texts_.emplace(node.get(), qs(compiler::symbolic::render_expression(node))).first;
  return elide_middle(it->second, max_chars);
}

QStringList node_lines(const UOp &root, int max_lines) {
  QStringList lines;
  if (!root) return lines;
  ExpressionTexts expressions;
  // Variables and other leaves first, by name, so that they pair up in a diff however the
  // graphs order them; then the rest sources first.
  std::vector<UOp> order = compiler::toposort(root);
  std::stable_partition(order.begin(), order.end(), [](const UOp &u) { return u.src().empty(); });
  const auto leaves_end =
      std::find_if(order.begin(), order.end(), [](const UOp &u) { return !u.src().empty(); });
  std::stable_sort(order.begin(), leaves_end, [](const UOp &a, const UOp &b) {
    return compiler::node_name(a) < compiler::node_name(b);
  });
  for (const UOp &u : order) {
    if (u.op() == Op::CONST && !(u == root)) continue;
    if (static_cast<int>(lines.size()) >= max_lines) {
      lines << QStringLiteral("\u2026 (%1 lines shown)").arg(max_lines);
      break;
    }
    QString line = qs(std::string(to_string(u.op())));
    if (const QString dtype = dtype_text(u.dtype()); !dtype.isEmpty()) line += ' ' + dtype;
    QString what = u.src().empty() ? arg_text(u) : expressions.text(u, 90);
    if (what.isEmpty()) what = QStringLiteral("(%1 sources)").arg(u.size());
    line += QStringLiteral("  ") + what;
    if (const QString bounds = bounds_text(u); !bounds.isEmpty())
      line += QStringLiteral("  ") + bounds;
    lines << line;
  }
  return lines;
}

std::vector<DiffLine> diff_lines(const QStringList &before, const QStringList &after) {
  const std::size_t n = static_cast<std::size_t>(before.size());
  const std::size_t m = static_cast<std::size_t>(after.size());
  // lcs[i][j]: the longest common subsequence of before[i..] and after[j..].
  std::vector<std::vector<std::uint32_t>> lcs(n + 1, std::vector<std::uint32_t>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      lcs[i][j] = before[static_cast<qsizetype>(i)] == after[static_cast<qsizetype>(j)]
                      ? lcs[i + 1][j + 1] + 1
                      : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<DiffLine> out;
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[static_cast<qsizetype>(i)] == after[static_cast<qsizetype>(j)]) {
      out.push_back({DiffKind::Same, before[static_cast<qsizetype>(i)]});
      ++i, ++j;
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      out.push_back({DiffKind::Removed, before[static_cast<qsizetype>(i)]});
      ++i;
    } else {
      out.push_back({DiffKind::Added, after[static_cast<qsizetype>(j)]});
      ++j;
    }
  }
  return out;
}

QString diff_text(const std::vector<DiffLine> &lines) {
  QString text;
  for (const DiffLine &line : lines) {
    const QChar mark = line.kind == DiffKind::Removed ? '-'
                       : line.kind == DiffKind::Added ? '+'
                                                      : ' ';
    text += mark + line.text + '\n';
  }
  return text;
}

}  // namespace wavescope::gui
