#pragma once
// The tracks of a profile's timeline as an item model (one row per track, in the profile's
// display order, VIZ's a.6 step 7), with each track's spans split by stacking level for drawing.
// The timeline widget draws from it; Ctrl+P completes track names from it.

#include <QAbstractListModel>
#include <QString>

#include <vector>

#include "wavescope/trace/profile/profile.hpp"
#include "wavescope/trace/profile/span_lod.hpp"

namespace wavescope::gui {

// A duration or time in the unit that suits it: "850 ps", "12.5 ns", "3.20 µs", "1.25 ms", "2.00
// s".
QString format_time(double picoseconds);
// As format_time, with as many decimals as a tick step of `step` picoseconds needs.
QString format_time(double picoseconds, double step);

// A byte count in the decimal unit that suits it, three significant figures: "512 B", "16.4 kB",
// "1.50 GB" (VIZ's units).
QString format_bytes(double bytes);
// As format_bytes, with as many decimals as an axis step of `step` bytes needs ("0 B", "5 kB").
QString format_bytes(double bytes, double step);

// Throughput of a span where the profile knows its bytes or FLOPs: GB/s, GFLOP/s (0 when not).
struct SpanRates {
  double gbytes_per_s = 0, gflops = 0;
};
SpanRates span_rates(const trace::profile::Profile &profile, const trace::profile::Span &span);

class ProfileTrackModel : public QAbstractListModel {
  Q_OBJECT
public:
  enum Role {
    SpanCountRole = Qt::UserRole + 1,  // spans on the track
    LevelsRole,                        // stacking levels (nesting depth)
    KindRole,                          // "spans", "memory", "counter"
    DeviceRole,
  };
  using QAbstractListModel::QAbstractListModel;

  void set_profile(const trace::profile::Profile *profile);
  const trace::profile::Profile *profile() const { return profile_; }
  const trace::profile::TrackLevels &levels(int row) const {
    return levels_[static_cast<std::size_t>(row)];
  }
  // The row of the track named `name`, or -1.
  int row_of(const QString &name) const;

  int rowCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
  QHash<int, QByteArray> roleNames() const override;

private:
  const trace::profile::Profile *profile_ = nullptr;
  std::vector<trace::profile::TrackLevels> levels_;
};

}  // namespace wavescope::gui
