// The kernel front end and the built-in examples (frontend.hpp).

#include "wavescope/compiler/kernel/frontend.hpp"

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"

namespace wavescope::compiler::kernel {
namespace {

Error bad(const std::string &what) { return Error(ErrorKind::BadInput, what); }

UOp idx_const(std::int64_t v) { return const_int(v, dtypes::index); }

}  // namespace

View View::contiguous(std::vector<std::int64_t> shape) {
  View v;
  v.shape = std::move(shape);
  v.strides.assign(v.shape.size(), 0);
  std::int64_t s = 1;
  for (std::size_t i = v.shape.size(); i-- > 0;) {
    v.strides[i] = v.shape[i] == 1 ? 0 : s;
    s *= v.shape[i];
  }
  for (auto n : v.shape) v.mask.emplace_back(0, n);
  return v;
}

std::int64_t View::numel() const {
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  return n;
}

View View::reshape(std::vector<std::int64_t> new_shape) const {
  View r = contiguous(new_shape);
  if (r.numel() != numel())
    throw bad(fmt::format("reshape: {} elements cannot become {}", numel(), r.numel()));
  // Only views that are a contiguous run (with broadcast-free, unmasked axes) reshape freely.
  std::int64_t expect = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && strides[i] != expect)
      throw bad("reshape: the view is not contiguous (permute or expand it after reshaping)");
    if (mask[i] != std::make_pair<std::int64_t, std::int64_t>(0, std::int64_t(shape[i])))
      throw bad("reshape: the view is padded or shrunk");
    expect *= shape[i];
  }
  r.offset = offset;
  return r;
}

View View::permute(const std::vector<std::size_t> &order) const {
  if (order.size() != shape.size()) throw bad("permute: the order must name every axis");
  View r;
  std::vector<bool> seen(shape.size());
  for (auto a : order) {
    if (a >= shape.size() || seen[a]) throw bad("permute: not a permutation");
    seen[a] = true;
    r.shape.push_back(shape[a]);
    r.strides.push_back(strides[a]);
    r.mask.push_back(mask[a]);
  }
  r.offset = offset;
  return r;
}

View View::expand(std::vector<std::int64_t> new_shape) const {
  if (new_shape.size() != shape.size()) throw bad("expand: the rank must stay the same");
  View r = *this;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (new_shape[i] == shape[i]) continue;
    if (shape[i] != 1) throw bad(fmt::format("expand: axis {} has size {}, not 1", i, shape[i]));
    r.shape[i] = new_shape[i];
    r.strides[i] = 0;
    r.mask[i] = {0, new_shape[i]};
  }
  return r;
}

View View::pad(const std::vector<std::pair<std::int64_t, std::int64_t>> &before_after) const {
  if (before_after.size() != shape.size()) throw bad("pad: one (before, after) per axis");
  View r = *this;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    auto [b, a] = before_after[i];
    if (b < 0 || a < 0) throw bad("pad: negative padding");
    r.shape[i] = shape[i] + b + a;
    r.offset -= b * strides[i];
    r.mask[i] = {mask[i].first + b, mask[i].second + b};
  }
  return r;
}

View View::shrink(const std::vector<std::pair<std::int64_t, std::int64_t>> &start_end) const {
  if (start_end.size() != shape.size()) throw bad("shrink: one (start, end) per axis");
  View r = *this;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    auto [s, e] = start_end[i];
    if (s < 0 || e > shape[i] || s > e)
      throw bad(fmt::format("shrink: [{}, {}) is outside axis {} of size {}", s, e, i, shape[i]));
    r.shape[i] = e - s;
    r.offset += s * strides[i];
    r.mask[i] = {std::max<std::int64_t>(mask[i].first - s, 0),
                 std::min<std::int64_t>(mask[i].second - s, e - s)};
  }
  return r;
}

std::pair<UOp, UOp> View::index(const std::vector<UOp> &idx) const {
  if (idx.size() != shape.size())
    throw bad(fmt::format("index: {} indices for {} axes", idx.size(), shape.size()));
  UOp flat = idx_const(offset);
  UOp valid;
  bool first = offset == 0;
  for (std::size_t i = 0; i < idx.size(); ++i) {
    if (strides[i] != 0) {
      UOp term = strides[i] == 1 ? idx[i] : idx[i] * idx_const(strides[i]);
      flat = first ? term : flat + term;
      first = false;
    }
    UOp conds[2];
    if (mask[i].first > 0) conds[0] = lt(idx_const(mask[i].first - 1), idx[i]);
    if (mask[i].second < shape[i]) conds[1] = lt(idx[i], idx_const(mask[i].second));
    for (const auto &c : conds)
      if (c) valid = valid ? bit_and(valid, c) : c;
  }
  return {flat, valid};
}

KernelBuilder::KernelBuilder(std::string name) : name_(std::move(name)) {}

UOp KernelBuilder::buffer(DType dtype, std::int64_t size) {
  ParamArg p;
  p.slot = next_slot_++;
  p.dtype = dtype;
  p.name = fmt::format("data{}", p.slot);
  p.addrspace = AddrSpace::Global;
  return UOp::make(Op::PARAM, dtype, {idx_const(size)}, std::move(p));
}

