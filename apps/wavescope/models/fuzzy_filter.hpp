#pragma once
// Fuzzy matching for the command palette and the finder: a query matches a text when its
// characters appear in order (case-insensitive); matches at word starts and in runs score higher.
// FuzzyFilterModel keeps the rows whose text (SearchTextRole, else DisplayRole) matches and sorts
// them best first, ties in source order.

#include <QSortFilterProxyModel>
#include <QString>

#include <optional>
#include <vector>

namespace wavescope::gui {

// The match score of `query` in `text` (higher is better), or nullopt when it does not match. An
// empty query matches everything with score 0.
std::optional<int> fuzzy_score(const QString &query, const QString &text);

class FuzzyFilterModel : public QSortFilterProxyModel {
  Q_OBJECT
public:
  // The role holding the text to match (the source model's; DisplayRole when it has none).
  static constexpr int SearchTextRole = Qt::UserRole + 100;
  explicit FuzzyFilterModel(QObject *parent = nullptr);

  void set_query(const QString &query);
  const QString &query() const { return query_; }

protected:
  bool filterAcceptsRow(int source_row, const QModelIndex &source_parent) const override;
  bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
  QString text_of(const QModelIndex &index) const;
  QString query_;
  mutable std::vector<int> scores_;  // per source row, -1 when it does not match
};

}  // namespace wavescope::gui
