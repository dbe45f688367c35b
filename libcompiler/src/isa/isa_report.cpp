#include "wavescope/compiler/isa/isa_report.hpp"

#include <cstddef>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/base/text_table.hpp"
#include "wavescope/compiler/isa/assembler.hpp"
#include "wavescope/compiler/isa/listing.hpp"

namespace wavescope::compiler::isa {
namespace {

using json = nlohmann::ordered_json;

json instruction_json(const Instruction &inst) {
  json j = {{"address", inst.address},
            {"size", inst.size},
            {"bytes", inst.hex_words()},
            {"text", inst.text},
            {"category", to_string(inst.category)}};
  if (inst.branch != BranchKind::None) j["branch"] = to_string(inst.branch);
  if (inst.branch_target) j["target"] = *inst.branch_target;
  if (!inst.valid) j["valid"] = false;
  return j;
}

json kernel_json(const Kernel &k) {
  const auto &d = k.descriptor;
  return {{"name", k.name},
          {"entry", k.entry},
          {"code_size", k.code_size},
          {"descriptor_address", k.descriptor_address},
          {"wave_size", d.wave_size},
          {"vgprs", d.vgpr_count},
          {"agprs", d.agpr_count},
          {"sgprs", d.sgpr_count},
          {"lds_bytes", d.group_segment_fixed_size},
          {"scratch_bytes", d.private_segment_fixed_size},
          {"kernarg_bytes", d.kernarg_size},
          {"user_sgprs", d.user_sgpr_count},
          {"dynamic_stack", d.uses_dynamic_stack},
          {"rsrc1", d.compute_pgm_rsrc1},
          {"rsrc2", d.compute_pgm_rsrc2},
          {"rsrc3", d.compute_pgm_rsrc3}};
}

}  // namespace

std::string to_json(const CodeObjectReport &report) {
  const auto &code = report.code;
  json j = {{"file", code.origin()},
            {"target", code.target().processor},
            {"family", to_string(code.target().family())},
            {"e_flags", code.elf_flags()},
            {"quirks", code.quirks()},
            {"text", {{"address", code.text().address}, {"size", code.text().size}}}};
  for (const auto &k : code.kernels()) j["kernels"].push_back(kernel_json(k));
  for (const auto &s : code.sections())
    j["sections"].push_back({{"name", s.name}, {"address", s.address}, {"size", s.size}});
  for (const auto &s : code.symbols())
    j["symbols"].push_back({{"name", s.name}, {"value", s.value}, {"size", s.size}});
  return json_line(j);
}

std::string to_text(const CodeObjectReport &report) {
  const auto &code = report.code;
  std::string out =
      fmt::format("{}: AMDGPU code object for {} ({}), e_flags {:#x}\n", code.origin(),
                  code.target().processor, to_string(code.target().family()), code.elf_flags());
  for (const auto &q : code.quirks()) out += "  unusual: " + q + '\n';
  out += fmt::format(".text: {:#x}..{:#x} ({} bytes)\n\n", code.text().address,
                     code.text().address + code.text().size, code.text().size);
  using Align = TextTable::Align;
  TextTable kernels(
      {"kernel", "entry", "code", "wave", "VGPRs", "AGPRs", "SGPRs", "LDS", "scratch", "kernarg"},
      {Align::Left, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right,
       Align::Right, Align::Right, Align::Right, Align::Right});
  for (const auto &k : code.kernels()) {
    const auto &d = k.descriptor;
    kernels.add_row({k.name, fmt::format("{:#x}", k.entry), std::to_string(k.code_size),
                     std::to_string(d.wave_size), std::to_string(d.vgpr_count),
                     std::to_string(d.agpr_count),
                     d.sgpr_count ? std::to_string(d.sgpr_count) : "-",
                     std::to_string(d.group_segment_fixed_size),
                     std::to_string(d.private_segment_fixed_size), std::to_string(d.kernarg_size)});
  }
  return out + kernels.render();
}

std::string to_json(const DisassemblyReport &report) {
  std::string out;
  for (const auto &inst : report.instructions) {
    if (!out.empty()) out += '\n';
    out += json_line(instruction_json(inst));
  }
  return out;
}

std::string to_text(const DisassemblyReport &report) {
  const auto &code = report.code;
  const auto &insts = report.instructions;
  std::map<std::uint64_t, std::string> labels;
  for (const auto &k : code.kernels()) labels[k.entry] = k.name;
  std::string out = fmt::format("; {} ({})\n", code.origin(), code.target().processor);
  for (const auto &line : make_listing(insts, report.collapse_padding ? 2 : SIZE_MAX)) {
    const auto &inst = insts[line.first];
    if (auto it = labels.find(inst.address); it != labels.end())
      out += fmt::format("\n{:016x} <{}>:\n", inst.address, it->second);
    if (line.is_padding_run()) {
      const auto &last = insts[line.first + line.count - 1];
      out += fmt::format("  {:8x}:  s_code_end x {} (padding to {:#x})\n", inst.address, line.count,
                         last.address + last.size);
      continue;
    }
    std::string text = inst.text;
    if (inst.branch_target) text += fmt::format("  ; -> {:#x}", *inst.branch_target);
    out += fmt::format("  {:8x}:  {:<56} // {}\n", inst.address, text, inst.hex_words());
  }
  return out;
}

std::string to_json(const CfgReport &report) {
  const auto &cfg = report.cfg;
  json j = {{"kernel", report.name}, {"blocks", json::array()}, {"edges", json::array()}};
  for (const auto &b : cfg.blocks)
    j["blocks"].push_back({{"id", b.id},
                           {"start", b.start},
                           {"end", b.end},
                           {"instructions", b.count},
                           {"exit", b.is_exit},
                           {"indirect_exit", b.indirect_exit}});
  for (const auto &e : cfg.edges)
    j["edges"].push_back({{"from", e.from},
                          {"to", e.to},
                          {"kind", to_string(e.kind)},
                          {"back_edge", e.is_back_edge}});
  j["unresolved_targets"] = cfg.unresolved_targets;
  return json_line(j);
}

std::string to_text(const CfgReport &report) {
  const auto &cfg = report.cfg;
  std::string out =
      fmt::format("{}: {} blocks, {} edges\n", report.name, cfg.blocks.size(), cfg.edges.size());
  for (const auto &b : cfg.blocks) {
    std::string succ;
    for (const auto &e : cfg.edges)
      if (e.from == b.id)
        succ += fmt::format(" bb{}({}{})", e.to, to_string(e.kind), e.is_back_edge ? ", back" : "");
    if (b.is_exit) succ += " exit";
    if (b.indirect_exit) succ += " indirect(unknown)";
    out += fmt::format("  bb{:<3} {:#x}..{:#x}  {:3} insts ->{}\n", b.id, b.start, b.end, b.count,
                       succ);
  }
  return out;
}

std::string to_json(const AssemblyReport &report) {
  return json_line(
      json{{"target", report.target}, {"size", report.bytes.size()}, {"output", report.output}});
}

std::string to_text(const AssemblyReport &report) {
  if (!report.output.empty()) return {};
  const auto &bytes = report.bytes;
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 4) {
    std::uint32_t word = 0;
    for (std::size_t b = 0; b < 4 && i + b < bytes.size(); ++b)
      word |= std::uint32_t{bytes[i + b]} << (8 * b);
    out += fmt::format("{:08X}{}", word, (i / 4) % 8 == 7 ? "\n" : " ");
  }
  return out + '\n';
}

std::string describe(const AssemblyError &error, const std::string &file) {
  std::string all = fmt::format("{}: {}", file, error.what());
  for (const auto &d : error.diagnostics())
    all += fmt::format("\n{}:{}:{}: {}: {}", file, d.line, d.column,
                       d.is_error ? "error" : "warning", d.message);
  return all;
}

}  // namespace wavescope::compiler::isa
