#pragma once
// Radeon GPU Profiler (.rgp) files: a 56-byte file header, then a stream of chunks, each with a
// 16-byte header (type, index, version major.minor, size). The layout is Mesa's
// (src/amd/common/ac_rgp.c) and RGP's; tinygrad's extra/sqtt/rgptool.py writes the same.
//
// RgpFile is what a reader needs of a file: its chunk list (for `wavectl rgp info`) and the
// chunks that make a capture: ASIC_INFO, API_INFO, the SQTT_DESC/SQTT_DATA pairs of each shader
// engine, CODE_OBJECT_DATABASE (whole ELFs), CODE_OBJECT_LOADER_EVENTS (where they were loaded),
// PSO_CORRELATION, QUEUE_EVENT_TIMINGS and CLOCK_CALIBRATION. SQTT data and ELFs stay where they
// are in the file (ByteSource ranges); nothing large is copied.
//
// Writers disagree on chunk minor versions and sizes (Mesa's ASIC_INFO has grown fields across
// minor versions): a chunk is read by its declared size, fields past it read as zero, bytes after
// the known fields are ignored.

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/base/byte_source.hpp"

namespace wavescope::trace::rgp {

inline constexpr std::uint32_t kFileMagic = 0x50303042;
inline constexpr std::size_t kFileHeaderSize = 56;
inline constexpr std::size_t kChunkHeaderSize = 16;

enum class ChunkType : std::uint8_t {
  AsicInfo = 0,
  SqttDesc = 1,
  SqttData = 2,
  ApiInfo = 3,
  Reserved = 4,
  QueueEventTimings = 5,
  ClockCalibration = 6,
  CpuInfo = 7,
  SpmDb = 8,
  CodeObjectDatabase = 9,
  CodeObjectLoaderEvents = 10,
  PsoCorrelation = 11,
  InstrumentationTable = 12,
  DerivedSpmDb = 128,
};
// "ASIC_INFO", ...; "UNKNOWN" for a type no writer we know uses.
std::string_view chunk_type_name(std::uint8_t type);
bool is_known_chunk_type(std::uint8_t type);

// SQTT_DESC's sqtt_version values.
enum class SqttVersion : std::uint32_t { V2_2 = 5, V2_3 = 6, V2_4 = 7, V3_2 = 0xb, V3_3 = 0xc };

struct Chunk {
  std::uint8_t type = 0;
  int index = 0;  // chunk_id.index (signed 8 bits)
  std::uint16_t major = 0, minor = 0;
  std::uint64_t offset = 0;         // of its header in the file
  std::uint64_t size = 0;           // bytes it occupies in the file
  std::uint64_t declared_size = 0;  // size_in_bytes (differs from size only where repaired)
};

struct CpuInfo {
  std::string vendor, brand;
  std::uint64_t timestamp_frequency = 0;  // Hz of the CPU timestamps
  std::uint32_t clock_mhz = 0, logical_cores = 0, physical_cores = 0, ram_mib = 0;
};

struct AsicInfo {
  std::uint64_t flags = 0;
  std::uint64_t trace_shader_clock_hz = 0, trace_memory_clock_hz = 0;
  std::uint32_t device_id = 0, revision_id = 0;
  std::int32_t vgprs_per_simd = 0, sgprs_per_simd = 0;
  std::int32_t shader_engines = 0, cus_per_shader_engine = 0, simds_per_cu = 0, waves_per_simd = 0;
  std::int32_t min_vgpr_alloc = 0, vgpr_alloc_granularity = 0, min_sgpr_alloc = 0,
               sgpr_alloc_granularity = 0, hardware_contexts = 0;
  std::uint32_t gpu_type = 0, gfxip_level = 0;
  std::int64_t vram_size = 0;
  std::int32_t vram_bus_width = 0, l2_cache_size = 0, l1_cache_size = 0, lds_size = 0;
  std::string gpu_name;
  float alu_per_clock = 0, texture_per_clock = 0, prims_per_clock = 0, pixels_per_clock = 0;
  std::uint64_t gpu_timestamp_frequency = 0, max_shader_clock_hz = 0, max_memory_clock_hz = 0;
  std::uint32_t memory_ops_per_clock = 0, memory_chip_type = 0, lds_granularity = 0;
  std::array<std::array<std::uint16_t, 2>, 32> cu_mask{};  // [SE][SA]
  std::uint32_t gl1_cache_size = 0, instruction_cache_size = 0, scalar_cache_size = 0,
                mall_cache_size = 0;

