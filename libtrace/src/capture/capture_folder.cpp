// Capture folders: meta.json (format "sqtt-corpus/1") and the files it lists.

#include "wavescope/trace/capture.hpp"

#include <charconv>
#include <fstream>
#include <iterator>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/isa/gpu_target.hpp"

#include "meta_fast.hpp"

namespace wavescope::trace {
namespace {

using nlohmann::json;

// Field accessors that turn a malformed meta.json into an error naming the field.
struct MetaReader {
  std::filesystem::path meta_path;

  [[noreturn]] void fail(const std::string &what) const {
    throw_bad_input(fmt::format("{}: {}", meta_path.string(), what));
  }
  const json &at(const json &object, const char *key, const std::string &where) const {
    if (object.is_object()) {
      const auto it = object.find(key);
      if (it != object.end()) return *it;
    }
    fail(fmt::format("{} has no \"{}\"", where, key));
  }
  // A list field: iterating or indexing anything else would throw nlohmann's own exception.
  const json &array(const json &object, const char *key, const std::string &where) const {
    const json &value = at(object, key, where);
    if (!value.is_array()) fail(fmt::format("{}.{} is not an array", where, key));
    return value;
  }
  template <typename T> T get(const json &object, const char *key, const std::string &where) const {
    try {
      return at(object, key, where).get<T>();
    } catch (const json::exception &) {
      fail(fmt::format("{}.{} has the wrong type", where, key));
    }
  }
  template <typename T>
  T get_or(const json &object, const char *key, T fallback, const std::string &where) const {
    if (!object.is_object()) return fallback;
    const auto it = object.find(key);
    if (it == object.end()) return fallback;
    try {
      return it->template get<T>();
    } catch (const json::exception &) {
      fail(fmt::format("{}.{} has the wrong type", where, key));
    }
  }
  std::uint64_t hex(const json &object, const char *key, const std::string &where) const {
    const auto text = get<std::string>(object, key, where);
    try {
      std::size_t used = 0;
      const auto value = std::stoull(text, &used, 16);
      if (used != text.size()) throw std::invalid_argument(text);
      return value;
    } catch (const std::exception &) {
      fail(fmt::format("{}.{} is not a hex number: \"{}\"", where, key, text));
    }
  }
  // A number written as a decimal string ("12.5"), as tinygrad writes times.
  double decimal(const json &object, const char *key, const std::string &where) const {
    const auto text = get<std::string>(object, key, where);
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size())
      fail(fmt::format("{}.{} is not a decimal number: \"{}\"", where, key, text));
    return value;
  }
  std::string file_name(const json &object, const std::string &where) const {
    return checked_file_name(get<std::string>(object, "file", where), where);
  }
  std::string checked_file_name(std::string name, const std::string &where) const {
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
      fail(fmt::format("{}.file \"{}\" is not a plain file name in the capture folder", where,
                       name));
    return name;
  }
};

using detail::BlobEntry;

// Builds meta.json's document with nlohmann's own DOM builder, leaving out the members nothing
// reads: per blob, meta.json also records what the reference decode found (packets, times,
// waves: two thirds of an entry), and a capture may list many thousand blobs. The whole text is
// still parsed, so the errors are nlohmann's. (nlohmann's parse callback would do the same, but
// it scans the enclosing array after every object: quadratic in the blob count.)
//
// With `blobs` given, the entries of the sqtt array go there instead of into the document (which
// gets an empty "sqtt" array): a DOM object per entry (a std::map of nine members) cost more than
// the rest of opening a capture of many blobs. Only entries the reader would take as they are
// go that way: a member of another type than the reader expects, a required member missing, a
// non-object entry or a second "sqtt" sets fell_back(), and the caller parses again without
// `blobs`, so whatever is odd gets the reader's own errors.
class MetaSax {
public:
  explicit MetaSax(json &root, std::vector<BlobEntry> *blobs = nullptr)
      : dom_(root), blobs_(blobs) {}
  // The entries could not all take the fast path: parse again without it.
  bool fell_back() const { return fell_back_; }
  // The sqtt entries are in `blobs` (the document has an empty "sqtt" array).
  bool took_entries() const { return blobs_ && sqtt_keys_ == 1 && !fell_back_ && array_seen_; }

