#include "wavescope/base/pickle_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "wavescope/base/error.hpp"
#include "wavescope/base/mapped_file.hpp"
#include "wavescope/base/utf8.hpp"

namespace wavescope::pickle {

struct PickleDocument::Storage {
  std::deque<Value> values;
  std::deque<std::string> owned;  // text and bytes the reader had to decode
};

PickleDocument::PickleDocument() : storage_(std::make_unique<Storage>()) {}
PickleDocument::PickleDocument(PickleDocument &&) noexcept = default;
PickleDocument &PickleDocument::operator=(PickleDocument &&) noexcept = default;
PickleDocument::~PickleDocument() = default;
std::size_t PickleDocument::node_count() const { return storage_->values.size(); }

namespace {

// Opcodes of the pickle protocol, by the names CPython's pickletools gives them.
const char *opcode_name(std::uint8_t op) {
  switch (op) {
  case '(': return "MARK";
  case '.': return "STOP";
  case '0': return "POP";
  case '1': return "POP_MARK";
  case '2': return "DUP";
  case 'F': return "FLOAT";
  case 'I': return "INT";
  case 'J': return "BININT";
  case 'K': return "BININT1";
  case 'L': return "LONG";
  case 'M': return "BININT2";
  case 'N': return "NONE";
  case 'P': return "PERSID";
  case 'Q': return "BINPERSID";
  case 'R': return "REDUCE";
  case 'S': return "STRING";
  case 'T': return "BINSTRING";
  case 'U': return "SHORT_BINSTRING";
  case 'V': return "UNICODE";
  case 'X': return "BINUNICODE";
  case 'a': return "APPEND";
  case 'b': return "BUILD";
  case 'c': return "GLOBAL";
  case 'd': return "DICT";
  case '}': return "EMPTY_DICT";
  case 'e': return "APPENDS";
  case 'g': return "GET";
  case 'h': return "BINGET";
  case 'i': return "INST";
  case 'j': return "LONG_BINGET";
  case 'l': return "LIST";
  case ']': return "EMPTY_LIST";
  case 'o': return "OBJ";
  case 'p': return "PUT";
  case 'q': return "BINPUT";
  case 'r': return "LONG_BINPUT";
  case 's': return "SETITEM";
  case 't': return "TUPLE";
  case ')': return "EMPTY_TUPLE";
  case 'u': return "SETITEMS";
  case 'G': return "BINFLOAT";
  case 0x80: return "PROTO";
  case 0x81: return "NEWOBJ";
  case 0x82: return "EXT1";
  case 0x83: return "EXT2";
  case 0x84: return "EXT4";
  case 0x85: return "TUPLE1";
  case 0x86: return "TUPLE2";
  case 0x87: return "TUPLE3";
  case 0x88: return "NEWTRUE";
  case 0x89: return "NEWFALSE";
  case 0x8a: return "LONG1";
  case 0x8b: return "LONG4";
  case 'B': return "BINBYTES";
  case 'C': return "SHORT_BINBYTES";
  case 0x8c: return "SHORT_BINUNICODE";
  case 0x8d: return "BINUNICODE8";
  case 0x8e: return "BINBYTES8";
  case 0x8f: return "EMPTY_SET";
  case 0x90: return "ADDITEMS";
  case 0x91: return "FROZENSET";
  case 0x92: return "NEWOBJ_EX";
  case 0x93: return "STACK_GLOBAL";
  case 0x94: return "MEMOIZE";
  case 0x95: return "FRAME";
  case 0x96: return "BYTEARRAY8";
  case 0x97: return "NEXT_BUFFER";
  case 0x98: return "READONLY_BUFFER";
  default: return nullptr;
  }
}

// Python refuses int <-> str conversions longer than this by default; so do we.
constexpr std::size_t kMaxIntDigits = 4300;

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Little-endian two's-complement bytes of a decimal magnitude (digits only), negated if asked.
std::string decimal_to_twos_complement(std::string_view digits, bool negative) {
  std::vector<std::uint8_t> number(digits.begin(), digits.end());
  for (auto &d : number) d = static_cast<std::uint8_t>(d - '0');
  std::string out;
  // Repeated division by 256 of the decimal digit string.
  while (!number.empty()) {
    unsigned remainder = 0;
    std::vector<std::uint8_t> quotient;
    quotient.reserve(number.size());
    for (auto d : number) {
      const unsigned cur = remainder * 10 + d;
      if (!quotient.empty() || cur / 256) quotient.push_back(static_cast<std::uint8_t>(cur / 256));
      remainder = cur % 256;
    }
    out += static_cast<char>(remainder);
    number = std::move(quotient);
  }
  out += '\0';  // room for the sign bit
  if (negative) {
    unsigned carry = 1;
    for (auto &c : out) {
      const unsigned v = static_cast<std::uint8_t>(~static_cast<std::uint8_t>(c)) + carry;
      c = static_cast<char>(v & 0xFF);
      carry = v >> 8;
    }
  }
  return out;
}

struct KeyId {
  int kind;  // 0 number, 1 str, 2 bytes, 3 none, 4 identity
  std::int64_t number;
  std::string_view text;
  const Value *identity;
  bool operator==(const KeyId &o) const {
    return kind == o.kind && number == o.number && text == o.text && identity == o.identity;
  }
};
struct KeyHash {
  std::size_t operator()(const KeyId &k) const {
    return std::hash<std::string_view>()(k.text) ^ std::hash<std::int64_t>()(k.number) ^
           std::hash<const void *>()(k.identity) ^ static_cast<std::size_t>(k.kind);
  }
};

}  // namespace

// Runs the pickle machine over the input into a document.
class Builder {
public:
  Builder(std::span<const std::uint8_t> input, const ReadOptions &options, PickleDocument &doc)
      : in_(input.data()), size_(input.size()), options_(options), doc_(doc),
        storage_(*doc.storage_) {}

