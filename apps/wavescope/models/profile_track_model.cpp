#include "models/profile_track_model.hpp"

#include <QtGlobal>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

namespace wavescope::gui {

namespace tp = trace::profile;

QString format_time(double ps, double step) {
  struct Unit {
    double scale;
    const char *name;
  };
  static constexpr Unit kUnits[] = {{1e12, "s"}, {1e9, "ms"}, {1e6, "µs"}, {1e3, "ns"}, {1, "ps"}};
  const double magnitude = std::max(std::abs(ps), std::abs(step));
  const Unit *unit = &kUnits[4];
  for (const Unit &u : kUnits)
    if (magnitude >= u.scale) {
      unit = &u;
      break;
    }
  int decimals = 0;
  if (step > 0) {
    const double s = step / unit->scale;
    decimals = s >= 1 ? 0 : std::min(6, static_cast<int>(std::ceil(-std::log10(s) - 1e-9)));
  } else {
    const double v = std::abs(ps) / unit->scale;
    decimals = v >= 100 ? 0 : v >= 10 ? 1 : 2;
    if (unit->scale == 1) decimals = 0;
  }
  return QStringLiteral("%1 %2")
      .arg(ps / unit->scale, 0, 'f', decimals)
      .arg(QString::fromUtf8(unit->name));
}

QString format_time(double ps) { return format_time(ps, 0); }

QString format_bytes(double bytes, double step) {
  static constexpr const char *kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  if (bytes == 0) return QStringLiteral("0 B");
  const double magnitude = std::max(std::abs(bytes), std::abs(step));
  int u = 0;
  double scale = 1;
  while (u < 5 && magnitude >= scale * 1000) {
    scale *= 1000;
    ++u;
  }
  int decimals = 0;
  if (step > 0) {
    const double s = step / scale;
    decimals = s >= 1 ? 0 : std::min(3, static_cast<int>(std::ceil(-std::log10(s) - 1e-9)));
  } else if (u > 0) {
    const double v = std::abs(bytes) / scale;
    decimals = v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2;
  }
  return QStringLiteral("%1 %2").arg(bytes / scale, 0, 'f', decimals).arg(QLatin1String(kUnits[u]));
}

QString format_bytes(double bytes) { return format_bytes(bytes, 0); }

namespace {
// A numeric JSON value as text (fields keep their JSON encoding); 0 when not a number.
double number_of(const std::string &json) {
  char *end = nullptr;
  const double v = std::strtod(json.c_str(), &end);
  return end && end != json.c_str() ? v : 0;
}
std::string lower(std::string s) {
  for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

SpanRates span_rates(const tp::Profile &profile, const tp::Span &span) {
  SpanRates rates;
  const tp::SpanDetails *details = profile.details(span);
  const double seconds = static_cast<double>(span.duration()) * 1e-12;
  if (!details || seconds <= 0) return rates;
  double bytes = details->bytes ? static_cast<double>(*details->bytes) : 0;
  double flops = 0;
  for (const auto &[key, value] : details->fields) {
    const std::string k = lower(key);
    if (k == "flops" || k == "ops" || k == "estimated_flops") flops = number_of(value);
    if (!bytes && (k == "mem" || k == "bytes" || k == "estimated_mem" || k == "lds"))
      bytes = number_of(value);
  }
  rates.gbytes_per_s = bytes / seconds * 1e-9;
  rates.gflops = flops / seconds * 1e-9;
  return rates;
}

void ProfileTrackModel::set_profile(const tp::Profile *profile) {
  beginResetModel();
  profile_ = profile;
  levels_.clear();
  if (profile_)
    for (const tp::Track &track : profile_->tracks) levels_.push_back(tp::levels_of(track));
  endResetModel();
}

int ProfileTrackModel::row_of(const QString &name) const {
  if (!profile_) return -1;
  const std::string n = name.toStdString();
  for (std::size_t i = 0; i < profile_->tracks.size(); ++i)
    if (profile_->tracks[i].name == n) return static_cast<int>(i);
  return -1;
}

int ProfileTrackModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() || !profile_ ? 0 : static_cast<int>(profile_->tracks.size());
}

QVariant ProfileTrackModel::data(const QModelIndex &index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const tp::Track &track = profile_->tracks[static_cast<std::size_t>(index.row())];
  switch (role) {
  case Qt::DisplayRole:
  case Qt::EditRole: return QString::fromStdString(track.name);
  case Qt::ToolTipRole:
    return QStringLiteral("%1: %2 spans, %3 levels")
        .arg(QString::fromStdString(track.name))
        .arg(track.spans.size())
        .arg(levels(index.row()).levels.size());
  case SpanCountRole: return static_cast<qulonglong>(track.spans.size());
  case LevelsRole: return static_cast<int>(levels(index.row()).levels.size());
  case KindRole:
    return track.kind == tp::TrackKind::Spans    ? QStringLiteral("spans")
           : track.kind == tp::TrackKind::Memory ? QStringLiteral("memory")
                                                 : QStringLiteral("counter");
  case DeviceRole: return QString::fromStdString(track.device);
  default: return {};
  }
}

QHash<int, QByteArray> ProfileTrackModel::roleNames() const {
  auto names = QAbstractListModel::roleNames();
  names[SpanCountRole] = "spans";
  names[LevelsRole] = "levels";
  names[KindRole] = "kind";
  names[DeviceRole] = "device";
  return names;
}

}  // namespace wavescope::gui