  bool null() {
    return scalar([&] { return dom_.null(); });
  }
  bool boolean(bool v) {
    if (!skipping() && in_sqtt() && depth_ == 3) {
      if (field_ == Field::Itrace) return take(entry_.itrace, v);
      if (field_ == Field::Synthetic) return take(entry_.synthetic_header, v);
    }
    return scalar([&] { return dom_.boolean(v); });
  }
  // Negative (nlohmann gives non-negative integers as unsigned): the reader's conversion decides.
  bool number_integer(json::number_integer_t v) {
    return scalar([&] { return dom_.number_integer(v); });
  }
  bool number_unsigned(json::number_unsigned_t v) {
    if (!skipping() && in_sqtt() && depth_ == 3) {
      switch (field_) {
      case Field::Order: return take(entry_.order, v, &entry_.has_order);
      case Field::Se: return take(entry_.se, v, &entry_.has_se);
      case Field::Kern: return take(entry_.kern, v, &entry_.has_kern);
      case Field::Size: return take(entry_.size, v, &entry_.has_size);
      default: break;
      }
    }
    return scalar([&] { return dom_.number_unsigned(v); });
  }
  bool number_float(json::number_float_t v, const json::string_t &text) {
    return scalar([&] { return dom_.number_float(v, text); });
  }
  bool string(json::string_t &v) {
    if (!skipping() && in_sqtt() && depth_ == 3) {
      switch (field_) {
      case Field::File: return take(entry_.file, std::move(v), &entry_.has_file);
      case Field::Program: return take(entry_.program, std::move(v));
      case Field::Sha256: return take(entry_.sha256, std::move(v));
      default: break;
      }
    }
    return scalar([&] { return dom_.string(v); });
  }
  bool binary(json::binary_t &v) {
    return scalar([&] { return dom_.binary(v); });
  }
  bool start_object(std::size_t n) {
    ++depth_;
    if (skipping()) return true;
    if (in_sqtt() && depth_ == 3) {  // an entry
      entry_ = {};
      field_ = Field::None;
      return true;
    }
    if (in_sqtt()) return odd_container();
    return dom_.start_object(n);
  }
  bool start_array(std::size_t n) {
    ++depth_;
    if (skipping()) return true;
    if (in_sqtt()) return odd_container();
    if (blobs_ && depth_ == 2 && top_ == "sqtt") sqtt_array_ = array_seen_ = true;
    return dom_.start_array(n);
  }
  bool end_object() {
    if (!skipping() && in_sqtt() && depth_ == 3) {
      --depth_;
      if (!entry_.has_file || !entry_.has_se || !entry_.has_kern || !entry_.has_size)
        fell_back_ = true;  // the reader names what is missing
      blobs_->push_back(std::move(entry_));
      return true;
    }
    return end(&Dom::end_object);
  }
  bool end_array() {
    if (!skipping() && depth_ == 2) sqtt_array_ = false;
    return end(&Dom::end_array);
  }
  bool key(json::string_t &k) {
    if (skipping()) return true;
    if (depth_ == 1) {
      top_ = k;
      if (k == "sqtt") {
        if (sqtt_keys_++) fell_back_ = true;  // a second "sqtt": the document's last one counts
      }
    }
    if (!wanted(k)) {
      skip_depth_ = depth_;
      return true;
    }
    if (in_sqtt() && depth_ == 3) {
      field_ = field_of(k);
      return true;
    }
    return dom_.key(k);
  }
  bool parse_error(std::size_t position, const std::string &token,
                   const nlohmann::detail::exception &e) {
    return dom_.parse_error(position, token, e);
  }

private:
  using Dom = nlohmann::detail::json_sax_dom_parser<json>;
  enum class Field { None, File, Order, Se, Kern, Program, Itrace, Size, Sha256, Synthetic };
  static Field field_of(const std::string &k) {
    if (k == "file") return Field::File;
    if (k == "order") return Field::Order;
    if (k == "se") return Field::Se;
    if (k == "kern") return Field::Kern;
    if (k == "program") return Field::Program;
    if (k == "itrace") return Field::Itrace;
    if (k == "size") return Field::Size;
    if (k == "sha256") return Field::Sha256;
    if (k == "synthetic_header") return Field::Synthetic;
    return Field::None;
  }
  // An entry member of the type the reader takes.
  template <typename T, typename V> static bool take(T &member, V &&value, bool *has = nullptr) {
    member = std::forward<V>(value);
    if (has) *has = true;
    return true;
  }
  // Inside the top-level "sqtt" array on the fast path (its entries at depth 3).
  bool in_sqtt() const { return sqtt_array_ && depth_ >= 2; }
  // A scalar: skipped, the document's, or, in the sqtt array, one the fast path does not take
  // (an entry member of another type, or an entry that is not an object).
  template <typename ToDom> bool scalar(ToDom to_dom) {
    if (skipping()) return scalar_skipped();
    if (in_sqtt()) {
      fell_back_ = true;
      return true;
    }
    return to_dom();
  }
  // A container where the fast path takes none: skipped, and the document parsed again.
  bool odd_container() {
    fell_back_ = true;
    skip_depth_ = depth_ - 1;  // its end closes the skip
    return true;
  }
  bool skipping() const { return skip_depth_ >= 0; }
  // A skipped member's value was a scalar: it is done.
  bool scalar_skipped() {
    if (depth_ == skip_depth_) skip_depth_ = -1;
    return true;
  }
  bool end(bool (Dom::*close)()) {
    --depth_;
    if (!skipping()) return (dom_.*close)();
    if (depth_ == skip_depth_) skip_depth_ = -1;  // the skipped member's value is closed
    return true;
  }
  bool wanted(const std::string &k) const {
    if (depth_ == 1)
      return k == "format" || k == "example" || k == "arch" || k == "device" || k == "programs" ||
             k == "sqtt" || k == "pmc";
    if (depth_ == 3 && top_ == "sqtt")
      return k == "file" || k == "order" || k == "se" || k == "kern" || k == "program" ||
             k == "itrace" || k == "size" || k == "sha256" || k == "synthetic_header";
    return true;
  }

