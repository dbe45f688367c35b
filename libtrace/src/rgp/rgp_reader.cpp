// Reading .rgp chunk streams (Mesa's ac_rgp.c layout). Offsets below are of the chunk's own
// header; each field is read only when the chunk's declared size covers it (minor-version skew).

#include <algorithm>
#include <cstring>
#include <memory>

#include <fmt/format.h>
#include <openssl/evp.h>

#include "wavescope/base/error.hpp"
#include "wavescope/trace/rgp/rgp_file.hpp"

namespace wavescope::trace::rgp {
namespace {

// Bounds of what any real file needs: a record count or table past these is corruption.
constexpr std::uint64_t kMaxRecords = 1u << 24;

std::uint64_t load_le(const std::uint8_t *p, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}

// Names in files are ASCII; anything else is shown as '?' so every printer can print them.
char printable(std::uint8_t c) { return c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '?'; }

// The bytes of one chunk (or the file header), read once, with zero past their end.
class Fields {
public:
  Fields(std::vector<std::uint8_t> bytes) : bytes_(std::move(bytes)) {}
  std::uint64_t u(std::size_t at, std::size_t n) const {
    if (at + n > bytes_.size()) return 0;
    return load_le(bytes_.data() + at, n);
  }
  std::uint8_t u8(std::size_t at) const { return static_cast<std::uint8_t>(u(at, 1)); }
  std::uint16_t u16(std::size_t at) const { return static_cast<std::uint16_t>(u(at, 2)); }
  std::uint32_t u32(std::size_t at) const { return static_cast<std::uint32_t>(u(at, 4)); }
  std::int32_t i32(std::size_t at) const { return static_cast<std::int32_t>(u32(at)); }
  std::uint64_t u64(std::size_t at) const { return u(at, 8); }
  float f32(std::size_t at) const {
    const auto bits = u32(at);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  std::string text(std::size_t at, std::size_t n) const {
    std::string s;
    for (std::size_t i = at; i < at + n && i < bytes_.size() && bytes_[i]; ++i)
      s += printable(bytes_[i]);
    return s;
  }

private:
  std::vector<std::uint8_t> bytes_;
};

class Reader {
public:
  Reader(ByteSource bytes, std::string name) : name_(std::move(name)), size_(bytes.size()) {
    file_.name = name_;
    file_.bytes = std::move(bytes);
  }

  RgpFile read() {
    if (size_ < kFileHeaderSize)
      fail(0, fmt::format("not an .rgp file: {} bytes, shorter than the {}-byte file header", size_,
                          kFileHeaderSize));
    const Fields header(bytes_at(0, kFileHeaderSize));
    if (header.u32(0) != kFileMagic)
      fail(0, fmt::format("not an .rgp file: magic 0x{:08x}, expected 0x{:08x}", header.u32(0),
                          kFileMagic));
    file_.version_major = header.u32(4);
    file_.version_minor = header.u32(8);
    file_.flags = header.u32(12);
    if (file_.version_major != 1)
      fail(4, fmt::format("file version {}.{}: only major version 1 is known", file_.version_major,
                          file_.version_minor));
    const auto chunk_offset = header.i32(16);
    if (chunk_offset < static_cast<std::int32_t>(kFileHeaderSize) ||
        static_cast<std::uint64_t>(chunk_offset) > size_)
      fail(16, fmt::format("chunk_offset {} is outside the file ({} bytes)", chunk_offset, size_));

    std::uint64_t at = static_cast<std::uint64_t>(chunk_offset);
    while (at < size_) at = read_chunk(at);
    return std::move(file_);
  }

private:
  [[noreturn]] void fail(std::uint64_t offset, const std::string &what) const {
    throw_bad_input(fmt::format("{}: byte {}: {}", name_, offset, what));
  }

  std::vector<std::uint8_t> bytes_at(std::uint64_t offset, std::uint64_t count) const {
    std::vector<std::uint8_t> out(static_cast<std::size_t>(count));
    file_.bytes.read(offset, out.size(), out.data());
    return out;
  }

