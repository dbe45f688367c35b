#include "models/rewrite_node_model.hpp"

#include "app/theme.hpp"
#include "models/rewrite_text.hpp"

namespace wavescope::gui {

QString mark_description(RewriteNodeMark mark) {
  switch (mark) {
  case RewriteNodeMark::Replacement: return QObject::tr("the rule's result");
  case RewriteNodeMark::Created: return QObject::tr("created by this step");
  case RewriteNodeMark::Rebuilt: return QObject::tr("rebuilt: a source was replaced");
  case RewriteNodeMark::Unchanged: break;
  }
  return QObject::tr("unchanged");
}

void RewriteNodeModel::set_node(const NodeFacts &facts) {
  beginResetModel();
  rows_.clear();
  if (const compiler::UOp &u = facts.node) {
    auto add = [this](const QString &property, const QString &value) {
      if (!value.isEmpty()) rows_.emplace_back(property, value);
    };
    add(tr("op"), QString::fromStdString(std::string(to_string(u.op()))));
    add(tr("dtype"), dtype_text(u.dtype()));
    add(tr("arg"), arg_text(u));
    add(tr("interval"), bounds_text(u));
    ExpressionTexts expressions;
    add(tr("expression"), expressions.text(u, 400));
    QStringList sources;
    for (const compiler::UOp &s : u.src()) {
      const QString arg = s.op() == compiler::Op::CONST ? arg_text(s) : QString();
      sources << QString::fromStdString(std::string(to_string(s.op()))) +
                     (arg.isEmpty() ? QString() : QStringLiteral(" ") + arg);
    }
    add(tr("sources"), sources.isEmpty() ? tr("none") : sources.join(QStringLiteral(", ")));
    add(tr("consumers"), QString::number(facts.consumers));
    add(tr("this step"), mark_description(facts.mark));
    if (!compiler::is_none(u.tag())) add(tr("tag"), QString::fromStdString(to_string(u.tag())));
    add(tr("trace id"), facts.trace_id ? QString::number(*facts.trace_id)
                                       : tr("not in the node table (built by the replay)"));
  }
  endResetModel();
}

QString RewriteNodeModel::value(const QString &property) const {
  for (const auto &[name, value] : rows_)
    if (name == property) return value;
  return {};
}

int RewriteNodeModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int RewriteNodeModel::columnCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant RewriteNodeModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto &[property, value] = rows_[static_cast<std::size_t>(index.row())];
  switch (role) {
  case Qt::DisplayRole:
  case Qt::ToolTipRole: return index.column() == PropertyColumn ? property : value;
  case Qt::ForegroundRole:
    if (index.column() == PropertyColumn) return theme::muted_text();
    return {};
  default: return {};
  }
}

QVariant RewriteNodeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == PropertyColumn ? tr("property") : tr("value");
}

}  // namespace wavescope::gui
