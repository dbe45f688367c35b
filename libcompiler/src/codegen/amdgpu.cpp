// AMDGPU code objects through LLVM's AMDGPU backend and lld (amdgpu.hpp).

#include "wavescope/compiler/codegen/amdgpu.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>

#include <fmt/format.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Triple.h>

#include "llvm_module.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/lower/lowering.hpp"
#include "wavescope/compiler/render/c_backend.hpp"
#include "wavescope/compiler/render/llvm_ir.hpp"

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
}

extern char **environ;

namespace wavescope::compiler::codegen {
namespace {

constexpr const char *kTriple = "amdgcn-amd-amdhsa";

void initialize_amdgpu() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
  });
}

std::unique_ptr<llvm::TargetMachine> make_machine(const std::string &processor) {
  initialize_amdgpu();
  const llvm::Triple triple(kTriple);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) throw Error(ErrorKind::Internal, "LLVM has no AMDGPU target: " + error);
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine(triple, processor, "", options, llvm::Reloc::PIC_, std::nullopt,
                                  llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    throw Error(ErrorKind::Internal, "LLVM could not create a target machine for " + processor);
  return machine;
}

std::string emit(const std::string &ir, const std::string &processor, llvm::CodeGenFileType type,
                 const std::string &origin) {
  llvm::LLVMContext context;
  auto module = detail::parse_module(ir, context, origin);
  auto machine = make_machine(processor);
  module->setDataLayout(machine->createDataLayout());
  module->setTargetTriple(machine->getTargetTriple());
  detail::optimize_module(*module, machine.get());
  llvm::SmallString<0> out;
  llvm::raw_svector_ostream os(out);
  llvm::legacy::PassManager pm;
  if (machine->addPassesToEmitFile(pm, os, nullptr, type))
    throw Error(ErrorKind::Internal, "the AMDGPU target cannot emit this file type");
  pm.run(*module);
  return std::string(out.str());
}

std::filesystem::path make_temp_dir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "wavescope-lld-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw Error(ErrorKind::Internal, "cannot create a temporary folder");
  return tmpl;
}

std::string read_all(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

struct TempDir {
  std::filesystem::path path = make_temp_dir();
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

std::vector<std::uint8_t> link(const std::string &object, const std::string &origin) {
  TempDir dir;
  const auto in = dir.path / "kernel.o", out = dir.path / "kernel.hsaco",
             log = dir.path / "lld.log";
  {
    std::ofstream f(in, std::ios::binary);
    f << object;
  }
  const std::string lld = ld_lld_path();
  std::vector<std::string> args{lld, "-shared", "--no-undefined", "-o", out.string(), in.string()};
  std::vector<char *> argv;
  for (auto &a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, lld.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    throw Error(ErrorKind::BadInput,
                fmt::format("{}: cannot run the linker {}: {} (set WAVESCOPE_LD_LLD to LLVM 22's "
                            "ld.lld)",
                            origin, lld, std::strerror(rc)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw Error(ErrorKind::BadInput,
                fmt::format("{}: the linker {} failed: {}", origin, lld, read_all(log)));
  const std::string bytes = read_all(out);
  return std::vector<std::uint8_t>(bytes.begin(), bytes.end());
}

}  // namespace

const std::vector<std::string> &amdgpu_targets() {
  static const std::vector<std::string> t{"gfx1100", "gfx1201", "gfx950"};
  return t;
}

bool is_amdgpu_target(const std::string &name) {
  const auto &t = amdgpu_targets();
  return std::find(t.begin(), t.end(), name) != t.end();
}

std::string ld_lld_path() {
  if (const char *env = std::getenv("WAVESCOPE_LD_LLD"); env && *env) return env;
  const std::filesystem::path own = std::filesystem::path(WAVESCOPE_LLVM_TOOLS_DIR) / "ld.lld";
  std::error_code ec;
  if (std::filesystem::exists(own, ec)) return own.string();
  return "ld.lld-22";
}

namespace {

void check_target(const std::string &processor) {
  if (!is_amdgpu_target(processor))
    throw Error(ErrorKind::Usage,
                fmt::format("unknown AMDGPU target '{}' (gfx1100, gfx1201 or gfx950)", processor));
}

AmdgpuKernel render_lowered(const lower::LoweredKernel &lowered, const std::string &processor) {
  AmdgpuKernel k;
  k.processor = processor;
  k.name = lowered.name;
  k.symbol = render::c_identifier(lowered.name);
  k.launch = lowered.launch;
  k.local_bytes = lowered.local_bytes;
  render::LlvmTarget target;
  target.amdgpu = true;
  k.llvm_ir = render::render_llvm_ir(lowered, target);
  return k;
}

void build(AmdgpuKernel &k, bool assembly) {
  const std::string origin = fmt::format("{} for {}", k.name, k.processor);
  if (assembly)
    k.assembly = emit(k.llvm_ir, k.processor, llvm::CodeGenFileType::AssemblyFile, origin);
  k.code_object =
      link(emit(k.llvm_ir, k.processor, llvm::CodeGenFileType::ObjectFile, origin), origin);
}

}  // namespace

AmdgpuKernel render_amdgpu(const UOp &sink, const std::string &processor) {
  check_target(processor);
  return render_lowered(lower::lower(sink, lower::render_target(processor)), processor);
}

AmdgpuKernel compile_amdgpu(const UOp &sink, const std::string &processor, bool assembly) {
  AmdgpuKernel k = render_amdgpu(sink, processor);
  build(k, assembly);
  return k;
}

AmdgpuKernel compile_lowered(const lower::LoweredKernel &kernel, const std::string &processor,
                             bool assembly) {
  check_target(processor);
  AmdgpuKernel k = render_lowered(kernel, processor);
  build(k, assembly);
  return k;
}

}  // namespace wavescope::compiler::codegen
