#include "wavescope/compiler/isa/disassembler.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include <fmt/format.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCDisassembler/MCDisassembler.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCInstPrinter.h>
#include <llvm/Support/raw_ostream.h>

#include "llvm_mc.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/isa/code_object.hpp"

namespace wavescope::compiler::isa {
namespace {

bool starts(std::string_view s, std::string_view prefix) { return s.starts_with(prefix); }

// The category SQTT reports an instruction under, from its mnemonic (stable across
// RDNA3/RDNA4/CDNA, unlike LLVM's per-generation opcode enums).
InstCategory categorize(std::string_view m) {
  if (starts(m, "s_endpgm")) return InstCategory::Endpgm;
  if (starts(m, "s_barrier")) return InstCategory::Barrier;
  if (starts(m, "s_waitcnt") || starts(m, "s_wait_")) return InstCategory::Waitcnt;
  if (starts(m, "s_sendmsg")) return InstCategory::Message;
  if (starts(m, "s_branch") || starts(m, "s_cbranch") || starts(m, "s_setpc") ||
      starts(m, "s_swappc") || starts(m, "s_call") || starts(m, "s_rfe"))
    return InstCategory::Branch;
  if (starts(m, "s_load") || starts(m, "s_buffer_") || starts(m, "s_store") ||
      starts(m, "s_scratch_") || starts(m, "s_atomic") || starts(m, "s_atc_probe") ||
      starts(m, "s_dcache") || starts(m, "s_memtime") || starts(m, "s_memrealtime") ||
      starts(m, "s_prefetch_data"))
    return InstCategory::Smem;
  if (m == "s_nop" || m == "s_delay_alu" || m == "s_clause" || m == "s_code_end" ||
      m == "s_sleep" || starts(m, "s_set_inst_prefetch") || m == "s_inst_prefetch" ||
      m == "s_icache_inv" || m == "s_trap" || starts(m, "s_ttrace") || m == "s_version" ||
      m == "s_singleuse_vdst" || m == "s_setprio" || m == "s_sethalt")
    return InstCategory::Other;
  if (starts(m, "s_")) return InstCategory::Salu;
  if (starts(m, "ds_")) return InstCategory::Lds;
  if (starts(m, "buffer_") || starts(m, "tbuffer_") || starts(m, "global_") || starts(m, "flat_") ||
      starts(m, "scratch_") || starts(m, "image_"))
    return InstCategory::Vmem;
  if (starts(m, "v_")) return InstCategory::Valu;
  return InstCategory::Other;
}

BranchKind branch_kind(std::string_view m) {
  if (starts(m, "s_endpgm")) return BranchKind::Return;
  if (m == "s_branch") return BranchKind::Unconditional;
  if (starts(m, "s_cbranch")) return BranchKind::Conditional;
  if (starts(m, "s_setpc")) return BranchKind::Indirect;
  if (starts(m, "s_swappc") || starts(m, "s_call")) return BranchKind::Call;
  return BranchKind::None;
}

std::string trim(std::string s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

// Longer than any AMDGPU instruction with its literals.
constexpr std::size_t kDecodeWindow = 32;

}  // namespace

struct Disassembler::Impl {
  GpuTarget gpu;
  detail::LlvmMc mc;
  llvm::MCContext context;
  std::unique_ptr<llvm::MCDisassembler> disassembler;
  std::unique_ptr<llvm::MCInstPrinter> printer;

