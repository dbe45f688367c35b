#include "models/memory_model.hpp"

#include <QLocale>

#include "models/profile_track_model.hpp"

namespace wavescope::gui {

namespace tp = trace::profile;

namespace {
// Internal ids: 0 for track rows, track row + 1 for buffer rows.
constexpr quintptr kTrackRow = 0;
QString count(std::uint64_t n) { return QLocale::c().toString(static_cast<qulonglong>(n)); }
QString with_commas(std::uint64_t n) {
  QLocale l(QLocale::English);
  return l.toString(static_cast<qulonglong>(n));
}
}  // namespace

void MemoryModel::set_profile(const tp::Profile *profile) {
  beginResetModel();
  profile_ = profile;
  tracks_.clear();
  if (profile_)
    for (std::size_t i = 0; i < profile_->tracks.size(); ++i)
      if (profile_->tracks[i].kind == tp::TrackKind::Memory)
        tracks_.push_back({static_cast<int>(i), tp::layout_memory(profile_->tracks[i])});
  endResetModel();
}

const tp::Track &MemoryModel::track(int i) const {
  return profile_->tracks[static_cast<std::size_t>(profile_track(i))];
}

int MemoryModel::memory_track_of(int track) const {
  for (std::size_t i = 0; i < tracks_.size(); ++i)
    if (tracks_[i].track == track) return static_cast<int>(i);
  return -1;
}

QModelIndex MemoryModel::index_of(int track, int buffer, int column) const {
  const int m = memory_track_of(track);
  if (m < 0) return {};
  if (buffer < 0) return index(m, column);
  if (buffer >= static_cast<int>(this->track(m).buffers.size())) return {};
  return index(buffer, column, index(m, 0));
}

QString MemoryModel::buffer_summary(int track, int buffer) const {
  const int m = memory_track_of(track);
  if (m < 0 || buffer < 0 || buffer >= static_cast<int>(this->track(m).buffers.size())) return {};
  const tp::Buffer &b = this->track(m).buffers[static_cast<std::size_t>(buffer)];
  return QStringLiteral("%1 · %2 × %3 B · %4 · %5")
      .arg(QString::fromStdString(b.dtype), with_commas(b.elements))
      .arg(b.item_size)
      .arg(format_bytes(static_cast<double>(b.bytes())),
           format_time(static_cast<double>(b.freed - b.allocated)));
}

QModelIndex MemoryModel::index(int row, int column, const QModelIndex &parent) const {
  if (row < 0 || column < 0 || column >= ColumnCount || row >= rowCount(parent)) return {};
  if (!parent.isValid()) return createIndex(row, column, kTrackRow);
  return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex MemoryModel::parent(const QModelIndex &child) const {
  if (!child.isValid() || child.internalId() == kTrackRow) return {};
  return createIndex(static_cast<int>(child.internalId() - 1), 0, kTrackRow);
}

int MemoryModel::rowCount(const QModelIndex &parent) const {
  if (!profile_) return 0;
  if (!parent.isValid()) return track_count();
  if (parent.column() != 0 || parent.internalId() != kTrackRow) return 0;
  return static_cast<int>(track(parent.row()).buffers.size());
}

int MemoryModel::columnCount(const QModelIndex &) const { return ColumnCount; }

QVariant MemoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case NameColumn: return tr("Buffer");
  case DtypeColumn: return tr("DType");
  case LengthColumn: return tr("Len");
  case SizeColumn: return tr("Size");
  case AllocatedColumn: return tr("Allocated");
  case LifetimeColumn: return tr("Lifetime");
  case UsersColumn: return tr("Users");
  default: return {};
  }
}

QVariant MemoryModel::data(const QModelIndex &index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !profile_) return {};
  if (index.internalId() == kTrackRow) return track_data(index.row(), index.column(), role);
  const int m = static_cast<int>(index.internalId() - 1);
  const tp::Buffer &b = track(m).buffers[static_cast<std::size_t>(index.row())];
  if (role == TrackRole) return profile_track(m);
  return buffer_data(index.row(), b, index.column(), role);
}

QVariant MemoryModel::track_data(int row, int column, int role) const {
  const tp::Track &t = track(row);
  const tp::MemoryLayout &l = layout(row);
  switch (role) {
  case TrackRole: return profile_track(row);
  case BufferRole: return -1;
  case BytesRole: return static_cast<qulonglong>(l.peak);
  case Qt::ToolTipRole:
    return tr("%1: %2 buffers, peak %3 at %4 (%5 alive)")
        .arg(QString::fromStdString(t.name))
        .arg(t.buffers.size())
        .arg(format_bytes(static_cast<double>(l.peak)),
             format_time(static_cast<double>(l.peak_time)))
        .arg(l.peak_buffers);
  case SortRole: return row;
  case Qt::DisplayRole:
    switch (column) {
    case NameColumn: return QString::fromStdString(t.name);
    case SizeColumn: return tr("peak %1").arg(format_bytes(static_cast<double>(l.peak)));
    case UsersColumn: return tr("%n buffer(s)", nullptr, static_cast<int>(t.buffers.size()));
    default: return {};
    }
  default: return {};
  }
}

QVariant MemoryModel::buffer_data(int row, const tp::Buffer &b, int column, int role) const {
  const double lifetime = static_cast<double>(b.freed - b.allocated);
  switch (role) {
  case BufferRole: return row;
  case BytesRole: return static_cast<qulonglong>(b.bytes());
  case Qt::TextAlignmentRole:
    return column >= LengthColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
  case SortRole:
    switch (column) {
    case NameColumn: return static_cast<qulonglong>(b.key);
    case DtypeColumn: return QString::fromStdString(b.dtype);
    case LengthColumn: return static_cast<qulonglong>(b.elements);
    case SizeColumn: return static_cast<qulonglong>(b.bytes());
    case AllocatedColumn: return static_cast<qlonglong>(b.allocated);
    case LifetimeColumn: return lifetime;
    case UsersColumn: return static_cast<qulonglong>(b.users.size());
    default: return {};
    }
  case Qt::ToolTipRole:
    return tr("buffer %1: %2, %3 bytes%4")
        .arg(b.key)
        .arg(QString::fromStdString(b.dtype), count(b.bytes()),
             b.freed_in_profile ? QString() : tr(", alive at the end"));
  case Qt::DisplayRole:
    switch (column) {
    case NameColumn: return tr("buffer %1").arg(b.key);
    case DtypeColumn: return QString::fromStdString(b.dtype);
    case LengthColumn: return with_commas(b.elements);
    case SizeColumn: return format_bytes(static_cast<double>(b.bytes()));
    case AllocatedColumn: return format_time(static_cast<double>(b.allocated));
    case LifetimeColumn:
      return format_time(lifetime) + (b.freed_in_profile ? QString() : QStringLiteral(" +"));
    case UsersColumn: return static_cast<int>(b.users.size());
    default: return {};
    }
  default: return {};
  }
}

}  // namespace wavescope::gui
