#pragma once
// Opening any supported path: picks the document kind and loads it (call off the GUI thread).

#include <QString>

#include <memory>

#include "app/document.hpp"

namespace wavescope::gui {

struct OpenOptions {
  // The processor for code objects whose ELF header names none (tinygrad packer ELFs).
  QString target;
};

// Throws wavescope::Error with a message for the user when the path cannot be opened.
std::shared_ptr<Document> load_document(const QString &path, const OpenOptions &options = {});

}  // namespace wavescope::gui
