// Kernel sources and run records (sources.hpp).

#include "wavescope/compiler/kernel/sources.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"

namespace wavescope::compiler::kernel {

std::vector<UOp> load_kernels(const std::string &source, const std::string &only) {
  std::vector<UOp> kernels;
  bool builtin = false;
  for (const auto &n : builtin_example_names()) builtin |= n == source;
  if (builtin) {
    kernels = builtin_example(source);
  } else {
    const std::filesystem::path path(source);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
      throw Error(ErrorKind::Usage,
                  fmt::format("{}: neither a kernel file nor a built-in example (elementwise, "
                              "reduce, matmul, softmax, layernorm, conv2d)",
                              source));
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    kernels.push_back(kernel_from_json(ss.str(), source));
  }
  if (only.empty()) return kernels;
  std::vector<UOp> picked;
  for (const auto &k : kernels)
    if (kernel_name(k) == only) picked.push_back(k);
  if (picked.empty()) {
    std::string names;
    for (const auto &k : kernels) names += (names.empty() ? "" : ", ") + kernel_name(k);
    throw Error(ErrorKind::Usage,
                fmt::format("{}: no kernel named '{}' (it has: {})", source, only, names));
  }
  return picked;
}

std::string to_json_line(const RunRecord &r) {
  nlohmann::ordered_json j;
  j["kernel"] = r.kernel;
  j["target"] = r.target;
  if (r.checked) {
    j["max_abs_err"] = r.max_abs_err;
    j["max_rel_err"] = r.max_rel_err;
    j["mismatches"] = r.mismatches;
  } else {
    j["max_abs_err"] = nullptr;
    j["max_rel_err"] = nullptr;
  }
  j["checked"] = r.checked;
  j["ok"] = r.ok;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string to_text_line(const RunRecord &r) {
  if (!r.checked) return fmt::format("{}  {}  ran (not checked; use --check)", r.kernel, r.target);
  return fmt::format("{}  {}  max abs {:.3g}  max rel {:.3g}  {}", r.kernel, r.target,
                     r.max_abs_err, r.max_rel_err,
                     r.ok ? "ok"
                          : fmt::format("FAILED ({} elements over tolerance)", r.mismatches));
}

}  // namespace wavescope::compiler::kernel
