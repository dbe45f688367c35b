#include "wavescope/compiler/symbolic/expression.hpp"

#include <cctype>
#include <optional>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/graph.hpp"

namespace wavescope::compiler::symbolic {

void Scope::declare(const std::string &name, Int min, Int max, DType dtype) {
  names_[name] = variable(name, min, max, dtype);
}

void Scope::bind(const std::string &name, UOp node) { names_[name] = std::move(node); }

UOp Scope::lookup(std::string_view name) const {
  auto it = names_.find(name);
  return it == names_.end() ? UOp{} : it->second;
}

namespace {

enum class TokenKind { Int, Name, Operator, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;
  Int value = 0;
  std::size_t column = 0;  // 1-based
};

constexpr std::string_view kOperators[] = {
    "//", "<<", ">>", "<=", ">=", "==", "!=", "+", "-", "*", "%",
    "<",  ">",  "&",  "|",  "^",  "!",  "~",  "(", ")", ","};

std::optional<DType> cast_function(std::string_view name) {
  if (name == "index") return dtypes::index;
  if (name == "bool") return dtypes::bool_;
  for (DType t : {dtypes::int8, dtypes::int16, dtypes::int32, dtypes::int64, dtypes::uint8,
                  dtypes::uint16, dtypes::uint32, dtypes::uint64})
    if (scalar_name(t.scalar) == name) return t;
  return std::nullopt;
}

int function_arity(std::string_view name) {
  if (name == "where") return 3;
  if (name == "max" || name == "min" || name == "cdiv" || name == "cmod") return 2;
  if (name == "trunc" || cast_function(name)) return 1;
  return 0;
}

bool is_keyword(std::string_view name) {
  return name == "true" || name == "false" || name == "invalid" || function_arity(name) > 0;
}

// The level of a binary operator token (1 = lowest), 0 if it is not one.
[[gnu::noinline]] int binary_level(std::string_view op) {
  if (op == "|") return 1;
  if (op == "^") return 2;
  if (op == "&") return 3;
  if (op == "==" || op == "!=") return 4;
  if (op == "<" || op == "<=" || op == ">" || op == ">=") return 5;
  if (op == "<<" || op == ">>") return 6;
  if (op == "+" || op == "-") return 7;
  if (op == "*" || op == "//" || op == "%") return 8;
  return 0;
}

}  // namespace

class ExpressionParser {
public:
  ExpressionParser(std::string_view text, Scope *mutable_scope, const Scope &scope)
      : text_(text), mutable_scope_(mutable_scope), scope_(scope) {
    tokenize();
  }

  UOp parse() {
    UOp result = binary(1);
    if (peek().kind != TokenKind::End) fail(peek(), "unexpected '" + peek().text + "'");
    return result;
  }

private:
  [[noreturn]] void fail(const Token &at, const std::string &what) const {
    throw Error(ErrorKind::BadInput,
                fmt::format("expression '{}': column {}: {}", text_, at.column, what));
  }