  // Whether a chunk header could start at `at`: inside the file, a type some writer uses, and a
  // size that fits. Used to find where the next chunk really starts after a repair.
  bool plausible_chunk_at(std::uint64_t at) const {
    if (at == size_) return true;
    if (at + kChunkHeaderSize > size_) return false;
    const Fields h(bytes_at(at, kChunkHeaderSize));
    const auto declared = h.i32(8);
    return is_known_chunk_type(h.u8(0)) &&
           declared >= static_cast<std::int32_t>(kChunkHeaderSize) &&
           at + static_cast<std::uint64_t>(declared) <= size_;
  }

  // Reads the chunk at `at`; returns where the next one starts.
  std::uint64_t read_chunk(std::uint64_t at) {
    if (at + kChunkHeaderSize > size_)
      fail(at, fmt::format("truncated chunk header: {} bytes left, a header is {}", size_ - at,
                           kChunkHeaderSize));
    const Fields h(bytes_at(at, kChunkHeaderSize));
    Chunk c;
    c.type = h.u8(0);
    c.index = static_cast<std::int8_t>(h.u8(1));
    c.minor = h.u16(4);
    c.major = h.u16(6);
    c.offset = at;
    const auto declared = h.i32(8);
    if (declared < static_cast<std::int32_t>(kChunkHeaderSize))
      fail(at + 8, fmt::format("{} chunk declares {} bytes, less than its own header",
                               chunk_type_name(c.type), declared));
    c.declared_size = static_cast<std::uint64_t>(declared);
    if (at + c.declared_size > size_)
      fail(at + 8, fmt::format("{} chunk of {} bytes runs past the end of the file ({} bytes "
                               "left): truncated?",
                               chunk_type_name(c.type), c.declared_size, size_ - at));
    c.size = c.declared_size;
    const Fields f(bytes_at(at, std::min<std::uint64_t>(c.declared_size, 4096)));

    switch (static_cast<ChunkType>(c.type)) {
    case ChunkType::CpuInfo: read_cpu_info(f); break;
    case ChunkType::AsicInfo: read_asic_info(f); break;
    case ChunkType::ApiInfo: read_api_info(f); break;
    case ChunkType::SqttDesc: read_sqtt_desc(c, f); break;
    case ChunkType::SqttData: read_sqtt_data(c, f); break;
    case ChunkType::CodeObjectDatabase: c.size = read_code_objects(c, f); break;
    case ChunkType::CodeObjectLoaderEvents: read_loader_events(c, f); break;
    case ChunkType::PsoCorrelation: read_pso_correlation(c, f); break;
    case ChunkType::QueueEventTimings: read_queue_events(c, f); break;
    case ChunkType::ClockCalibration:
      if (c.declared_size >= 32) file_.clock_calibrations.push_back({f.u64(16), f.u64(24)});
      break;
    default:
      if (!is_known_chunk_type(c.type))
        file_.notes.push_back(fmt::format("byte {}: skipped a chunk of unknown type {} ({} bytes)",
                                          at, c.type, c.declared_size));
    }
    file_.chunks.push_back(c);
    return at + c.size;
  }

  void read_cpu_info(const Fields &f) {
    CpuInfo cpu;
    cpu.vendor = f.text(16, 16);
    cpu.brand = f.text(32, 48);
    cpu.timestamp_frequency = f.u64(88);
    cpu.clock_mhz = f.u32(96);
    cpu.logical_cores = f.u32(100);
    cpu.physical_cores = f.u32(104);
    cpu.ram_mib = f.u32(108);
    file_.cpu = cpu;
  }

