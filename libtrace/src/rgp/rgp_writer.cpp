// Writing a Capture as an .rgp file (rgp_writer.hpp; field sources in docs/rgp.md).

#include "wavescope/trace/rgp/rgp_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rgp_devices.hpp"
#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/rgp/rgp_file.hpp"

namespace wavescope::trace::rgp {
namespace {

constexpr std::uint64_t kGpuTimestampHz = 100'000'000;  // RDNA's 100 MHz reference clock

class Out {
public:
  std::size_t size() const { return bytes_.size(); }
  std::vector<std::uint8_t> take() { return std::move(bytes_); }
  // Reserves `n` zero bytes and returns where they start.
  std::size_t grow(std::size_t n) {
    const auto at = bytes_.size();
    bytes_.resize(at + n);
    return at;
  }
  void put(std::size_t at, std::uint64_t value, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
      bytes_[at + i] = static_cast<std::uint8_t>(value >> (8 * i));
  }
  void put_f32(std::size_t at, float f) {
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    put(at, bits, 4);
  }
  void put_text(std::size_t at, std::string_view text, std::size_t room) {
    std::memcpy(bytes_.data() + at, text.data(), std::min(text.size(), room - 1));
  }
  void append(const ByteSource &source) {
    const auto at = grow(static_cast<std::size_t>(source.size()));
    source.read(0, static_cast<std::size_t>(source.size()), bytes_.data() + at);
  }

private:
  std::vector<std::uint8_t> bytes_;
};

// A chunk header at the end of `out`; returns its offset. The size is set by `finish`.
std::size_t begin_chunk(Out &out, ChunkType type, int index, std::uint16_t major,
                        std::uint16_t minor, std::size_t fixed_size) {
  const auto at = out.grow(fixed_size);
  out.put(at, static_cast<std::uint8_t>(type), 1);
  out.put(at + 1, static_cast<std::uint8_t>(index), 1);
  out.put(at + 4, minor, 2);
  out.put(at + 6, major, 2);
  return at;
}
void finish_chunk(Out &out, std::size_t at) { out.put(at + 8, out.size() - at, 4); }

struct Facts {
  std::string processor, chip;
  std::uint32_t device_id = 0, gfxip = 0, sqtt_version = 0;
  unsigned shader_engines = 0, arrays_per_se = 0, cus_per_array = 0;
  std::uint64_t engine_hz = 0, memory_hz = 0;
  const KnownDevice *known = nullptr;
};

Facts facts_of(const Capture &c) {
  Facts f;
  const auto &d = c.device;
  f.processor = d.processor;
  f.gfxip = gfxip_level_of(d.processor);
  f.sqtt_version = sqtt_version_of(d.processor);
  const auto generation = gfx_target_version_of(d.processor) / 10000;
  if (generation == 9 || !f.gfxip || !f.sqtt_version)
    throw_bad_input(fmt::format("{}: RGP cannot show a {} capture ({}): it reads RDNA (gfx10-12) "
                                "thread traces only",
                                c.source.string(),
                                d.processor.empty() ? "device-less" : d.processor,
                                generation == 9 ? "CDNA" : "no RGP gfxip level"));
  f.known = d.pci_device_id ? known_device(d.pci_device_id) : nullptr;
  if (!f.known || f.known->processor != d.processor) f.known = known_device(d.processor);
  f.device_id = d.pci_device_id ? d.pci_device_id : f.known ? f.known->pci_id : 0;
  f.chip = f.known ? std::string(f.known->chip) : d.processor;
  f.shader_engines = d.shader_engines();
  f.arrays_per_se = d.simd_arrays_per_engine ? d.simd_arrays_per_engine : 1;
  f.cus_per_array = d.cu_per_simd_array;
  f.engine_hz = std::uint64_t{d.max_engine_clock_mhz ? d.max_engine_clock_mhz
                              : f.known ? static_cast<unsigned>(f.known->engine_clock_mhz)
                                        : 0} *
                1'000'000;
  f.memory_hz = (f.known ? f.known->memory_clock_mhz : 0) * 1'000'000;
  // RGP gets confused by zero clocks; Mesa writes these when the kernel reports none.
  if (!f.engine_hz) f.engine_hz = 1'300'000'000;
  if (!f.memory_hz) f.memory_hz = 687'000'000;
  return f;
}

void write_cpu_info(Out &out) {
  const auto at = begin_chunk(out, ChunkType::CpuInfo, 0, 0, 0, 112);
  out.put_text(at + 16, "Unknown", 16);
  out.put_text(at + 32, "Unknown", 48);
  out.put(at + 88, 1'000'000'000, 8);  // CPU timestamps in nanoseconds
  finish_chunk(out, at);
}

void write_asic_info(Out &out, const Capture &c, const Facts &f) {
  const auto &d = c.device;
  const auto at = begin_chunk(out, ChunkType::AsicInfo, 0, 0, 5, 768);
  const bool rdna3_small = f.processor == "gfx1102" || f.processor == "gfx1103";
  const unsigned cus_per_se =
      f.shader_engines ? d.simd_count / std::max(d.simd_per_cu, 1u) / f.shader_engines : 0;
  out.put(at + 16, 2, 8);  // PS1 event tokens (GFX9+), as Mesa
  out.put(at + 24, f.engine_hz, 8);
  out.put(at + 32, f.memory_hz, 8);
  out.put(at + 40, f.device_id, 4);
  out.put(at + 48, rdna3_small ? 1024 : 1536, 4);  // VGPRs per SIMD (wave32)
  out.put(at + 52, 2048, 4);
  out.put(at + 56, f.shader_engines, 4);
  out.put(at + 60, cus_per_se, 4);
  out.put(at + 64, d.simd_per_cu, 4);
  out.put(at + 68, d.max_waves_per_simd, 4);
  out.put(at + 72, 4, 4);    // minimum VGPR allocation
  out.put(at + 76, 8, 4);    // VGPR allocation granularity
  out.put(at + 80, 128, 4);  // minimum SGPR allocation
  out.put(at + 84, 128, 4);  // SGPR allocation granularity
  out.put(at + 88, 8, 4);    // hardware contexts
  out.put(at + 92, 2, 4);    // discrete GPU
  out.put(at + 96, f.gfxip, 4);
  if (f.known) {
    out.put(at + 128, std::uint64_t{f.known->vram_gib} << 30, 8);
    out.put(at + 136, f.known->bus_width, 4);
    out.put(at + 140, std::uint64_t{f.known->l2_kib} * 1024, 4);
  }
  const bool rdna3 = gfx_target_version_of(f.processor) / 10000 == 11;
  if (rdna3) out.put(at + 144, 32 * 1024, 4);  // L0 vector cache per CU
  out.put(at + 148, std::uint64_t{d.lds_size_kb} * 1024, 4);
  out.put_text(at + 152, f.chip, 256);
  out.put_f32(at + 416, static_cast<float>(f.shader_engines));  // primitives per clock, as Mesa
  out.put(at + 424, kGpuTimestampHz, 8);
  out.put(at + 432, f.engine_hz, 8);
  out.put(at + 440, f.memory_hz, 8);
  out.put(at + 448, 16, 4);    // memory ops per clock (GDDR6, as Mesa)
  out.put(at + 452, 0x13, 4);  // GDDR6: every RDNA3/RDNA4 board
  out.put(at + 456, 512, 4);   // LDS allocation granularity
  const std::uint16_t mask =
      f.cus_per_array >= 16 ? 0xffff : static_cast<std::uint16_t>((1u << f.cus_per_array) - 1);
  for (unsigned se = 0; se < std::min(f.shader_engines, 32u); ++se)
    for (unsigned sa = 0; sa < std::min(f.arrays_per_se, 2u); ++sa)
      out.put(at + 460 + 4 * se + 2 * sa, mask, 2);
  if (rdna3) {
    out.put(at + 748, 256 * 1024, 4);  // GL1 per shader array
    out.put(at + 752, 32 * 1024, 4);   // instruction cache
    out.put(at + 756, 16 * 1024, 4);   // scalar cache
  }
  if (f.known) out.put(at + 760, std::uint64_t{f.known->mall_mib} << 20, 4);
  finish_chunk(out, at);
}

void write_api_info(Out &out, const Capture &c) {
  const auto at = begin_chunk(out, ChunkType::ApiInfo, 0, 0, 2, 560);
  bool any = false, all = true;
  std::uint32_t mask = 0;
  for (const auto &b : c.blobs) {
    any |= b.itrace;
    all &= b.itrace;
    if (b.itrace && b.se < 32) mask |= 1u << b.se;
  }
  out.put(at + 16, 5, 4);  // HIP, as rgptool (RGP shows it; Mesa's enum stops at OpenCL)
  out.put(at + 24, 0, 4);  // profiling mode: present
  out.put(at + 544, any ? 1 : 0, 4);
  out.put(at + 552, any && !all ? mask : 0, 4);  // shader-engine filter (0: all)
  finish_chunk(out, at);
}

}  // namespace

std::vector<std::uint8_t> rgp_bytes(const Capture &c, RgpExportStats *stats) {
  if (c.blobs.empty())
    throw_bad_input(fmt::format("{}: the capture holds no SQTT blobs; an .rgp file needs them",
                                c.source.string()));
  const auto f = facts_of(c);
  Out out;
  RgpExportStats s;
  const auto header = out.grow(kFileHeaderSize);
  out.put(header, kFileMagic, 4);
  out.put(header + 4, 1, 4);
  out.put(header + 8, 5, 4);
  out.put(header + 12, 1, 4);  // is_semaphore_queue_timing_etw, as Mesa and rgptool
  out.put(header + 16, kFileHeaderSize, 4);
  write_cpu_info(out);
  write_asic_info(out, c, f);
  write_api_info(out, c);
  s.chunks = 3;

  // One trace per SE: its blobs in capture order.
  std::map<unsigned, std::vector<const CaptureBlob *>> by_se;
  std::vector<const CaptureBlob *> ordered;
  for (const auto &b : c.blobs) ordered.push_back(&b);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto *a, const auto *b) { return a->order < b->order; });
  for (const auto *b : ordered) by_se[b->se].push_back(b);
  for (const auto &[se, blobs] : by_se) {
    const auto desc = begin_chunk(out, ChunkType::SqttDesc, static_cast<int>(se), 0, 2, 32);
    out.put(desc + 16, se, 4);
    out.put(desc + 20, f.sqtt_version, 4);
    out.put(desc + 24, 1, 2);  // instrumentation spec version
    out.put(desc + 26, 5, 2);  // instrumentation API version, as Mesa
    out.put(desc + 28, 0, 4);  // the traced CU
    finish_chunk(out, desc);
    const auto data = begin_chunk(out, ChunkType::SqttData, static_cast<int>(se), 0, 0, 24);
    out.put(data + 16, data + 24, 4);
    for (const auto *b : blobs) out.append(b->bytes);
    out.put(data + 20, out.size() - data - 24, 4);
    finish_chunk(out, data);
    s.chunks += 2;
    s.dispatches = std::max(s.dispatches, blobs.size());
  }
  s.shader_engines = by_se.size();