  // Shader arrays per SE: the most arrays any SE has CUs in (cu_mask), at least 1.
  unsigned arrays_per_shader_engine() const;
};

struct ApiInfo {
  std::uint32_t api_type = 0;  // 0 DX12, 1 Vulkan, 2 generic, 3 OpenCL; tinygrad writes 5 (HIP)
  std::uint16_t api_major = 0, api_minor = 0;
  std::uint32_t profiling_mode = 0;
  std::uint32_t instruction_trace_mode = 0;  // 0 disabled, 1 full frame, 2 API PSO
  std::uint64_t instruction_trace_data = 0;  // the shader-engine mask in its low 32 bits
};

// One SQTT_DESC with its SQTT_DATA: the trace of one shader engine.
struct SqttTrace {
  int chunk_index = 0;
  int shader_engine = 0;
  std::uint32_t sqtt_version = 0;
  std::int16_t instrumentation_spec_version = 0, instrumentation_api_version = 0;
  std::int32_t compute_unit = 0;
  ByteSource data;
  std::uint64_t data_offset = 0;  // where the SQTT bytes start in the file
};

struct CodeObjectRecord {
  ByteSource elf;
  std::uint64_t offset = 0;  // of the ELF in the file
};

struct LoaderEvent {
  std::uint32_t type = 0;  // 0 load, 1 unload
  std::uint64_t base_address = 0;
  std::array<std::uint64_t, 2> code_object_hash{};
  std::uint64_t timestamp = 0;
};

struct PsoCorrelation {
  std::uint64_t api_pso_hash = 0;
  std::array<std::uint64_t, 2> pipeline_hash{};
  std::string name;
};

struct QueueInfo {
  std::uint64_t queue_id = 0, queue_context = 0;
  std::uint32_t hardware_info = 0;
};

struct QueueEvent {
  std::uint32_t event_type = 0;  // 0 command-buffer submit, 1 signal, 2 wait, 3 present
  std::uint32_t sqtt_cb_id = 0;
  std::uint64_t frame_index = 0;
  std::uint32_t queue_info_index = 0, submit_sub_index = 0;
  std::uint64_t api_id = 0, cpu_timestamp = 0;
  std::array<std::uint64_t, 2> gpu_timestamps{};
};

struct ClockCalibration {
  std::uint64_t cpu_timestamp = 0, gpu_timestamp = 0;
};

struct RgpFile {
  std::string name;  // for messages: the path, or what the caller called the bytes
  ByteSource bytes;
  std::uint32_t version_major = 0, version_minor = 0, flags = 0;
  std::vector<Chunk> chunks;  // in file order

  std::optional<CpuInfo> cpu;
  std::optional<AsicInfo> asic;
  std::optional<ApiInfo> api;
  std::vector<SqttTrace> traces;  // in file order
  std::vector<CodeObjectRecord> code_objects;
  std::vector<LoaderEvent> loader_events;
  std::vector<PsoCorrelation> pso_correlations;
  std::vector<QueueInfo> queues;
  std::vector<QueueEvent> queue_events;
  std::vector<ClockCalibration> clock_calibrations;
  // What the reader repaired or skipped, one sentence each with its byte offset.
  std::vector<std::string> notes;
};

// True when `head` (the first bytes of a file) starts with the .rgp magic.
bool looks_like_rgp(std::span<const std::uint8_t> head);

// Reads the chunk stream. Throws Error(BadInput) "NAME: byte N: what is wrong" for a file that is
// not an .rgp, is truncated, or has a chunk that does not fit.
RgpFile read_rgp(ByteSource bytes, std::string name);
RgpFile read_rgp(const std::filesystem::path &path);

// rgptool's code-object hash: the first 8 bytes of the ELF's MD5, twice.
std::array<std::uint64_t, 2> md5_code_object_hash(const ByteSource &elf);

}  // namespace wavescope::trace::rgp
