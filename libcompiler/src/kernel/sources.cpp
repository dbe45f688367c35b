// Kernel sources and run records (sources.hpp).

#include "wavescope/compiler/kernel/sources.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/kernel/variables.hpp"
#include "wavescope/compiler/rewrite/rewrite_contexts.hpp"
#include "wavescope/compiler/rewrite/tinygrad_rewrites.hpp"

namespace wavescope::compiler::kernel {

std::vector<UOp> tinygrad_kernels(const std::filesystem::path &path) {
  const auto trace = rewrite::read_tinygrad_rewrites(path);
  std::vector<UOp> kernels;
  for (const auto &group : trace.groups()) {
    for (const auto &rw : group.rewrites) {
      if (rw.name != "View Base AST") continue;
      UOp ast = trace.rebuild(rw.input);
      if (ast.op() != Op::SINK)
        throw Error(ErrorKind::BadInput,
                    fmt::format("{}: context '{}': the AST is a {}, not a SINK", path.string(),
                                rewrite::strip_ansi(group.name), to_string(ast.op())));
      // The context's display name is the kernel's name (tinygrad's KernelInfo still says 'test').
      ast = ast.with_arg(kernel_info(rewrite::strip_ansi(group.name)));
      // tinygrad's variables (a PARAM with an empty STACK source) as ours (no sources).
      ast = variables_from_tinygrad(ast);
      try {
        validate_kernel(ast);
      } catch (const Error &e) {
        throw Error(ErrorKind::BadInput, fmt::format("{}: context '{}': {}", path.string(),
                                                     rewrite::strip_ansi(group.name), e.what()));
      }
      kernels.push_back(ast);
      break;  // the input graph of the context's first "View Base AST" step
    }
  }
  return kernels;
}

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
    const std::string bytes = ss.str();
    const std::span<const std::uint8_t> head(reinterpret_cast<const std::uint8_t *>(bytes.data()),
                                             std::min<std::size_t>(bytes.size(), 4096));
    if (rewrite::looks_like_pickle(head)) {
      kernels = tinygrad_kernels(path);
      if (kernels.empty())
        throw Error(ErrorKind::BadInput,
                    fmt::format("{}: no kernel contexts (no \"View Base AST\" step)", source));
    } else {
      kernels.push_back(kernel_from_json(bytes, source));
    }
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
  if (!r.variables.empty()) j["variables"] = r.variables;
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
  const std::string vars = r.variables.empty() ? "" : "  " + variables_text(r.variables);
  if (!r.checked)
    return fmt::format("{}  {}{}  ran (not checked against the interpreter)", r.kernel, r.target,
                       vars);
  return fmt::format("{}  {}{}  max abs {:.3g}  max rel {:.3g}  {}", r.kernel, r.target, vars,
                     r.max_abs_err, r.max_rel_err,
                     r.ok ? "ok"
                          : fmt::format("FAILED ({} elements over tolerance)", r.mismatches));
}

}  // namespace wavescope::compiler::kernel
