// An .rgp file as a Capture (rgp_capture.hpp says how programs, blobs and the device are found).

#include "wavescope/trace/rgp/rgp_capture.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "rgp_devices.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/gpu_target.hpp"

namespace wavescope::trace::rgp {
namespace {

constexpr std::uint64_t kLine = 32;  // the hardware writes SQTT data in 32-byte lines

std::optional<std::string> elf_processor(const ByteSource &elf) {
  if (elf.size() < 52) return std::nullopt;
  std::uint8_t flags[4];
  elf.read(48, 4, flags);
  return compiler::isa::processor_from_elf_flags(
      static_cast<std::uint32_t>(flags[0] | flags[1] << 8 | flags[2] << 16 | flags[3] << 24));
}

std::string processor_of(const RgpFile &file) {
  if (file.asic)
    if (const auto *d = known_device(file.asic->device_id)) return std::string(d->processor);
  std::string best;
  for (const auto &c : file.code_objects)
    if (const auto p = elf_processor(c.elf)) best = std::max(best, *p);
  if (!best.empty()) return best;
  if (file.asic) return processor_of_gfxip_level(file.asic->gfxip_level);
  return {};
}

DeviceProperties device_of(const RgpFile &file) {
  DeviceProperties d;
  d.processor = processor_of(file);
  d.gfx_target_version = gfx_target_version_of(d.processor);
  if (!file.asic) return d;
  const auto &a = *file.asic;
  const unsigned se = static_cast<unsigned>(std::max(a.shader_engines, 0));
  const unsigned sa = a.arrays_per_shader_engine();
  const unsigned cus = static_cast<unsigned>(std::max(a.cus_per_shader_engine, 0));
  d.num_xcc = 1;
  d.simd_per_cu = static_cast<unsigned>(std::max(a.simds_per_cu, 0));
  d.simd_arrays_per_engine = sa;
  d.array_count = se * sa;
  d.cu_per_simd_array = cus / sa;
  d.simd_count = se * cus * d.simd_per_cu;
  d.max_waves_per_simd = static_cast<unsigned>(std::max(a.waves_per_simd, 0));
  d.lds_size_kb = static_cast<unsigned>(std::max(a.lds_size, 0)) / 1024;
  d.pci_device_id = a.device_id;
  d.max_engine_clock_mhz = static_cast<unsigned>(a.max_shader_clock_hz / 1'000'000);
  return d;
}

// The code object a load event names: by rgptool's MD5 hash, else the record in its position,
// else the only record.
std::size_t code_object_of(const RgpFile &file, std::size_t event,
                           const std::vector<std::array<std::uint64_t, 2>> &hashes) {
  const auto &hash = file.loader_events[event].code_object_hash;
  for (std::size_t i = 0; i < hashes.size(); ++i)
    if (hashes[i] == hash) return i;
  if (file.code_objects.size() == file.loader_events.size()) return event;
  if (file.code_objects.size() == 1) return 0;
  throw_bad_input(fmt::format("{}: code-object load event {} names code object {:016x}{:016x}, "
                              "which the CODE_OBJECT_DATABASE does not hold",
                              file.name, event, hash[0], hash[1]));
}

// Exec ranges from our own QUEUE_EVENT_TIMINGS (command-buffer submits, api_id = program tag,
// GPU timestamps of the dispatch's start and end).
void add_exec_ranges(const RgpFile &file, Capture &c) {
  const double ticks_per_us = file.asic && file.asic->gpu_timestamp_frequency
                                  ? static_cast<double>(file.asic->gpu_timestamp_frequency) / 1e6
                                  : 100.0;
  for (const auto &e : file.queue_events) {
    if (e.event_type != 0) continue;
    for (auto &p : c.programs)
      if (p.tag == e.api_id)
        p.exec_ranges.push_back({static_cast<double>(e.gpu_timestamps[0]) / ticks_per_us,
                                 static_cast<double>(e.gpu_timestamps[1]) / ticks_per_us});
  }
}

}  // namespace

std::vector<std::uint64_t> dispatch_starts(const ByteSource &data) {
  std::vector<std::uint64_t> starts{0};
  if (data.size() < 2 * kLine) return starts;
  std::uint8_t first[4];
  data.read(0, 4, first);
  if ((first[0] & 0x7f) != 0x11) return starts;  // not a LAYOUT_HEADER: one piece
  std::vector<std::uint8_t> buffer(std::size_t{1} << 20);
  for (std::uint64_t at = 0; at < data.size(); at += buffer.size()) {
    const auto n =
        static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), data.size() - at));
    data.read(at, n, buffer.data());
    for (std::size_t line = at == 0 ? kLine : 0; line + 4 <= n; line += kLine)
      if (std::equal(first, first + 4, buffer.data() + line)) starts.push_back(at + line);
  }
  return starts;
}

