#pragma once
// A profiling capture: the SQTT blobs (one per shader engine and dispatch), the PMC sample
// buffers, the kernels' code objects with their load addresses, and the device's properties.
//
// A capture's bytes live wherever its source keeps them (ByteSource): the files of a capture
// folder, ranges of a profile file, or memory. Every reader goes through the ByteSource, so a
// capture opened from any source analyses the same. A capture folder is a folder whose
// meta.json (format "sqtt-corpus/1") indexes its files; they are always found through meta.json,
// never by globbing.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "wavescope/base/byte_source.hpp"

namespace wavescope::trace {

struct DeviceProperties {
  unsigned gfx_target_version = 0;  // e.g. 110000
  std::string processor;            // LLVM name derived from it, e.g. "gfx1100"
  unsigned num_xcc = 1;
  unsigned simd_count = 0;
  unsigned simd_per_cu = 0;
  unsigned cu_per_simd_array = 0;
  unsigned array_count = 0;             // shader arrays over the whole device
  unsigned simd_arrays_per_engine = 0;  // shader arrays per shader engine
  unsigned max_waves_per_simd = 0;
  unsigned lds_size_kb = 0;
  unsigned pci_device_id = 0;         // KFD's device_id / ASIC_INFO's, 0 if not recorded
  unsigned max_engine_clock_mhz = 0;  // KFD's max_engine_clk_fcompute, 0 if not recorded

  // Shader engines per XCC (array_count / simd_arrays_per_engine), 0 if unknown.
  unsigned shader_engines() const;
};

struct ExecRange {
  double start_us = 0;  // host-side timing of the dispatch
  double end_us = 0;
};

struct CaptureProgram {
  std::uint32_t tag = 0;  // matches CaptureBlob::kernel_tag and CapturePmc::kernel_tag
  std::string name;
  std::string file_name;  // its file in a capture folder ("program.elf"), or the name it would have
  ByteSource code;        // the code object (ELF)
  std::uint64_t base = 0;  // GPU VA where the ELF image was loaded
  std::uint64_t text_address = 0, text_size = 0;
  std::uint64_t entry_pc = 0;  // first instruction, relative to base (an ELF address)
  std::vector<ExecRange> exec_ranges;
};

struct CaptureBlob {
  std::string file_name;  // "se1.bin": its file in a capture folder, or the name it would have
  ByteSource bytes;       // raw SQTT bytes of one shader engine for one dispatch
  unsigned order = 0;     // capture order
  unsigned se = 0;        // shader engine (XCC-major on multi-XCC parts)
  std::uint32_t kernel_tag = 0;
  std::string program;  // kernel name
  bool itrace = false;  // instruction tokens were enabled on this SE
  std::uint64_t size = 0;
  std::string sha256;             // hex, as recorded
  bool synthetic_header = false;  // the first 8 bytes were prepended by tinygrad's runtime (CDNA)
};

struct PmcSampleSpec {
  std::string name;                                     // counter, e.g. "SQ_BUSY_CYCLES"
  std::string block;                                    // hardware block, e.g. "SQ", "GL2C"
  unsigned xcc = 1, inst = 1, se = 1, sa = 1, wgp = 1;  // instance geometry (counts)
  std::uint64_t offset = 0;     // byte offset of its first slot in the buffer
  std::uint64_t size = 0;       // bytes (8 per instance)
  std::string sample_register;  // e.g. "regSQ_PERFCOUNTER0"
  std::optional<unsigned> perf_sel;
  std::string select_register;
};

struct CapturePmc {
  std::string file_name;  // "pmc_0.bin": its file in a capture folder, or the name it would have
  ByteSource bytes;       // raw little-endian uint64 sample buffer
  unsigned order = 0;
  std::uint32_t kernel_tag = 0;
  std::string program;
  std::uint64_t size = 0;
  std::uint64_t used_bytes = 0;
  std::vector<PmcSampleSpec> schedule;
};

struct Capture {
  std::filesystem::path source;  // the capture folder, or the file the capture was read from
  std::string example;           // workload name
  std::string arch;              // tinygrad's arch name, e.g. "gfx1200" (a folder's meta.json)
  DeviceProperties device;
  std::vector<CaptureProgram> programs;
  std::vector<CaptureBlob> blobs;
  std::vector<CapturePmc> pmc;

  // Opens a capture from any source wavescope reads: a capture folder (or its meta.json), a
  // tinygrad profile pickle with SQTT or PMC events, or an .rgp file (told apart by content, not
  // by name). Throws
  // Error(BadInput) naming the file and what is wrong.
  static Capture open(const std::filesystem::path &path);
  // Opens a capture folder (or its meta.json). Checks that every listed file exists with its
  // recorded size; throws Error(BadInput) naming the file and what is wrong.
  static Capture open_folder(const std::filesystem::path &path);

  // The program a blob or PMC event belongs to; nullptr if none has that tag.
  const CaptureProgram *program(std::uint32_t tag) const;
  // Checks every blob's SHA-256 against the one recorded (meta.json); throws Error(Mismatch)
  // naming the first bad one.
  void verify_checksums() const;
};

}  // namespace wavescope::trace
