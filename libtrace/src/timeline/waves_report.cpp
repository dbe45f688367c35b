#include "wavescope/trace/timeline/waves_report.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include <fmt/format.h>

#include "json_writer.hpp"
#include "wavescope/base/text_table.hpp"
#include "wavescope/trace/timeline/capture_pipeline.hpp"

namespace wavescope::trace::timeline {
namespace {

// One wave as a JSON line, keys in byte order (as nlohmann's object printed them before).
void write_wave(std::string &out, const CaptureBlob &blob, const WaveTrace &t, bool cdna,
                bool instructions) {
  const auto &w = t.wave;
  JsonWriter j(out);
  j.begin_object();
  j.field("blob", blob.file_name);
  j.field("cu", w.cu);
  j.field("end", w.end);
  j.field("end_i", w.end_index);
  if (!cdna) j.field("id7", w.id7);
  if (t.mapped) j.field("instructions", t.instruction_count);
  if (instructions && t.mapped) {
    j.key("insts").begin_array();
    for (const auto &i : t.instructions) {
      j.begin_object();
      j.field("asm", i.instruction ? std::string_view(i.instruction->text) : "s_endpgm");
      if (i.barrier_wait) j.field("barrier_wait", i.barrier_wait);
      if (i.duration >= 0) j.field("duration", i.duration);
      if (i.exec_count) {
        j.key("exec").begin_array();
        for (const auto &e : t.exec(i)) {
          j.begin_array();
          j.value(e.row);
          j.value(e.name);
          j.value(e.start);
          j.value(e.end);
          j.end_array();
        }
        j.end_array();
      }
      j.field("gap", i.issue_gap);
      if (i.inserted) j.field("inserted", true);
      j.field("name", i.name);
      j.field("pc", i.pc);
      if (i.inserted)
        j.field("pkt", nullptr);
      else
        j.field("pkt", sqtt::to_string(i.packet));
      if (i.stall >= 0) j.field("stall", i.stall);
      j.field("time", i.time);
      j.key("viz").begin_array();
      j.value(i.bar_start);
      j.value(i.bar_end);
      j.end_array();
      j.end_object();
    }
    j.end_array();
  }
  j.field("kernel", blob.program);
  j.field("mapped", t.mapped);
  if (!cdna) j.field("sa", w.sa);
  j.field("se", w.se);
  if (cdna) j.field("sh", w.sh);
  j.field("simd", w.simd);
  j.field("start", w.start);
  j.field("start_i", w.start_index);
  if (!t.states.empty()) {
    j.key("states").begin_array();
    for (const auto &st : t.states) {
      j.begin_array();
      j.value(to_string(st.state));
      j.value(st.duration);
      j.end_array();
    }
    j.end_array();
  }
  j.field("wave", w.slot);
  if (!cdna) j.field("wgp", w.wgp);
  j.end_object();
}

// A wave's line without instruction records, written through a pointer into room made before
// (wave_line_room bytes): JsonWriter appends a token at a time (a call into libstdc++ per byte
// for its commas and quotes), which cost ~40% of `sqtt waves --json`. The bytes are
// write_wave's (stream_waves_json against to_json, tested on every corpus capture).
template <std::size_t N> char *put(char *p, const char (&text)[N]) {
  std::memcpy(p, text, N - 1);
  return p + N - 1;
}
char *put(char *p, std::string_view text) {
  std::memcpy(p, text.data(), text.size());
  return p + text.size();
}
constexpr std::size_t kNumberRoom = 20;  // the digits of a 64-bit integer, or '-' and 19
// A number's digits written in place, two at a time from the right (std::to_chars is a call
// into libstdc++ per number, fmt::format_int writes into its own buffer, copied after).
constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";
inline char *put_unsigned(char *p, std::uint64_t v) {
  int digits = 1;
  for (std::uint64_t t = v; t >= 10; t /= 10) ++digits;
  char *const end = p + digits;
  char *q = end;
  while (v >= 100) {
    q -= 2;
    std::memcpy(q, kDigitPairs + (v % 100) * 2, 2);
    v /= 100;
  }
  if (v >= 10)
    std::memcpy(q - 2, kDigitPairs + v * 2, 2);
  else
    q[-1] = static_cast<char>('0' + v);
  return end;
}
template <std::integral T> char *put_number(char *p, T v) {
  if constexpr (std::is_signed_v<T>) {
    if (v < 0) {
      *p = '-';
      return put_unsigned(p + 1, std::uint64_t{0} - static_cast<std::uint64_t>(v));
    }
  }
  return put_unsigned(p, static_cast<std::uint64_t>(v));
}
// A string JsonWriter copies as it is (anything else it has nlohmann escape).
bool plain(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\'; });
}
// The wave's line fits: 16 keys and numbers, the two names, the states.
std::size_t wave_line_room(const CaptureBlob &blob, const WaveTrace &t) {
  return 16 * (16 + kNumberRoom) + blob.file_name.size() + blob.program.size() +
         t.states.size() * (16 + kNumberRoom);
}
char *put_wave_line(char *p, const CaptureBlob &blob, const WaveTrace &t, bool cdna) {
  const auto &w = t.wave;
  p = put(p, "{\"blob\":\"");
  p = put(p, blob.file_name);
  p = put(p, "\",\"cu\":");
  p = put_number(p, w.cu);
  p = put(p, ",\"end\":");
  p = put_number(p, w.end);
  p = put(p, ",\"end_i\":");
  p = put_number(p, w.end_index);
  if (!cdna) {
    p = put(p, ",\"id7\":");
    p = put_number(p, w.id7);
  }
  if (t.mapped) {
    p = put(p, ",\"instructions\":");
    p = put_number(p, t.instruction_count);
  }
  p = put(p, ",\"kernel\":\"");
  p = put(p, blob.program);
  p = t.mapped ? put(p, "\",\"mapped\":true") : put(p, "\",\"mapped\":false");
  if (!cdna) {
    p = put(p, ",\"sa\":");
    p = put_number(p, w.sa);
  }
  p = put(p, ",\"se\":");
  p = put_number(p, w.se);
  if (cdna) {
    p = put(p, ",\"sh\":");
    p = put_number(p, w.sh);
  }
  p = put(p, ",\"simd\":");
  p = put_number(p, w.simd);
  p = put(p, ",\"start\":");
  p = put_number(p, w.start);
  p = put(p, ",\"start_i\":");
  p = put_number(p, w.start_index);
  if (!t.states.empty()) {
    p = put(p, ",\"states\":[");
    for (std::size_t i = 0; i < t.states.size(); ++i) {
      p = put(p, i ? ",[\"" : "[\"");
      p = put(p, to_string(t.states[i].state));  // the states' names are plain
      p = put(p, "\",");
      p = put_number(p, t.states[i].duration);
      *p++ = ']';
    }
    *p++ = ']';
  }
  p = put(p, ",\"wave\":");
  p = put_number(p, w.slot);
  if (!cdna) {
    p = put(p, ",\"wgp\":");
    p = put_number(p, w.wgp);
  }
  *p++ = '}';
  return p;
}

}  // namespace

CaptureWaves collect_waves(const Capture &capture, const std::string &kernel,
                           const ProgressSink &progress, const AnalysisOptions &options,
                           bool instructions) {
  AnalysisRequest request;
  request.instruction_records = instructions;
  request.options = options;
  request.kernel = kernel;
  request.waves = true;
  auto analysis = analyze_capture(capture, request, progress);
  CaptureWaves result;
  result.cdna = analysis.cdna;
  result.kernel_found = analysis.selection_found(request);
  result.source = capture.source.string();
  result.arch = capture.arch;
  result.blobs = analysis.blobs.size();
  result.analyzer = analysis.analyzer;
  for (auto &b : analysis.blobs)
    for (auto &t : b.waves) result.waves.push_back({b.blob, std::move(t)});
  return result;
}

std::string to_json(const WavesReport &report) {
  // Room for the lines up front (about 200 bytes per wave, 250 per instruction record): the
  // output of a large capture is tens of MB, and growing it by doubling copies it over again.
  std::size_t records = 0;
  if (report.instructions)
    for (const auto &entry : report.waves.waves) records += entry.trace.instruction_count;
  std::string out;
  out.reserve(report.waves.waves.size() * 200 + records * 250);
  for (const auto &[blob, trace] : report.waves.waves) {
    if (!out.empty()) out += '\n';
    write_wave(out, *blob, trace, report.waves.cdna, report.instructions);
  }
  return out;
}

WavesStreamSummary stream_waves_json(const Capture &capture, const std::string &kernel,
                                     bool instructions,
                                     const std::function<void(std::string_view)> &write,
                                     const ProgressSink &progress, const AnalysisOptions &options,
                                     std::size_t piece_bytes) {
  AnalysisRequest request;
  request.instruction_records = instructions;
  request.options = options;
  request.kernel = kernel;
  request.waves = true;
  WavesStreamSummary summary;
  const bool cdna = family_of_device(capture.device) == sqtt::Family::Cdna;  // as the pipeline's
  std::string out;
  if (instructions) {
    out.reserve(std::min(piece_bytes, std::size_t{1} << 24) + (std::size_t{64} << 10));
    request.on_blob = [&](BlobAnalysis &&b) {
      ++summary.blobs;
      for (const auto &t : b.waves) {
        write_wave(out, *b.blob, t, cdna, instructions);
        out += '\n';
        ++summary.waves;
        if (out.size() >= piece_bytes) {
          write(out);
          out.clear();
        }
      }
    };
  } else {
    // Lines written through a pointer into `out`, sized once (its first `used` bytes are the
    // lines; it grows only for a line that would not fit).
    out.resize(std::min(piece_bytes, std::size_t{1} << 24) + (std::size_t{64} << 10));
    std::size_t used = 0;
    std::string odd;  // a line with names JsonWriter escapes
    request.on_blob = [&](BlobAnalysis &&b) {
      ++summary.blobs;
      const bool names_plain = plain(b.blob->file_name) && plain(b.blob->program);
      for (const auto &t : b.waves) {
        std::size_t room = wave_line_room(*b.blob, t);
        if (!names_plain) {
          odd.clear();
          write_wave(odd, *b.blob, t, cdna, false);
          room = odd.size() + 1;
        }
        if (out.size() - used < room) out.resize(std::max(out.size() * 2, used + room));
        char *p = out.data() + used;
        p = names_plain ? put_wave_line(p, *b.blob, t, cdna) : put(p, odd);
        *p++ = '\n';
        used = static_cast<std::size_t>(p - out.data());
        ++summary.waves;
        if (used >= piece_bytes) {
          write(std::string_view(out.data(), used));
          used = 0;
        }
      }
    };
    const auto analysis = analyze_capture(capture, request, progress);
    if (used) write(std::string_view(out.data(), used));
    summary.kernel_found = analysis.selection_found(request);
    return summary;
  }
  const auto analysis = analyze_capture(capture, request, progress);
  if (!out.empty()) write(out);
  summary.kernel_found = analysis.selection_found(request);
  return summary;
}

std::string to_text(const WavesReport &report) {
  const auto &r = report.waves;
  using Align = TextTable::Align;
  TextTable table({"blob", "se", r.cdna ? "sh" : "sa", "wgp", "cu", "simd", "slot", "start", "end",
                   "cycles", "mapped"},
                  {Align::Left, Align::Right, Align::Right, Align::Right, Align::Right,
                   Align::Right, Align::Right, Align::Right, Align::Right, Align::Right,
                   Align::Right});
  for (const auto &[blob, t] : r.waves) {
    const auto &w = t.wave;
    table.add_row({blob->file_name, std::to_string(w.se), std::to_string(r.cdna ? w.sh : w.sa),
                   r.cdna ? "-" : std::to_string(w.wgp), std::to_string(w.cu),
                   std::to_string(w.simd), std::to_string(w.slot), std::to_string(w.start),
                   std::to_string(w.end), std::to_string(w.end - w.start),
                   t.mapped ? fmt::format("{} insts", t.instruction_count) : "-"});
  }
  std::string out = table.render();
  out +=
      fmt::format("\n{} waves in {} blobs of {} ({})\n", r.waves.size(), r.blobs, r.source, r.arch);
  if (report.instructions)
    out += "(the per-instruction stream is in the JSON form; per-PC statistics are a report of "
           "their own)\n";
  return out;
}

}  // namespace wavescope::trace::timeline
