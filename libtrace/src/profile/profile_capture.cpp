#include "wavescope/trace/profile/profile_capture.hpp"

#include <charconv>
#include <map>
#include <set>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/gpu_target.hpp"
#include "wavescope/trace/pmc/counter_catalogue.hpp"

namespace wavescope::trace::profile {
namespace {

unsigned property(const Device &d, std::string_view name, unsigned fallback) {
  for (const auto &[key, value] : d.properties)
    if (key == name) {
      unsigned v = 0;
      const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec == std::errc() && p == value.data() + value.size()) return v;
    }
  return fallback;
}

DeviceProperties device_properties(const Device &d) {
  DeviceProperties props;
  props.gfx_target_version = d.gfx_target_version;
  props.processor = compiler::isa::processor_from_gfx_target_version(d.gfx_target_version);
  props.num_xcc = property(d, "num_xcc", 1);
  props.simd_count = property(d, "simd_count", 0);
  props.simd_per_cu = property(d, "simd_per_cu", 0);
  props.cu_per_simd_array = property(d, "cu_per_simd_array", 0);
  props.array_count = property(d, "array_count", 0);
  props.simd_arrays_per_engine = property(d, "simd_arrays_per_engine", 0);
  props.max_waves_per_simd = property(d, "max_waves_per_simd", 0);
  props.lds_size_kb = property(d, "lds_size_in_kb", 0);
  props.pci_device_id = property(d, "device_id", 0);
  props.max_engine_clock_mhz = property(d, "max_engine_clk_fcompute", 0);
  return props;
}

}  // namespace

bool has_capture(const Profile &profile) { return !profile.sqtt.empty() || !profile.pmc.empty(); }

Capture capture_of(const Profile &profile) {
  const std::string source = profile.source.string();
  if (!has_capture(profile))
    throw_bad_input(fmt::format("{}: the profile holds no SQTT or PMC events, so it is not a "
                                "capture (its timeline: wavectl profile events)",
                                source));
  const std::string device = !profile.sqtt.empty() ? profile.sqtt[0].device : profile.pmc[0].device;
  const Device *gpu = profile.device(device);
  if (!gpu || !gpu->gfx_target_version)
    throw_bad_input(fmt::format("{}: device {} recorded SQTT/PMC events but registered no "
                                "gfx_target_version (ProfileDeviceEvent props)",
                                source, device));
  Capture c;
  c.source = profile.source;
  c.example = profile.source.stem().string();
  c.device = device_properties(*gpu);
  c.arch = c.device.processor;

  // The programs the events name, each tag once (the last registration of a tag wins).
  std::set<std::uint32_t> used;
  for (const auto &t : profile.sqtt)
    if (t.device == device) used.insert(t.program_tag);
  for (const auto &t : profile.pmc)
    if (t.device == device) used.insert(t.program_tag);
  std::map<std::uint32_t, const Program *> by_tag;
  for (const auto &p : profile.programs)
    if (p.device == device && used.count(p.tag)) by_tag[p.tag] = &p;
  for (const auto tag : used)
    if (!by_tag.count(tag))
      throw_bad_input(fmt::format("{}: SQTT/PMC events name kernel tag {}, but no "
                                  "ProfileProgramEvent on {} has that tag",
                                  source, tag, device));
  const bool several = by_tag.size() > 1;
  for (const auto &[tag, p] : by_tag) {
    CaptureProgram program;
    program.tag = tag;
    program.name = p->name;
    program.file_name = several ? fmt::format("program_k{}.elf", tag) : "program.elf";
    program.code = p->code;
    program.base = p->base;
    compiler::isa::CodeObjectOptions options;
    options.target = c.device.processor;
    options.kernel_name = p->name;
    const auto code = compiler::isa::CodeObject::from_bytes(
        p->code.read_all(), options, fmt::format("{} (program {})", source, p->name));
    program.text_address = code.text().address;
    program.text_size = code.text().size;
    program.entry_pc = code.text().address;
    program.exec_ranges = p->runs;
    c.programs.push_back(std::move(program));
  }

  const bool cdna = c.device.gfx_target_version / 10000 == 9;
  std::set<std::string> names;
  auto unique = [&](std::string stem, std::uint64_t exec_tag) {
    std::string name = stem + ".bin";
    if (!names.insert(name).second) {
      name = fmt::format("{}_e{}.bin", stem, exec_tag);
      names.insert(name);
    }
    return name;
  };
  for (const auto &t : profile.sqtt) {
    if (t.device != device) continue;
    CaptureBlob b;
    b.file_name =
        unique(several ? fmt::format("k{}_se{}", t.program_tag, t.se) : fmt::format("se{}", t.se),
               t.exec_tag);
    b.bytes = t.blob;
    b.order = static_cast<unsigned>(c.blobs.size());
    b.se = t.se;
    b.kernel_tag = t.program_tag;
    b.program = by_tag.at(t.program_tag)->name;
    b.itrace = t.itrace;
    b.size = t.blob.size();
    b.synthetic_header = cdna;
    c.blobs.push_back(std::move(b));
  }
  for (const auto &t : profile.pmc) {
    if (t.device != device) continue;
    CapturePmc e;
    e.file_name = fmt::format("pmc_{}.bin", c.pmc.size());
    e.bytes = t.blob;
    e.order = static_cast<unsigned>(c.pmc.size());
    e.kernel_tag = t.program_tag;
    e.program = by_tag.at(t.program_tag)->name;
    e.size = t.blob.size();
    e.schedule = t.schedule;
    // tinygrad's profile does not record the event select it programmed; it programs the one
    // the perf-select enums give (our catalogue), so the capture takes that.
    if (const auto family = pmc::counter_family_for(c.device.processor))
      for (auto &s : e.schedule)
        if (!s.perf_sel)
          if (const auto *info = pmc::CounterCatalogue::get(*family).find(s.name))
            s.perf_sel = info->select;
    for (const auto &s : e.schedule) e.used_bytes = std::max(e.used_bytes, s.offset + s.size);
    for (const auto &s : e.schedule)
      if (s.size > e.size || s.offset > e.size - s.size)
        throw_bad_input(fmt::format("{}: PMC event {} ({}) ends at byte {}, past its {}-byte "
                                    "buffer",
                                    source, e.order, s.name, s.offset + s.size, e.size));
    c.pmc.push_back(std::move(e));
  }
  return c;
}

}  // namespace wavescope::trace::profile
