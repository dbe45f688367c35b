#include "models/rewrite_rules_model.hpp"

#include <algorithm>
#include <map>

#include "app/theme.hpp"
#include "wavescope/compiler/rewrite/rewrite_contexts.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

namespace wavescope::gui {

void RewriteRulesModel::set_group(const compiler::rewrite::TraceGroupRecord *group) {
  beginResetModel();
  rules_.clear();
  if (group) {
    std::map<std::string, RuleStats> by_rule;
    for (const auto &pass : group->rewrites)
      for (const auto &step : pass.steps) {
        const std::string title = compiler::rewrite::rule_title(step);
        RuleStats &stats = by_rule[title];
        stats.rule = QString::fromStdString(title);
        stats.location = QString::fromStdString(step.rule_loc);
        ++stats.hits;
        stats.ns += step.ns;
      }
    for (auto &[name, stats] : by_rule) rules_.push_back(std::move(stats));
    // Most applied first; equal counts keep the rule names' order (the map's).
    std::stable_sort(rules_.begin(), rules_.end(),
                     [](const RuleStats &a, const RuleStats &b) { return a.hits > b.hits; });
  }
  endResetModel();
}

int RewriteRulesModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rules_.size());
}

int RewriteRulesModel::columnCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant RewriteRulesModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const RuleStats &r = rules_[static_cast<std::size_t>(index.row())];
  const double total_us = static_cast<double>(r.ns) / 1000.0;
  const double mean_us = r.hits ? total_us / r.hits : 0.0;
  switch (role) {
  case Qt::DisplayRole:
    switch (index.column()) {
    case RuleColumn: return r.rule;
    case HitsColumn: return r.hits;
    case TotalColumn: return QString::number(total_us, 'f', 2);
    case MeanColumn: return QString::number(mean_us, 'f', 2);
    case LocationColumn: return r.location;
    default: return {};
    }
  case SortRole:
    switch (index.column()) {
    case HitsColumn: return r.hits;
    case TotalColumn: return total_us;
    case MeanColumn: return mean_us;
    case RuleColumn: return r.rule;
    case LocationColumn: return r.location;
    default: return {};
    }
  case Qt::ToolTipRole: return QStringLiteral("%1\n%2").arg(r.rule, r.location);
  case Qt::TextAlignmentRole:
    if (index.column() == HitsColumn || index.column() == TotalColumn ||
        index.column() == MeanColumn)
      return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    return {};
  case Qt::ForegroundRole:
    if (index.column() == LocationColumn) return theme::muted_text();
    return {};
  default: return {};
  }
}

QVariant RewriteRulesModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case RuleColumn: return tr("rule");
  case HitsColumn: return tr("hits");
  case TotalColumn: return tr("total us");
  case MeanColumn: return tr("mean us");
  case LocationColumn: return tr("where");
  default: return {};
  }
}

}  // namespace wavescope::gui