  void run() {
    for (;;) {
      op_start_ = pos_;
      if (pos_ >= size_) fail_eof("the stream ends before its STOP opcode");
      op_ = in_[pos_++];
      if (step()) break;
    }
    finish();
  }

private:
  // ---- errors -------------------------------------------------------------------------------
  [[noreturn]] void fail(const std::string &what) const {
    char where[96];
    std::snprintf(where, sizeof where, "byte %zu (0x%zx)", op_start_, op_start_);
    std::string message = options_.source_name.empty() ? "pickle" : options_.source_name;
    message += ": ";
    message += where;
    if (const char *name = opcode_name(op_)) {
      char opcode[64];
      std::snprintf(opcode, sizeof opcode, ", opcode %s (0x%02x)", name, op_);
      message += opcode;
    }
    message += ": ";
    message += what;
    throw_bad_input(message);
  }
  [[noreturn]] void fail_eof(const std::string &what) const {
    fail("truncated: " + what + " (the input is " + std::to_string(size_) + " bytes)");
  }

  // ---- input --------------------------------------------------------------------------------
  void need(std::uint64_t n) const {
    if (n > size_ - pos_)
      fail_eof("needs " + std::to_string(n) + " more bytes at byte " + std::to_string(pos_) + ", " +
               std::to_string(size_ - pos_) + " remain");
  }
  std::uint8_t u8() {
    need(1);
    return in_[pos_++];
  }
  std::uint64_t le(unsigned bytes) {
    need(bytes);
    std::uint64_t v = 0;
    for (unsigned i = 0; i < bytes; ++i) v |= std::uint64_t{in_[pos_ + i]} << (8 * i);
    pos_ += bytes;
    return v;
  }
  std::int32_t i32() { return static_cast<std::int32_t>(static_cast<std::uint32_t>(le(4))); }
  // A length field: refuses lengths past the end of the input before anything is allocated.
  std::uint64_t length(unsigned bytes) {
    const std::uint64_t n = le(bytes);
    if (n > size_ - pos_)
      fail_eof("a length of " + std::to_string(n) + " bytes, but only " +
               std::to_string(size_ - pos_) + " remain");
    return n;
  }
  std::uint64_t signed_length() {
    const std::int32_t n = i32();
    if (n < 0) fail("negative length " + std::to_string(n));
    if (static_cast<std::uint64_t>(n) > size_ - pos_)
      fail_eof("a length of " + std::to_string(n) + " bytes, but only " +
               std::to_string(size_ - pos_) + " remain");
    return static_cast<std::uint64_t>(n);
  }
  std::string_view line() {
    const void *nl = std::memchr(in_ + pos_, '\n', size_ - pos_);
    if (!nl) fail_eof("a text argument without its closing newline");
    const auto end = static_cast<std::size_t>(static_cast<const std::uint8_t *>(nl) - in_);
    std::string_view text(reinterpret_cast<const char *>(in_ + pos_), end - pos_);
    pos_ = end + 1;
    return text;
  }

