// The C backend (c_backend.hpp): lowering passes, the C renderer, compiling and running.

#include "wavescope/compiler/render/c_backend.hpp"

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::render {
namespace {

using namespace rewrite;
using kernel::HostBuffer;
using kernel::KernelParam;

Error bad(const std::string &what) { return Error(ErrorKind::BadInput, what); }

const Arg kAddrTag = std::string("addr");

// --- passes ---------------------------------------------------------------------------------

const PatternMatcher &add_loads_rules() {
  static const PatternMatcher pm(
      "add loads",
      {
          rule("read INDEX -> LOAD(INDEX)",
               pat(Op::INDEX, {pat_any_src(Op::PARAM).named("buf"), var("i")})
                   .with_tag(Arg{})
                   .named("x"),
               [](const Match &m) {
                 return UOp::make(Op::LOAD, m["x"].dtype(), {m["x"].with_tag(kAddrTag)});
               }),
          rule("STORE(LOAD(idx), v) -> STORE(idx, v)",
               pat(Op::STORE, {pat(Op::LOAD, {var("idx")}), var("v")}, true).named("st"),
               [](const Match &m) {
                 std::vector<UOp> src = m["st"].src();
                 src[0] = m["idx"];
                 return m["st"].with_src(std::move(src));
               }),
      });
  return pm;
}

const PatternMatcher &early_decomposition_rules() {
  static const PatternMatcher pm(
      "early decompositions",
      {
          rule("x//y -> cdiv(x, y) for x >= 0, y > 0", pat(Op::FLOORDIV, {var("x"), var("y")}),
               [](const Match &m) -> UOp {
                 if (m["x"].vmin() < 0 || m["y"].vmin() <= 0) return {};
                 return UOp::make(Op::CDIV, m.root().dtype(), {m["x"], m["y"]});
               }),
          rule("x%y -> cmod(x, y) for x >= 0, y > 0", pat(Op::FLOORMOD, {var("x"), var("y")}),
               [](const Match &m) -> UOp {
                 if (m["x"].vmin() < 0 || m["y"].vmin() <= 0) return {};
                 return UOp::make(Op::CMOD, m.root().dtype(), {m["x"], m["y"]});
               }),
      });
  return pm;
}

// --- rendering ------------------------------------------------------------------------------

std::string c_type(DType t) {
  if (t.is_vector())
    throw bad(fmt::format("the C renderer has no vector types ({})", to_string(t)));
  switch (t.scalar) {
  case ScalarType::Bool: return "_Bool";
  case ScalarType::Int8: return "signed char";
  case ScalarType::UInt8: return "unsigned char";
  case ScalarType::Int16: return "short";
  case ScalarType::UInt16: return "unsigned short";
  case ScalarType::Int32: return "int";
  case ScalarType::UInt32: return "unsigned int";
  case ScalarType::Int64:
  case ScalarType::Index: return "long long";
  case ScalarType::UInt64: return "unsigned long long";
  case ScalarType::Float: return "float";
  case ScalarType::Double:
  case ScalarType::WeakFloat: return "double";
  default: throw bad(fmt::format("the C renderer does not support dtype {}", to_string(t)));
  }
}

std::string float_literal(double v, DType t) {
  const bool f32 = t.scalar == ScalarType::Float;
  if (std::isnan(v)) return f32 ? "__builtin_nanf(\"\")" : "__builtin_nan(\"\")";
  if (std::isinf(v))
    return fmt::format("{}{}", v < 0 ? "-" : "", f32 ? "__builtin_inff()" : "__builtin_inf()");
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return f32 ? fmt::format("{}f", buf) : std::string(buf);
}

std::string int_literal(Int v, DType t) {
  const std::string s = to_string(v);
  if (!fits_int64(v)) throw bad(fmt::format("integer constant {} does not fit 64 bits", s));
  if (v == INT64_MIN) return "(-9223372036854775807ll - 1)";
  if (is_bool(t)) return v ? "1" : "0";
  return fmt::format("(({}){}{})", c_type(t), s, is_unsigned(t) ? "ull" : "ll");
}

class CRenderer {
public:
  explicit CRenderer(const UOp &sink) : sink_(sink) {
    const auto nodes = toposort(sink);
    for (std::size_t i = 0; i < nodes.size(); ++i) ids_[nodes[i].get()] = i;
    free_ = kernel::open_ranges(nodes);
  }

  std::string render() {
    params_ = kernel::kernel_params(sink_);
    name_ = c_identifier(kernel::kernel_name(sink_));
    scopes_.emplace_back();
    for (const auto &s : sink_.src()) statement(s, 1);
    std::string sig;
    for (const auto &p : params_) {
      if (!sig.empty()) sig += ", ";
      sig += fmt::format("{}{} *restrict {}", p.written ? "" : "const ", c_type(p.dtype),
                         c_identifier(p.name));
    }
    std::string out;
    out += "/* generated by wavescope: kernel " + kernel::kernel_name(sink_) + " */\n";
    out += "static inline long long ws_floordiv(long long a, long long b) { long long q = a / b; "
           "return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q; }\n";
    out += "static inline long long ws_floormod(long long a, long long b) { return a - "
           "ws_floordiv(a, b) * b; }\n";
    out += "static inline unsigned long long ws_threefry(unsigned long long x, unsigned long long "
           "key) {\n  static const int rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};\n"
           "  const unsigned int ks[3] = {(unsigned int)key, (unsigned int)(key >> 32), "
           "0x1BD11BDAu ^ (unsigned int)key ^ (unsigned int)(key >> 32)};\n"
           "  unsigned int x0 = (unsigned int)x + ks[0], x1 = (unsigned int)(x >> 32) + ks[1];\n"
           "  for (int r = 0; r < 20; ++r) {\n    x0 += x1;\n"
           "    x1 = (x1 << rot[r % 8]) | (x1 >> (32 - rot[r % 8]));\n    x1 ^= x0;\n"
           "    if (r % 4 == 3) { int i = (r + 1) / 4; x0 += ks[i % 3]; x1 += ks[(i + 1) % 3] + "
           "(unsigned int)i; }\n  }\n  return ((unsigned long long)x1 << 32) | x0;\n}\n";
    out += fmt::format("void {}({}) {{\n{}}}\n", name_, sig.empty() ? "void" : sig, body_);
    std::string call;
    for (std::size_t k = 0; k < params_.size(); ++k)
      call += fmt::format("{}({}{} *)args[{}]", k ? ", " : "", params_[k].written ? "" : "const ",
                          c_type(params_[k].dtype), k);
    out += fmt::format("void wavescope_entry(void **args) {{ {}({}); }}\n", name_, call);
    if (params_.empty()) out += "/* no buffers */\n";
    return out;
  }

private:
  Error fail(const UOp &u, const std::string &what) const {
    auto it = ids_.find(u.get());
    return bad(fmt::format("C renderer: node {} ({}): {}", it == ids_.end() ? 0 : it->second,
                           to_string(u.op()), what));
  }

  void line(int depth, const std::string &text) {
    body_ += std::string(static_cast<std::size_t>(depth) * 2, ' ') + text + "\n";
  }

  const std::string *lookup(const UOp &u) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (auto f = it->find(u.get()); f != it->end()) return &f->second;
    return nullptr;
  }

  std::string param_name(const UOp &p) {
    auto a = std::get_if<ParamArg>(&p.arg());
    if (!a || p.op() != Op::PARAM) throw fail(p, "not a buffer parameter");
    if (a->addrspace == AddrSpace::Alu) throw fail(p, "scalar variables are not supported yet");
    return c_identifier(a->name.empty() ? fmt::format("data{}", a->slot) : a->name);
  }

  // Opens the loops of `ranges` (from index `first` of u's sources); returns the new depth.
  // Renders the REDUCEs under `body` that depend only on open loops (loop-invariant hoisting: a
  // reduce is computed in the outermost loop where all its ranges are defined).
  void hoist(const UOp &body, int depth) {
    for (const auto &n : toposort(body)) {
      if (n.op() != Op::REDUCE || lookup(n)) continue;
      bool ready = true;
      for (auto *r : free_[n.get()]) ready &= open_.count(r) > 0;
      if (ready) value(n, depth);
    }
  }

  int open_loops(const UOp &u, std::size_t first, int depth, const UOp &hoist_body = {}) {
    if (hoist_body) hoist(hoist_body, depth);
    for (std::size_t k = first; k < u.size(); ++k) {
      const UOp &r = u.src(k);
      if (r.op() != Op::RANGE) throw fail(u, "loops over RANGEs only");
      const std::string ext = value(r.src(0), depth);
      const auto &ra = std::get<RangeArg>(r.arg());
      const std::string name = fmt::format("{}idx{}_{}", axis_letter(ra.type), ra.axis, counter_++);
      line(depth, fmt::format("for (long long {0} = 0; {0} < {1}; {0}++) {{", name, ext));
      scopes_.emplace_back();
      scopes_.back()[r.get()] = name;
      open_.insert(r.get());
      open_stack_.push_back(r.get());
      ++depth;
      if (hoist_body) hoist(hoist_body, depth);
    }
    return depth;
  }
  void close_loops(std::size_t n, int depth) {
    for (std::size_t k = 0; k < n; ++k) {
      open_.erase(open_stack_.back());
      open_stack_.pop_back();
      scopes_.pop_back();
      line(depth - 1 - static_cast<int>(k), "}");
    }
  }

  void statement(const UOp &u, int depth) {
    switch (u.op()) {
    case Op::GROUP:
      for (const auto &s : u.src()) statement(s, depth);
      return;
    case Op::END: {
      const int inner = open_loops(u, 1, depth, u.src(0));
      statement(u.src(0), inner);
      close_loops(u.size() - 1, inner);
      return;
    }
    case Op::STORE: {
      const UOp &index = u.src(0);
      if (index.op() != Op::INDEX) throw fail(u, "a STORE's target must be an INDEX");
      const std::string buf = param_name(index.src(0));
      std::string gate;
      UOp idx = index.src(1);
      if (idx.op() == Op::WHERE && idx.src(2).is_invalid()) {
        gate = value(idx.src(0), depth);
        idx = idx.src(1);
      }
      if (u.size() > 2)
        gate = gate.empty() ? value(u.src(2), depth) : gate + " && " + value(u.src(2), depth);
      const std::string i = value(idx, depth), v = value(u.src(1), depth);
      const std::string st =
          fmt::format("{}[{}] = ({})({});", buf, i, c_type(index.dtype().base()), v);
      line(depth, gate.empty() ? st : fmt::format("if ({}) {{ {} }}", gate, st));
      return;
    }
    default: throw fail(u, "is not a statement (GROUP, END or STORE)");
    }
  }

  std::string temp(const UOp &u, int depth, const std::string &prefix, const std::string &expr) {
    const std::string name = fmt::format("{}{}", prefix, counter_++);
    line(depth, fmt::format("{} {} = {};", c_type(u.dtype()), name, expr));
    scopes_.back()[u.get()] = name;
    return name;
  }

  std::string value(const UOp &u, int depth) {
    if (auto found = lookup(u)) return *found;
    const Op op = u.op();
    const DType t = u.dtype();
    switch (op) {
    case Op::CONST: {
      const Arg &a = u.arg();
      if (auto f = std::get_if<FloatValue>(&a)) return float_literal(f->value, t);
      if (auto b = std::get_if<bool>(&a))
        return is_float(t) ? float_literal(*b, t) : (*b ? "1" : "0");
      if (auto i = std::get_if<Int>(&a))
        return is_float(t) ? float_literal(static_cast<double>(*i), t) : int_literal(*i, t);
      throw fail(u, "an Invalid constant outside an index");
    }
    case Op::RANGE: throw fail(u, "a RANGE used outside its loop");
    case Op::LOAD: {
      const UOp &index = u.src(0);
      if (index.op() != Op::INDEX) throw fail(u, "a LOAD reads an INDEX");
      const std::string buf = param_name(index.src(0));
      const UOp &idx = index.src(1);
      if (idx.op() == Op::WHERE && idx.src(2).is_invalid()) {
        const std::string g = value(idx.src(0), depth), i = value(idx.src(1), depth);
        return temp(u, depth, "val", fmt::format("({} ? {}[{}] : ({})0)", g, buf, i, c_type(t)));
      }
      return temp(u, depth, "val", fmt::format("{}[{}]", buf, value(idx, depth)));
    }
    case Op::INDEX: throw fail(u, "a read INDEX without a LOAD (run the \"add loads\" pass)");
    case Op::REDUCE: {
      const Op rop = std::get<ReduceArg>(u.arg()).op;
      const std::string acc = fmt::format("acc{}", counter_++);
      std::string init;
      if (is_float(t))
        init = float_literal(rop == Op::ADD ? 0.0 : rop == Op::MUL ? 1.0 : -INFINITY, t);
      else
        init = rop == Op::ADD ? "0" : rop == Op::MUL ? "1" : int_literal(dtype_min(t), t);
      line(depth, fmt::format("{} {} = {};", c_type(t), acc, init));
      const int inner = open_loops(u, 1, depth);
      const std::string x = value(u.src(0), inner);
      if (rop == Op::ADD)
        line(inner, fmt::format("{0} = {0} + {1};", acc, x));
      else if (rop == Op::MUL)
        line(inner, fmt::format("{0} = {0} * {1};", acc, x));
      else if (is_float(t))
        line(inner, fmt::format("{0} = ({1} != {1} || {1} > {0}) ? {1} : {0};", acc, x));
      else
        line(inner, fmt::format("{0} = {1} > {0} ? {1} : {0};", acc, x));
      close_loops(u.size() - 1, inner);
      scopes_.back()[u.get()] = acc;
      return acc;
    }
    case Op::WHERE: {
      if (u.src(2).is_invalid()) throw fail(u, "where(.., invalid) outside an index");
      const std::string c = value(u.src(0), depth), a = value(u.src(1), depth),
                        b = value(u.src(2), depth);
      return temp(u, depth, "alu", fmt::format("{} ? {} : {}", c, a, b));
    }
    case Op::BITCAST: {
      const DType from = u.src(0).dtype();
      if (byte_size(from) != byte_size(t))
        throw fail(u, fmt::format("a bitcast from {} to {} changes the size", to_string(from),
                                  to_string(t)));
      const std::string x = value(u.src(0), depth);
      const std::string src = fmt::format("bits{}", counter_++),
                        name = fmt::format("cast{}", counter_++);
      line(depth, fmt::format("{} {} = {};", c_type(from), src, x));
      line(depth, fmt::format("{} {};", c_type(t), name));
      line(depth, fmt::format("__builtin_memcpy(&{}, &{}, sizeof {});", name, src, name));
      scopes_.back()[u.get()] = name;
      return name;
    }
    case Op::CAST: {
      const std::string x = value(u.src(0), depth);
      if (is_bool(t)) return temp(u, depth, "cast", fmt::format("({} != 0)", x));
      return temp(u, depth, "cast", fmt::format("({})({})", c_type(t), x));
    }
    default: break;
    }
    if (!ops::kAlu.contains(op))
      throw fail(u, fmt::format("the C renderer does not support {}", to_string(op)));
    std::vector<std::string> a;
    for (const auto &s : u.src()) a.push_back(value(s, depth));
    const DType ot = u.src(0).dtype();
    const bool f = is_float(ot);
    const bool f32 = ot.scalar == ScalarType::Float;
    auto fn = [&](const char *name) {
      return fmt::format("__builtin_{}{}({})", name, f32 ? "f" : "", a[0]);
    };
    std::string e;
    switch (op) {
    case Op::EXP2: e = fn("exp2"); break;
    case Op::LOG2: e = fn("log2"); break;
    case Op::SIN: e = fn("sin"); break;
    case Op::SQRT: e = fn("sqrt"); break;
    case Op::TRUNC: e = fn("trunc"); break;
    case Op::RECIPROCAL: e = fmt::format("({} / {})", float_literal(1.0, t), a[0]); break;
    case Op::NEG: e = fmt::format("(-{})", a[0]); break;
    case Op::ADD: e = fmt::format("({} + {})", a[0], a[1]); break;
    case Op::SUB: e = fmt::format("({} - {})", a[0], a[1]); break;
    case Op::MUL: e = fmt::format("({} * {})", a[0], a[1]); break;
    case Op::FDIV: e = fmt::format("({} / {})", a[0], a[1]); break;
    case Op::CDIV: e = fmt::format("({} / {})", a[0], a[1]); break;
    case Op::CMOD: e = fmt::format("({} % {})", a[0], a[1]); break;
    case Op::FLOORDIV: e = fmt::format("ws_floordiv({}, {})", a[0], a[1]); break;
    case Op::FLOORMOD: e = fmt::format("ws_floormod({}, {})", a[0], a[1]); break;
    case Op::POW: e = fmt::format("__builtin_pow{}({}, {})", f32 ? "f" : "", a[0], a[1]); break;
    case Op::MAX:
      e = f ? fmt::format("(({0} != {0} || {1} != {1}) ? ({0} + {1}) : ({0} > {1} ? {0} : {1}))",
                          a[0], a[1])
            : fmt::format("({0} > {1} ? {0} : {1})", a[0], a[1]);
      break;
    case Op::CMPLT: e = fmt::format("({} < {})", a[0], a[1]); break;
    case Op::CMPNE: e = fmt::format("({} != {})", a[0], a[1]); break;
    case Op::CMPEQ: e = fmt::format("({} == {})", a[0], a[1]); break;
    case Op::AND: e = fmt::format("({} & {})", a[0], a[1]); break;
    case Op::OR: e = fmt::format("({} | {})", a[0], a[1]); break;
    case Op::XOR: e = fmt::format("({} ^ {})", a[0], a[1]); break;
    case Op::SHL: e = fmt::format("({} << {})", a[0], a[1]); break;
    case Op::SHR: e = fmt::format("({} >> {})", a[0], a[1]); break;
    case Op::MULACC: e = fmt::format("(({} * {}) + {})", a[0], a[1], a[2]); break;
    case Op::THREEFRY: e = fmt::format("ws_threefry({}, {})", a[0], a[1]); break;
    default: throw fail(u, fmt::format("the C renderer does not support {}", to_string(op)));
    }
    if (f && (ops::kBinary.contains(op) || op == Op::MULACC) && !ops::kComparison.contains(op))
      e = fmt::format("({})({})", c_type(t), e);  // keep float math in the node's type
    return temp(u, depth, "alu", e);
  }

  UOp sink_;
  std::vector<KernelParam> params_;
  std::string name_, body_;
  std::unordered_map<const UOpNode *, std::size_t> ids_;
  std::vector<std::unordered_map<const UOpNode *, std::string>> scopes_;
  kernel::OpenRanges free_;
  std::unordered_set<const UOpNode *> open_;
  std::vector<const UOpNode *> open_stack_;
  std::size_t counter_ = 0;
};

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

}  // namespace

