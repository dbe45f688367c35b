#pragma once
// Opening any supported path: picks the document kind and loads it (call off the GUI thread).

#include <QString>

#include <memory>

#include "app/document.hpp"
#include "wavescope/base/progress.hpp"

namespace wavescope::gui {

struct OpenOptions {
  // The processor for code objects whose ELF header names none (tinygrad packer ELFs), and for
  // captures whose device names no known gfx_target_version.
  QString target;
};

// Throws wavescope::Error with a message for the user when the path cannot be opened. Long
// loads (captures) report their stages to `progress`, from the calling thread.
std::shared_ptr<Document> load_document(const QString &path, const OpenOptions &options = {},
                                        const ProgressSink &progress = {});

}  // namespace wavescope::gui
