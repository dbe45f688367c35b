#include "models/fuzzy_filter.hpp"

#include <algorithm>

namespace wavescope::gui {

namespace {
bool word_start(const QString &text, qsizetype i) {
  if (i == 0) return true;
  const QChar prev = text[i - 1], c = text[i];
  if (!prev.isLetterOrNumber()) return true;
  return prev.isLower() && c.isUpper();
}
}  // namespace

std::optional<int> fuzzy_score(const QString &query, const QString &text) {
  const QString q = query.simplified();
  if (q.isEmpty()) return 0;
  // A substring at a word start is the best kind of match (earlier is better), then initials
  // ("ft" for Find Track), then a substring inside a word, then letters in order.
  const qsizetype at = text.indexOf(q, 0, Qt::CaseInsensitive);
  const int early = at >= 0 ? 1000 - static_cast<int>(std::min<qsizetype>(at, 1000)) : 0;
  if (at >= 0 && word_start(text, at)) return 10000 + early + (q.size() == text.size() ? 1000 : 0);
  // Else the query's characters in order (spaces in the query are skipped).
  int score = 0, run = 0, starts = 0, letters = 0;
  qsizetype j = 0;
  for (qsizetype i = 0; i < q.size(); ++i) {
    const QChar c = q[i].toLower();
    if (c == ' ') continue;
    bool found = false;
    for (; j < text.size(); ++j) {
      if (text[j].toLower() != c) {
        run = 0;
        continue;
      }
      score += 10 + (word_start(text, j) ? 30 : 0) + run * 15;
      starts += word_start(text, j);
      ++letters;
      ++run;
      ++j;
      found = true;
      break;
    }
    if (!found) return at >= 0 ? std::optional<int>(3000 + early / 2) : std::nullopt;
  }
  if (starts == letters && letters > 1) return 5000 + score;
  if (at >= 0) return 3000 + early / 2;
  return score - static_cast<int>(std::min<qsizetype>(text.size(), 200)) / 10;
}

FuzzyFilterModel::FuzzyFilterModel(QObject *parent) : QSortFilterProxyModel(parent) {
  setDynamicSortFilter(true);
  sort(0);
}

void FuzzyFilterModel::set_query(const QString &query) {
  if (query == query_) return;
  query_ = query;
  scores_.clear();
  invalidate();  // refilter and resort
}

QString FuzzyFilterModel::text_of(const QModelIndex &index) const {
  const QVariant search = index.data(SearchTextRole);
  return search.isValid() ? search.toString() : index.data(Qt::DisplayRole).toString();
}

bool FuzzyFilterModel::filterAcceptsRow(int source_row, const QModelIndex &source_parent) const {
  const QModelIndex index = sourceModel()->index(source_row, 0, source_parent);
  const auto score = fuzzy_score(query_, text_of(index));
  // Scores are kept per source row for the sort that follows (flat source models).
  if (!source_parent.isValid()) {
    if (scores_.size() <= static_cast<std::size_t>(source_row))
      scores_.resize(static_cast<std::size_t>(sourceModel()->rowCount()), -1);
    scores_[static_cast<std::size_t>(source_row)] = score.value_or(-1);
  }
  return score.has_value();
}

bool FuzzyFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const {
  auto score = [&](const QModelIndex &i) {
    const auto row = static_cast<std::size_t>(i.row());
    return !i.parent().isValid() && row < scores_.size()
               ? scores_[row]
               : fuzzy_score(query_, text_of(i)).value_or(-1);
  };
  const int a = score(left), b = score(right);
  if (a != b) return a > b;
  return left.row() < right.row();
}

}  // namespace wavescope::gui