  void read_asic_info(const Fields &f) {
    AsicInfo a;
    a.flags = f.u64(16);
    a.trace_shader_clock_hz = f.u64(24);
    a.trace_memory_clock_hz = f.u64(32);
    a.device_id = f.u32(40);
    a.revision_id = f.u32(44);
    a.vgprs_per_simd = f.i32(48);
    a.sgprs_per_simd = f.i32(52);
    a.shader_engines = f.i32(56);
    a.cus_per_shader_engine = f.i32(60);
    a.simds_per_cu = f.i32(64);
    a.waves_per_simd = f.i32(68);
    a.min_vgpr_alloc = f.i32(72);
    a.vgpr_alloc_granularity = f.i32(76);
    a.min_sgpr_alloc = f.i32(80);
    a.sgpr_alloc_granularity = f.i32(84);
    a.hardware_contexts = f.i32(88);
    a.gpu_type = f.u32(92);
    a.gfxip_level = f.u32(96);
    a.vram_size = static_cast<std::int64_t>(f.u64(128));
    a.vram_bus_width = f.i32(136);
    a.l2_cache_size = f.i32(140);
    a.l1_cache_size = f.i32(144);
    a.lds_size = f.i32(148);
    a.gpu_name = f.text(152, 256);
    a.alu_per_clock = f.f32(408);
    a.texture_per_clock = f.f32(412);
    a.prims_per_clock = f.f32(416);
    a.pixels_per_clock = f.f32(420);
    a.gpu_timestamp_frequency = f.u64(424);
    a.max_shader_clock_hz = f.u64(432);
    a.max_memory_clock_hz = f.u64(440);
    a.memory_ops_per_clock = f.u32(448);
    a.memory_chip_type = f.u32(452);
    a.lds_granularity = f.u32(456);
    for (std::size_t se = 0; se < 32; ++se)
      for (std::size_t sa = 0; sa < 2; ++sa) a.cu_mask[se][sa] = f.u16(460 + 4 * se + 2 * sa);
    a.gl1_cache_size = f.u32(748);
    a.instruction_cache_size = f.u32(752);
    a.scalar_cache_size = f.u32(756);
    a.mall_cache_size = f.u32(760);
    file_.asic = a;
  }

  void read_api_info(const Fields &f) {
    ApiInfo a;
    a.api_type = f.u32(16);
    a.api_major = f.u16(20);
    a.api_minor = f.u16(22);
    a.profiling_mode = f.u32(24);
    a.instruction_trace_mode = f.u32(544);
    a.instruction_trace_data = f.u64(552);
    file_.api = a;
  }

  void read_sqtt_desc(const Chunk &c, const Fields &f) {
    SqttTrace t;
    t.chunk_index = c.index;
    t.shader_engine = f.i32(16);
    t.sqtt_version = f.u32(20);
    t.instrumentation_spec_version = static_cast<std::int16_t>(f.u16(24));
    t.instrumentation_api_version = static_cast<std::int16_t>(f.u16(26));
    t.compute_unit = f.i32(28);
    file_.traces.push_back(std::move(t));
  }

  void read_sqtt_data(const Chunk &c, const Fields &f) {
    constexpr std::uint64_t header = 24;
    if (c.declared_size < header)
      fail(c.offset + 8, fmt::format("SQTT_DATA chunk of {} bytes is shorter than its {}-byte "
                                     "header",
                                     c.declared_size, header));
    // The data follow the header (Mesa and rgptool both say so in `offset`, in file bytes).
    const auto offset = static_cast<std::uint64_t>(static_cast<std::uint32_t>(f.i32(16)));
    const auto size = static_cast<std::uint64_t>(static_cast<std::uint32_t>(f.i32(20)));
    const auto start = c.offset + header;
    if (size > c.declared_size - header)
      fail(c.offset + 20, fmt::format("SQTT_DATA {} says {} bytes of data, but its chunk holds {}",
                                      c.index, size, c.declared_size - header));
    if (offset != start)
      file_.notes.push_back(fmt::format("byte {}: SQTT_DATA {} says its data start at byte {}; "
                                        "read from byte {}, right after its header",
                                        c.offset + 16, c.index, offset, start));
    // The SQTT_DESC before it describes it; a DATA without one gets a description of its own.
    if (file_.traces.empty() || !file_.traces.back().data.empty() ||
        file_.traces.back().chunk_index != c.index) {
      SqttTrace t;
      t.chunk_index = c.index;
      t.shader_engine = c.index;
      file_.notes.push_back(fmt::format("byte {}: SQTT_DATA {} has no SQTT_DESC before it; taken "
                                        "as shader engine {}",
                                        c.offset, c.index, c.index));
      file_.traces.push_back(std::move(t));
    }
    auto &t = file_.traces.back();
    t.data = file_.bytes.slice(start, size);
    t.data_offset = start;
  }

