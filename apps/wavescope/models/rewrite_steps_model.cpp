#include "models/rewrite_steps_model.hpp"

#include "app/theme.hpp"
#include "wavescope/compiler/rewrite/rewrite_contexts.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

namespace wavescope::gui {

void RewriteStepsModel::set_pass(const compiler::rewrite::TraceRewrite *pass) {
  beginResetModel();
  pass_ = pass;
  endResetModel();
}

int RewriteStepsModel::rowCount(const QModelIndex &parent) const {
  if (parent.isValid() || !pass_) return 0;
  return static_cast<int>(pass_->steps.size()) + 1;
}

int RewriteStepsModel::columnCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant RewriteStepsModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || !pass_ || index.row() >= rowCount()) return {};
  const int row = index.row();
  const auto *step = row == 0 ? nullptr : &pass_->steps[static_cast<std::size_t>(row - 1)];
  switch (role) {
  case Qt::DisplayRole:
    switch (index.column()) {
    case IndexColumn: return row;
    case RuleColumn:
      return step ? QString::fromStdString(compiler::rewrite::rule_title(*step))
                  : tr("input graph");
    case LocationColumn: return QString::fromStdString(step ? step->rule_loc : pass_->loc);
    case TimeColumn:
      return step ? QVariant(QString::number(static_cast<double>(step->ns) / 1000.0, 'f', 2))
                  : QVariant();
    default: return {};
    }
  case Qt::ToolTipRole:
    if (!step)
      return tr("The input graph of %1 (%2)")
          .arg(QString::fromStdString(pass_->name), QString::fromStdString(pass_->loc));
    return QStringLiteral("%1\n%2\n%3 us")
        .arg(QString::fromStdString(compiler::rewrite::rule_title(*step)),
             QString::fromStdString(step->rule_loc))
        .arg(static_cast<double>(step->ns) / 1000.0, 0, 'f', 2);
  case Qt::TextAlignmentRole:
    if (index.column() == IndexColumn || index.column() == TimeColumn)
      return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    return {};
  case Qt::ForegroundRole:
    if (!step || index.column() == LocationColumn) return theme::muted_text();
    return {};
  default: return {};
  }
}

QVariant RewriteStepsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case IndexColumn: return tr("#");
  case RuleColumn: return tr("rule");
  case LocationColumn: return tr("where");
  case TimeColumn: return tr("us");
  default: return {};
  }
}

}  // namespace wavescope::gui
