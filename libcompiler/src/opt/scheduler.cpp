// The optimizer's view of a kernel and the optimization actions (scheduler.hpp).

#include "wavescope/compiler/opt/scheduler.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "graph_util.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/opt/kernel_info.hpp"
#include "wavescope/compiler/opt/range_passes.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"

namespace wavescope::compiler::opt {

using detail::axis_type;
using detail::extent;
using detail::range_arg;

namespace {

bool in(AxisType t, std::initializer_list<AxisType> types) {
  return std::find(types.begin(), types.end(), t) != types.end();
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto &c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

void outputs(const UOp &u, std::vector<UOp> &out) {
  if (u.op() == Op::GROUP)
    for (const auto &s : u.src()) outputs(s, out);
  else if (u.op() == Op::END)
    for (std::size_t k = 1; k < u.size(); ++k)
      for (const auto &r : detail::ranges_in(u.src(k)))
        if (axis_type(r) != AxisType::Reduce && std::find(out.begin(), out.end(), r) == out.end())
          out.push_back(r);
}

UOp identity_of(Op op, DType t) {
  if (op == Op::ADD) return is_float(t) ? const_float(0.0, t) : const_int(0, t);
  if (op == Op::MUL) return is_float(t) ? const_float(1.0, t) : const_int(1, t);
  return is_float(t) ? const_float(-INFINITY, t) : const_int(dtype_min(t), t);
}

}  // namespace

Scheduler::Scheduler(UOp ast, const Target &target) : ast_(std::move(ast)), target_(&target) {
  const KernelInfo info = kernel_info_of(ast_);
  applied_ = info.applied_opts;
  dont_use_locals_ = info.dont_use_locals;
  for (const auto &r : nodes())
    if (r.op() == Op::RANGE && std::holds_alternative<RangeArg>(r.arg()))
      next_axis_ = std::max(next_axis_, range_arg(r).axis + 1);
}

const std::vector<UOp> &Scheduler::nodes() const {
  if (nodes_of_ != ast_.id()) {
    nodes_ = toposort(ast_);
    nodes_of_ = ast_.id();
  }
  return nodes_;
}

std::vector<UOp> Scheduler::rngs() const {
  // The heuristic asks for the shape many times between changes of the kernel: kept per kernel
  // (ids are never reused).
  if (rngs_of_ != ast_.id()) {
    rngs_.clear();
    for (const auto &r : nodes())
      if (r.op() == Op::RANGE && std::holds_alternative<RangeArg>(r.arg()) &&
          r.dtype() != dtypes::void_ && r.vmax() > 0 && axis_type(r) != AxisType::Device)
        rngs_.push_back(r);
    std::stable_sort(rngs_.begin(), rngs_.end(), detail::range_before);
    rngs_of_ = ast_.id();
  }
  return rngs_;
}

std::vector<std::int64_t> Scheduler::full_shape() const {
  std::vector<std::int64_t> out;
  for (const auto &r : rngs()) out.push_back(extent(r));
  return out;
}

std::vector<AxisType> Scheduler::axis_types() const {
  std::vector<AxisType> out;
  for (const auto &r : rngs()) out.push_back(axis_type(r));
  return out;
}

std::string Scheduler::shape_text() const {
  std::string out;
  for (const auto &r : rngs()) {
    const auto e = extent(r);
    out += fmt::format("{}{}{}", out.empty() ? "" : " ", axis_letter(axis_type(r)),
                       e < 0 ? std::string("?") : std::to_string(e));
  }
  return out.empty() ? "(no axes)" : out;
}

std::vector<std::size_t> Scheduler::axes_of(std::initializer_list<AxisType> types) const {
  std::vector<std::size_t> out;
  const auto t = axis_types();
  for (std::size_t i = 0; i < t.size(); ++i)
    if (in(t[i], types)) out.push_back(i);
  return out;
}

std::vector<UOp> Scheduler::ranges_of(std::initializer_list<AxisType> types) const {
  std::vector<UOp> out;
  for (const auto &r : rngs())
    if (in(axis_type(r), types)) out.push_back(r);
  return out;
}

std::vector<std::size_t> Scheduler::upcastable_dims() const {
  std::vector<std::size_t> out;
  const auto s = full_shape();
  for (auto i : axes_of({AxisType::Global, AxisType::Local, AxisType::Weak, AxisType::Loop}))
    if (s[i] > 1) out.push_back(i);
  return out;
}

std::vector<std::size_t> Scheduler::unrollable_dims() const {
  std::vector<std::size_t> out;
  const auto s = full_shape();
  for (auto i : axes_of({AxisType::GroupReduce, AxisType::Reduce}))
    if (s[i] > 1) out.push_back(i);
  return out;
}

std::int64_t Scheduler::upcast_size() const {
  std::int64_t n = 1;
  const auto s = full_shape();
  for (auto i : axes_of({AxisType::Upcast, AxisType::Unroll})) n *= std::max<std::int64_t>(1, s[i]);
  return n;
}

std::vector<std::int64_t> Scheduler::output_shape() const {
  auto s = full_shape();
  const auto t = axis_types();
  for (std::size_t i = 0; i < s.size(); ++i)
    if (in(t[i], {AxisType::Reduce, AxisType::Unroll, AxisType::GroupReduce})) s[i] = 1;
  return s;
}

std::size_t Scheduler::upcasted() const {
  return axes_of({AxisType::Upcast, AxisType::Unroll}).size();
}

std::size_t Scheduler::group_for_reduces() const { return axes_of({AxisType::GroupReduce}).size(); }

std::vector<UOp> Scheduler::reduceops() const {
  std::vector<UOp> out;
  for (const auto &u : nodes())
    if (u.op() == Op::REDUCE) out.push_back(u);
  return out;
}

UOp Scheduler::reduceop() const {
  for (const auto &u : nodes())
    if (u.op() == Op::REDUCE) return u;
  return {};
}

std::vector<UOp> Scheduler::bufs() const {
  std::vector<UOp> out;
  for (const auto &u : nodes())
    if (u.op() == Op::INDEX && u.size() >= 2 &&
        (u.src(0).op() == Op::PARAM || u.src(0).op() == Op::BUFFER))
      out.push_back(u);
  std::reverse(out.begin(), out.end());
  return out;
}

std::vector<UOp> Scheduler::output_rngs() const {
  std::vector<UOp> out;
  for (const auto &s : ast_.src()) outputs(s, out);
  return out;
}

std::vector<UOp> Scheduler::globalizable_rngs() const {
  std::vector<UOp> out;
  for (const auto &r : output_rngs())
    if (in(axis_type(r), {AxisType::Weak, AxisType::Loop})) out.push_back(r);
  return out;
}

InvalidOpt Scheduler::invalid(const Opt &opt, const std::string &why) const {
  return InvalidOpt(fmt::format("invalid opt {} on kernel {} ({}): {}", to_string(opt),
                                kernel::kernel_name(ast_), shape_text(), why));
}

std::pair<UOp, UOp> Scheduler::shift_to(const UOp &rng, std::int64_t amount, AxisType type,
                                        bool top) {
  const std::int64_t n = extent(rng);
  const auto &a = range_arg(rng);
  if (n < 1 || amount < 1 || n % amount != 0)
    throw InvalidOpt(fmt::format("kernel {} ({}): {} does not divide axis {} ({}{})",
                                 kernel::kernel_name(ast_), shape_text(), amount, a.axis,
                                 axis_letter(a.type), n < 0 ? "?" : std::to_string(n)));
  const DType t = rng.dtype();
  const UOp created = range(const_int(amount, t), next_axis_++, type);
  const UOp shrunk = rng.with_src({const_int(n / amount, t)});
  const UOp sub =
      top ? created * const_int(n / amount, t) + shrunk : shrunk * const_int(amount, t) + created;
  ast_ = detail::substitute_pass(
      ast_, {{rng, sub}}, fmt::format("shift ({}) {} {}", a.axis, amount, lower(to_string(type))),
      true);
  return {shrunk, created};
}

void Scheduler::convert_loop_to_global() {
  if (!target_->has_local) return;
  std::unordered_map<UOp, UOp> map;
  for (const auto &r : globalizable_rngs()) {
    RangeArg a = range_arg(r);
    a.type = AxisType::Global;
    map.emplace(r, r.with_arg(a));
  }
  if (!map.empty()) ast_ = detail::substitute_pass(ast_, map, "loops to global", true);
}

UOp Scheduler::axis_range(const Opt &opt) const {
  const auto r = rngs();
  std::vector<std::size_t> list;
  std::string what = "axis";
  switch (opt.op) {
  case OptOp::Unroll:
    list = unrollable_dims();
    what = "unrollable (reduce) axis";
    break;
  case OptOp::Group:
  case OptOp::GroupTop:
    list = axes_of({AxisType::Reduce});
    what = "reduce axis";
    break;
  default:
    for (std::size_t i = 0; i < r.size(); ++i) list.push_back(i);
  }
  if (opt.axis < 0 || static_cast<std::size_t>(opt.axis) >= list.size())
    throw invalid(
        opt, fmt::format("there is no {} {} (the kernel has {})", what, opt.axis, list.size()));
  return r[list[static_cast<std::size_t>(opt.axis)]];
}

void Scheduler::apply_opt(const Opt &opt, bool append) {
  if (opt.op == OptOp::NoLocals) {
    check(axes_of({AxisType::Warp, AxisType::Local, AxisType::GroupReduce}).empty(), opt,
          "the kernel already has local axes");
    dont_use_locals_ = true;
    if (append) applied_.push_back(opt);
    return;
  }
  const bool split_kind = opt.op != OptOp::Padto && opt.op != OptOp::Swap;
  AxisType type = opt.type;
  bool top = opt.top;
  switch (opt.op) {
  case OptOp::Upcast: type = AxisType::Upcast, top = false; break;
  case OptOp::Unroll: type = AxisType::Unroll, top = false; break;
  case OptOp::Local: type = AxisType::Local, top = false; break;
  case OptOp::Group: type = AxisType::GroupReduce, top = false; break;
  case OptOp::GroupTop: type = AxisType::GroupReduce, top = true; break;
  case OptOp::Thread: type = AxisType::Thread, top = true; break;
  default: break;
  }
  if (split_kind && (type == AxisType::Local || type == AxisType::GroupReduce))
    check(target_->has_local, opt, fmt::format("target {} has no local axes", target_->name));
  const UOp rng = axis_range(opt);
  if (opt.op == OptOp::Padto) {
    padto(opt, rng);
  } else if (opt.op == OptOp::Swap) {
    swap(opt, rng);
  } else {
    split(opt, rng, type, top);
  }
  if (append) applied_.push_back(opt);
}

void Scheduler::split(const Opt &opt, const UOp &rng, AxisType type, bool top) {
  const AxisType have = axis_type(rng);
  const std::int64_t n = extent(rng);
  check(opt.arg > 0 || n > 0, opt, "an amount of 0 (the whole axis) needs a constant extent");
  const std::int64_t amt = opt.arg == 0 ? n : opt.arg;
  const std::string axis_text = fmt::format("axis {} is {}", opt.axis, to_string(have));
  if (UOp red = reduceop(); red && (type == AxisType::GroupReduce || group_for_reduces() > 0)) {
    std::int64_t upcast_local = 1;
    const auto s = full_shape();
    for (auto i :
         axes_of({AxisType::Upcast, AxisType::Warp, AxisType::Local, AxisType::GroupReduce}))
      upcast_local *= std::max<std::int64_t>(1, s[i]);
    const std::int64_t smem = amt * upcast_local * byte_size(red.dtype().base());
    check(smem <= target_->shared_max, opt,
          fmt::format("needs {} bytes of shared memory, the target has {}", smem,
                      target_->shared_max));
  }
  switch (type) {
  case AxisType::Unroll:
    check(amt <= 32, opt, "unrolls more than 32");
    check(in(have, {AxisType::GroupReduce, AxisType::Reduce}), opt,
          axis_text + ", UNROLL is for REDUCE/GROUP_REDUCE axes");
    break;
  case AxisType::Upcast:
    check(amt <= 16, opt, "upcasts more than 16");
    check(in(have, {AxisType::Global, AxisType::Local, AxisType::Weak, AxisType::Loop}), opt,
          axis_text + ", UPCAST is for GLOBAL/LOCAL/loop axes");
    break;
  case AxisType::Local:
    check(!dont_use_locals_, opt, "locals are forbidden (NOLOCALS)");
    check(in(have, {AxisType::Global, AxisType::Weak, AxisType::Loop}), opt,
          axis_text + ", LOCAL is for GLOBAL/loop axes");
    break;
  case AxisType::Thread: {
    check(target_->has_threads, opt, fmt::format("target {} has no threads", target_->name));
    check(amt <= target_->threads, opt,
          fmt::format("{} threads, the target has {}", amt, target_->threads));
    check(axes_of({AxisType::Thread}).empty(), opt, "the kernel is already threaded");
    const auto g = globalizable_rngs();
    check(std::find(g.begin(), g.end(), rng) != g.end(), opt,
          axis_text + ", THREAD is for output loops");
    break;
  }
  case AxisType::GroupReduce: {
    check(!dont_use_locals_, opt, "locals are forbidden (NOLOCALS)");
    check(have == AxisType::Reduce, opt, axis_text + ", GROUP is for REDUCE axes");
    for (const auto &red : reduceops()) {
      bool mine = false;
      for (std::size_t k = 1; k < red.size(); ++k) mine |= in_graph(red.src(k), rng);
      if (!mine) continue;
      for (const auto &r : detail::open_ranges_of(red))
        check(!in(axis_type(r), {AxisType::Reduce, AxisType::Unroll, AxisType::GroupReduce}), opt,
              "cannot group a reduce inside another reduce");
    }
    break;
  }
  default:
    throw invalid(opt, fmt::format("SPLIT into {} is not an optimization (UPCAST, UNROLL, LOCAL, "
                                   "GROUP_REDUCE or THREAD)",
                                   to_string(type)));
  }
  if (n > 0 && n % amt != 0)
    throw invalid(
        opt, fmt::format("{} does not divide axis {} ({}{})", amt, opt.axis, axis_letter(have), n));
  shift_to(rng, amt, type, top);
}

void Scheduler::padto(const Opt &opt, const UOp &rng) {
  const AxisType have = axis_type(rng);
  const std::int64_t n = extent(rng);
  check(n > 0, opt, "only axes of constant extent can be padded");
  check(!in(have, {AxisType::Upcast, AxisType::Unroll}), opt, "cannot pad an UPCAST/UNROLL axis");
  check(have != AxisType::Thread, opt, "cannot pad a THREAD axis");
  check(opt.arg > 0, opt, "pads to a multiple of 0");
  const std::int64_t padded = (n + opt.arg - 1) / opt.arg * opt.arg;
  check(n > padded / 4, opt,
        fmt::format("padding {} to {} more than quadruples the work", n, padded));
  if (padded == n) return;
  const UOp bigger = rng.with_src({const_int(padded, rng.src(0).dtype())});
  const UOp valid = lt(bigger, const_int(n, rng.dtype()));
  std::unordered_map<UOp, UOp> map{{rng, bigger}};
  for (const auto &b : bufs()) {
    const UOp &i = b.src(1);
    if (!in_graph(detail::index_of(i), rng)) continue;
    const UOp old = detail::gate_of(i);
    const UOp gate = old ? bit_and(valid, old) : valid;
    std::vector<UOp> src = b.src();
    src[1] = where(gate, detail::index_of(i), compiler::invalid());
    map.emplace(b, b.with_src(std::move(src)));
  }
  for (const auto &red : reduceops()) {
    bool over = false;
    for (std::size_t k = 1; k < red.size(); ++k) over |= in_graph(red.src(k), rng);
    if (!over) continue;
    const auto op = std::get<ReduceArg>(red.arg()).op;
    std::vector<UOp> src = red.src();
    src[0] = where(valid, red.src(0), identity_of(op, red.dtype()));
    map.emplace(red, red.with_src(std::move(src)));
  }
  ast_ = detail::substitute_pass(ast_, map,
                                 fmt::format("padto ({}) {}", range_arg(rng).axis, opt.arg));
}

void Scheduler::swap(const Opt &opt, const UOp &rng) {
  const auto r = rngs();
  check(opt.arg >= 0 && static_cast<std::size_t>(opt.arg) < r.size(), opt,
        fmt::format("there is no axis {} to swap with", opt.arg));
  const UOp &other = r[static_cast<std::size_t>(opt.arg)];
  check(axis_type(rng) == AxisType::Global && axis_type(other) == AxisType::Global, opt,
        "SWAP is for two GLOBAL axes");
  RangeArg a = range_arg(rng), b = range_arg(other);
  std::swap(a.axis, b.axis);
  const Arg mark = std::string("swap");
  UOp g = detail::substitute_pass(
      ast_, {{rng, rng.with_arg(a).with_tag(mark)}, {other, other.with_arg(b).with_tag(mark)}},
      fmt::format("swap ({}) ({})", range_arg(rng).axis, range_arg(other).axis));
  std::unordered_map<UOp, UOp> untag;
  for (const auto &x : detail::ranges_in(g))
    if (x.tag() == mark) untag.emplace(x, x.with_tag({}));
  ast_ = detail::substitute_pass(g, untag, "swap remove tags");
}

std::string Scheduler::axis_name() const {
  std::string name = reduceop() ? "r" : "E";
  std::vector<UOp> specials;
  for (const auto &u : nodes())
    if (u.op() == Op::SPECIAL) specials.push_back(u);
  std::sort(specials.begin(), specials.end(), [](const UOp &a, const UOp &b) {
    return std::get<std::string>(a.arg()) < std::get<std::string>(b.arg());
  });
  for (const auto &s : specials) name += "_" + compiler::to_string(s.vmax() + 1);
  for (const auto &r : rngs()) {
    const auto e = extent(r);
    name += "_" + (e < 0 ? compiler::to_string(r.vmax() + 1) : std::to_string(e));
  }
  return name;
}

UOp Scheduler::optimized_ast() const {
  rewrite::RewriteOptions o;
  o.name = "flatten range";
  UOp g = rewrite::graph_rewrite(ast_, flatten_range_rules(), o);
  KernelInfo info;
  const std::string given = kernel::kernel_name(ast_);
  static const std::regex optimizer_name("^[Er](_[0-9]+)+$");
  const bool has_name = kernel_info_of(ast_).name.size() > 0;
  info.name =
      !has_name || given == "test" || given == "kernel" || std::regex_match(given, optimizer_name)
          ? axis_name()
          : given;
  info.applied_opts = applied_;
  info.dont_use_locals = dont_use_locals_;
  return g.with_arg(to_arg(info));
}

}  // namespace wavescope::compiler::opt