  void tokenize() {
    std::size_t i = 0;
    while (i < text_.size()) {
      const char c = text_[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
        continue;
      }
      Token t;
      t.column = i + 1;
      if (std::isdigit(static_cast<unsigned char>(c))) {
        std::size_t j = i;
        while (j < text_.size() && std::isdigit(static_cast<unsigned char>(text_[j]))) ++j;
        t.kind = TokenKind::Int;
        t.text = std::string(text_.substr(i, j - i));
        auto v = parse_int(t.text);
        if (!v) fail(t, "integer literal " + t.text + " is too large");
        t.value = *v;
        i = j;
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        std::size_t j = i;
        while (j < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(text_[j])) || text_[j] == '_'))
          ++j;
        t.kind = TokenKind::Name;
        t.text = std::string(text_.substr(i, j - i));
        i = j;
      } else {
        for (std::string_view op : kOperators) {
          if (text_.substr(i, op.size()) == op) {
            t.kind = TokenKind::Operator;
            t.text = std::string(op);
            break;
          }
        }
        if (t.kind != TokenKind::Operator) fail(t, fmt::format("unexpected character '{}'", c));
        i += t.text.size();
      }
      tokens_.push_back(std::move(t));
    }
    Token end;
    end.column = text_.size() + 1;
    end.text = "end of input";
    tokens_.push_back(end);
  }

  const Token &peek() const { return tokens_[pos_]; }
  const Token &take() { return tokens_[pos_++]; }
  bool at_operator(std::string_view op) const {
    return peek().kind == TokenKind::Operator && peek().text == op;
  }
  void expect(std::string_view op) {
    if (!at_operator(op)) fail_expected(op);
    ++pos_;
  }
  [[noreturn, gnu::noinline]] void fail_expected(std::string_view op) const {
    fail(peek(), fmt::format("expected '{}', found '{}'", op, peek().text));
  }

  static bool is_int_literal(const UOp &u) {
    return u.op() == Op::CONST && std::holds_alternative<Int>(u.arg()) &&
           u.dtype() == dtypes::index;
  }

  // An index literal beside a sized-int operand takes that dtype when its value fits (the
  // literal adapts, spec §9.3); otherwise it stays a mathematical integer.
  static void adapt_literals(UOp &a, UOp &b) {
    auto adapt = [](UOp &lit, const UOp &other) {
      if (!is_int_literal(lit) || !is_sized_int(other.dtype())) return;
      const Int v = std::get<Int>(lit.arg());
      if (v >= dtype_min(other.dtype()) && v <= dtype_max(other.dtype()))
        lit = const_int(v, other.dtype());
    };
    adapt(a, b);
    adapt(b, a);
  }

  // Operands of two dtypes meet in their least upper dtype (spec §1.5.2), as tinygrad's operator
  // sugar makes them: a literal adapts (wrapping when it does not fit), anything else is cast. So
  // the rules and the evaluator only ever see the operands of an operator in one dtype.
  void promote(const Token &at, UOp &a, UOp &b) const {
    adapt_literals(a, b);
    if (a.dtype() == b.dtype() || a.is_invalid() || b.is_invalid()) return;
    const DType t = least_upper_dtype(a.dtype(), b.dtype());
    if (!is_int(t) && !is_bool(t))
      fail(at, fmt::format("no integer type holds both {} and {}; cast one of them",
                           to_string(a.dtype()), to_string(b.dtype())));
    a = convert(a, t);
    b = convert(b, t);
  }

  static UOp convert(const UOp &x, DType t) {
    if (x.dtype() == t) return x;
    if (is_int_literal(x)) return const_int(std::get<Int>(x.arg()), t);  // wraps to t
    return cast(x, t);
  }

  static UOp negate(const UOp &x) {
    if (is_int_literal(x)) return const_int(-std::get<Int>(x.arg()));
    if (is_bool(x.dtype())) return cast(x, dtypes::index) * const_int(-1);
    return x * literal_for(x, -1);
  }

  static UOp logical_not_of(const UOp &x) {
    if (is_bool(x.dtype())) return ne(x, const_bool(true));
    return ne(ne(x, literal_for(x, 0)), const_bool(true));
  }

  static UOp as_condition(const UOp &x) {
    if (is_bool(x.dtype()) || x.is_invalid()) return x;
    return ne(x, literal_for(x, 0));
  }

  // Out of line, as are the error paths below: the recursive descent's frames (binary, unary,
  // atom, call_atom) then stay small, which matters most under the sanitizers, whose frames for the
  // same code are ten times larger (1,000 levels must fit in an 8 MiB stack there too).
  [[gnu::noinline]] UOp apply_binary(const Token &op_token, UOp a, UOp b) {
    const std::string &op = op_token.text;
    if (op == "<<" || op == ">>") {
      // A shift keeps its left operand's dtype (a bool counts as an index); the count takes it.
      if (is_bool(a.dtype()) && !a.is_invalid()) a = cast(a, dtypes::index);
      adapt_literals(a, b);
      if (!b.is_invalid() && !a.is_invalid()) b = convert(b, a.dtype());
      return op == "<<" ? shl(a, b) : shr(a, b);
    }
    promote(op_token, a, b);
    if (op == "|") return bit_or(a, b);
    if (op == "^") return bit_xor(a, b);
    if (op == "&") return bit_and(a, b);
    if (op == "!=") return ne(a, b);
    if (op == "==") return ne(ne(a, b), const_bool(true));
    if (op == "<") return lt(a, b);
    if (op == ">") return lt(b, a);
    if (op == ">=") return ne(lt(a, b), const_bool(true));
    if (op == "<=") return ne(lt(b, a), const_bool(true));
    if (op == "+") return a + b;
    if (op == "-") {
      UOp nb = negate(b);
      promote(op_token, a, nb);  // -b of a bool is an index
      return a + nb;
    }
    if (op == "*") return a * b;
    if (op == "//") return floordiv(a, b);
    if (op == "%") return floormod(a, b);
    fail(op_token, "unknown operator '" + op + "'");
  }

  // Precedence climbing over left-associative operators of at least `min_level`: one frame per
  // operand rather than one per precedence level, so deeply nested input costs little stack.
  UOp binary(int min_level) {
    UOp lhs = unary();
    for (;;) {
      const int level = peek().kind == TokenKind::Operator ? binary_level(peek().text) : 0;
      if (level == 0 || level < min_level) return lhs;
      const Token &op = take();
      UOp rhs = binary(level + 1);
      lhs = apply_binary(op, std::move(lhs), std::move(rhs));
    }
  }

  UOp unary() {
    // Each nesting level (parentheses, calls, unary operators) passes here once: bound the
    // recursion so a hostile input is an error, not a stack overflow.
    struct DepthGuard {
      std::size_t &depth;
      ~DepthGuard() { --depth; }
    } guard{++depth_};
    if (depth_ > kMaxNesting) fail_too_deep();
    if (peek().kind == TokenKind::Operator &&
        (peek().text == "-" || peek().text == "!" || peek().text == "~")) {
      const Token &op = take();
      return apply_unary(op.text[0], unary());
    }
    return atom();
  }

  [[noreturn, gnu::noinline]] void fail_too_deep() const {
    fail(peek(), fmt::format("expression nested deeper than {} levels", kMaxNesting));
  }

  [[gnu::noinline]] static UOp apply_unary(char op, const UOp &x) {
    if (op == '-') return negate(x);
    if (op == '!') return logical_not_of(x);
    if (is_bool(x.dtype())) return ne(x, const_bool(true));
    if (is_unsigned(x.dtype())) return bit_xor(x, const_int(dtype_max(x.dtype()), x.dtype()));
    return bit_xor(x, literal_for(x, -1));
  }

  [[gnu::noinline]] UOp call(const Token &name, std::vector<UOp> args) {
    const std::string &f = name.text;
    if (f == "where") {
      promote(name, args[1], args[2]);
      return where(as_condition(args[0]), args[1], args[2]);
    }
    if (f == "max" || f == "min" || f == "cdiv" || f == "cmod") promote(name, args[0], args[1]);
    if (f == "max") return maximum(args[0], args[1]);
    if (f == "min") {
      // -max(-a, -b) as tinygrad writes it, where negation cannot wrap (index); else a select.
      if (args[0].dtype() == dtypes::index)
        return negate(maximum(negate(args[0]), negate(args[1])));
      return where(lt(args[0], args[1]), args[0], args[1]);
    }
    if (f == "cdiv") return cdiv(args[0], args[1]);
    if (f == "cmod") return cmod(args[0], args[1]);
    if (f == "trunc") return alu(Op::TRUNC, {args[0]});
    if (auto t = cast_function(f)) return UOp::make(Op::CAST, *t, {args[0]}, *t);
    fail(name, "unknown function '" + f + "'");
  }

  UOp atom() {
    const Token &t = take();
    if (t.kind == TokenKind::Int) return const_int(t.value);
    if (t.kind == TokenKind::Operator && t.text == "(") {
      UOp x = binary(1);
      expect(")");
      return x;
    }
    if (t.kind == TokenKind::Name) return at_operator("(") ? call_atom(t) : name_atom(t);
    fail_expected_value(t);
  }

  // name(args...): the arguments recurse, so this frame stays lean too.
  [[gnu::noinline]] UOp call_atom(const Token &t) {
    const int arity = function_arity(t.text);
    if (arity == 0) fail_unknown_function(t);
    ++pos_;
    std::vector<UOp> args{binary(1)};
    while (at_operator(",")) {
      ++pos_;
      args.push_back(binary(1));
    }
    expect(")");
    if (static_cast<int>(args.size()) != arity) fail_arity(t, arity, args.size());
    return call(t, std::move(args));
  }

  [[gnu::noinline]] UOp name_atom(const Token &t) {
    if (t.text == "true") return const_bool(true);
    if (t.text == "false") return const_bool(false);
    if (t.text == "invalid") return invalid();
    if (is_keyword(t.text)) fail(t, "'" + t.text + "' is a function; call it with (...)");
    if (UOp u = scope_.lookup(t.text)) return u;
    if (mutable_scope_ && mutable_scope_->declare_unknown) {
      mutable_scope_->declare(t.text, -kIntInfinity, kIntInfinity);
      return mutable_scope_->lookup(t.text);
    }
    throw UnknownVariable(fmt::format("expression '{}': column {}", text_, t.column), t.text);
  }

  [[noreturn, gnu::noinline]] void fail_unknown_function(const Token &t) const {
    fail(t, "unknown function '" + t.text + "'");
  }
  [[noreturn, gnu::noinline]] void fail_arity(const Token &t, int arity, std::size_t got) const {
    fail(t,
         fmt::format("{} takes {} argument{}, got {}", t.text, arity, arity == 1 ? "" : "s", got));
  }
  [[noreturn, gnu::noinline]] void fail_expected_value(const Token &t) const {
    fail(t, "expected a value, found '" + t.text + "'");
  }

  std::string_view text_;
  Scope *mutable_scope_;
  const Scope &scope_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  std::size_t depth_ = 0;
  static constexpr std::size_t kMaxNesting = 1000;
};

