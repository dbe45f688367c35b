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
    const auto name = get<std::string>(object, "file", where);
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
      fail(fmt::format("{}.file \"{}\" is not a plain file name in the capture folder", where,
                       name));
    return name;
  }
};

// Builds meta.json's document with nlohmann's own DOM builder, leaving out the members nothing
// reads: per blob, meta.json also records what the reference decode found (packets, times,
// waves: two thirds of an entry), and a capture may list many thousand blobs. The whole text is
// still parsed, so the errors are nlohmann's. (nlohmann's parse callback would do the same, but
// it scans the enclosing array after every object: quadratic in the blob count.)
class MetaSax {
public:
  explicit MetaSax(json &root) : dom_(root) {}

  bool null() { return skipping() ? scalar_skipped() : dom_.null(); }
  bool boolean(bool v) { return skipping() ? scalar_skipped() : dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) {
    return skipping() ? scalar_skipped() : dom_.number_integer(v);
  }
  bool number_unsigned(json::number_unsigned_t v) {
    return skipping() ? scalar_skipped() : dom_.number_unsigned(v);
  }
  bool number_float(json::number_float_t v, const json::string_t &text) {
    return skipping() ? scalar_skipped() : dom_.number_float(v, text);
  }
  bool string(json::string_t &v) { return skipping() ? scalar_skipped() : dom_.string(v); }
  bool binary(json::binary_t &v) { return skipping() ? scalar_skipped() : dom_.binary(v); }
  bool start_object(std::size_t n) {
    ++depth_;
    return skipping() || dom_.start_object(n);
  }
  bool start_array(std::size_t n) {
    ++depth_;
    return skipping() || dom_.start_array(n);
  }
  bool end_object() { return end(&Dom::end_object); }
  bool end_array() { return end(&Dom::end_array); }
  bool key(json::string_t &k) {
    if (skipping()) return true;
    if (depth_ == 1) top_ = k;
    if (!wanted(k)) {
      skip_depth_ = depth_;
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

}  // namespace

Capture Capture::open_folder(const std::filesystem::path &path) {
  const auto meta_path = std::filesystem::is_directory(path) ? path / "meta.json" : path;
  const MetaReader r{meta_path};
  std::ifstream in(meta_path, std::ios::binary);
  if (!in)
    throw_bad_input(fmt::format("{}: not a capture folder (no readable meta.json)", path.string()));
  // Parsed from memory: nlohmann reads a stream a character at a time through the streambuf.
  std::string text;
  {
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = std::move(buffer).str();
  }
  json meta;
  try {
    MetaSax sax(meta);
    json::sax_parse(text, &sax);
  } catch (const json::exception &e) {  // not only parse_error: 1e5012 is out_of_range
    r.fail(fmt::format("not valid JSON: {}", e.what()));
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

  const auto &blobs = r.array(meta, "sqtt", "meta");
  c.blobs.reserve(blobs.size());
  std::string blob_where;  // "sqtt[i]", rewritten in place: there may be many thousand blobs
  for (std::size_t i = 0; i < blobs.size(); ++i) {
    const auto &b = blobs[i];
    blob_where.clear();
    fmt::format_to(std::back_inserter(blob_where), "sqtt[{}]", i);
    const std::string &where = blob_where;
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
    if (!c.program(blob.kernel_tag))
      r.fail(fmt::format("{}.kern is {}, but no program has that tag", where, blob.kernel_tag));
    blob.bytes = checked_file(c.source / blob.file_name, blob.size, meta_path, sizes);
    c.blobs.push_back(std::move(blob));
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
