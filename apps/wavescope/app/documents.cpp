#include "app/documents.hpp"

#include <QFile>
#include <QFileInfo>

#include "wavescope/compiler/isa/disassembler.hpp"

namespace wavescope::gui {

DocumentKind detect_document_kind(const QString &path) {
  const QFileInfo info(path);
  if (info.isDir()) {
    return QFileInfo::exists(path + "/meta.json") ? DocumentKind::Capture : DocumentKind::Unknown;
  }
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return DocumentKind::Unknown;
  const QByteArray head = file.read(4);
  if (head == QByteArray("\x7f" "ELF", 4)) return DocumentKind::CodeObject;
  if (info.fileName() == "meta.json") return DocumentKind::Capture;
  if (info.suffix().compare("json", Qt::CaseInsensitive) == 0) return DocumentKind::RewriteTrace;
  return DocumentKind::Unknown;
}

std::shared_ptr<CodeObjectDocument> load_code_object(const QString &path,
                                                     std::optional<std::string> target,
                                                     std::optional<std::string> kernel_name) {
  compiler::isa::CodeObjectOptions options{std::move(target), std::move(kernel_name)};
  auto doc = std::make_shared<CodeObjectDocument>();
  doc->path = path;
  auto code = std::make_shared<compiler::isa::CodeObject>(
      compiler::isa::CodeObject::load(path.toStdString(), options));
  doc->text = compiler::isa::disassemble_text(*code);
  if (code->kernels().empty()) {
    doc->kernels.push_back({".text", doc->text, compiler::isa::Cfg::build(doc->text)});
  } else {
    for (const auto &kernel : code->kernels()) {
      auto insts = compiler::isa::disassemble_kernel(*code, kernel);
      auto cfg = compiler::isa::Cfg::build(insts);
      doc->kernels.push_back({kernel.name, std::move(insts), std::move(cfg)});
    }
  }
  doc->code = std::move(code);
  return doc;
}

}  // namespace wavescope::gui
