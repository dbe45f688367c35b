#include "app/document.hpp"

#include <QFile>
#include <QFileInfo>

namespace wavescope::gui {

DocumentKind detect_document_kind(const QString &path) {
  const QFileInfo info(path);
  if (info.isDir())
    return QFileInfo::exists(path + "/meta.json") ? DocumentKind::Capture : DocumentKind::Unknown;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return DocumentKind::Unknown;
  const QByteArray head = file.read(4);
  if (head == QByteArray("\x7f"
                         "ELF",
                         4))
    return DocumentKind::CodeObject;
  if (info.fileName() == "meta.json") return DocumentKind::Capture;
  if (info.suffix().compare("json", Qt::CaseInsensitive) == 0) return DocumentKind::RewriteTrace;
  if (info.suffix().compare("jsonl", Qt::CaseInsensitive) == 0) return DocumentKind::SymbolicCases;
  return DocumentKind::Unknown;
}

}  // namespace wavescope::gui