UOp lower_for_c(const UOp &sink) {
  kernel::validate_kernel(sink);
  auto named = [](const char *name) {
    RewriteOptions o;
    o.name = name;
    return o;
  };
  UOp g = graph_rewrite(sink, symbolic::sym(), named("initial symbolic"));
  g = graph_rewrite(g, add_loads_rules(), named("add loads"));
  g = graph_rewrite(g, early_decomposition_rules(), named("early decompositions"));
  return g;
}

std::string render_c(const UOp &lowered) { return CRenderer(lowered).render(); }

std::string c_identifier(const std::string &name) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "k_" + out;
  return out;
}

struct CKernel::Impl {
  std::filesystem::path dir;
  void *handle = nullptr;
  void (*entry)(void **) = nullptr;
  std::vector<KernelParam> params;
  ~Impl() {
    if (handle) dlclose(handle);
    std::error_code ec;
    if (!dir.empty()) std::filesystem::remove_all(dir, ec);
  }
};

CKernel::CKernel(CKernel &&) noexcept = default;
CKernel &CKernel::operator=(CKernel &&) noexcept = default;
CKernel::~CKernel() = default;

CKernel CKernel::compile(const std::string &source, const std::vector<KernelParam> &params) {
  auto impl = std::make_unique<Impl>();
  impl->params = params;
  impl->dir = make_temp_dir();
  const auto src = impl->dir / "kernel.c", so = impl->dir / "kernel.so", log = impl->dir / "cc.log";
  {
    std::ofstream out(src);
    out << source;
  }
  const char *cc_env = std::getenv("CC");
  const std::string cc = cc_env && *cc_env ? cc_env : "cc";
  const pid_t pid = fork();
  if (pid < 0) throw Error(ErrorKind::Internal, "fork failed");
  if (pid == 0) {
    std::FILE *f = std::freopen(log.c_str(), "w", stderr);
    (void)f;
    dup2(2, 1);
    execlp(cc.c_str(), cc.c_str(), "-std=c11", "-O2", "-fPIC", "-shared", "-ffp-contract=off",
           "-fno-math-errno", "-Wall", "-o", so.c_str(), src.c_str(), "-lm",
           static_cast<char *>(nullptr));
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

namespace {
template <class T> void pack(const HostBuffer &b, std::vector<unsigned char> &bytes) {
  bytes.resize(b.data.size() * sizeof(T));
  for (std::size_t i = 0; i < b.data.size(); ++i) {
    const T v = static_cast<T>(b.data[i]);
    std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
  }
}
template <class T> void unpack(const std::vector<unsigned char> &bytes, HostBuffer &b) {
  for (std::size_t i = 0; i < b.data.size(); ++i) {
    T v;
    std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
    b.data[i] = static_cast<double>(v);
  }
}
template <class F> void by_dtype(DType t, F &&f) {
  switch (t.scalar) {
  case ScalarType::Bool: return f(std::uint8_t{});
  case ScalarType::Int8: return f(std::int8_t{});
  case ScalarType::UInt8: return f(std::uint8_t{});
  case ScalarType::Int16: return f(std::int16_t{});
  case ScalarType::UInt16: return f(std::uint16_t{});
  case ScalarType::Int32: return f(std::int32_t{});
  case ScalarType::UInt32: return f(std::uint32_t{});
  case ScalarType::Int64:
  case ScalarType::Index: return f(std::int64_t{});
  case ScalarType::UInt64: return f(std::uint64_t{});
  case ScalarType::Float: return f(float{});
  case ScalarType::Double: return f(double{});
  default: throw bad(fmt::format("no host type for {}", to_string(t)));
  }
}
}  // namespace

void CKernel::run(std::vector<HostBuffer> &buffers) const {
  if (buffers.size() != impl_->params.size())
    throw bad(fmt::format("the kernel takes {} buffers, {} were given", impl_->params.size(),
                          buffers.size()));
  std::vector<std::vector<unsigned char>> bytes(buffers.size());
  std::vector<void *> args(buffers.size());
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    by_dtype(impl_->params[k].dtype, [&](auto tag) { pack<decltype(tag)>(buffers[k], bytes[k]); });
    if (bytes[k].empty()) bytes[k].resize(16);
    args[k] = bytes[k].data();
  }
  impl_->entry(args.data());
  for (std::size_t k = 0; k < buffers.size(); ++k)
    if (impl_->params[k].written)
      by_dtype(impl_->params[k].dtype,
               [&](auto tag) { unpack<decltype(tag)>(bytes[k], buffers[k]); });
}

}  // namespace wavescope::compiler::render