UOp parse_expression(std::string_view text, Scope &scope) {
  return ExpressionParser(text, &scope, scope).parse();
}

UOp parse_expression(std::string_view text, const Scope &scope) {
  return ExpressionParser(text, nullptr, scope).parse();
}

// --- printing --------------------------------------------------------------------------------

namespace {

struct Rendered {
  std::string text;
  int level = 10;  // 1..8 binary levels, 9 unary, 10 atoms
  Op op = Op::NOOP;
};

std::optional<std::pair<std::string_view, int>> binary_syntax(Op op) {
  switch (op) {
  case Op::OR: return std::pair{std::string_view("|"), 1};
  case Op::XOR: return std::pair{std::string_view("^"), 2};
  case Op::AND: return std::pair{std::string_view("&"), 3};
  case Op::CMPNE: return std::pair{std::string_view("!="), 4};
  case Op::CMPEQ: return std::pair{std::string_view("=="), 4};
  case Op::CMPLT: return std::pair{std::string_view("<"), 5};
  case Op::SHL: return std::pair{std::string_view("<<"), 6};
  case Op::SHR: return std::pair{std::string_view(">>"), 6};
  case Op::ADD: return std::pair{std::string_view("+"), 7};
  case Op::SUB: return std::pair{std::string_view("-"), 7};
  case Op::MUL: return std::pair{std::string_view("*"), 8};
  case Op::FLOORDIV: return std::pair{std::string_view("//"), 8};
  case Op::FLOORMOD: return std::pair{std::string_view("%"), 8};
  default: return std::nullopt;
  }
}

std::string constant_text(const UOp &u) {
  if (u.is_invalid()) return "invalid";
  if (auto b = std::get_if<bool>(&u.arg())) return *b ? "true" : "false";
  if (auto i = std::get_if<Int>(&u.arg())) return to_string(*i);
  return to_string(u.arg());
}

std::string call_name(const UOp &u) {
  switch (u.op()) {
  case Op::MAX: return "max";
  case Op::WHERE: return "where";
  case Op::CDIV: return "cdiv";
  case Op::CMOD: return "cmod";
  case Op::TRUNC: return "trunc";
  case Op::CAST: return std::string(scalar_name(u.dtype().scalar));
  default: return std::string(to_string(u.op()));
  }
}

class Printer {
public:
  std::string print(const UOp &root) { return render(root).text; }

private:
  [[gnu::noinline]] const Rendered &render(const UOp &u) {
    if (auto it = memo_.find(u.get()); it != memo_.end()) return it->second;
    Rendered r = build(u);
    return memo_.emplace(u.get(), std::move(r)).first->second;
  }