  Dom dom_;
  std::vector<BlobEntry> *blobs_;  // the sqtt entries' fast path, when given
  BlobEntry entry_;
  Field field_ = Field::None;
  bool sqtt_array_ = false;  // inside the top-level "sqtt" array (fast path only)
  bool array_seen_ = false;
  int sqtt_keys_ = 0;
  bool fell_back_ = false;
  int depth_ = 0;        // containers open
  int skip_depth_ = -1;  // skipping the value of a member of the container at this depth
  std::string top_;      // the top-level member being read
};

// The listed file as a byte source, after checking it exists with its recorded size. `sizes`
// keeps the sizes of the files seen so far: a file listed again (the blobs of a capture that
// reruns one dispatch) is stat'ed once.
ByteSource checked_file(const std::filesystem::path &file, std::uint64_t expected_size,
                        const std::filesystem::path &meta,
                        std::unordered_map<std::string, std::uint64_t> &sizes) {
  auto [it, added] = sizes.try_emplace(file.native(), 0);
  if (added) {
    std::error_code ec;
    it->second = std::filesystem::file_size(file, ec);
    if (ec) {
      sizes.erase(it);
      throw_bad_input(fmt::format("{}: lists {} but it is missing", meta.string(), file.string()));
    }
  }
  const auto size = it->second;
  if (size != expected_size)
    throw_bad_input(fmt::format("{}: is {} bytes but {} records {}", file.string(), size,
                                meta.filename().string(), expected_size));
  return ByteSource::file_range(file, 0, size);
}

// The whole text of meta.json, with detail::kMetaPadding bytes of room past its end (the fast
// reader parses it in place). Read from memory: nlohmann reads a stream a character at a time.
std::string read_text(std::ifstream &in) {
  std::string text;
  in.seekg(0, std::ios::end);
  const auto end = in.tellg();
  in.seekg(0);
  if (end > 0 && in) {
    const auto size = static_cast<std::size_t>(end);
    text.resize(size + detail::kMetaPadding);
    in.read(text.data(), static_cast<std::streamsize>(size));
    if (in && static_cast<std::size_t>(in.gcount()) == size && in.peek() == EOF) {
      text.resize(size);  // the capacity stays
      return text;
    }
    in.clear();
    in.seekg(0);
  }
  // Not a plain file of known size (a pipe, a file that grew): as it comes.
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return std::move(buffer).str();
}

}  // namespace

