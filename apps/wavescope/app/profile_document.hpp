#pragma once
// An opened profile (a tinygrad profile pickle without SQTT, a Chrome/Perfetto trace JSON): the
// library's profile model, read off the GUI thread, shown by the timeline and memory views.

#include <QString>

#include <memory>

#include "app/document.hpp"
#include "app/document_loader.hpp"
#include "wavescope/base/progress.hpp"
#include "wavescope/trace/profile/profile.hpp"

namespace wavescope::gui {

class ProfileDocument final : public Document {
public:
  DocumentKind kind() const override { return DocumentKind::Profile; }
  const trace::profile::Profile *profile() const override { return profile_data.get(); }
  std::shared_ptr<const trace::profile::Profile> profile_data;
};

// True when the file starts like a tinygrad profile pickle.
bool is_tinygrad_profile(const QString &path);
// Opens any profile file as a ProfileDocument. Throws wavescope::Error naming the file.
std::shared_ptr<ProfileDocument> load_profile(const QString &path);
// A tinygrad profile pickle: its capture (with the profile attached) when it holds SQTT/PMC
// events, else the profile alone.
std::shared_ptr<Document> load_profile_or_capture(const QString &path, const OpenOptions &options,
                                                  const ProgressSink &progress);

}  // namespace wavescope::gui