  // Each distinct ELF once; load events and PSO names per program.
  std::vector<std::vector<std::uint8_t>> elfs;
  std::vector<std::array<std::uint64_t, 2>> hashes;
  for (const auto &p : c.programs) {
    auto bytes = p.code.read_all();
    hashes.push_back(md5_code_object_hash(ByteSource::owned(bytes)));
    if (std::find(elfs.begin(), elfs.end(), bytes) == elfs.end()) elfs.push_back(std::move(bytes));
  }
  if (!elfs.empty()) {
    const auto db = begin_chunk(out, ChunkType::CodeObjectDatabase, 0, 0, 0, 32);
    out.put(db + 16, db, 4);
    out.put(db + 28, elfs.size(), 4);
    for (const auto &elf : elfs) {
      const auto padded = (elf.size() + 3) / 4 * 4;  // records are 4-byte aligned
      out.put(out.grow(4), padded, 4);
      out.append(ByteSource::memory(elf, nullptr));
      out.grow(padded - elf.size());
    }
    out.put(db + 24, out.size() - db, 4);
    finish_chunk(out, db);
    s.code_objects = elfs.size();
    ++s.chunks;
  }
  if (!c.programs.empty()) {
    const auto loads = begin_chunk(out, ChunkType::CodeObjectLoaderEvents, 0, 1, 0, 32);
    out.put(loads + 16, loads, 4);
    out.put(loads + 24, 40, 4);
    out.put(loads + 28, c.programs.size(), 4);
    for (std::size_t i = 0; i < c.programs.size(); ++i) {
      const auto at = out.grow(40);
      out.put(at + 8, c.programs[i].base, 8);
      out.put(at + 16, hashes[i][0], 8);
      out.put(at + 24, hashes[i][1], 8);
    }
    finish_chunk(out, loads);
    const auto pso = begin_chunk(out, ChunkType::PsoCorrelation, 0, 0, 0, 32);
    out.put(pso + 16, pso, 4);
    out.put(pso + 24, 88, 4);
    out.put(pso + 28, c.programs.size(), 4);
    for (std::size_t i = 0; i < c.programs.size(); ++i) {
      const auto at = out.grow(88);
      out.put(at, hashes[i][0], 8);
      out.put(at + 8, hashes[i][0], 8);
      out.put(at + 16, hashes[i][1], 8);
      out.put_text(at + 24, c.programs[i].name, 64);
    }
    finish_chunk(out, pso);
    s.chunks += 2;
  }

