#pragma once
// Corpus captures opened once per test run, and their meta.json for the expected numbers.

#include <QJsonObject>

#include <filesystem>
#include <memory>
#include <vector>

#include "app/capture_document.hpp"

namespace wavescope::testing {

// The capture folder opened as the app opens it (cached: the document is immutable).
std::shared_ptr<const gui::CaptureDocument> open_corpus_capture(const std::filesystem::path &dir);
// The folder's meta.json.
QJsonObject read_meta(const std::filesystem::path &dir);
// The shader-engine trace of a blob by file name, nullptr if none.
const gui::ShaderEngineTrace *engine_of_blob(const gui::CaptureDocument &document,
                                             const std::string &file, int *kernel = nullptr,
                                             int *engine = nullptr);

}  // namespace wavescope::testing