  // Returns the bytes the chunk occupies. tinygrad's rgptool declares every ELF's size rounded
  // up to 4 bytes, as the format asks, but writes the ELF unpadded; the records after it, and the
  // chunks after the database, then start 1-3 bytes before where the sizes say. The reader finds
  // the real start of each (an ELF record, or a plausible chunk header) and notes the repair.
  std::uint64_t read_code_objects(const Chunk &c, const Fields &f) {
    if (c.declared_size < 32)
      fail(c.offset + 8, fmt::format("CODE_OBJECT_DATABASE chunk of {} bytes is shorter than its "
                                     "32-byte header",
                                     c.declared_size));
    const auto count = f.u32(28);
    if (count > kMaxRecords)
      fail(c.offset + 28, fmt::format("CODE_OBJECT_DATABASE says {} records", count));
    const std::uint64_t end = c.offset + c.declared_size;
    std::uint64_t at = c.offset + 32, unwritten = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
      if (at + 4 > size_)
        fail(at, fmt::format("CODE_OBJECT_DATABASE record {} of {} starts past the end of the "
                             "file",
                             i, count));
      const auto declared = Fields(bytes_at(at, 4)).u32(0);
      const auto elf_at = at + 4;
      if (declared > size_ - elf_at)
        fail(at,
             fmt::format("code object {} of {} bytes runs past the end of the file", i, declared));
      const bool last = i + 1 == count;
      // Where the next record (or chunk) starts when `missing` padding bytes were not written.
      auto leads_on = [&](std::uint64_t missing) {
        if (missing > declared) return false;
        if (last)
          return end >= unwritten + missing && plausible_chunk_at(end - unwritten - missing);
        return is_elf_at(elf_at + declared - missing + 4);
      };
      std::uint64_t missing = 0;
      if (!leads_on(0))
        for (std::uint64_t m = 1; m < 4; ++m)
          if (leads_on(m)) {
            missing = m;
            break;
          }
      if (missing)
        file_.notes.push_back(fmt::format(
            "byte {}: code object {} declares {} bytes but {} were written (the writer did not "
            "pad the ELF to 4 bytes, as tinygrad's rgptool does not); read on at byte {}",
            at, i, declared, declared - missing, elf_at + declared - missing));
      const auto elf_size = declared - missing;
      if (elf_size < 4 || !is_elf_at(elf_at))
        fail(elf_at, fmt::format("code object {} is not an ELF (no \\x7fELF)", i));
      file_.code_objects.push_back(
          {file_.bytes.slice(elf_at, elf_extent(elf_at, elf_size)), elf_at});
      unwritten += missing;
      at = elf_at + elf_size;
    }
    if (unwritten + kChunkHeaderSize > c.declared_size)
      fail(c.offset, "CODE_OBJECT_DATABASE: its records do not add up to its size");
    return c.declared_size - unwritten;
  }

