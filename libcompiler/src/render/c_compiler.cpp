// Compiling and running C kernels with the system C compiler (c_backend.hpp: CKernel).

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "codegen/llvm_tool.hpp"
#include "host_buffers.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/render/c_backend.hpp"

namespace wavescope::compiler::render {
namespace {

using kernel::HostBuffer;
using kernel::KernelParam;

Error bad(const std::string &what) { return Error(ErrorKind::BadInput, what); }

// --- compiling ------------------------------------------------------------------------------

std::filesystem::path make_temp_dir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "wavescope-cc-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw Error(ErrorKind::Internal, "cannot create a temporary folder");
  return tmpl;
}

std::string read_file(const std::filesystem::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool on_path(const std::string &program) {
  const char *path = std::getenv("PATH");
  if (!path) return false;
  std::stringstream dirs(path);
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  return false;
}

}  // namespace

std::string host_c_compiler() {
  const char *cc = std::getenv("CC");
  if (cc && *cc) return cc;
  static const std::string found = [] {
    // LLVM 22's clang (clang-22, installed with the LLVM the project builds on) first: on the
    // heuristic's conv2d it makes 37 GFLOP/s of what clang 14 makes 30 and gcc 12 28.
    if (auto own = codegen::own_llvm_tool("clang")) return *own;
    return std::string(on_path("clang") ? "clang" : "cc");
  }();
  return found;
}

struct CKernel::Impl {
  std::filesystem::path dir;
  void *handle = nullptr;
  void (*entry)(void **) = nullptr;
  std::vector<KernelParam> params;
  std::vector<lower::ScalarParam> scalars;
  ~Impl() {
    if (handle) dlclose(handle);
    std::error_code ec;
    if (!dir.empty()) std::filesystem::remove_all(dir, ec);
  }
};

CKernel::CKernel(CKernel &&) noexcept = default;
CKernel &CKernel::operator=(CKernel &&) noexcept = default;
CKernel::~CKernel() = default;

CKernel CKernel::compile(const std::string &source, const std::vector<KernelParam> &params,
                         const std::vector<lower::ScalarParam> &scalars) {
  auto impl = std::make_unique<Impl>();
  impl->params = params;
  impl->scalars = scalars;
  impl->dir = make_temp_dir();
  const auto src = impl->dir / "kernel.c", so = impl->dir / "kernel.so", log = impl->dir / "cc.log";
  {
    std::ofstream out(src);
    out << source;
  }
  const std::string cc = host_c_compiler();
  const pid_t pid = fork();
  if (pid < 0) throw Error(ErrorKind::Internal, "fork failed");
  if (pid == 0) {
    std::FILE *f = std::freopen(log.c_str(), "w", stderr);
    (void)f;
    dup2(2, 1);
    execlp(cc.c_str(), cc.c_str(), "-std=c11", "-O2", "-march=native", "-fPIC", "-shared",
           "-ffp-contract=off", "-fno-strict-aliasing", "-fwrapv", "-fno-math-errno", "-Wall", "-o",
           so.c_str(), src.c_str(), "-lm", static_cast<char *>(nullptr));
    std::perror("exec");
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw bad(fmt::format("the C compiler ({}) failed: {}", cc, read_file(log)));
  impl->handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!impl->handle) throw bad(fmt::format("dlopen: {}", dlerror()));
  impl->entry = reinterpret_cast<void (*)(void **)>(dlsym(impl->handle, "wavescope_entry"));
  if (!impl->entry) throw bad("the compiled kernel has no wavescope_entry");
  CKernel k;
  k.impl_ = std::move(impl);
  return k;
}

void CKernel::run_raw(void **args) const { impl_->entry(args); }

void CKernel::run(std::vector<HostBuffer> &buffers,
                  const std::vector<std::int64_t> &scalar_values) const {
  auto packed = pack_buffers(impl_->params, buffers);
  std::vector<long long> values(scalar_values.begin(), scalar_values.end());
  auto args = entry_args(impl_->params, packed, impl_->scalars, values);
  impl_->entry(args.data());
  unpack_written(impl_->params, packed, buffers);
}

}  // namespace wavescope::compiler::render
