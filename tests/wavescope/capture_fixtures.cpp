#include "capture_fixtures.hpp"

#include <QFile>
#include <QJsonDocument>

#include <map>
#include <stdexcept>

namespace wavescope::testing {

std::shared_ptr<const gui::CaptureDocument> open_corpus_capture(const std::filesystem::path &dir) {
  static std::map<std::filesystem::path, std::shared_ptr<const gui::CaptureDocument>> cache;
  auto &slot = cache[dir];
  if (!slot) slot = gui::load_capture(QString::fromStdString(dir.string()));
  return slot;
}

QJsonObject read_meta(const std::filesystem::path &dir) {
  QFile file(QString::fromStdString((dir / "meta.json").string()));
  if (!file.open(QIODevice::ReadOnly)) throw std::runtime_error("cannot read " + dir.string());
  return QJsonDocument::fromJson(file.readAll()).object();
}

const gui::ShaderEngineTrace *engine_of_blob(const gui::CaptureDocument &document,
                                             const std::string &file, int *kernel, int *engine) {
  for (int k = 0; k < document.kernel_count(); ++k) {
    const auto &engines = document.dispatch(k)->engines;
    for (std::size_t e = 0; e < engines.size(); ++e)
      if (engines[e].blob->file_name == file) {
        if (kernel) *kernel = k;
        if (engine) *engine = static_cast<int>(e);
        return &engines[e];
      }
  }
  return nullptr;
}

}  // namespace wavescope::testing
