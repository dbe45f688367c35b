#include "wavescope/trace/pmc/pmc_decoder.hpp"

#include <limits>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/trace/pmc/derived_metrics.hpp"

namespace wavescope::trace::pmc {
namespace {

std::uint64_t read_le64(std::span<const std::uint8_t> bytes, std::uint64_t offset) {
  std::uint64_t value = 0;
  for (unsigned i = 0; i < 8; ++i) value |= std::uint64_t{bytes[offset + i]} << (8 * i);
  return value;
}

// The geometry of one schedule entry, refused when it cannot describe slots of this buffer.
InstanceGeometry checked_geometry(const PmcSampleSpec &spec, const std::string &where,
                                  std::size_t buffer_size) {
  const InstanceGeometry g{spec.xcc, spec.inst, spec.se, spec.sa, spec.wgp};
  const std::pair<const char *, unsigned> counts[] = {
      {"xcc", g.xcc}, {"inst", g.inst}, {"se", g.se}, {"sa", g.sa}, {"wgp", g.wgp}};
  for (const auto &[field, n] : counts)
    if (n == 0)
      throw_bad_input(fmt::format("{}: the {} count is 0; every instance count must be at least 1",
                                  where, field));
  // More slots than this cannot fit the buffer; stop multiplying before it could overflow.
  const std::uint64_t limit = buffer_size / 8 + 1;
  std::uint64_t slots = 1;
  bool too_many = false;
  for (const auto &[field, n] : counts) {
    if (slots > limit / n) {
      too_many = true;
      break;
    }
    slots *= n;
  }
  if (too_many || spec.size != slots * 8)
    throw_bad_input(fmt::format(
        "{}: size is {} bytes, but its geometry {}x{}x{}x{}x{} (xcc x inst x se x sa x wgp) needs "
        "8 bytes per instance{}",
        where, spec.size, g.xcc, g.inst, g.se, g.sa, g.wgp,
        too_many ? fmt::format(", more than the {}-byte buffer holds", buffer_size)
                 : fmt::format(" = {}", slots * 8)));
  if (spec.offset % 8 != 0)
    throw_bad_input(fmt::format("{}: offset {} (0x{:x}) is not a multiple of 8 (slots are uint64)",
                                where, spec.offset, spec.offset));
  if (spec.offset > buffer_size || spec.size > buffer_size - spec.offset)
    throw_bad_input(fmt::format("{}: its slots span bytes 0x{:x}..0x{:x}, past the end of the "
                                "{}-byte buffer (short or truncated buffer?)",
                                where, spec.offset, spec.offset + spec.size, buffer_size));
  return g;
}

void check_catalogue(const CounterSample &c, const std::string &where,
                     std::optional<CounterFamily> family, std::vector<std::string> &notes) {
  if (!family) return;
  if (!c.info) {
    notes.push_back(fmt::format("{}: not in the {} counter catalogue", where, to_string(*family)));
    return;
  }
  if (!c.block.empty() && c.block != c.info->block)
    notes.push_back(fmt::format("{}: scheduled on block {}, the {} catalogue says {}", where,
                                c.block, to_string(*family), c.info->block));
  if (c.select && *c.select != c.info->select)
    notes.push_back(fmt::format("{}: programmed with select {}, the {} catalogue says {}", where,
                                *c.select, to_string(*family), c.info->select));
}

CounterSample decode_counter(std::span<const std::uint8_t> buffer, const PmcSampleSpec &spec,
                             const InstanceGeometry &g) {
  CounterSample c;
  c.name = spec.name;
  c.block = spec.block;
  c.select = spec.perf_sel;
  c.geometry = g;
  c.offset = spec.offset;
  c.values.reserve(g.slot_count());
  c.rows.reserve(g.slot_count() / g.wgp);
  std::uint64_t at = spec.offset;
  for (unsigned x = 0; x < g.xcc; ++x)
    for (unsigned i = 0; i < g.inst; ++i)
      for (unsigned se = 0; se < g.se; ++se)
        for (unsigned sa = 0; sa < g.sa; ++sa) {
          InstanceRow row{x, i, se, sa, {}};
          row.values.reserve(g.wgp);
          for (unsigned w = 0; w < g.wgp; ++w, at += 8) {
            const auto v = read_le64(buffer, at);
            row.values.push_back(v);
            c.values.push_back(v);
            if (__builtin_add_overflow(c.sum, v, &c.sum)) {
              c.sum = std::numeric_limits<std::uint64_t>::max();
              c.sum_saturated = true;
            }
            c.max = std::max(c.max, v);
          }
          c.rows.push_back(std::move(row));
        }
  c.count = c.values.size();
  return c;
}

}  // namespace

DispatchCounters decode_samples(std::span<const std::uint8_t> buffer,
                                std::span<const PmcSampleSpec> schedule,
                                const DecodeOptions &options) {
  DispatchCounters out;
  out.file = options.source_name;
  out.processor = options.processor;
  out.family = counter_family_for(options.processor);
  const CounterCatalogue *catalogue = out.family ? &CounterCatalogue::get(*out.family) : nullptr;
  const std::string source = options.source_name.empty() ? "PMC buffer" : options.source_name;

  std::uint64_t expected_offset = 0;
  for (std::size_t k = 0; k < schedule.size(); ++k) {
    const auto &spec = schedule[k];
    const std::string where = fmt::format("{}: sched[{}] ({})", source, k, spec.name);
    const auto geometry = checked_geometry(spec, where, buffer.size());
    if (spec.offset != expected_offset)
      out.notes.push_back(fmt::format("{}: starts at byte {}, not at {} where the previous entry "
                                      "ends (entries are not contiguous; decoded at its offset)",
                                      where, spec.offset, expected_offset));
    expected_offset = spec.offset + spec.size;
    auto counter = decode_counter(buffer, spec, geometry);
    counter.info = catalogue ? catalogue->find(counter.name) : nullptr;
    check_catalogue(counter, where, out.family, out.notes);
    if (counter.sum_saturated)
      out.notes.push_back(
          fmt::format("{}: the sum exceeds 2^64 - 1 and is shown saturated", where));
    out.counters.push_back(std::move(counter));
  }

  if (options.used_bytes != 0 && !schedule.empty() && expected_offset != options.used_bytes)
    out.notes.push_back(fmt::format("{}: the schedule ends at byte {}, but {} bytes are in use",
                                    source, expected_offset, options.used_bytes));
  const std::uint64_t tail_start = std::max<std::uint64_t>(options.used_bytes, expected_offset);
  for (std::uint64_t at = tail_start; at < buffer.size(); ++at)
    if (buffer[at] != 0) {
      out.notes.push_back(
          fmt::format("{}: byte {} (0x{:x}) past the sampled slots is non-zero", source, at, at));
      break;
    }
  out.metrics = derive_metrics(out.counters);
  return out;
}

DispatchCounters decode_event(const Capture &capture, const CapturePmc &event) {
  const std::vector<std::uint8_t> bytes = event.bytes.read_all();
  DecodeOptions options;
  options.processor = capture.device.processor;
  options.source_name = event.file_name;
  options.used_bytes = event.used_bytes;
  auto out = decode_samples(bytes, event.schedule, options);
  out.order = event.order;
  out.kernel_tag = event.kernel_tag;
  out.kernel = event.program;
  if (out.kernel.empty())
    if (const auto *program = capture.program(event.kernel_tag)) out.kernel = program->name;
  return out;
}

std::vector<DispatchCounters> decode_capture(const Capture &capture, const ProgressSink &progress) {
  std::vector<DispatchCounters> out;
  out.reserve(capture.pmc.size());
  for (const auto &event : capture.pmc) {
    out.push_back(decode_event(capture, event));
    if (progress) progress({"pmc", out.size(), capture.pmc.size(), "samples"});
  }
  return out;
}

}  // namespace wavescope::trace::pmc
