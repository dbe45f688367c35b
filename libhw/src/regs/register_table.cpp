// The register database's tables: gzip'd text embedded in libhw, inflated and parsed on first use
// into string views over the text itself (one allocation per table for the names).

#include "wavescope/hw/regs/register_table.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>
#include <zlib.h>

#include "regs/embedded_tables.hpp"
#include "wavescope/base/error.hpp"

namespace wavescope::hw::regs {
namespace {

std::string upper(std::string_view s) {
  std::string out(s);
  for (auto &c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x >= 'a' && x <= 'z' ? x - 32 : x) == (y >= 'a' && y <= 'z' ? y - 32 : y);
         });
}

std::string inflate_gzip(const detail::EmbeddedTable &t) {
  const auto size = static_cast<std::size_t>(t.end - t.begin);
  if (size < 18) throw Error(ErrorKind::Internal, fmt::format("regdb table {}: truncated", t.name));
  // ISIZE: the uncompressed size modulo 2^32, the gzip member's last four bytes.
  const std::uint32_t isize = std::uint32_t(t.end[-4]) | std::uint32_t(t.end[-3]) << 8 |
                              std::uint32_t(t.end[-2]) << 16 | std::uint32_t(t.end[-1]) << 24;
  std::string out(isize, '\0');
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
    throw Error(ErrorKind::Internal, "regdb: zlib inflateInit2 failed");
  z.next_in = const_cast<Bytef *>(t.begin);
  z.avail_in = static_cast<uInt>(size);
  z.next_out = reinterpret_cast<Bytef *>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&z, Z_FINISH);
  const auto produced = z.total_out;
  inflateEnd(&z);
  if (rc != Z_STREAM_END || produced != isize)
    throw Error(ErrorKind::Internal, fmt::format("regdb table {}: corrupt gzip data", t.name));
  return out;
}

// Splits a line into space-separated tokens.
std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') ++i;
    const auto start = i;
    while (i < line.size() && line[i] != ' ') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

template <typename T>
T number(std::string_view s, int base, const std::string &table, std::size_t line) {
  T v{};
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc{} || p != s.data() + s.size())
    throw_bad_input(fmt::format("regdb table {} line {}: bad number '{}'", table, line, s));
  return v;
}

IpVersion parse_version(std::string_view s, const std::string &table, std::size_t line) {
  IpVersion v;
  unsigned *parts[] = {&v.major, &v.minor, &v.revision};
  std::size_t k = 0;
  while (k < 3) {
    const auto dot = s.find('.');
    *parts[k++] = number<unsigned>(s.substr(0, dot), 10, table, line);
    if (dot == std::string_view::npos) break;
    s.remove_prefix(dot + 1);
  }
  return v;
}

}  // namespace

std::uint64_t Field::mask() const {
  const std::uint64_t ones = width() >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width()) - 1;
  return ones << lo;
}

std::string_view Register::base_name() const {
  if (name.starts_with("reg")) return name.substr(3);
  if (name.starts_with("mm")) return name.substr(2);
  return name;
}

const Field *Register::field(std::string_view wanted) const {
  for (const auto &f : fields)
    if (iequal(f.name, wanted)) return &f;
  return nullptr;
}

std::string IpVersion::to_string() const { return fmt::format("{}.{}.{}", major, minor, revision); }