  explicit Impl(const GpuTarget &target)
      : gpu(target), mc(target),
        context(mc.triple, mc.asm_info.get(), mc.registers.get(), mc.subtarget.get()) {
    disassembler.reset(mc.target->createMCDisassembler(*mc.subtarget, context));
    printer.reset(mc.target->createMCInstPrinter(mc.triple, mc.asm_info->getAssemblerDialect(),
                                                 *mc.asm_info, *mc.instr_info, *mc.registers));
    if (!disassembler || !printer)
      throw Error(ErrorKind::Internal, "LLVM has no AMDGPU disassembler for " + gpu.processor);
  }
};

Disassembler::Disassembler(const GpuTarget &target) : impl_(std::make_unique<Impl>(target)) {}
Disassembler::~Disassembler() = default;
Disassembler::Disassembler(Disassembler &&) noexcept = default;
Disassembler &Disassembler::operator=(Disassembler &&) noexcept = default;

const GpuTarget &Disassembler::target() const { return impl_->gpu; }

Instruction Disassembler::decode(std::span<const std::uint8_t> bytes, std::uint64_t address) const {
  Instruction inst;
  inst.address = address;
  if (bytes.size() < 4)
    throw_bad_input(fmt::format("code ends in the middle of an instruction at {:#x} ({} byte(s) "
                                "left, instructions are at least 4)",
                                address, bytes.size()));
  // LLVM's AMDGPU disassembler trusts that an instruction's literal follows it: given a window that
  // ends right after an opcode asking for one, it crashes while describing the problem (a null
  // comment stream under decodeLiteralConstant). So the tail of the code is decoded from a
  // zero-padded copy, and an instruction that reaches into the padding is reported as cut off.
  std::array<std::uint8_t, kDecodeWindow> padded{};
  auto window = bytes;
  if (bytes.size() < padded.size()) {
    std::memcpy(padded.data(), bytes.data(), bytes.size());
    window = padded;
  }
  llvm::MCInst mc_inst;
  std::uint64_t size = 0;
  const auto status = impl_->disassembler->getInstruction(
      mc_inst, size, llvm::ArrayRef<std::uint8_t>(window.data(), window.size()), address,
      llvm::nulls());
  if (status != llvm::MCDisassembler::Fail && size > bytes.size())
    throw_bad_input(fmt::format("code ends in the middle of an instruction at {:#x}: it needs {} "
                                "bytes, {} are left",
                                address, size, bytes.size()));
  if (status == llvm::MCDisassembler::Fail || size == 0 || size > inst.raw.size()) {
    std::uint32_t word;
    std::memcpy(&word, bytes.data(), 4);
    inst.size = 4;
    std::memcpy(inst.raw.data(), bytes.data(), 4);
    inst.text = fmt::format(".long {:#010x}", word);
    inst.mnemonic = ".long";
    inst.valid = false;
    return inst;
  }
  inst.size = static_cast<std::uint32_t>(size);
  std::memcpy(inst.raw.data(), bytes.data(), std::min<std::size_t>(size, inst.raw.size()));
  std::string text;
  llvm::raw_string_ostream os(text);
  impl_->printer->printInst(&mc_inst, address, "", *impl_->mc.subtarget, os);
  os.flush();
  inst.text = trim(std::move(text));
  inst.mnemonic = inst.text.substr(0, inst.text.find_first_of(" \t"));
  inst.category = categorize(inst.mnemonic);
  inst.branch = branch_kind(inst.mnemonic);
  if (inst.branch == BranchKind::Unconditional || inst.branch == BranchKind::Conditional ||
      inst.branch == BranchKind::Call) {
    std::uint64_t target = 0;
    if (impl_->mc.analysis && impl_->mc.analysis->evaluateBranch(mc_inst, address, size, target))
      inst.branch_target = target;
  }
  return inst;
}

std::vector<Instruction> Disassembler::disassemble(std::span<const std::uint8_t> bytes,
                                                   std::uint64_t address) const {
  std::vector<Instruction> out;
  out.reserve(bytes.size() / 6);
  std::size_t offset = 0;
  while (offset < bytes.size()) {
    out.push_back(decode(bytes.subspan(offset), address + offset));
    offset += out.back().size;
  }
  return out;
}

namespace {

// A code object's bad code is reported with the code object's name in front.
template <class Decode>
std::vector<Instruction> naming_origin(const CodeObject &code, Decode &&decode) {
  try {
    return decode();
  } catch (const Error &e) {
    if (e.kind() != ErrorKind::BadInput) throw;
    throw Error(ErrorKind::BadInput, code.origin() + ": " + e.what());
  }
}

}  // namespace

std::vector<Instruction> disassemble_text(const CodeObject &code) {
  return naming_origin(code, [&] {
    return Disassembler(code.target()).disassemble(code.text_bytes(), code.text().address);
  });
}

std::vector<Instruction> disassemble_kernel(const CodeObject &code, const Kernel &kernel) {
  const auto text = code.text_bytes();
  const std::uint64_t offset = kernel.entry - code.text().address;
  return naming_origin(code, [&] {
    return Disassembler(code.target())
        .disassemble(text.subspan(offset, kernel.code_size), kernel.entry);
  });
}

}  // namespace wavescope::compiler::isa