UOp KernelBuilder::range(std::int64_t extent, AxisType type) {
  return compiler::range(idx_const(extent), next_axis_++, type);
}

UOp KernelBuilder::f(double v, DType dtype) const { return const_float(v, dtype); }

UOp KernelBuilder::read(const UOp &buf, const UOp &idx) const {
  return UOp::make(Op::INDEX, {buf, idx});
}

UOp KernelBuilder::read(const UOp &buf, const View &view, const std::vector<UOp> &idx) const {
  auto [flat, valid] = view.index(idx);
  if (!valid) return read(buf, flat);
  // The index is clamped to a valid one where masked, so the read itself is always in bounds.
  const UOp safe = where(valid, flat, idx_const(0));
  return where(valid, read(buf, safe), const_float(0.0, buf.dtype().base()));
}

UOp KernelBuilder::reduce(Op op, const UOp &value, const std::vector<UOp> &ranges) const {
  std::vector<UOp> src{value};
  src.insert(src.end(), ranges.begin(), ranges.end());
  return UOp::make(Op::REDUCE, value.dtype(), std::move(src), ReduceArg{op, 0});
}

void KernelBuilder::store(const UOp &buf, const UOp &idx, const UOp &value,
                          const std::vector<UOp> &ranges) {
  UOp st = UOp::make(Op::STORE, {UOp::make(Op::INDEX, {buf, idx}), value});
  if (ranges.empty()) {
    outputs_.push_back(st);
    return;
  }
  std::vector<UOp> src{st};
  src.insert(src.end(), ranges.begin(), ranges.end());
  outputs_.push_back(UOp::make(Op::END, std::move(src)));
}

UOp KernelBuilder::finish() const {
  UOp sink = UOp::make(Op::SINK, dtypes::void_, outputs_, kernel_info(name_));
  validate_kernel(sink);
  return sink;
}

UOp exp(const UOp &x) {
  return UOp::make(Op::EXP2, {x * const_float(std::numbers::log2e, x.dtype())});
}
UOp relu(const UOp &x) { return maximum(x, const_float(0.0, x.dtype())); }
UOp rsqrt(const UOp &x) { return UOp::make(Op::RECIPROCAL, {UOp::make(Op::SQRT, {x})}); }

