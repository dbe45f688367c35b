#include "models/counters_model.hpp"

#include <QColor>
#include <QFont>
#include <QLocale>

#include <algorithm>

#include "app/theme.hpp"

namespace wavescope::gui {

namespace {
// internalId: 0 for top-level rows; parent row + 1 for children.
constexpr quintptr kTop = 0;
}  // namespace

CountersModel::CountersModel(QObject *parent) : QAbstractItemModel(parent) {}

void CountersModel::set_counters(std::optional<trace::pmc::DispatchCounters> counters) {
  beginResetModel();
  counters_ = std::move(counters);
  wgp_columns_ = 1;
  if (counters_)
    for (const auto &c : counters_->counters)
      wgp_columns_ = std::max(wgp_columns_, static_cast<int>(c.geometry.wgp));
  endResetModel();
}

int CountersModel::counter_count() const {
  return counters_ ? static_cast<int>(counters_->counters.size()) : 0;
}

int CountersModel::metric_count() const {
  return counters_ ? static_cast<int>(counters_->metrics.size()) : 0;
}

int CountersModel::metric_rows() const { return metric_count() > 0 ? 1 : 0; }

CountersModel::RowKind CountersModel::kind(const QModelIndex &index) const {
  const int top =
      index.internalId() == kTop ? index.row() : static_cast<int>(index.internalId()) - 1;
  const bool metrics = top < metric_rows();
  if (index.internalId() == kTop) return metrics ? RowKind::MetricGroup : RowKind::Counter;
  return metrics ? RowKind::Metric : RowKind::Instance;
}

const trace::pmc::CounterSample &CountersModel::counter_at(int top_row) const {
  return counters_->counters[static_cast<std::size_t>(top_row - metric_rows())];
}

QModelIndex CountersModel::index(int row, int column, const QModelIndex &parent) const {
  if (!hasIndex(row, column, parent)) return {};
  if (!parent.isValid()) return createIndex(row, column, kTop);
  return createIndex(row, column, static_cast<quintptr>(parent.row() + 1));
}

QModelIndex CountersModel::parent(const QModelIndex &child) const {
  if (!child.isValid() || child.internalId() == kTop) return {};
  return createIndex(static_cast<int>(child.internalId()) - 1, 0, kTop);
}

int CountersModel::rowCount(const QModelIndex &parent) const {
  if (!counters_) return 0;
  if (!parent.isValid()) return counter_count() + metric_rows();
  if (parent.column() != 0 || parent.internalId() != kTop) return 0;
  if (parent.row() < metric_rows()) return metric_count();
  return static_cast<int>(counter_at(parent.row()).rows.size());
}

int CountersModel::columnCount(const QModelIndex &) const { return FirstWgpColumn + wgp_columns_; }

QVariant CountersModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || !counters_) return {};
  const int column = index.column();
  const QLocale locale;
  auto number = [&](std::uint64_t v) -> QVariant {
    if (role == SortRole) return static_cast<qulonglong>(v);
    return locale.toString(static_cast<qulonglong>(v));
  };
  const RowKind k = kind(index);
  if (role == KindRole) return static_cast<int>(k);
  switch (k) {
  case RowKind::Counter: {
    const auto &c = counter_at(index.row());
    if (role == Qt::DisplayRole || role == SortRole) {
      switch (column) {
      case NameColumn: return QString::fromStdString(c.name);
      case SumColumn:
        return c.sum_saturated && role == Qt::DisplayRole
                   ? QStringLiteral("≥ ") + number(c.sum).toString()
                   : number(c.sum);
      case MaxColumn: return number(c.max);
      case ActiveColumn:
        if (role == SortRole) return static_cast<qulonglong>(c.nonzero_slots());
        return QStringLiteral("%1 / %2").arg(c.nonzero_slots()).arg(c.count);
      }
      return {};
    }
    if (role == Qt::ToolTipRole) {
      QString tip = QStringLiteral("<b>%1</b> (%2")
                        .arg(QString::fromStdString(c.name), QString::fromStdString(c.block));
      if (c.select) tip += QStringLiteral(", select %1").arg(*c.select);
      tip += QStringLiteral(")");
      if (c.info) {
        tip += QStringLiteral("<br>") +
               QString::fromUtf8(c.info->description.data(),
                                 static_cast<int>(c.info->description.size()));
        if (!c.info->caveat.empty())
          tip += QStringLiteral("<br><i>") +
                 QString::fromUtf8(c.info->caveat.data(), static_cast<int>(c.info->caveat.size())) +
                 QStringLiteral("</i>");
      }
      tip += QObject::tr("<br>%1 instances (XCC %2 × INST %3 × SE %4 × SA %5 × WGP %6)")
                 .arg(c.count)
                 .arg(c.geometry.xcc)
                 .arg(c.geometry.inst)
                 .arg(c.geometry.se)
                 .arg(c.geometry.sa)
                 .arg(c.geometry.wgp);
      return tip;
    }
    if (role == Qt::FontRole && column == NameColumn) {
      QFont f = theme::monospace_font(9);
      f.setBold(true);
      return f;
    }
    break;
  }
  case RowKind::Instance: {
    const auto &c = counter_at(static_cast<int>(index.internalId()) - 1);
    const auto &r = c.rows[static_cast<std::size_t>(index.row())];
    std::uint64_t sum = 0, max = 0;
    std::size_t active = 0;
    for (const auto v : r.values) sum += v, max = std::max(max, v), active += v != 0;
    if (role == Qt::DisplayRole || role == SortRole) {
      switch (column) {
      case NameColumn: {
        if (role == SortRole) return index.row();
        QString where;
        if (c.geometry.xcc > 1) where += QStringLiteral("XCC %1 · ").arg(r.xcc);
        if (c.geometry.inst > 1) where += QStringLiteral("INST %1 · ").arg(r.inst);
        where += QStringLiteral("SE %1 · SA %2").arg(r.se).arg(r.sa);
        return where;
      }
      case SumColumn: return number(sum);
      case MaxColumn: return number(max);
      case ActiveColumn:
        if (role == SortRole) return static_cast<qulonglong>(active);
        return QStringLiteral("%1 / %2").arg(active).arg(r.values.size());
      }
      const auto wgp = static_cast<std::size_t>(column - FirstWgpColumn);
      return wgp < r.values.size() ? number(r.values[wgp]) : QVariant();
    }
    if (column >= FirstWgpColumn) {
      const auto wgp = static_cast<std::size_t>(column - FirstWgpColumn);
      const std::uint64_t v = wgp < r.values.size() ? r.values[wgp] : 0;
      if (role == Qt::ForegroundRole && wgp < r.values.size() && v == 0) return theme::muted_text();
      // Each value against the counter's largest: where the work (or the waiting) went.
      if (role == Qt::BackgroundRole && v > 0 && c.max > 0) {
        QColor heat = theme::heat_color(double(v) / double(c.max));
        heat.setAlpha(70);
        return heat;
      }
    }
    break;
  }
  case RowKind::MetricGroup:
    if (role == Qt::DisplayRole && column == NameColumn)
      return QObject::tr("Derived metrics (%1)").arg(metric_count());
    if (role == SortRole) return column == NameColumn ? QVariant(QStringLiteral("~")) : QVariant();
    if (role == Qt::FontRole) {
      QFont f;
      f.setBold(true);
      return f;
    }
    if (role == Qt::ForegroundRole) return theme::accent();
    break;
  case RowKind::Metric: {
    const auto &m = counters_->metrics[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole) {
      if (column == NameColumn) return QString::fromStdString(m.name);
      if (column == SumColumn) return QString::fromStdString(m.text);
      return {};
    }
    if (role == SortRole) {
      if (column == NameColumn) return QString::fromStdString(m.name);
      if (column == SumColumn) return m.value ? QVariant(*m.value) : QVariant(-1.0);
      return {};
    }
    if (role == Qt::ToolTipRole)
      return QObject::tr("%1 = %2<br>source: %3")
          .arg(QString::fromStdString(m.name), QString::fromStdString(m.formula),
               QString::fromStdString(m.source));
    if (role == Qt::ForegroundRole && column == SumColumn) return QColor(0x9e, 0xce, 0x6a);
    break;
  }
  }
  if (role == Qt::TextAlignmentRole)
    return column == NameColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::FontRole && column != NameColumn) return theme::monospace_font(9);
  return {};
}

QVariant CountersModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case NameColumn: return tr("Counter / instance");
  case SumColumn: return tr("Sum / value");
  case MaxColumn: return tr("Max");
  case ActiveColumn: return tr("Active");
  }
  return QStringLiteral("WGP:%1").arg(section - FirstWgpColumn);
}

}  // namespace wavescope::gui