  // The ELF's own length within a record of `size` bytes: without the 1-3 zero bytes that pad
  // the record to 4 (the ELF's headers and sections say where it ends), so a code object reads
  // back with the bytes it had.
  std::uint64_t elf_extent(std::uint64_t at, std::uint64_t size) const {
    if (size < 64 || size % 4) return size;
    const Fields h(bytes_at(at, 64));
    if (h.u8(4) != 2) return size;  // ELF64 only
    const std::uint64_t phoff = h.u64(0x20), shoff = h.u64(0x28);
    const std::uint64_t phnum = h.u16(0x38), shnum = h.u16(0x3c);
    if (phoff > size || shoff > size || phnum * 56 > size || shnum * 64 > size) return size;
    std::uint64_t end = std::max<std::uint64_t>({64, phoff + phnum * 56, shoff + shnum * 64});
    if (shoff + shnum * 64 <= size && shnum) {
      const auto table = bytes_at(at + shoff, shnum * 64);
      for (std::uint64_t i = 0; i < shnum; ++i) {
        const auto *sh = table.data() + i * 64;
        if (load_le(sh + 4, 4) == 8) continue;  // SHT_NOBITS takes no file bytes
        const auto offset = load_le(sh + 0x18, 8), bytes = load_le(sh + 0x20, 8);
        if (offset <= size && bytes <= size - offset) end = std::max(end, offset + bytes);
      }
    }
    if (end >= size || size - end >= 4) return size;
    const auto tail = bytes_at(at + end, size - end);
    return std::all_of(tail.begin(), tail.end(), [](std::uint8_t b) { return b == 0; }) ? end
                                                                                        : size;
  }

  bool is_elf_at(std::uint64_t at) const {
    if (at + 4 > size_) return false;
    const auto b = bytes_at(at, 4);
    return b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F';
  }

  // A table of `count` records of `record_size` bytes after a 32-byte chunk header.
  std::vector<std::uint8_t> record_table(const Chunk &c, std::uint64_t count,
                                         std::uint64_t record_size, std::uint64_t min_size) {
    if (count > kMaxRecords)
      fail(c.offset + 28, fmt::format("{} says {} records", chunk_type_name(c.type), count));
    if (count && record_size < min_size)
      fail(c.offset + 24, fmt::format("{} records of {} bytes are shorter than the {} known",
                                      chunk_type_name(c.type), record_size, min_size));
    if (c.declared_size < 32 || count * record_size > c.declared_size - 32)
      fail(c.offset + 28,
           fmt::format("{} says {} records of {} bytes, more than its {} bytes "
                       "hold",
                       chunk_type_name(c.type), count, record_size, c.declared_size));
    return bytes_at(c.offset + 32, count * record_size);
  }

  void read_loader_events(const Chunk &c, const Fields &f) {
    const auto size = f.u32(24), count = f.u32(28);
    const auto table = record_table(c, count, size, 40);
    for (std::uint32_t i = 0; i < count; ++i) {
      const auto *r = table.data() + std::size_t{i} * size;
      file_.loader_events.push_back({static_cast<std::uint32_t>(load_le(r, 4)),
                                     load_le(r + 8, 8),
                                     {load_le(r + 16, 8), load_le(r + 24, 8)},
                                     load_le(r + 32, 8)});
    }
  }

  void read_pso_correlation(const Chunk &c, const Fields &f) {
    const auto size = f.u32(24), count = f.u32(28);
    const auto table = record_table(c, count, size, 24);
    for (std::uint32_t i = 0; i < count; ++i) {
      const auto *r = table.data() + std::size_t{i} * size;
      PsoCorrelation p{load_le(r, 8), {load_le(r + 8, 8), load_le(r + 16, 8)}, {}};
      for (std::size_t k = 24; k < size && k < 88 && r[k]; ++k) p.name += printable(r[k]);
      file_.pso_correlations.push_back(std::move(p));
    }
  }

