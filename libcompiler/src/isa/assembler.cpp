#include "wavescope/compiler/isa/assembler.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <llvm/MC/MCAsmBackend.h>
#include <llvm/MC/MCCodeEmitter.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCObjectFileInfo.h>
#include <llvm/MC/MCObjectWriter.h>
#include <llvm/MC/MCParser/MCAsmParser.h>
#include <llvm/MC/MCParser/MCTargetAsmParser.h>
#include <llvm/MC/MCStreamer.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include "llvm_mc.hpp"

namespace wavescope::compiler::isa {
namespace {

// The bytes of the .text section of the relocatable ELF the assembler wrote.
std::vector<std::uint8_t> text_of(const llvm::SmallVectorImpl<char> &elf) {
  llvm::MemoryBufferRef ref(llvm::StringRef(elf.data(), elf.size()), "<assembled>");
  auto object = llvm::object::ELF64LEObjectFile::create(ref);
  if (!object)
    throw Error(ErrorKind::Internal,
                "assembler wrote an unreadable object: " + llvm::toString(object.takeError()));
  for (const auto &section : object->sections()) {
    auto name = section.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name != ".text") continue;
    auto contents = section.getContents();
    if (!contents) throw Error(ErrorKind::Internal, llvm::toString(contents.takeError()));
    return {contents->bytes_begin(), contents->bytes_end()};
  }
  return {};
}

}  // namespace

std::vector<std::uint8_t> assemble(std::string_view source, const GpuTarget &target) {
  detail::LlvmMc mc(target);
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(source.data(), source.size()), "<asm>"),
      llvm::SMLoc());
  std::vector<AsmDiagnostic> diagnostics;
  auto record = [&](const llvm::SMDiagnostic &d) {
    diagnostics.push_back({d.getLineNo(), d.getColumnNo() + 1, d.getMessage().str(),
                           d.getKind() == llvm::SourceMgr::DK_Error});
  };
  sources.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *sink) { (*static_cast<decltype(record) *>(sink))(d); },
      &record);

  llvm::MCContext context(mc.triple, mc.asm_info.get(), mc.registers.get(), mc.subtarget.get(),
                          &sources, &mc.options);
  context.setDiagnosticHandler([&](const llvm::SMDiagnostic &d, bool, const llvm::SourceMgr &,
                                   std::vector<const llvm::MDNode *> &) { record(d); });
  std::unique_ptr<llvm::MCObjectFileInfo> file_info(
      mc.target->createMCObjectFileInfo(context, /*PIC=*/false));
  context.setObjectFileInfo(file_info.get());

  llvm::SmallVector<char, 0> elf;
  llvm::raw_svector_ostream elf_stream(elf);
  std::unique_ptr<llvm::MCAsmBackend> backend(
      mc.target->createMCAsmBackend(*mc.subtarget, *mc.registers, mc.options));
  std::unique_ptr<llvm::MCCodeEmitter> emitter(
      mc.target->createMCCodeEmitter(*mc.instr_info, context));
  if (!backend || !emitter)
    throw Error(ErrorKind::Internal, "LLVM has no AMDGPU assembler for " + target.processor);
  auto writer = backend->createObjectWriter(elf_stream);
  std::unique_ptr<llvm::MCStreamer> streamer(
      mc.target->createMCObjectStreamer(mc.triple, context, std::move(backend), std::move(writer),
                                        std::move(emitter), *mc.subtarget));
  streamer->initSections(false, *mc.subtarget);
  std::unique_ptr<llvm::MCAsmParser> parser(
      llvm::createMCAsmParser(sources, context, *streamer, *mc.asm_info));
  std::unique_ptr<llvm::MCTargetAsmParser> target_parser(
      mc.target->createMCAsmParser(*mc.subtarget, *parser, *mc.instr_info, mc.options));
  if (!target_parser)
    throw Error(ErrorKind::Internal, "LLVM has no AMDGPU assembly parser for " + target.processor);
  parser->setTargetParser(*target_parser);

  const bool failed = parser->Run(/*NoInitialTextSection=*/false);
  const auto first_error = std::find_if(diagnostics.begin(), diagnostics.end(),
                                        [](const AsmDiagnostic &d) { return d.is_error; });
  if (failed || first_error != diagnostics.end()) {
    std::string message = "assembly failed";
    if (first_error != diagnostics.end())
      message = fmt::format("line {}, column {}: {}", first_error->line, first_error->column,
                            first_error->message);
    throw AssemblyError(message, std::move(diagnostics));
  }
  return text_of(elf);
}

}  // namespace wavescope::compiler::isa
