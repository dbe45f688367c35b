#include "app/code_object_document.hpp"

#include <QFileInfo>

#include "wavescope/compiler/isa/disassembler.hpp"

namespace wavescope::gui {

std::vector<KernelCode> kernel_code_of(const compiler::isa::CodeObject &code) {
  using namespace compiler::isa;
  std::vector<KernelCode> kernels;
  const std::string target = code.target().processor;
  if (code.kernels().empty()) {
    auto text = disassemble_text(code);
    auto cfg = Cfg::build(text);
    kernels.push_back({".text", target, std::move(text), std::move(cfg)});
  }
  for (const auto &kernel : code.kernels()) {
    auto insts = disassemble_kernel(code, kernel);
    auto cfg = Cfg::build(insts);
    kernels.push_back({kernel.name, target, std::move(insts), std::move(cfg)});
  }
  return kernels;
}

std::shared_ptr<CodeObjectDocument> load_code_object(const QString &path,
                                                     std::optional<std::string> target,
                                                     std::optional<std::string> kernel_name) {
  compiler::isa::CodeObjectOptions options{std::move(target), std::move(kernel_name)};
  auto doc = std::make_shared<CodeObjectDocument>();
  doc->path = path;
  auto code = std::make_shared<compiler::isa::CodeObject>(
      compiler::isa::CodeObject::load(path.toStdString(), options));
  doc->title =
      QStringLiteral("%1  (%2)")
          .arg(QFileInfo(path).fileName(), QString::fromStdString(code->target().processor));
  doc->kernels = kernel_code_of(*code);
  doc->code = std::move(code);
  return doc;
}

}  // namespace wavescope::gui