  void read_queue_events(const Chunk &c, const Fields &f) {
    const std::uint64_t infos = f.u32(16), info_bytes = f.u32(20), events = f.u32(24),
                        event_bytes = f.u32(28);
    if (infos > kMaxRecords || events > kMaxRecords || info_bytes < infos * 24 ||
        event_bytes < events * 56 || c.declared_size < 32 ||
        info_bytes + event_bytes > c.declared_size - 32)
      fail(c.offset + 16,
           fmt::format("QUEUE_EVENT_TIMINGS tables ({} queues in {} bytes, {} events in {} bytes) "
                       "do not fit its {} bytes",
                       infos, info_bytes, events, event_bytes, c.declared_size));
    const auto info_table = bytes_at(c.offset + 32, info_bytes);
    const auto info_size = infos ? info_bytes / infos : 24;
    for (std::uint64_t i = 0; i < infos; ++i) {
      const auto *r = info_table.data() + i * info_size;
      file_.queues.push_back(
          {load_le(r, 8), load_le(r + 8, 8), static_cast<std::uint32_t>(load_le(r + 16, 4))});
    }
    const auto event_table = bytes_at(c.offset + 32 + info_bytes, event_bytes);
    const auto event_size = events ? event_bytes / events : 56;
    for (std::uint64_t i = 0; i < events; ++i) {
      const auto *r = event_table.data() + i * event_size;
      QueueEvent e;
      e.event_type = static_cast<std::uint32_t>(load_le(r, 4));
      e.sqtt_cb_id = static_cast<std::uint32_t>(load_le(r + 4, 4));
      e.frame_index = load_le(r + 8, 8);
      e.queue_info_index = static_cast<std::uint32_t>(load_le(r + 16, 4));
      e.submit_sub_index = static_cast<std::uint32_t>(load_le(r + 20, 4));
      e.api_id = load_le(r + 24, 8);
      e.cpu_timestamp = load_le(r + 32, 8);
      e.gpu_timestamps = {load_le(r + 40, 8), load_le(r + 48, 8)};
      file_.queue_events.push_back(e);
    }
  }

  std::string name_;
  std::uint64_t size_ = 0;
  RgpFile file_;
};

}  // namespace

std::string_view chunk_type_name(std::uint8_t type) {
  switch (type) {
  case 0: return "ASIC_INFO";
  case 1: return "SQTT_DESC";
  case 2: return "SQTT_DATA";
  case 3: return "API_INFO";
  case 4: return "RESERVED";
  case 5: return "QUEUE_EVENT_TIMINGS";
  case 6: return "CLOCK_CALIBRATION";
  case 7: return "CPU_INFO";
  case 8: return "SPM_DB";
  case 9: return "CODE_OBJECT_DATABASE";
  case 10: return "CODE_OBJECT_LOADER_EVENTS";
  case 11: return "PSO_CORRELATION";
  case 12: return "INSTRUMENTATION_TABLE";
  case 128: return "DERIVED_SPM_DB";
  default: return "UNKNOWN";
  }
}

bool is_known_chunk_type(std::uint8_t type) { return type <= 12 || type == 128; }

unsigned AsicInfo::arrays_per_shader_engine() const {
  unsigned arrays = 1;
  for (const auto &se : cu_mask) {
    unsigned used = 0;
    for (unsigned sa = 0; sa < se.size(); ++sa)
      if (se[sa]) used = sa + 1;
    arrays = std::max(arrays, used);
  }
  return arrays;
}

bool looks_like_rgp(std::span<const std::uint8_t> head) {
  return head.size() >= 4 && load_le(head.data(), 4) == kFileMagic;
}

RgpFile read_rgp(ByteSource bytes, std::string name) {
  return Reader(std::move(bytes), std::move(name)).read();
}

RgpFile read_rgp(const std::filesystem::path &path) {
  return read_rgp(ByteSource::whole_file(path), path.string());
}

std::array<std::uint64_t, 2> md5_code_object_hash(const ByteSource &elf) {
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX *)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_DigestInit_ex(ctx.get(), EVP_md5(), nullptr);
  const auto bytes = elf.read_all();
  EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size());
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned length = 0;
  EVP_DigestFinal_ex(ctx.get(), digest, &length);
  const auto h = load_le(digest, 8);
  return {h, h};
}

}  // namespace wavescope::trace::rgp
