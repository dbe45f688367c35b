#include "app/report_export.hpp"

#include <QFileInfo>

#include <filesystem>
#include <sstream>

#include "wavescope/base/atomic_file.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/isa_report.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/profile/open_profile.hpp"
#include "wavescope/trace/profile/profile_summary.hpp"
#include "wavescope/trace/timeline/capture_stats.hpp"
#include "wavescope/trace/timeline/instruction_stats.hpp"
#include "wavescope/trace/timeline/waves_report.hpp"

namespace wavescope::gui {
namespace {

// What wavectl's print_report writes with --json: the printer's lines and a newline.
template <typename Report> std::string json_lines(const Report &report) {
  const std::string lines = to_json(report);
  return lines.empty() ? lines : lines + '\n';
}

std::filesystem::path path_of(const QString &path) { return path.toStdString(); }

}  // namespace

std::vector<ExportedReport> document_reports(const Document &document, const QString &target) {
  using namespace trace::timeline;
  switch (document.kind()) {
  case DocumentKind::Capture: {
    const auto capture = trace::Capture::open(path_of(document.path));
    return {{"sqtt-stats", json_lines(collect_capture_stats(capture))},
            {"sqtt-waves", json_lines(WavesReport{collect_waves(capture, {}), true})},
            {"sqtt-insts", json_lines(collect_instruction_stats(capture, {}))}};
  }
  case DocumentKind::CodeObject: {
    compiler::isa::CodeObjectOptions options;
    if (!target.isEmpty()) options.target = target.toStdString();
    const auto code = compiler::isa::CodeObject::load(path_of(document.path), options);
    return {{"codeobj", json_lines(compiler::isa::CodeObjectReport{code})}};
  }
  case DocumentKind::Profile: {
    std::ostringstream out;
    trace::profile::print_summary_json(
        out, trace::profile::summarize(trace::profile::open_profile(path_of(document.path))));
    return {{"profile-info", out.str()}};
  }
  default: return {};
  }
}

std::vector<QString> export_reports(const Document &document, const QString &folder,
                                    const QString &target) {
  const QString stem = QFileInfo(document.path).fileName();
  std::vector<QString> written;
  for (const auto &report : document_reports(document, target)) {
    const QString file = folder + '/' + stem + '.' + QString::fromStdString(report.name) + ".json";
    write_file_atomically(path_of(file), std::string_view(report.json));
    written.push_back(file);
  }
  return written;
}

}  // namespace wavescope::gui
