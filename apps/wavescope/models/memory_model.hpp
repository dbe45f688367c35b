#pragma once
// The memory tracks of a profile as an item model: one top-level row per memory track (a device's
// allocations), its buffers as children, with dtype, length, size, allocation, lifetime and users.
// Each track's stacked layout (libtrace memory_layout) is computed once here; the memory graph
// draws from it and the view's buffer list shows the model.

#include <QAbstractItemModel>
#include <QString>

#include <vector>

#include "wavescope/trace/profile/memory_layout.hpp"
#include "wavescope/trace/profile/profile.hpp"

namespace wavescope::gui {

class MemoryModel : public QAbstractItemModel {
  Q_OBJECT
public:
  enum Column {
    NameColumn,
    DtypeColumn,
    LengthColumn,
    SizeColumn,
    AllocatedColumn,
    LifetimeColumn,
    UsersColumn,
    ColumnCount
  };
  enum Role {
    TrackRole = Qt::UserRole + 1,  // index into the profile's tracks
    BufferRole,                    // index into the track's buffers, -1 on track rows
    BytesRole,                     // raw bytes (buffer size, or the track's peak)
    SortRole,                      // a number to sort the column by
  };
  using QAbstractItemModel::QAbstractItemModel;

  void set_profile(const trace::profile::Profile *profile);
  const trace::profile::Profile *profile() const { return profile_; }

  // Memory tracks, in the profile's order.
  int track_count() const { return static_cast<int>(tracks_.size()); }
  // The profile track index of memory track `i`.
  int profile_track(int i) const { return tracks_[static_cast<std::size_t>(i)].track; }
  const trace::profile::Track &track(int i) const;
  const trace::profile::MemoryLayout &layout(int i) const {
    return tracks_[static_cast<std::size_t>(i)].layout;
  }
  // The memory track showing profile track `track`, or -1.
  int memory_track_of(int track) const;
  // The row of a buffer (profile track index, buffer index); invalid when absent.
  QModelIndex index_of(int track, int buffer, int column = 0) const;
  // A buffer's one-line summary: "float · 4,096 × 4 B · 16.4 kB · 32.4 ms".
  QString buffer_summary(int track, int buffer) const;

  QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
  QModelIndex parent(const QModelIndex &child) const override;
  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  struct MemoryTrack {
    int track = 0;
    trace::profile::MemoryLayout layout;
  };
  QVariant track_data(int row, int column, int role) const;
  QVariant buffer_data(int row, const trace::profile::Buffer &b, int column, int role) const;

  const trace::profile::Profile *profile_ = nullptr;
  std::vector<MemoryTrack> tracks_;
};

}  // namespace wavescope::gui
