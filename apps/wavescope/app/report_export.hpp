#pragma once
// The reports wavectl prints with --json for a document's file, from the same library calls and
// printers, so what the app exports equals what `wavectl --json ...` prints for that file:
// a capture's `sqtt stats`, `sqtt waves --instructions` and `sqtt insts`; a code object's
// `codeobj`; a profile's `profile info`.

#include <QString>

#include <string>
#include <vector>

#include "app/document.hpp"

namespace wavescope::gui {

struct ExportedReport {
  std::string name;  // "sqtt-stats", "sqtt-waves", "sqtt-insts", "codeobj", "profile-info"
  std::string json;  // as wavectl prints it: one JSON document or JSON lines, newline-ended
};

// The reports of `document` (none for kinds wavectl has no JSON report of). `target` is the
// processor for code objects whose header names none (the app's --target). Throws
// wavescope::Error as the library calls do.
std::vector<ExportedReport> document_reports(const Document &document, const QString &target = {});

// Writes each report to `folder`/<file name of the document>.<report name>.json atomically and
// returns the paths written.
std::vector<QString> export_reports(const Document &document, const QString &folder,
                                    const QString &target = {});

}  // namespace wavescope::gui