  // One frame per nesting level: only the recursion lives here; the strings are assembled out of
  // line (the sanitizers' frames for string temporaries are large, and deep expressions print).
  [[gnu::noinline]] Rendered build(const UOp &u) {
    switch (u.op()) {
    case Op::CONST:
    case Op::PARAM:
    case Op::BUFFER:
    case Op::RANGE:
    case Op::SPECIAL: return leaf(u);
    default: break;
    }
    if (auto syntax = binary_syntax(u.op()); syntax && u.size() == 2) {
      const Rendered &a = render(operand(u, 0));
      const Rendered &b = render(operand(u, 1));
      return join_binary(u, syntax->first, syntax->second, a, b);
    }
    if (u.op() == Op::NEG && u.size() == 1) return join_negation(render(u.src(0)));
    return render_call(u);
  }

  [[gnu::noinline]] Rendered render_call(const UOp &u) {
    std::vector<const Rendered *> args;
    args.reserve(u.size());
    for (std::size_t i = 0; i < u.size(); ++i) args.push_back(&render(u.src(i)));
    return join_call(u, args);
  }

  [[gnu::noinline]] static Rendered leaf(const UOp &u) {
    Rendered r;
    r.op = u.op();
    r.text = u.op() == Op::CONST ? constant_text(u) : node_name(u);
    return r;
  }

