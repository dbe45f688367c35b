#pragma once
// The app-wide selection, shared by every view:
//  * the focus: which document and which thing inside it (kernel, shader engine, wave, rewrite
//    pass or step) the navigator points at, with back/forward history;
//  * the PC: an instruction chosen in any view (timeline bar, timing row, ISA line, CFG token)
//    becomes the selection in every view;
//  * the profile item: a span or a buffer of a profile (the timeline and memory views), or a
//    moment of it (a kernel run that left no span).

#include <QObject>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace wavescope::gui {

// The view steps VIZ lists after a kernel's linearize/render rewrite.
enum class ProgramPage : std::uint8_t { None, UOpList, Source, Disassembly };

struct Focus {
  int document = -1;
  int kernel = -1;  // kernel/program index within the document
  int shader_engine = -1;
  int wave = -1;
  int group = -1;  // rewrite trace: group (kernel/context), pass, step
  int pass = -1;
  int step = -1;
  // Rewrite trace: a view of the program the pass (a linearize/render) made instead of its graph
  // (VIZ's "View UOp List", "View Source", "View Disassembly").
  ProgramPage page = ProgramPage::None;
  bool operator==(const Focus &) const = default;
};

// A span, buffer or moment of a document's profile.
struct ProfileItem {
  int document = -1;
  int track = -1;    // index into the profile's tracks
  int span = -1;     // index into the track's spans, or -1
  int buffer = -1;   // index into a memory track's buffers, or -1
  qint64 time = -1;  // picoseconds: a moment (a kernel run without a span), or -1
  bool operator==(const ProfileItem &) const = default;
  bool is_span() const { return track >= 0 && span >= 0; }
  bool is_buffer() const { return track >= 0 && buffer >= 0; }
};

}  // namespace wavescope::gui

Q_DECLARE_METATYPE(wavescope::gui::Focus)
Q_DECLARE_METATYPE(wavescope::gui::ProfileItem)

namespace wavescope::gui {

class Selection : public QObject {
  Q_OBJECT
public:
  using QObject::QObject;

  const Focus &focus() const { return focus_; }
  std::optional<quint64> pc() const { return pc_; }
  // The instruction token (register or mnemonic) whose uses are highlighted, or empty.
  const QString &highlight() const { return highlight_; }
  bool can_go_back() const { return !back_.empty(); }
  bool can_go_forward() const { return !forward_.empty(); }

public Q_SLOTS:
  // Moves the focus (remembering the previous one for back()).
  void set_focus(const wavescope::gui::Focus &focus) {
    if (focus == focus_) return;
    back_.push_back(focus_);
    forward_.clear();
    apply(focus);
  }
  void back() {
    if (back_.empty()) return;
    forward_.push_back(focus_);
    const Focus previous = back_.back();
    back_.pop_back();
    apply(previous);
  }
  void forward() {
    if (forward_.empty()) return;
    back_.push_back(focus_);
    const Focus next = forward_.back();
    forward_.pop_back();
    apply(next);
  }
  // Selects an instruction address (once per change).
  void select_pc(quint64 pc) {
    if (pc_ == pc) return;
    pc_ = pc;
    Q_EMIT pc_selected(pc);
  }

  const ProfileItem &profile_item() const { return profile_item_; }
  // Selects a span, buffer or moment of a profile (once per change).
  void select_profile_item(const wavescope::gui::ProfileItem &item) {
    if (item == profile_item_) return;
    profile_item_ = item;
    Q_EMIT profile_item_selected(item);
  }
  // Asks the window to show a view (a link followed in another view).
  void reveal(const QString &view) { Q_EMIT reveal_requested(view); }

  // Highlights every use of a register or opcode token (empty clears); toggles off when repeated.
  void toggle_highlight(const QString &token) {
    highlight_ = token == highlight_ ? QString() : token;
    Q_EMIT highlight_changed(highlight_);
  }

Q_SIGNALS:
  void highlight_changed(const QString &token);
  void focus_changed(const wavescope::gui::Focus &focus);
  void pc_selected(quint64 pc);
  void profile_item_selected(const wavescope::gui::ProfileItem &item);
  void reveal_requested(const QString &view);

private:
  void apply(const Focus &focus) {
    focus_ = focus;
    pc_.reset();
    Q_EMIT focus_changed(focus_);
  }
  Focus focus_;
  std::optional<quint64> pc_;
  QString highlight_;
  ProfileItem profile_item_;
  std::vector<Focus> back_, forward_;
};

}  // namespace wavescope::gui
