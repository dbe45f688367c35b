#pragma once
// Rule statistics of a group (beyond VIZ, spec/viz.md part d #15): every rule applied in the
// group's passes with its hit count, total and mean time and where it is written; most applied
// first. SortRole gives numbers for sorting by count or time.

#include <QAbstractTableModel>
#include <QString>

#include <cstdint>
#include <vector>

namespace wavescope::compiler::rewrite {
struct TraceGroupRecord;
}

namespace wavescope::gui {

class RewriteRulesModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { RuleColumn, HitsColumn, TotalColumn, MeanColumn, LocationColumn, ColumnCount };
  enum Role { SortRole = Qt::UserRole + 1 };

  using QAbstractTableModel::QAbstractTableModel;

  struct RuleStats {
    QString rule;
    QString location;
    int hits = 0;
    std::uint64_t ns = 0;
  };

  // Counts the rules of a group (nullptr: none).
  void set_group(const compiler::rewrite::TraceGroupRecord *group);
  const std::vector<RuleStats> &rules() const { return rules_; }

  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  std::vector<RuleStats> rules_;
};

}  // namespace wavescope::gui