  [[gnu::noinline]] static Rendered join_binary(const UOp &u, std::string_view symbol, int level,
                                                const Rendered &a, const Rendered &b) {
    Rendered r;
    r.op = u.op();
    const bool logical_parent = level <= 5;
    const bool chain = u.op() == Op::AND || u.op() == Op::OR || u.op() == Op::XOR;
    bool paren_a =
        a.level < level || (logical_parent && a.level <= 5 && !(chain && a.op == u.op()));
    bool paren_b = b.level <= level || (logical_parent && b.level <= 5);
    if (u.op() == Op::SUB && u.src(1).is_const() && b.text.starts_with("-")) paren_b = true;
    r.text = (paren_a ? "(" + a.text + ")" : a.text) + std::string(symbol) +
             (paren_b ? "(" + b.text + ")" : b.text);
    r.level = level;
    return r;
  }

  [[gnu::noinline]] static Rendered join_negation(const Rendered &a) {
    Rendered r;
    r.op = Op::NEG;
    r.text = "-" + (a.level < 10 || a.text.starts_with("-") ? "(" + a.text + ")" : a.text);
    r.level = 9;
    return r;
  }

  [[gnu::noinline]] static Rendered join_call(const UOp &u,
                                              const std::vector<const Rendered *> &args) {
    Rendered r;
    r.op = u.op();
    r.text = call_name(u) + "(";
    for (std::size_t i = 0; i < args.size(); ++i) r.text += (i ? ", " : "") + args[i]->text;
    r.text += ")";
    return r;
  }

  static bool is_bool_as_index(const UOp &u) {
    return u.op() == Op::CAST && u.dtype() == dtypes::index && is_bool(u.src(0).dtype());
  }

  // A bool cast to index beside an index operand prints without the cast (`a|(b<3)`, spec §9.4):
  // the parser inserts exactly that cast when it reads it back.
  [[gnu::noinline]] static UOp operand(const UOp &u, std::size_t i) {
    const UOp &x = u.src(i), &other = u.src(1 - i);
    const bool implicit = is_bool_as_index(x) && other.dtype() == dtypes::index &&
                          !is_bool_as_index(other) && u.op() != Op::SHL && u.op() != Op::SHR;
    return implicit ? x.src(0) : x;
  }

  std::unordered_map<const UOpNode *, Rendered> memo_;
};

}  // namespace

std::string render_expression(const UOp &root) { return Printer().print(root); }

std::size_t count_operations(std::string_view text) {
  Scope scope;
  scope.declare_unknown = true;
  const UOp root = parse_expression(text, scope);
  // Leaves (constants, variables) count 0; ranges print as names, so their extents are not part
  // of the expression.
  std::size_t count = 0;
  std::vector<UOp> stack{root};
  std::unordered_map<const UOpNode *, bool> seen;
  while (!stack.empty()) {
    UOp u = stack.back();
    stack.pop_back();
    if (seen[u.get()]) continue;
    seen[u.get()] = true;
    if (u.op() == Op::CONST || u.op() == Op::PARAM || u.op() == Op::BUFFER || u.op() == Op::RANGE ||
        u.op() == Op::SPECIAL)
      continue;
    ++count;
    for (const auto &s : u.src()) stack.push_back(s);
  }
  return count;
}

std::size_t count_operations(const UOp &root) { return count_operations(render_expression(root)); }

}  // namespace wavescope::compiler::symbolic
