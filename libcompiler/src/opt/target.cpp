// Targets as the optimizer sees them (target.hpp).

#include "wavescope/compiler/opt/target.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::compiler::opt {
namespace {

Target host(std::string name) {
  Target t;
  t.name = std::move(name);
  t.has_threads = true;
  t.threads = 1;
  t.global_max = {1, 0, 0};
  return t;
}

Target amd(std::string name) {
  Target t;
  t.name = std::move(name);
  t.gpu = t.has_local = t.has_shared = true;
  t.global_max = {2147483647, 65535, 65535};
  t.local_max = {1024, 1024, 1024};
  t.shared_max = 65536;
  return t;
}

const std::vector<Target> &all() {
  static const std::vector<Target> targets{host("c"), host("cpu"), amd("gfx1100"), amd("gfx1201"),
                                           amd("gfx950")};
  return targets;
}

}  // namespace

const Target &target(std::string_view name) {
  for (const auto &t : all())
    if (t.name == name) return t;
  throw Error(ErrorKind::Usage,
              fmt::format("unknown target '{}' (c, cpu, gfx1100, gfx1201 or gfx950)", name));
}

const std::vector<std::string> &target_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto &t : all()) n.push_back(t.name);
    return n;
  }();
  return names;
}

Target cpu_with_threads(std::int64_t threads) {
  Target t = host("cpu");
  t.threads = threads;
  t.global_max = {threads, 0, 0};
  return t;
}

}  // namespace wavescope::compiler::opt