Capture capture_of(const RgpFile &file) {
  if (file.traces.empty())
    throw_bad_input(
        fmt::format("{}: the .rgp file holds no SQTT data (no SQTT_DATA chunk)", file.name));
  if (file.code_objects.empty())
    throw_bad_input(fmt::format("{}: the .rgp file holds no code object (CODE_OBJECT_DATABASE), "
                                "so no PC can be mapped",
                                file.name));
  Capture c;
  c.source = file.name;
  c.example = std::filesystem::path(file.name).stem().string();
  c.device = device_of(file);
  c.arch = c.device.processor;

  std::vector<std::array<std::uint64_t, 2>> hashes;
  for (const auto &co : file.code_objects) hashes.push_back(md5_code_object_hash(co.elf));
  // One program per load event; a file without load events gets one per code object, at 0.
  std::vector<std::pair<std::size_t, std::uint64_t>> loads;  // code object, base address
  for (std::size_t i = 0; i < file.loader_events.size(); ++i)
    if (file.loader_events[i].type == 0)
      loads.emplace_back(code_object_of(file, i, hashes), file.loader_events[i].base_address);
  if (loads.empty())
    for (std::size_t i = 0; i < file.code_objects.size(); ++i) loads.emplace_back(i, 0);
  const bool several = loads.size() > 1;
  for (std::size_t tag = 0; tag < loads.size(); ++tag) {
    const auto &[record, base] = loads[tag];
    CaptureProgram p;
    p.tag = static_cast<std::uint32_t>(tag);
    p.file_name = several ? fmt::format("program_k{}.elf", tag) : "program.elf";
    p.code = file.code_objects[record].elf;
    p.base = base;
    // The name when the ELF has no kernel symbol: the PSO's, else "k<tag>".
    const std::string fallback =
        tag < file.pso_correlations.size() && !file.pso_correlations[tag].name.empty()
            ? file.pso_correlations[tag].name
            : fmt::format("k{}", tag);
    compiler::isa::CodeObjectOptions options;
    if (!c.device.processor.empty()) options.target = c.device.processor;
    options.kernel_name = fallback;
    const auto code = compiler::isa::CodeObject::from_bytes(
        p.code.read_all(), options,
        fmt::format("{}: byte {}: code object {}", file.name, file.code_objects[record].offset,
                    record));
    p.name = code.kernels().empty() ? fallback : code.kernels().front().name;
    p.text_address = code.text().address;
    p.text_size = code.text().size;
    p.entry_pc = code.text().address;
    c.programs.push_back(std::move(p));
  }
  add_exec_ranges(file, c);

  // Each SE's trace cut into its dispatches; piece k of every SE is dispatch k.
  const bool itrace_known = file.api.has_value();
  const auto itrace_mode = itrace_known ? file.api->instruction_trace_mode : 1;
  const auto se_mask =
      itrace_known ? static_cast<std::uint32_t>(file.api->instruction_trace_data) : 0;
  std::vector<std::vector<ByteSource>> pieces;  // [trace][dispatch]
  std::size_t dispatches = 0;
  for (const auto &t : file.traces) {
    auto starts = dispatch_starts(t.data);
    std::vector<ByteSource> cut;
    for (std::size_t k = 0; k < starts.size(); ++k) {
      const auto end = k + 1 < starts.size() ? starts[k + 1] : t.data.size();
      cut.push_back(t.data.slice(starts[k], end - starts[k]));
    }
    dispatches = std::max(dispatches, cut.size());
    pieces.push_back(std::move(cut));
  }
  const bool by_program = dispatches == c.programs.size();
  std::set<std::string> names;
  for (std::size_t k = 0; k < dispatches; ++k)
    for (std::size_t i = 0; i < file.traces.size(); ++i) {
      if (k >= pieces[i].size()) continue;
      const auto &t = file.traces[i];
      const auto tag = by_program ? static_cast<std::uint32_t>(k)
                                  : static_cast<std::uint32_t>(std::min(k, c.programs.size() - 1));
      CaptureBlob b;
      const std::string stem = several ? fmt::format("k{}_se{}", tag, t.shader_engine)
                                       : fmt::format("se{}", t.shader_engine);
      b.file_name = stem + ".bin";
      if (!names.insert(b.file_name).second) {
        b.file_name = fmt::format("{}_d{}.bin", stem, k);
        names.insert(b.file_name);
      }
      b.bytes = pieces[i][k];
      b.order = static_cast<unsigned>(c.blobs.size());
      b.se = static_cast<unsigned>(std::max(t.shader_engine, 0));
      b.kernel_tag = tag;
      b.program = c.programs[tag].name;
      b.itrace = itrace_mode != 0 && (se_mask == 0 || (b.se < 32 && (se_mask >> b.se & 1)));
      b.size = b.bytes.size();
      c.blobs.push_back(std::move(b));
    }
  return c;
}

}  // namespace wavescope::trace::rgp
