// Linking AMDGPU objects into code objects: lld in process, or the ld.lld program (linker.hpp).

#include "wavescope/compiler/codegen/linker.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>

#include <fmt/format.h>

#include "codegen/llvm_tool.hpp"
#include "wavescope/base/error.hpp"

#if WAVESCOPE_HAVE_LLD
#include <lld/Common/Driver.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/raw_ostream.h>
LLD_HAS_DRIVER(elf)
#else
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char **environ;
#endif

namespace wavescope::compiler::codegen {
namespace {

// lld reads its input from a file and writes its output to one: both live in a fresh folder
// (normally on tmpfs) that goes away with the link.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "wavescope-lld-XXXXXX").string();
    if (!mkdtemp(tmpl.data()))
      throw Error(ErrorKind::Internal,
                  fmt::format("cannot create a temporary folder for the linker ({})", tmpl));
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
};

std::string read_all(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_all(const std::filesystem::path &p, std::span<const std::uint8_t> bytes) {
  std::ofstream f(p, std::ios::binary);
  f.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!f)
    throw Error(ErrorKind::Internal, fmt::format("cannot write the linker's input {}", p.string()));
}

#if WAVESCOPE_HAVE_LLD

// lld keeps its state in one global context per process (lld::CommonLinkerContext): one link at
// a time. `unusable` says why lld cannot run again once it has said so.
std::mutex lld_mutex;
std::string lld_unusable;

void run_linker(const std::filesystem::path &in, const std::filesystem::path &out,
                const std::string &origin) {
  const std::lock_guard lock(lld_mutex);
  if (!lld_unusable.empty())
    throw Error(ErrorKind::Internal,
                fmt::format("{}: the in-process linker cannot run again in this process: {}",
                            origin, lld_unusable));
  const std::string in_path = in.string(), out_path = out.string();
  // One thread: the objects are small, and lld would otherwise start a thread pool in our process.
  const char *argv[] = {"ld.lld", "-shared",        "--no-undefined", "--threads=1",
                        "-o",     out_path.c_str(), in_path.c_str()};
  std::string messages;
  llvm::raw_string_ostream os(messages);
  // lldMain runs the driver in a CrashRecoveryContext, so that lld's fatal errors (which would
  // otherwise end the process) return here; that needs crash recovery enabled during the call.
  llvm::CrashRecoveryContext::Enable();
  const lld::Result result = lld::lldMain(argv, os, os, {{lld::Gnu, &lld::elf::link}});
  llvm::CrashRecoveryContext::Disable();
  os.flush();
  if (!result.canRunAgain)
    lld_unusable = fmt::format("{} ended a link it cannot recover from: {}", origin, messages);
  if (result.retCode != 0)
    throw Error(ErrorKind::BadInput, fmt::format("{}: lld failed: {}", origin, messages));
}

#else

void run_linker(const std::filesystem::path &in, const std::filesystem::path &out,
                const std::string &origin) {
  const auto log = in.parent_path() / "lld.log";
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
}

#endif

}  // namespace

std::vector<std::uint8_t> link_code_object(std::span<const std::uint8_t> object,
                                           const std::string &origin) {
  TempDir dir;
  const auto in = dir.path / "kernel.o", out = dir.path / "kernel.hsaco";
  write_all(in, object);
  run_linker(in, out, origin);
  const std::string bytes = read_all(out);
  if (bytes.empty())
    throw Error(ErrorKind::Internal, fmt::format("{}: the linker wrote no code object", origin));
  return std::vector<std::uint8_t>(bytes.begin(), bytes.end());
}

bool links_in_process() { return WAVESCOPE_HAVE_LLD != 0; }

std::string linker_description() {
#if WAVESCOPE_HAVE_LLD
  return fmt::format("lld {} (in process)", WAVESCOPE_LLD_VERSION);
#else
  return ld_lld_path();
#endif
}

std::string ld_lld_path() {
  if (const char *env = std::getenv("WAVESCOPE_LD_LLD"); env && *env) return env;
  return own_llvm_tool("ld.lld").value_or("ld.lld-22");
}

}  // namespace wavescope::compiler::codegen
