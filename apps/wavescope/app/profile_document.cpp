#include "app/profile_document.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <span>

#include "app/capture_document.hpp"
#include "wavescope/trace/profile/open_profile.hpp"
#include "wavescope/trace/profile/profile_capture.hpp"
#include "wavescope/trace/profile/tinygrad_profile.hpp"

namespace wavescope::gui {

namespace {
QString title_of(const QString &path, const trace::profile::Profile &profile) {
  const QFileInfo info(path);
  // profile.pkl is what every tinygrad run writes: name it by its folder too.
  const QString name = info.fileName() == QStringLiteral("profile.pkl")
                           ? info.dir().dirName() + QStringLiteral("/") + info.fileName()
                           : info.fileName();
  return QStringLiteral("%1  (%2 spans)").arg(name).arg(profile.span_count());
}
}  // namespace

bool is_tinygrad_profile(const QString &path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return false;
  const QByteArray head = file.read(64 * 1024);
  return trace::profile::looks_like_tinygrad_profile(
      std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t *>(head.constData()),
                                    static_cast<std::size_t>(head.size())));
}

std::shared_ptr<ProfileDocument> load_profile(const QString &path) {
  auto doc = std::make_shared<ProfileDocument>();
  doc->path = path;
  auto profile =
      std::make_shared<trace::profile::Profile>(trace::profile::open_profile(path.toStdString()));
  doc->title = title_of(path, *profile);
  doc->profile_data = std::move(profile);
  return doc;
}

std::shared_ptr<Document> load_profile_or_capture(const QString &path, const OpenOptions &options,
                                                  const ProgressSink &progress) {
  auto profile =
      std::make_shared<trace::profile::Profile>(trace::profile::open_profile(path.toStdString()));
  if (trace::profile::has_capture(*profile)) {
    auto capture = load_capture(path, options, progress);
    capture->profile_data = std::move(profile);
    return capture;
  }
  auto doc = std::make_shared<ProfileDocument>();
  doc->path = path;
  doc->title = title_of(path, *profile);
  doc->profile_data = std::move(profile);
  return doc;
}

}  // namespace wavescope::gui