RegisterTable::RegisterTable(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)) {
  const std::string_view all(text_);
  // Count first, so the spans into fields_ stay valid (every record line follows a newline).
  std::size_t nregs = 0, nfields = 0;
  for (auto i = all.find('\n'); i != std::string_view::npos; i = all.find('\n', i + 1)) {
    if (all.compare(i + 1, 2, "r ") == 0) ++nregs;
    if (all.compare(i + 1, 2, "f ") == 0) ++nfields;
  }
  registers_.reserve(nregs);
  fields_.reserve(nfields);
  index_.reserve(nregs * 2);
  std::vector<std::size_t> first_field;
  first_field.reserve(nregs);
  bool have_table = false;
  std::size_t line_no = 0, declared_regs = 0, declared_fields = 0;
  for (std::size_t at = 0; at < all.size();) {
    auto end = all.find('\n', at);
    if (end == std::string_view::npos) end = all.size();
    const auto line = all.substr(at, end - at);
    at = end + 1;
    ++line_no;
    if (line.empty()) continue;
    const auto t = tokens(line);
    const auto bad = [&](const char *what) {
      throw_bad_input(fmt::format("regdb table {} line {}: {}: '{}'", name_, line_no, what, line));
    };
    if (t[0] == "f") {
      if (t.size() != 4) bad("a field line is 'f NAME LO HI'");
      if (registers_.empty()) bad("a field before any register");
      Field f;
      f.name = t[1];
      f.lo = number<std::uint8_t>(t[2], 10, name_, line_no);
      f.hi = number<std::uint8_t>(t[3], 10, name_, line_no);
      if (f.hi < f.lo || f.hi > 63) bad("field bits out of order or beyond bit 63");
      fields_.push_back(f);
    } else if (t[0] == "r") {
      if (t.size() != 4 && t.size() != 5) bad("a register line is 'r NAME OFFSET SEGMENT [ALIAS]'");
      Register r;
      r.name = t[1];
      r.offset = number<std::uint64_t>(t[2], 16, name_, line_no);
      r.segment = number<std::uint8_t>(t[3], 10, name_, line_no);
      if (t.size() == 5) r.alias = t[4];
      first_field.push_back(fields_.size());
      registers_.push_back(r);
    } else if (t[0] == "wavescope-regdb") {
      if (t.size() != 2 || t[1] != "1") bad("unknown table format version");
    } else if (t[0] == "source") {
      source_ = std::string(line.substr(7));
    } else if (t[0] == "header") {
      if (t.size() != 3) bad("a header line is 'header PATH SHA256'");
      headers_.push_back({std::string(t[1]), std::string(t[2])});
    } else if (t[0] == "table") {
      if (t.size() != 6) bad("a table line is 'table NAME FAMILY VERSION REGISTERS FIELDS'");
      family_ = std::string(t[2]);
      version_ = parse_version(t[3], name_, line_no);
      declared_regs = number<std::size_t>(t[4], 10, name_, line_no);
      declared_fields = number<std::size_t>(t[5], 10, name_, line_no);
      have_table = true;
    } else {
      bad("unknown line");
    }
  }
  if (!have_table) throw_bad_input(fmt::format("regdb table {}: no 'table' line", name_));
  if (declared_regs != registers_.size() || declared_fields != fields_.size())
    throw_bad_input(fmt::format("regdb table {}: declares {} registers / {} fields, has {} / {}",
                                name_, declared_regs, declared_fields, registers_.size(),
                                fields_.size()));
  for (std::size_t i = 0; i < registers_.size(); ++i) {
    const auto end = i + 1 < registers_.size() ? first_field[i + 1] : fields_.size();
    registers_[i].fields =
        std::span<const Field>(fields_).subspan(first_field[i], end - first_field[i]);
    const auto idx = static_cast<std::uint32_t>(i);
    index_.emplace(upper(registers_[i].name), idx);
    index_.emplace(upper(registers_[i].base_name()), idx);
    if (const auto &r = registers_[i]; !r.alias.empty()) {
      index_.emplace(upper(r.alias), idx);
      const auto prefix = r.name.substr(0, r.name.size() - r.base_name().size());
      index_.emplace(upper(std::string(prefix) + std::string(r.alias)), idx);
    }
  }
}

const Register *RegisterTable::find(std::string_view name) const {
  const auto it = index_.find(upper(name));
  return it == index_.end() ? nullptr : &registers_[it->second];
}

namespace {

const detail::EmbeddedTable *embedded(std::string_view name) {
  for (const auto &t : detail::embedded_tables())
    if (name == t.name) return &t;
  return nullptr;
}

}  // namespace

std::vector<std::string> register_table_names() {
  std::vector<std::string> out;
  for (const auto &t : detail::embedded_tables()) out.emplace_back(t.name);
  std::sort(out.begin(), out.end());
  return out;
}

std::string register_table_text(std::string_view name) {
  const auto *t = embedded(name);
  if (!t)
    throw Error(ErrorKind::Usage, fmt::format("unknown register table '{}' (known: {})", name,
                                              fmt::join(register_table_names(), ", ")));
  return inflate_gzip(*t);
}

const RegisterTable &register_table(std::string_view name) {
  struct Slot {
    std::once_flag once;
    std::unique_ptr<RegisterTable> table;
  };
  static std::map<std::string, Slot, std::less<>> slots = [] {
    std::map<std::string, Slot, std::less<>> m;
    for (const auto &t : detail::embedded_tables()) m[t.name];
    return m;
  }();
  const auto it = slots.find(name);
  if (it == slots.end())
    throw Error(ErrorKind::Usage, fmt::format("unknown register table '{}' (known: {})", name,
                                              fmt::join(register_table_names(), ", ")));
  std::call_once(it->second.once, [&] {
    it->second.table = std::make_unique<RegisterTable>(it->first, register_table_text(name));
  });
  return *it->second.table;
}

namespace {

// "gc_11_0_0" -> ("gc", 11.0.0), "mp_11_0" -> ("mp", 11.0.0), from the name alone.
std::pair<std::string_view, IpVersion> family_and_version(std::string_view name) {
  const auto us = name.find('_');
  IpVersion v;
  unsigned *parts[] = {&v.major, &v.minor, &v.revision};
  std::size_t k = 0;
  for (auto rest = name.substr(us + 1); k < 3 && !rest.empty(); ++k) {
    const auto next = rest.find('_');
    std::from_chars(rest.data(), rest.data() + std::min(next, rest.size()), *parts[k]);
    rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next + 1);
  }
  return {name.substr(0, us), v};
}

}  // namespace

const RegisterTable *select_register_table(std::string_view family, IpVersion version) {
  if (family == "mp" && version == IpVersion{13, 0, 7}) version = {13, 0, 0};
  const detail::EmbeddedTable *best = nullptr;
  IpVersion best_version;
  for (const auto &t : detail::embedded_tables()) {
    const auto [f, v] = family_and_version(t.name);
    if (f != family || v.major != version.major || v > version) continue;
    if (!best || v > best_version) best = &t, best_version = v;
  }
  return best ? &register_table(best->name) : nullptr;
}

}  // namespace wavescope::hw::regs
