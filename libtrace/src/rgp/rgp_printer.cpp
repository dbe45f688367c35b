#include "wavescope/trace/rgp/rgp_printer.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wavescope::trace::rgp {
namespace {

std::string version_of(const Chunk &c) { return fmt::format("{}.{}", c.major, c.minor); }

std::string detail_of(const RgpFile &file, const Chunk &c, std::size_t &trace) {
  switch (static_cast<ChunkType>(c.type)) {
  case ChunkType::AsicInfo:
    return file.asic
               ? fmt::format("device 0x{:04x} {} gfxip 0x{:x}, {} SEs x {} CUs",
                             file.asic->device_id, file.asic->gpu_name, file.asic->gfxip_level,
                             file.asic->shader_engines, file.asic->cus_per_shader_engine)
               : std::string();
  case ChunkType::SqttData:
    if (trace < file.traces.size()) {
      const auto &t = file.traces[trace++];
      return fmt::format("SE {}, {} bytes of SQTT at byte {}", t.shader_engine, t.data.size(),
                         t.data_offset);
    }
    return {};
  case ChunkType::CodeObjectDatabase:
    return fmt::format("{} code objects", file.code_objects.size());
  case ChunkType::CodeObjectLoaderEvents:
    return fmt::format("{} load events", file.loader_events.size());
  case ChunkType::QueueEventTimings:
    return fmt::format("{} queues, {} events", file.queues.size(), file.queue_events.size());
  default: return {};
  }
}

}  // namespace

void print_rgp_info_text(std::ostream &out, const RgpFile &file) {
  out << fmt::format("{}: RGP file version {}.{}, {} chunks, {} bytes\n", file.name,
                     file.version_major, file.version_minor, file.chunks.size(), file.bytes.size());
  out << fmt::format("{:<26} {:>5} {:>7} {:>10} {:>10}  {}\n", "type", "index", "version", "offset",
                     "size", "");
  std::size_t trace = 0;
  for (const auto &c : file.chunks)
    out << fmt::format("{:<26} {:>5} {:>7} {:>10} {:>10}  {}\n", chunk_type_name(c.type), c.index,
                       version_of(c), c.offset, c.size, detail_of(file, c, trace));
  for (const auto &note : file.notes) out << "note: " << note << "\n";
}

void print_rgp_info_json(std::ostream &out, const RgpFile &file) {
  nlohmann::json chunks = nlohmann::json::array();
  for (const auto &c : file.chunks) {
    nlohmann::json j = {{"type", chunk_type_name(c.type)}, {"type_id", c.type},  {"index", c.index},
                        {"version", version_of(c)},        {"offset", c.offset}, {"size", c.size}};
    if (c.declared_size != c.size) j["declared_size"] = c.declared_size;
    chunks.push_back(std::move(j));
  }
  nlohmann::json j = {{"file", file.name},
                      {"version", fmt::format("{}.{}", file.version_major, file.version_minor)},
                      {"size", file.bytes.size()},
                      {"chunks", std::move(chunks)},
                      {"sqtt_traces", file.traces.size()},
                      {"code_objects", file.code_objects.size()},
                      {"load_events", file.loader_events.size()},
                      {"notes", file.notes}};
  out << j.dump() << "\n";
}

}  // namespace wavescope::trace::rgp
