#include "app/document.hpp"

#include <QFile>
#include <QFileInfo>

#include <span>

#include "wavescope/compiler/rewrite/tinygrad_rewrites.hpp"
#include "wavescope/trace/profile/tinygrad_profile.hpp"
#include "wavescope/trace/rgp/rgp_file.hpp"

namespace wavescope::gui {

DocumentKind detect_document_kind(const QString &path) {
  const QFileInfo info(path);
  if (info.isDir())
    return QFileInfo::exists(path + "/meta.json") ? DocumentKind::Capture : DocumentKind::Unknown;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return DocumentKind::Unknown;
  const QByteArray head = file.read(64 * 1024);
  if (head.startsWith(QByteArray("\x7f"
                                 "ELF",
                                 4)))
    return DocumentKind::CodeObject;
  const std::span<const std::uint8_t> bytes(
      reinterpret_cast<const std::uint8_t *>(head.constData()),
      static_cast<std::size_t>(head.size()));
  // tinygrad's rewrites.pkl opens in the rewrite browser.
  if (compiler::rewrite::looks_like_tinygrad_rewrites(bytes)) return DocumentKind::RewriteTrace;
  // A tinygrad profile pickle (profile.pkl) holds a capture when it was recorded with SQTT/PMC.
  if (trace::profile::looks_like_tinygrad_profile(bytes)) return DocumentKind::Capture;
  if (trace::rgp::looks_like_rgp(bytes)) return DocumentKind::Capture;
  if (info.fileName() == "meta.json") return DocumentKind::Capture;
  // A Chrome/Perfetto trace: a bare event array, or an object with traceEvents near its start.
  const QByteArray trimmed = head.trimmed();
  if (trimmed.startsWith('[') || (trimmed.startsWith('{') && head.contains("\"traceEvents\"")))
    return DocumentKind::Profile;
  if (info.suffix().compare("json", Qt::CaseInsensitive) == 0) return DocumentKind::RewriteTrace;
  if (info.suffix().compare("jsonl", Qt::CaseInsensitive) == 0) return DocumentKind::SymbolicCases;
  return DocumentKind::Unknown;
}

}  // namespace wavescope::gui