  // ---- values -------------------------------------------------------------------------------
  Value &make(Kind kind) {
    if (storage_.values.size() >= options_.limits.max_nodes)
      fail("more than " + std::to_string(options_.limits.max_nodes) + " values");
    Value &v = storage_.values.emplace_back();
    v.kind_ = kind;
    v.offset_ = op_start_;
    return v;
  }
  Value &make_int(std::int64_t n) {
    Value &v = make(Kind::Int);
    v.int_ = n;
    return v;
  }
  // An Int from little-endian two's-complement bytes (canonicalised to 64 bits when it fits).
  Value &make_int_bytes(const std::uint8_t *data, std::size_t n) {
    std::size_t used = n;
    // Drop sign-extension bytes that carry no information.
    while (used > 1 && ((data[used - 1] == 0x00 && !(data[used - 2] & 0x80)) ||
                        (data[used - 1] == 0xFF && (data[used - 2] & 0x80))))
      --used;
    if (used == 0) return make_int(0);
    if (used <= 8) {
      std::uint64_t v = 0;
      for (std::size_t i = 0; i < used; ++i) v |= std::uint64_t{data[i]} << (8 * i);
      if (used < 8 && (data[used - 1] & 0x80)) v |= ~std::uint64_t{0} << (8 * used);
      return make_int(static_cast<std::int64_t>(v));
    }
    Value &v = make(Kind::Int);
    v.big_ = true;
    v.data_ = data;
    v.size_ = used;
    return v;
  }
  Value &make_view(Kind kind, std::uint64_t n) {
    Value &v = make(kind);
    v.data_ = in_ + pos_;
    v.size_ = static_cast<std::size_t>(n);
    v.view_ = true;
    if (kind == Kind::Bytes) v.int_ = static_cast<std::int64_t>(pos_);
    pos_ += static_cast<std::size_t>(n);
    return v;
  }
  Value &make_owned(Kind kind, std::string text) {
    Value &v = make(kind);
    const std::string &kept = storage_.owned.emplace_back(std::move(text));
    v.data_ = reinterpret_cast<const std::uint8_t *>(kept.data());
    v.size_ = kept.size();
    return v;
  }
  // Latin-1 bytes as a Str (a view when they are plain ASCII).
  Value &make_latin1_str(std::uint64_t n) {
    const std::uint8_t *p = in_ + pos_;
    if (std::all_of(p, p + n, [](std::uint8_t c) { return c < 0x80; }))
      return make_view(Kind::Str, n);
    std::string text;
    for (std::uint64_t i = 0; i < n; ++i) append_utf8(text, p[i]);
    pos_ += static_cast<std::size_t>(n);
    return make_owned(Kind::Str, std::move(text));
  }
  Value &make_global(std::string_view module, std::string_view name) {
    Value &v = make(Kind::Global);
    v.data_ = reinterpret_cast<const std::uint8_t *>(module.data());
    v.size_ = module.size();
    v.data2_ = reinterpret_cast<const std::uint8_t *>(name.data());
    v.size2_ = name.size();
    return v;
  }
  Value &make_object(const Value *callable, const Value *args, Construction how) {
    Value &v = make(Kind::Object);
    v.object_ = std::make_unique<ObjectParts>();
    v.object_->callable = callable;
    v.object_->args = args;
    v.object_->construction = how;
    return v;
  }

  // ---- stack --------------------------------------------------------------------------------
  std::size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
  void push(Value &v) { stack_.push_back(&v); }
  Value &pop() {
    if (stack_.size() <= floor()) fail("stack underflow: nothing to take off the stack");
    Value *v = stack_.back();
    stack_.pop_back();
    return *v;
  }
  Value &top() {
    if (stack_.size() <= floor()) fail("stack underflow: the stack is empty");
    return *stack_.back();
  }
  // The values pushed since the last MARK (the mark is removed).
  std::vector<Value *> pop_mark() {
    if (marks_.empty()) fail("no MARK to collect items from");
    const std::size_t from = marks_.back();
    marks_.pop_back();
    std::vector<Value *> items(stack_.begin() + static_cast<std::ptrdiff_t>(from), stack_.end());
    stack_.resize(from);
    return items;
  }
  Value &make_sequence(Kind kind, const std::vector<Value *> &items) {
    Value &v = make(kind);
    v.items_.assign(items.begin(), items.end());
    return v;
  }

