#include "wavescope/compiler/isa/gpu_target.hpp"

#include <array>
#include <charconv>
#include <utility>

#include <fmt/format.h>
#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/TargetParser/TargetParser.h>

#include "llvm_mc.hpp"
#include "wavescope/base/error.hpp"

namespace wavescope::compiler::isa {
namespace {

// EF_AMDGPU_MACH values (LLVM's ELF.h) of every processor LLVM 22 names. LLVM's own lookup
// (ELFObjectFileBase::tryGetCPUName) is unreachable-UB on an unknown value, so we check first.
constexpr std::array<std::pair<std::string_view, std::uint32_t>, 47> kMachs{{
    {"gfx600", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX600},
    {"gfx601", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX601},
    {"gfx602", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX602},
    {"gfx700", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX700},
    {"gfx701", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX701},
    {"gfx702", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX702},
    {"gfx703", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX703},
    {"gfx704", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX704},
    {"gfx705", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX705},
    {"gfx801", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX801},
    {"gfx802", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX802},
    {"gfx803", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX803},
    {"gfx805", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX805},
    {"gfx810", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX810},
    {"gfx900", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX900},
    {"gfx902", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX902},
    {"gfx904", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX904},
    {"gfx906", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX906},
    {"gfx908", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX908},
    {"gfx909", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX909},
    {"gfx90a", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX90A},
    {"gfx90c", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX90C},
    {"gfx942", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX942},
    {"gfx950", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX950},
    {"gfx1010", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1010},
    {"gfx1011", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1011},
    {"gfx1012", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1012},
    {"gfx1013", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1013},
    {"gfx1030", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1030},
    {"gfx1031", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1031},
    {"gfx1032", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1032},
    {"gfx1033", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1033},
    {"gfx1034", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1034},
    {"gfx1035", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1035},
    {"gfx1036", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1036},
    {"gfx1100", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1100},
    {"gfx1101", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1101},
    {"gfx1102", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1102},
    {"gfx1103", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1103},
    {"gfx1150", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1150},
    {"gfx1151", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1151},
    {"gfx1152", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1152},
    {"gfx1153", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1153},
    {"gfx1200", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1200},
    {"gfx1201", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1201},
    {"gfx1250", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1250},
    {"gfx1251", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1251},
}};

unsigned gfx_number(std::string_view processor) {
  // "gfx1100" -> 1100, "gfx90a" -> 90 (the hex-suffixed GCN names keep their decimal prefix).
  if (!processor.starts_with("gfx")) return 0;
  unsigned value = 0;
  std::from_chars(processor.data() + 3, processor.data() + processor.size(), value);
  return value;
}

}  // namespace

GpuFamily GpuTarget::family() const {
  const unsigned n = gfx_number(processor);
  if (n >= 1200 && n < 1300) return GpuFamily::Rdna4;
  if (n >= 1100) return GpuFamily::Rdna3;
  if (n >= 1030) return GpuFamily::Rdna2;
  if (n >= 1010) return GpuFamily::Rdna1;
  if (processor == "gfx908" || processor == "gfx90a" || (n >= 940 && n < 1000))
    return GpuFamily::Cdna;
  if (n >= 600) return GpuFamily::Gcn;
  return GpuFamily::Unknown;
}

unsigned GpuTarget::default_wave_size() const {
  switch (family()) {
  case GpuFamily::Rdna1:
  case GpuFamily::Rdna2:
  case GpuFamily::Rdna3:
  case GpuFamily::Rdna4: return 32;
  default: return 64;
  }
}

std::string_view to_string(GpuFamily family) {
  switch (family) {
  case GpuFamily::Gcn: return "GCN";
  case GpuFamily::Cdna: return "CDNA";
  case GpuFamily::Rdna1: return "RDNA1";
  case GpuFamily::Rdna2: return "RDNA2";
  case GpuFamily::Rdna3: return "RDNA3";
  case GpuFamily::Rdna4: return "RDNA4";
  case GpuFamily::Unknown: break;
  }
  return "unknown";
}

GpuTarget parse_gpu_target(std::string_view name) {
  // Accept LLVM target-id syntax: "gfx950:xnack+:sramecc-" -> processor + features.
  GpuTarget target;
  const auto colon = name.find(':');
  target.processor = std::string(name.substr(0, colon));
  if (llvm::AMDGPU::parseArchAMDGCN(target.processor) == llvm::AMDGPU::GK_NONE)
    throw Error(ErrorKind::Usage,
                fmt::format("unknown AMDGPU target '{}' (expected a name such as gfx1100, "
                            "gfx1201 or gfx950)",
                            name));
  std::string_view rest = colon == std::string_view::npos ? "" : name.substr(colon + 1);
  while (!rest.empty()) {
    const auto next = rest.find(':');
    const std::string_view feature = rest.substr(0, next);
    if (feature.size() < 2 || (feature.back() != '+' && feature.back() != '-'))
      throw Error(ErrorKind::Usage, fmt::format("bad target feature '{}' in '{}' (expected "
                                                "e.g. xnack+ or sramecc-)",
                                                feature, name));
    if (!target.features.empty()) target.features += ',';
    target.features += feature.back();
    target.features += feature.substr(0, feature.size() - 1);
    rest = next == std::string_view::npos ? "" : rest.substr(next + 1);
  }
  detail::LlvmMc validate(target);  // throws for a processor the MC layer does not accept
  return target;
}

std::optional<std::string> processor_from_elf_flags(std::uint32_t e_flags) {
  const std::uint32_t mach = e_flags & llvm::ELF::EF_AMDGPU_MACH;
  for (const auto &[name, value] : kMachs)
    if (value == mach) return std::string(name);
  return std::nullopt;
}

std::uint32_t elf_mach_for_processor(std::string_view processor) {
  for (const auto &[name, value] : kMachs)
    if (name == processor) return value;
  return 0;
}

std::string processor_from_gfx_target_version(unsigned version) {
  return fmt::format("gfx{}{:x}{:x}", version / 10000, (version / 100) % 100, version % 100);
}

std::string llvm_version() { return LLVM_VERSION_STRING; }

}  // namespace wavescope::compiler::isa