Capture Capture::open_folder(const std::filesystem::path &path) {
  const auto meta_path = std::filesystem::is_directory(path) ? path / "meta.json" : path;
  const MetaReader r{meta_path};
  std::ifstream in(meta_path, std::ios::binary);
  if (!in)
    throw_bad_input(fmt::format("{}: not a capture folder (no readable meta.json)", path.string()));
  const std::string text = read_text(in);
  json meta;
  std::vector<BlobEntry> entries;
  // simdjson first; anything it does not take as it is goes through nlohmann, whose errors the
  // reader reports.
  bool took_entries = detail::read_meta_fast(text, meta, entries);
  if (!took_entries) {
    meta = json();
    entries.clear();
    try {
      MetaSax sax(meta, &entries);
      json::sax_parse(text, &sax);
      took_entries = sax.took_entries();
      if (sax.fell_back()) {  // something odd in the sqtt entries: the reader's errors name it
        meta = json();
        entries.clear();
        MetaSax dom_only(meta);
        json::sax_parse(text, &dom_only);
      }
    } catch (const json::exception &e) {  // not only parse_error: 1e5012 is out_of_range
      r.fail(fmt::format("not valid JSON: {}", e.what()));
    }
  }
  const auto format = r.get_or<std::string>(meta, "format", "", "meta");
  if (format != "sqtt-corpus/1")
    r.fail(fmt::format("format is \"{}\", expected \"sqtt-corpus/1\"", format));

  Capture c;
  c.source = meta_path.parent_path();
  std::unordered_map<std::string, std::uint64_t> sizes;
  c.example = r.get_or<std::string>(meta, "example", "", "meta");
  c.arch = r.get_or<std::string>(meta, "arch", "", "meta");

  const auto &props = r.at(r.at(meta, "device", "meta"), "props", "device");
  auto &d = c.device;
  d.gfx_target_version = r.get<unsigned>(props, "gfx_target_version", "device.props");
  d.processor = compiler::isa::processor_from_gfx_target_version(d.gfx_target_version);
  d.num_xcc = r.get_or<unsigned>(props, "num_xcc", 1, "device.props");
  d.simd_count = r.get_or<unsigned>(props, "simd_count", 0, "device.props");
  d.simd_per_cu = r.get_or<unsigned>(props, "simd_per_cu", 0, "device.props");
  d.cu_per_simd_array = r.get_or<unsigned>(props, "cu_per_simd_array", 0, "device.props");
  d.array_count = r.get_or<unsigned>(props, "array_count", 0, "device.props");
  d.simd_arrays_per_engine = r.get_or<unsigned>(props, "simd_arrays_per_engine", 0, "device.props");
  d.max_waves_per_simd = r.get_or<unsigned>(props, "max_waves_per_simd", 0, "device.props");
  d.lds_size_kb = r.get_or<unsigned>(props, "lds_size_in_kb", 0, "device.props");
  d.pci_device_id = r.get_or<unsigned>(props, "device_id", 0, "device.props");
  d.max_engine_clock_mhz = r.get_or<unsigned>(props, "max_engine_clk_fcompute", 0, "device.props");

  const auto &programs = r.array(meta, "programs", "meta");
  for (std::size_t i = 0; i < programs.size(); ++i) {
    const auto &p = programs[i];
    const std::string where = fmt::format("programs[{}]", i);
    CaptureProgram program;
    program.tag = r.get<std::uint32_t>(p, "tag", where);
    program.name = r.get<std::string>(p, "name", where);
    program.file_name = r.file_name(p, where);
    program.base = r.hex(p, "base", where);
    program.text_address = r.hex(r.at(p, "text", where), "addr", where + ".text");
    program.text_size = r.get<std::uint64_t>(r.at(p, "text", where), "size", where + ".text");
    program.entry_pc = r.hex(p, "entry_pc", where);
    if (p.contains("exec_ranges"))
      for (const auto &range : r.array(p, "exec_ranges", where))
        program.exec_ranges.push_back({r.decimal(range, "st_us", where + ".exec_ranges"),
                                       r.decimal(range, "en_us", where + ".exec_ranges")});
    program.code = checked_file(c.source / program.file_name,
                                r.get<std::uint64_t>(p, "size", where), meta_path, sizes);
    c.programs.push_back(std::move(program));
  }

  std::string blob_where;  // "sqtt[i]", rewritten in place: there may be many thousand blobs
  auto add_blob = [&](CaptureBlob &&blob) {
    if (!c.program(blob.kernel_tag))
      r.fail(
          fmt::format("{}.kern is {}, but no program has that tag", blob_where, blob.kernel_tag));
    blob.bytes = checked_file(c.source / blob.file_name, blob.size, meta_path, sizes);
    c.blobs.push_back(std::move(blob));
  };
  auto where_of = [&](std::size_t i) -> const std::string & {
    blob_where.clear();
    fmt::format_to(std::back_inserter(blob_where), "sqtt[{}]", i);
    return blob_where;
  };
  if (took_entries) {
    // Read straight from the parser, each member already of the type the reader takes.
    c.blobs.reserve(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
      auto &e = entries[i];
      const std::string &where = where_of(i);
      CaptureBlob blob;
      blob.file_name = r.checked_file_name(std::move(e.file), where);
      blob.order = e.has_order ? static_cast<unsigned>(e.order) : static_cast<unsigned>(i);
      blob.se = static_cast<unsigned>(e.se);
      blob.kernel_tag = static_cast<std::uint32_t>(e.kern);
      blob.program = std::move(e.program);
      blob.itrace = e.itrace;
      blob.size = e.size;
      blob.sha256 = std::move(e.sha256);
      blob.synthetic_header = e.synthetic_header;
      add_blob(std::move(blob));
    }
  } else {
    const auto &blobs = r.array(meta, "sqtt", "meta");
    c.blobs.reserve(blobs.size());
    for (std::size_t i = 0; i < blobs.size(); ++i) {
      const auto &b = blobs[i];
      const std::string &where = where_of(i);
      CaptureBlob blob;
      blob.file_name = r.file_name(b, where);
      blob.order = r.get_or<unsigned>(b, "order", static_cast<unsigned>(i), where);
      blob.se = r.get<unsigned>(b, "se", where);
      blob.kernel_tag = r.get<std::uint32_t>(b, "kern", where);
      blob.program = r.get_or<std::string>(b, "program", "", where);
      blob.itrace = r.get_or<bool>(b, "itrace", false, where);
      blob.size = r.get<std::uint64_t>(b, "size", where);
      blob.sha256 = r.get_or<std::string>(b, "sha256", "", where);
      blob.synthetic_header = r.get_or<bool>(b, "synthetic_header", false, where);
      add_blob(std::move(blob));
    }
  }

  if (meta.contains("pmc")) {
    const auto &events = r.array(meta, "pmc", "meta");
    for (std::size_t i = 0; i < events.size(); ++i) {
      const auto &e = events[i];
      const std::string where = fmt::format("pmc[{}]", i);
      CapturePmc pmc;
      pmc.file_name = r.file_name(e, where);
      pmc.order = r.get_or<unsigned>(e, "order", static_cast<unsigned>(i), where);
      pmc.kernel_tag = r.get<std::uint32_t>(e, "kern", where);
      pmc.program = r.get_or<std::string>(e, "program", "", where);
      pmc.size = r.get<std::uint64_t>(e, "size", where);
      pmc.used_bytes = r.get_or<std::uint64_t>(e, "used_bytes", pmc.size, where);
      const auto &sched = r.array(e, "sched", where);
      for (std::size_t k = 0; k < sched.size(); ++k) {
        const auto &s = sched[k];
        const std::string swhere = fmt::format("{}.sched[{}]", where, k);
        PmcSampleSpec spec;
        spec.name = r.get<std::string>(s, "name", swhere);
        spec.block = r.get_or<std::string>(s, "block", "", swhere);
        spec.xcc = r.get_or<unsigned>(s, "xcc", 1, swhere);
        spec.inst = r.get_or<unsigned>(s, "inst", 1, swhere);
        spec.se = r.get_or<unsigned>(s, "se", 1, swhere);
        spec.sa = r.get_or<unsigned>(s, "sa", 1, swhere);
        spec.wgp = r.get_or<unsigned>(s, "wgp", 1, swhere);
        spec.offset = r.get<std::uint64_t>(s, "off", swhere);
        spec.size = r.get<std::uint64_t>(s, "size", swhere);
        spec.sample_register = r.get_or<std::string>(s, "regsample", "", swhere);
        if (s.contains("perf_sel") && !s["perf_sel"].is_null())
          spec.perf_sel = r.get<unsigned>(s, "perf_sel", swhere);
        spec.select_register = r.get_or<std::string>(s, "select_register", "", swhere);
        if (spec.size > pmc.size || spec.offset > pmc.size - spec.size)
          r.fail(fmt::format("{} ({}) ends at byte {}, past the {}-byte buffer", swhere, spec.name,
                             spec.offset + spec.size, pmc.size));
        pmc.schedule.push_back(std::move(spec));
      }
      pmc.bytes = checked_file(c.source / pmc.file_name, pmc.size, meta_path, sizes);
      c.pmc.push_back(std::move(pmc));
    }
  }
  return c;
}

}  // namespace wavescope::trace