  // ---- memo ---------------------------------------------------------------------------------
  void memo_put(std::uint64_t index) {
    Value *v = &top();
    if (index < size_) {
      if (index >= memo_dense_.size()) memo_dense_.resize(index + 1, nullptr);
      if (!memo_dense_[index]) ++memo_count_;
      memo_dense_[index] = v;
    } else {
      if (!memo_sparse_.count(index)) ++memo_count_;
      memo_sparse_[index] = v;
    }
  }
  void memo_get(std::uint64_t index) {
    Value *v = nullptr;
    if (index < memo_dense_.size()) {
      v = memo_dense_[index];
    } else if (auto it = memo_sparse_.find(index); it != memo_sparse_.end()) {
      v = it->second;
    }
    if (!v) fail("memo entry " + std::to_string(index) + " was never stored");
    push(*v);
  }
  std::uint64_t text_index() {
    const auto text = line();
    std::uint64_t index = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), index);
    if (ec != std::errc() || p != text.data() + text.size() || text.empty())
      fail("memo index \"" + std::string(text.substr(0, 40)) + "\" is not a number");
    return index;
  }

  // ---- text opcodes of protocols 0 and 1 ---------------------------------------------------
  Value &make_decimal(std::string_view text, bool is_long) {
    if (is_long && !text.empty() && text.back() == 'L') text.remove_suffix(1);
    bool negative = false;
    std::string_view digits = text;
    if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
      negative = digits[0] == '-';
      digits.remove_prefix(1);
    }
    if (digits.empty() ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      fail("\"" + std::string(text.substr(0, 40)) + "\" is not an integer");
    if (digits.size() > kMaxIntDigits)
      fail("an integer of " + std::to_string(digits.size()) + " digits (at most " +
           std::to_string(kMaxIntDigits) + " are read)");
    std::int64_t small = 0;
    const auto [p, ec] =
        std::from_chars(text.data() + (text[0] == '+'), text.data() + text.size(), small);
    if (ec == std::errc() && p == text.data() + text.size()) return make_int(small);
    const std::string &kept =
        storage_.owned.emplace_back(decimal_to_twos_complement(digits, negative));
    return make_int_bytes(reinterpret_cast<const std::uint8_t *>(kept.data()), kept.size());
  }
  // raw-unicode-escape text (UNICODE): Latin-1 except \uXXXX and \UXXXXXXXX.
  std::string decode_raw_unicode_escape(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const auto c = static_cast<unsigned char>(text[i]);
      if (c == '\\' && i + 1 < text.size() && (text[i + 1] == 'u' || text[i + 1] == 'U')) {
        const std::size_t n = text[i + 1] == 'u' ? 4 : 8;
        if (i + 2 + n > text.size()) fail("a truncated \\u escape in UNICODE text");
        std::uint32_t cp = 0;
        for (std::size_t k = 0; k < n; ++k) {
          const int d = hex_digit(text[i + 2 + k]);
          if (d < 0) fail("a malformed \\u escape in UNICODE text");
          cp = cp * 16 + static_cast<std::uint32_t>(d);
        }
        if (cp > 0x10FFFF) fail("\\U escape beyond U+10FFFF in UNICODE text");
        append_utf8(out, cp);
        i += 1 + n;
      } else {
        append_utf8(out, c);
      }
    }
    return out;
  }
  // A quoted Python 2 str literal (STRING), decoded to its bytes.
  std::string decode_string_literal(std::string_view text) {
    if (text.size() < 2 || (text[0] != '\'' && text[0] != '"') || text.back() != text[0])
      fail("STRING argument is not a quoted literal");
    text = text.substr(1, text.size() - 2);
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] != '\\' || i + 1 == text.size()) {
        out += text[i];
        continue;
      }
      const char e = text[++i];
      switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'v': out += '\v'; break;
      case '\\':
      case '\'':
      case '"': out += e; break;
      case '\n': break;
      case 'x': {
        const int hi = i + 1 < text.size() ? hex_digit(text[i + 1]) : -1;
        const int lo = i + 2 < text.size() ? hex_digit(text[i + 2]) : -1;
        if (hi < 0 || lo < 0) fail("a malformed \\x escape in STRING text");
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          unsigned v = static_cast<unsigned>(e - '0');
          for (int k = 0; k < 2 && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '7';
               ++k)
            v = v * 8 + static_cast<unsigned>(text[++i] - '0');
          out += static_cast<char>(v & 0xFF);
        } else {
          out += '\\';
          out += e;
        }
      }
    }
    return out;
  }
  Value &make_latin1_owned(const std::string &bytes) {
    std::string text;
    for (unsigned char c : bytes) append_utf8(text, c);
    return make_owned(Kind::Str, std::move(text));
  }

  // ---- reductions that only describe data ---------------------------------------------------
  static bool global_is(const Value &g, std::string_view module, std::string_view name) {
    if (g.kind() != Kind::Global || g.name() != name) return false;
    if (g.module() == module) return true;
    // Protocol 2 streams written by Python 2 name the builtins module differently.
    return (module == "builtins" && g.module() == "__builtin__") ||
           (module == "copyreg" && g.module() == "copy_reg");
  }
  // UTF-8 text whose code points are all below 256, as those bytes; false if it has others.
  static bool latin1_bytes(std::string_view utf8, std::string &out) {
    for (std::size_t i = 0; i < utf8.size(); ++i) {
      const auto c = static_cast<unsigned char>(utf8[i]);
      if (c < 0x80) {
        out += static_cast<char>(c);
      } else if ((c & 0xE0) == 0xC0 && i + 1 < utf8.size()) {
        const unsigned cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(utf8[i + 1]) & 0x3Fu);
        if (cp > 0xFF) return false;
        out += static_cast<char>(cp);
        ++i;
      } else {
        return false;
      }
    }
    return true;
  }
  static bool is_latin1_name(const Value &v) {
    return v.kind() == Kind::Str && (v.as_str() == "latin1" || v.as_str() == "latin-1");
  }
  // The value a REDUCE of `callable` with `args` describes, when it is plain data.
  Value *interpret_reduce(const Value &callable, const Value &args) {
    const auto a = args.items();
    if (global_is(callable, "_codecs", "encode") && a.size() == 2 && a[0]->kind() == Kind::Str &&
        is_latin1_name(*a[1])) {
      std::string bytes;
      if (latin1_bytes(a[0]->as_str(), bytes)) return &make_owned(Kind::Bytes, std::move(bytes));
      return nullptr;
    }
    if (global_is(callable, "builtins", "bytearray")) {
      if (a.empty()) return &make_owned(Kind::Bytes, {});
      if (a.size() == 1 && a[0]->kind() == Kind::Bytes) return const_cast<Value *>(a[0]);
      if (a.size() == 2 && a[0]->kind() == Kind::Str && is_latin1_name(*a[1])) {
        std::string bytes;
        if (latin1_bytes(a[0]->as_str(), bytes)) return &make_owned(Kind::Bytes, std::move(bytes));
      }
      return nullptr;
    }
    const bool is_set = global_is(callable, "builtins", "set");
    if (is_set || global_is(callable, "builtins", "frozenset")) {
      const Kind kind = is_set ? Kind::Set : Kind::FrozenSet;
      if (a.empty()) return &make(kind);
      if (a.size() == 1 && (a[0]->kind() == Kind::List || a[0]->kind() == Kind::Tuple)) {
        Value &v = make(kind);
        const auto elements = a[0]->items();
        v.items_.assign(elements.begin(), elements.end());
        return &v;
      }
      return nullptr;
    }
    if (global_is(callable, "copyreg", "_reconstructor") && a.size() == 3) {
      Value &empty = make(Kind::Tuple);
      Value &obj = make_object(a[0], &empty, Construction::NewObj);
      if (!a[2]->is_none())
        obj.object_->args = &make_sequence(Kind::Tuple, {const_cast<Value *>(a[2])});
      return &obj;
    }
    return nullptr;
  }

  // ---- the machine --------------------------------------------------------------------------
  // Executes one opcode; true at STOP.
  bool step() {
    switch (op_) {
    case 0x80: {  // PROTO
      const unsigned proto = u8();
      if (proto > 5) fail("protocol " + std::to_string(proto) + " is newer than 5");
      doc_.protocol_ = std::max(doc_.protocol_, static_cast<int>(proto));
      return false;
    }
    case 0x95: length(8); return false;  // FRAME: only a length prefix; opcodes follow as usual
    case '.': doc_.root_ = &pop(); return true;
    // Numbers.
    case 'J': push(make_int(i32())); return false;
    case 'K': push(make_int(u8())); return false;
    case 'M': push(make_int(static_cast<std::int64_t>(le(2)))); return false;
    case 0x8a:
    case 0x8b: {
      const std::uint64_t n = op_ == 0x8a ? u8() : signed_length();
      need(n);
      push(make_int_bytes(in_ + pos_, static_cast<std::size_t>(n)));
      pos_ += static_cast<std::size_t>(n);
      return false;
    }
    case 'I': {
      const auto text = line();
      if (text == "00" || text == "01") {
        Value &v = make(Kind::Bool);
        v.bool_ = text == "01";
        push(v);
      } else {
        push(make_decimal(text, false));
      }
      return false;
    }
    case 'L': push(make_decimal(line(), true)); return false;
    case 'F': {
      const auto text = line();
      double d = 0;
      const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
      if (ec != std::errc() || p != text.data() + text.size())
        fail("\"" + std::string(text.substr(0, 40)) + "\" is not a float");
      Value &v = make(Kind::Float);
      v.float_ = d;
      push(v);
      return false;
    }
    case 'G': {
      need(8);
      std::uint64_t bits = 0;
      for (int i = 0; i < 8; ++i) bits = (bits << 8) | in_[pos_ + static_cast<std::size_t>(i)];
      pos_ += 8;
      Value &v = make(Kind::Float);
      std::memcpy(&v.float_, &bits, sizeof bits);
      push(v);
      return false;
    }
    case 'N': push(make(Kind::None)); return false;
    case 0x88:
    case 0x89: {
      Value &v = make(Kind::Bool);
      v.bool_ = op_ == 0x88;
      push(v);
      return false;
    }
    // Text.
    case 'X': push(make_view(Kind::Str, length(4))); return false;
    case 0x8c: push(make_view(Kind::Str, length(1))); return false;
    case 0x8d: push(make_view(Kind::Str, length(8))); return false;
    case 'V': push(make_owned(Kind::Str, decode_raw_unicode_escape(line()))); return false;
    case 'T': push(make_latin1_str(signed_length())); return false;
    case 'U': push(make_latin1_str(length(1))); return false;
    case 'S': push(make_latin1_owned(decode_string_literal(line()))); return false;
    // Bytes.
    case 'B': push(make_view(Kind::Bytes, length(4))); return false;
    case 'C': push(make_view(Kind::Bytes, length(1))); return false;
    case 0x8e:
    case 0x96: push(make_view(Kind::Bytes, length(8))); return false;
    case 0x97:
      fail("out-of-band buffers (NEXT_BUFFER) are not supported: the bytes are not in the stream");
    case 0x98:
      top();
      return false;  // READONLY_BUFFER
    // Tuples.
    case ')': push(make(Kind::Tuple)); return false;
    case 't': push(make_sequence(Kind::Tuple, pop_mark())); return false;
    case 0x85:
    case 0x86:
    case 0x87: {
      const std::size_t n = static_cast<std::size_t>(op_ - 0x84);
      if (stack_.size() < floor() + n) fail("stack underflow: a tuple needs more items");
      std::vector<Value *> items(stack_.end() - static_cast<std::ptrdiff_t>(n), stack_.end());
      stack_.resize(stack_.size() - n);
      push(make_sequence(Kind::Tuple, items));
      return false;
    }
    // Lists.
    case ']': push(make(Kind::List)); return false;
    case 'l': push(make_sequence(Kind::List, pop_mark())); return false;
    case 'a': {
      Value &item = pop();
      append_to(top(), {&item});
      return false;
    }
    case 'e': {
      auto items = pop_mark();
      append_to(top(), items);
      return false;
    }
    // Dicts.
    case '}': push(make(Kind::Dict)); return false;
    case 'd': {
      auto items = pop_mark();
      if (items.size() % 2) fail("DICT with an odd number of items");
      push(make_sequence(Kind::Dict, items));
      return false;
    }
    case 's': {
      Value &value = pop();
      Value &key = pop();
      set_items(top(), {&key, &value});
      return false;
    }
    case 'u': {
      auto items = pop_mark();
      if (items.size() % 2) fail("SETITEMS with an odd number of items");
      set_items(top(), items);
      return false;
    }
    // Sets.
    case 0x8f: push(make(Kind::Set)); return false;
    case 0x90: {
      auto items = pop_mark();
      Value &set = top();
      if (set.kind_ != Kind::Set) fail("ADDITEMS on " + set.describe() + ", not a set");
      set.items_.insert(set.items_.end(), items.begin(), items.end());
      return false;
    }
    case 0x91: push(make_sequence(Kind::FrozenSet, pop_mark())); return false;
    // Stack manipulation.
    case '(': marks_.push_back(stack_.size()); return false;
    case '0':
      if (stack_.size() > floor()) {
        stack_.pop_back();
      } else {
        pop_mark();
      }
      return false;
    case '1': pop_mark(); return false;
    case '2': push(top()); return false;
    // Memo.
    case 'g': memo_get(text_index()); return false;
    case 'h': memo_get(u8()); return false;
    case 'j': memo_get(le(4)); return false;
    case 'p': memo_put(text_index()); return false;
    case 'q': memo_put(u8()); return false;
    case 'r': memo_put(le(4)); return false;
    case 0x94: memo_put(memo_count_); return false;
    // Globals and objects.
    case 'c': {
      const auto module = line();
      const auto name = line();
      push(make_global(module, name));
      return false;
    }
    case 0x93: {
      Value &name = pop();
      Value &module = pop();
      if (name.kind_ != Kind::Str || module.kind_ != Kind::Str)
        fail("STACK_GLOBAL needs a module and a name as str, got " + module.describe() + " and " +
             name.describe());
      push(make_global(module.as_str(), name.as_str()));
      return false;
    }
    case 'R': {
      Value &args = pop();
      Value &callable = pop();
      if (args.kind_ != Kind::Tuple)
        fail("REDUCE arguments are " + args.describe() + ", not a tuple");
      if (Value *data = interpret_reduce(callable, args)) {
        push(*data);
      } else {
        push(make_object(&callable, &args, Construction::Reduce));
      }
      return false;
    }
    case 0x81: {
      Value &args = pop();
      Value &cls = pop();
      if (args.kind_ != Kind::Tuple)
        fail("NEWOBJ arguments are " + args.describe() + ", not a tuple");
      push(make_object(&cls, &args, Construction::NewObj));
      return false;
    }
    case 0x92: {
      Value &kwargs = pop();
      Value &args = pop();
      Value &cls = pop();
      if (args.kind_ != Kind::Tuple || kwargs.kind_ != Kind::Dict)
        fail("NEWOBJ_EX needs a tuple and a dict, got " + args.describe() + " and " +
             kwargs.describe());
      Value &obj = make_object(&cls, &args, Construction::NewObj);
      obj.object_->kwargs = &kwargs;
      push(obj);
      return false;
    }
    case 'o': {
      auto items = pop_mark();
      if (items.empty()) fail("OBJ without a class");
      std::vector<Value *> rest(items.begin() + 1, items.end());
      push(make_object(items[0], &make_sequence(Kind::Tuple, rest), Construction::Reduce));
      return false;
    }
    case 'i': {
      const auto module = line();
      const auto name = line();
      auto items = pop_mark();
      Value &cls = make_global(module, name);
      push(make_object(&cls, &make_sequence(Kind::Tuple, items), Construction::Reduce));
      return false;
    }
    case 'b': {
      Value &state = pop();
      Value &obj = top();
      if (obj.kind_ != Kind::Object) fail("BUILD on " + obj.describe() + ", not an object");
      obj.object_->state = &state;
      return false;
    }
    case 'P':
    case 'Q':
      fail("persistent ids are not supported: the stream refers to objects stored outside it");
    case 0x82:
    case 0x83:
    case 0x84: fail("extension registry codes (copyreg.add_extension) are not supported");
    default: {
      char what[64];
      std::snprintf(what, sizeof what, "unknown opcode 0x%02x", op_);
      fail(what);
    }
    }
  }

  void append_to(Value &target, const std::vector<Value *> &items) {
    if (target.kind_ == Kind::List) {
      target.items_.insert(target.items_.end(), items.begin(), items.end());
    } else if (target.kind_ == Kind::Object) {
      auto &list = target.object_->list_items;
      list.insert(list.end(), items.begin(), items.end());
    } else {
      fail("APPEND to " + target.describe() + ", not a list");
    }
  }
  void set_items(Value &target, const std::vector<Value *> &items) {
    if (target.kind_ == Kind::Dict) {
      target.items_.insert(target.items_.end(), items.begin(), items.end());
    } else if (target.kind_ == Kind::Object) {
      auto &dict = target.object_->dict_items;
      dict.insert(dict.end(), items.begin(), items.end());
    } else {
      fail("SETITEM on " + target.describe() + ", not a dict");
    }
  }

  // ---- finishing ----------------------------------------------------------------------------
  template <class F> static void for_each_child(const Value &v, F &&f) {
    for (const Value *c : v.items_) f(c);
    if (const auto *o = v.object_.get()) {
      for (const Value *c : {o->callable, o->args, o->kwargs, o->state})
        if (c) f(c);
      for (const Value *c : o->list_items) f(c);
      for (const Value *c : o->dict_items) f(c);
    }
  }

  static KeyId key_id(const Value &k) {
    switch (k.kind_) {
    case Kind::Bool: return {0, k.bool_ ? 1 : 0, {}, nullptr};
    case Kind::Int:
      if (!k.big_) return {0, k.int_, {}, nullptr};
      return {5, 0, {reinterpret_cast<const char *>(k.data_), k.size_}, nullptr};
    case Kind::Str: return {1, 0, {reinterpret_cast<const char *>(k.data_), k.size_}, nullptr};
    case Kind::Bytes: return {2, 0, {reinterpret_cast<const char *>(k.data_), k.size_}, nullptr};
    case Kind::None: return {3, 0, {}, nullptr};
    default: return {4, 0, {}, &k};
    }
  }

  // A repeated key keeps its first place and takes the last value, as in Python.
  static void merge_repeated_keys(Value &dict) {
    const std::size_t n = dict.items_.size() / 2;
    if (n < 2) return;
    std::unordered_map<KeyId, std::size_t, KeyHash> first;
    first.reserve(n);
    bool repeated = false;
    for (std::size_t i = 0; i < n && !repeated; ++i)
      repeated = !first.emplace(key_id(*dict.items_[2 * i]), i).second;
    if (!repeated) return;
    first.clear();
    std::vector<const Value *> merged;
    for (std::size_t i = 0; i < n; ++i) {
      const auto [it, inserted] = first.emplace(key_id(*dict.items_[2 * i]), merged.size() / 2);
      if (inserted) {
        merged.push_back(dict.items_[2 * i]);
        merged.push_back(dict.items_[2 * i + 1]);
      } else {
        merged[2 * it->second + 1] = dict.items_[2 * i + 1];
      }
    }
    dict.items_ = std::move(merged);
  }

  static bool is_container(Kind k) {
    return k == Kind::Tuple || k == Kind::List || k == Kind::Dict || k == Kind::Set ||
           k == Kind::FrozenSet || k == Kind::Object;
  }

  // Walks the tree from the root once (iteratively): depths, the depth limit, cycles, repeated
  // dict keys. Nodes expanded but not finished are exactly the current path, so meeting one
  // again is a cycle.
  void finish() {
    struct Frame {
      Value *value;
      bool expanded;
    };
    std::vector<Frame> work{{const_cast<Value *>(doc_.root_), false}};
    const std::uint32_t max_depth = options_.limits.max_depth;
    while (!work.empty()) {
      Value &v = *work.back().value;
      if (work.back().expanded) {
        std::uint32_t deepest = 0;
        for_each_child(v, [&](const Value *c) { deepest = std::max(deepest, c->depth_); });
        v.depth_ = is_container(v.kind_) ? deepest + 1 : 0;
        v.visit_ = 2;
        work.pop_back();
        if (v.depth_ > max_depth)
          fail_at(v, "the object tree nests deeper than " + std::to_string(max_depth) + " levels");
        if (v.kind_ == Kind::Dict) merge_repeated_keys(v);
        continue;
      }
      if (v.visit_ == 2) {  // shared, and already finished through another parent
        work.pop_back();
        continue;
      }
      work.back().expanded = true;
      v.visit_ = 1;
      for_each_child(v, [&](const Value *c) {
        Value *child = const_cast<Value *>(c);
        if (child->visit_ == 1)
          fail_at(v, "the object graph is cyclic: the " + v.describe() +
                         " made here contains itself (self-referencing data is not read)");
        if (child->visit_ == 0) work.push_back({child, false});
      });
    }
  }
  [[noreturn]] void fail_at(const Value &v, const std::string &what) {
    op_start_ = static_cast<std::size_t>(v.offset_);
    op_ = 0;
    fail(what);
  }

  const std::uint8_t *in_;
  std::size_t size_;
  std::size_t pos_ = 0;
  std::size_t op_start_ = 0;
  std::uint8_t op_ = 0;
  const ReadOptions &options_;
  PickleDocument &doc_;
  PickleDocument::Storage &storage_;
  std::vector<Value *> stack_;
  std::vector<std::size_t> marks_;
  std::vector<Value *> memo_dense_;
  std::unordered_map<std::uint64_t, Value *> memo_sparse_;
  std::uint64_t memo_count_ = 0;
};

PickleDocument PickleDocument::parse(std::span<const std::uint8_t> bytes,
                                     const ReadOptions &options,
                                     std::shared_ptr<const void> owner) {
  PickleDocument doc;
  doc.source_name_ = options.source_name;
  doc.input_ = bytes;
  doc.owner_ = std::move(owner);
  Builder(bytes, options, doc).run();
  return doc;
}

PickleDocument PickleDocument::load(const std::filesystem::path &path, ReadOptions options) {
  auto file = MappedFile::open(path);
  if (options.source_name.empty()) options.source_name = path.string();
  const auto bytes = file->bytes();
  return parse(bytes, options, std::move(file));
}

}  // namespace wavescope::pickle