namespace {

constexpr DType f32 = dtypes::float32;

// out[i, j] = relu(a[i, j] * b[j] + 1) : b broadcast over the rows.
std::vector<UOp> elementwise() {
  const std::int64_t M = 16, N = 32;
  KernelBuilder k("E_16_32");
  auto out = k.buffer(f32, M * N), a = k.buffer(f32, M * N), b = k.buffer(f32, N);
  auto i = k.range(M), j = k.range(N);
  const View va = View::contiguous({M, N});
  const View vb = View::contiguous({1, N}).expand({M, N});
  auto v = relu(k.read(a, va, {i, j}) * k.read(b, vb, {i, j}) + k.f(1.0));
  k.store(out, va.index({i, j}).first, v, {i, j});
  return {k.finish()};
}

// out[i] = sum_j a[i, j] and the maximum over the first axis (a permuted view).
std::vector<UOp> reduce() {
  const std::int64_t M = 24, N = 40;
  std::vector<UOp> kernels;
  {
    KernelBuilder k("r_24_40");
    auto out = k.buffer(f32, M), a = k.buffer(f32, M * N);
    auto i = k.range(M), j = k.range(N, AxisType::Reduce);
    k.store(out, i, k.reduce(Op::ADD, k.read(a, View::contiguous({M, N}), {i, j}), {j}), {i});
    kernels.push_back(k.finish());
  }
  {
    KernelBuilder k("r_40_24");
    auto out = k.buffer(f32, N), a = k.buffer(f32, M * N);
    auto j = k.range(N), i = k.range(M, AxisType::Reduce);
    const View t = View::contiguous({M, N}).permute({1, 0});
    k.store(out, j, k.reduce(Op::MAX, k.read(a, t, {j, i}), {i}), {j});
    kernels.push_back(k.finish());
  }
  return kernels;
}

// C[i, j] = sum_k A[i, k] * B[k, j]; then relu(C) summed, as tinygrad's matmul+relu+sum.
std::vector<UOp> matmul() {
  const std::int64_t M = 16, K = 24, N = 20;
  std::vector<UOp> kernels;
  {
    KernelBuilder k("r_16_20_24");
    auto c = k.buffer(f32, M * N), a = k.buffer(f32, M * K), b = k.buffer(f32, K * N);
    auto i = k.range(M), j = k.range(N), r = k.range(K, AxisType::Reduce);
    // Both operands as (M, N, K) views: A expanded over N, B permuted and expanded over M.
    const View va = View::contiguous({M, 1, K}).expand({M, N, K});
    const View vb3 = View::contiguous({1, K, N}).permute({0, 2, 1}).expand({M, N, K});
    auto prod = k.read(a, va, {i, j, r}) * k.read(b, vb3, {i, j, r});
    k.store(c, View::contiguous({M, N}).index({i, j}).first, k.reduce(Op::ADD, prod, {r}), {i, j});
    kernels.push_back(k.finish());
  }
  {
    KernelBuilder k("r_320");
    auto out = k.buffer(f32, 1), c = k.buffer(f32, M * N);
    auto r = k.range(M * N, AxisType::Reduce);
    k.store(out, idx_const(0), k.reduce(Op::ADD, relu(k.read(c, r)), {r}), {});
    kernels.push_back(k.finish());
  }
  return kernels;
}

// softmax over the last axis of a (8, 48) input, one kernel: max, exp, sum, divide.
std::vector<UOp> softmax() {
  const std::int64_t M = 8, N = 48;
  KernelBuilder k("r_8_48_48_48");
  auto out = k.buffer(f32, M * N), x = k.buffer(f32, M * N);
  auto i = k.range(M), j = k.range(N);
  auto r0 = k.range(N, AxisType::Reduce), r1 = k.range(N, AxisType::Reduce);
  const View v = View::contiguous({M, N});
  auto mx = k.reduce(Op::MAX, k.read(x, v, {i, r0}), {r0});
  auto sum = k.reduce(Op::ADD, exp(k.read(x, v, {i, r1}) - mx), {r1});
  auto e = exp(k.read(x, v, {i, j}) - mx);
  k.store(out, v.index({i, j}).first, e * UOp::make(Op::RECIPROCAL, {sum}), {i, j});
  return {k.finish()};
}

// layernorm over the last axis of (6, 64): (x - mean) * rsqrt(var + 1e-5) * w + b.
std::vector<UOp> layernorm() {
  const std::int64_t M = 6, N = 64;
  KernelBuilder k("r_6_64_64_64");
  auto out = k.buffer(f32, M * N), x = k.buffer(f32, M * N), w = k.buffer(f32, N),
       b = k.buffer(f32, N);
  auto i = k.range(M), j = k.range(N);
  auto r0 = k.range(N, AxisType::Reduce), r1 = k.range(N, AxisType::Reduce);
  const View v = View::contiguous({M, N});
  const View row = View::contiguous({1, N}).expand({M, N});
  const UOp inv_n = k.f(1.0 / static_cast<double>(N));
  auto mean = k.reduce(Op::ADD, k.read(x, v, {i, r0}), {r0}) * inv_n;
  auto d = k.read(x, v, {i, r1}) - mean;
  auto var = k.reduce(Op::ADD, d * d, {r1}) * inv_n;
  auto y = (k.read(x, v, {i, j}) - mean) * rsqrt(var + k.f(1e-5));
  k.store(out, v.index({i, j}).first, y * k.read(w, row, {i, j}) + k.read(b, row, {i, j}), {i, j});
  return {k.finish()};
}

// conv2d: (1, 3, 9, 9) input, (4, 3, 3, 3) weights, padding 1, stride 1 -> (1, 4, 9, 9), plus bias.
std::vector<UOp> conv2d() {
  const std::int64_t C = 3, H = 9, W = 9, O = 4, KH = 3, KW = 3;
  KernelBuilder k("r_4_9_9_3_3_3");
  auto out = k.buffer(f32, O * H * W), in = k.buffer(f32, C * H * W),
       wt = k.buffer(f32, O * C * KH * KW), bias = k.buffer(f32, O);
  auto o = k.range(O), y = k.range(H), x = k.range(W);
  auto c = k.range(C, AxisType::Reduce), ky = k.range(KH, AxisType::Reduce),
       kx = k.range(KW, AxisType::Reduce);
  const View vin = View::contiguous({C, H, W}).pad({{0, 0}, {1, 1}, {1, 1}});
  const View vw = View::contiguous({O, C, KH, KW});
  auto prod = k.read(in, vin, {c, y + ky, x + kx}) * k.read(wt, vw, {o, c, ky, kx});
  auto acc = k.reduce(Op::ADD, prod, {c, ky, kx}) + k.read(bias, o);
  k.store(out, View::contiguous({O, H, W}).index({o, y, x}).first, acc, {o, y, x});
  return {k.finish()};
}

}  // namespace

const std::vector<std::string> &builtin_example_names() {
  static const std::vector<std::string> names{"elementwise", "reduce",    "matmul",
                                              "softmax",     "layernorm", "conv2d"};
  return names;
}

std::vector<UOp> builtin_example(const std::string &name) {
  if (name == "elementwise") return elementwise();
  if (name == "reduce") return reduce();
  if (name == "matmul") return matmul();
  if (name == "softmax") return softmax();
  if (name == "layernorm") return layernorm();
  if (name == "conv2d") return conv2d();
  throw Error(ErrorKind::Usage,
              fmt::format("unknown example '{}' (known: elementwise, reduce, matmul, softmax, "
                          "layernorm, conv2d)",
                          name));
}

}  // namespace wavescope::compiler::kernel
