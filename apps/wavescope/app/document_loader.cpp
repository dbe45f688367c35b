#include "app/document_loader.hpp"

#include <QFileInfo>

#include "app/capture_document.hpp"
#include "app/code_object_document.hpp"
#include "app/profile_document.hpp"
#include "app/rewrite_trace_document.hpp"
#include "wavescope/base/error.hpp"

namespace wavescope::gui {

std::shared_ptr<Document> load_document(const QString &path, const OpenOptions &options,
                                        const ProgressSink &progress) {
  switch (detect_document_kind(path)) {
  case DocumentKind::CodeObject:
    return load_code_object(path, options.target.isEmpty()
                                      ? std::nullopt
                                      : std::optional<std::string>(options.target.toStdString()));
  case DocumentKind::Capture:
    // A tinygrad profile pickle: a capture when it holds SQTT/PMC data, else a profile.
    if (!QFileInfo(path).isDir() && is_tinygrad_profile(path))
      return load_profile_or_capture(path, options, progress);
    return load_capture(path, options, progress);
  case DocumentKind::Profile: return load_profile(path);
  case DocumentKind::RewriteTrace: return load_rewrite_trace(path);
  case DocumentKind::SymbolicCases: return load_symbolic_cases(path, progress);
  case DocumentKind::Unknown: break;
  }
  if (QFileInfo(path).isDir())
    throw Error(ErrorKind::BadInput,
                path.toStdString() + ": a folder without meta.json, so not a capture folder");
  throw Error(ErrorKind::BadInput,
              path.toStdString() +
                  ": not a code object, capture folder, tinygrad profile, rewrite trace or "
                  "symbolic case file");
}

}  // namespace wavescope::gui