  // The dispatches' timing as command-buffer submits on one compute queue.
  struct Submit {
    std::uint32_t tag, run;
    double start_us, end_us;
  };
  std::vector<Submit> submits;
  for (const auto &p : c.programs)
    for (std::size_t r = 0; r < p.exec_ranges.size(); ++r)
      submits.push_back({p.tag, static_cast<std::uint32_t>(r), p.exec_ranges[r].start_us,
                         p.exec_ranges[r].end_us});
  std::stable_sort(submits.begin(), submits.end(),
                   [](const Submit &a, const Submit &b) { return a.start_us < b.start_us; });
  if (!submits.empty()) {
    const auto ticks = [](double us) {
      return static_cast<std::uint64_t>(std::llround(us * (kGpuTimestampHz / 1e6)));
    };
    const auto queue = begin_chunk(out, ChunkType::QueueEventTimings, 0, 1, 1, 32);
    out.put(queue + 16, 1, 4);
    out.put(queue + 20, 24, 4);
    out.put(queue + 24, submits.size(), 4);
    out.put(queue + 28, submits.size() * 56, 4);
    const auto info = out.grow(24);
    out.put(info + 16, 2 | 2 << 8, 4);  // compute queue on the compute engine
    for (std::size_t i = 0; i < submits.size(); ++i) {
      const auto at = out.grow(56);
      out.put(at + 4, i, 4);  // sqtt_cb_id
      out.put(at + 20, submits[i].run, 4);
      out.put(at + 24, submits[i].tag, 8);
      out.put(at + 32, static_cast<std::uint64_t>(std::llround(submits[i].start_us * 1000)), 8);
      out.put(at + 40, ticks(submits[i].start_us), 8);
      out.put(at + 48, ticks(submits[i].end_us), 8);
    }
    finish_chunk(out, queue);
    // CPU nanoseconds and GPU ticks of the same instant: the first dispatch's start.
    const auto clock = begin_chunk(out, ChunkType::ClockCalibration, 0, 0, 0, 40);
    out.put(clock + 16, static_cast<std::uint64_t>(std::llround(submits[0].start_us * 1000)), 8);
    out.put(clock + 24, ticks(submits[0].start_us), 8);
    finish_chunk(out, clock);
    s.queue_events = submits.size();
    s.chunks += 2;
  }
  s.bytes = out.size();
  if (stats) *stats = s;
  return out.take();
}

RgpExportStats write_rgp(const Capture &capture, const std::filesystem::path &path) {
  RgpExportStats stats;
  const auto bytes = rgp_bytes(capture, &stats);
  write_file_atomically(path, std::span<const unsigned char>(bytes.data(), bytes.size()));
  return stats;
}

void print_rgp_export_text(std::ostream &out, const std::filesystem::path &file,
                           const RgpExportStats &s) {
  out << fmt::format("wrote {}: {} bytes, {} chunks: {} shader engines, up to {} dispatches per "
                     "SE, {} code objects, {} queue events\n",
                     file.string(), s.bytes, s.chunks, s.shader_engines, s.dispatches,
                     s.code_objects, s.queue_events);
}

void print_rgp_export_json(std::ostream &out, const std::filesystem::path &file,
                           const RgpExportStats &s) {
  out << nlohmann::json{{"file", file.string()},
                        {"bytes", s.bytes},
                        {"chunks", s.chunks},
                        {"shader_engines", s.shader_engines},
                        {"dispatches", s.dispatches},
                        {"code_objects", s.code_objects},
                        {"queue_events", s.queue_events}}
             .dump()
      << "\n";
}

}  // namespace wavescope::trace::rgp
