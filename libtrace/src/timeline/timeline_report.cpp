#include "wavescope/trace/timeline/timeline_report.hpp"

#include <cstdint>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/base/text_table.hpp"

namespace wavescope::trace::timeline {

std::string to_json(const SeTimelineReport &report) {
  using nlohmann::json;
  const auto &tl = report.timeline;
  std::string out;
  const auto add = [&out](const json &j) {
    if (!out.empty()) out += '\n';
    out += json_line(j);
  };
  for (const auto &p : tl.clock)
    add({{"blob", tl.blob},
         {"kind", "point"},
         {"row", "LINE:Shader Clock"},
         {"name", "freq_hz"},
         {"value", p.freq_hz},
         {"ts", p.time}});
  for (const auto &row : tl.rows)
    for (const auto &e : row.events) {
      json j = {{"blob", tl.blob},
                {"kind", "range"},
                {"row", row.name},
                {"name", e.name},
                {"st", e.start},
                {"en", e.end},
                {"category", to_string(e.category)}};
      if (e.has_pc && row.kind == RowKind::WaveSlot)  // exec events reach the PC through "link"
        j["pc"] = e.pc;
      if (row.kind == RowKind::WaveSlot) j["idx"] = e.index;
      if (e.link_row >= 0)
        j["link"] = fmt::format("{}-{}", tl.rows[std::size_t(e.link_row)].name, e.link_index);
      add(j);
    }
  return out;
}

std::string to_text(const SeTimelineReport &report) {
  const auto &tl = report.timeline;
  std::string out =
      fmt::format("{} (SE {}, {}): {} rows, {} waves, {} clock points, cycles {}..{}\n",
                  report.blob.file_name, report.blob.se, report.blob.program, tl.rows.size(),
                  tl.waves.size(), tl.clock.size(), tl.begin, tl.end);
  if (tl.rows.empty()) return out;
  using Align = TextTable::Align;
  TextTable table({"row", "events", "busy cycles", "first", "last"},
                  {Align::Left, Align::Right, Align::Right, Align::Right, Align::Right});
  for (const auto &row : tl.rows) {
    std::int64_t busy = 0;
    for (const auto &e : row.events) busy += e.end - e.start;
    table.add_row({row.name, std::to_string(row.events.size()), std::to_string(busy),
                   std::to_string(row.events.front().start),
                   std::to_string(row.events.back().end)});
  }
  return out + table.render() + '\n';
}

}  // namespace wavescope::trace::timeline
