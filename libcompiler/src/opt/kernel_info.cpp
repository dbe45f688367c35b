// KernelInfo read from and written to the SINK's arg (kernel_info.hpp).

#include "wavescope/compiler/opt/kernel_info.hpp"

#include <fmt/format.h>

#include "wavescope/compiler/kernel/kernel_ast.hpp"

namespace wavescope::compiler::opt {
namespace {

// The balanced "(...)" that starts at text[at] ("" when there is none).
std::string parenthesized(const std::string &text, std::size_t at) {
  if (at >= text.size() || text[at] != '(') return {};
  int depth = 0;
  char quote = 0;
  for (std::size_t i = at; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    if (c == '(') ++depth;
    if (c == ')' && --depth == 0) return text.substr(at, i - at + 1);
  }
  return {};
}

// The value text after "key=" up to the next top-level ',' or ')'.
std::optional<std::string> field(const std::string &text, const std::string &key) {
  const auto at = text.find(key + "=");
  if (at == std::string::npos) return std::nullopt;
  const std::size_t v = at + key.size() + 1;
  if (v < text.size() && text[v] == '(') return parenthesized(text, v);
  std::size_t end = v;
  while (end < text.size() && text[end] != ',' && text[end] != ')') ++end;
  return text.substr(v, end - v);
}

std::string tuple_repr(const std::vector<Opt> &opts) {
  std::string s;
  for (const auto &o : opts) s += (s.empty() ? "" : ", ") + to_repr(o);
  return "(" + s + (opts.size() == 1 ? ",)" : ")");
}

}  // namespace

KernelInfo kernel_info_of(const UOp &sink) {
  KernelInfo info;
  if (!sink || sink.op() != Op::SINK) return info;
  auto f = std::get_if<ForeignArg>(&sink.arg());
  if (!f || f->type != "KernelInfo") return info;
  info.name = kernel::kernel_name(sink);
  if (auto a = field(f->text, "applied_opts"); a && !a->empty() && *a != "None")
    info.applied_opts = parse_opt_reprs(*a);
  if (auto o = field(f->text, "opts_to_apply"); o && !o->empty() && *o != "None")
    info.opts_to_apply = parse_opt_reprs(*o);
  if (auto d = field(f->text, "dont_use_locals")) info.dont_use_locals = *d == "True";
  return info;
}

Arg to_arg(const KernelInfo &info) {
  std::string text = fmt::format("KernelInfo(name='{}'", info.name);
  if (!info.applied_opts.empty()) text += ", applied_opts=" + tuple_repr(info.applied_opts);
  if (info.opts_to_apply) text += ", opts_to_apply=" + tuple_repr(*info.opts_to_apply);
  if (info.dont_use_locals) text += ", dont_use_locals=True";
  return ForeignArg{"KernelInfo", text + ")"};
}

UOp with_opt_choice(const UOp &sink, const OptChoice &choice) {
  KernelInfo info = kernel_info_of(sink);
  info.name = kernel::kernel_name(sink);
  info.applied_opts.clear();
  switch (choice.mode) {
  case OptChoice::Mode::Heuristic: info.opts_to_apply.reset(); break;
  case OptChoice::Mode::None: info.opts_to_apply = std::vector<Opt>{}; break;
  case OptChoice::Mode::List: info.opts_to_apply = choice.opts; break;
  }
  return sink.with_arg(to_arg(info));
}

}  // namespace wavescope::compiler::opt
