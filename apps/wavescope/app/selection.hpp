#pragma once
// The app-wide selection: a PC chosen in any view becomes the selection in every view.

#include <QObject>

#include <optional>

namespace wavescope::gui {

class Selection : public QObject {
  Q_OBJECT
public:
  using QObject::QObject;
  std::optional<quint64> pc() const { return pc_; }

public slots:
  // Selects `pc` and tells every view (once per change).
  void select_pc(quint64 pc) {
    if (pc_ == pc) return;
    pc_ = pc;
    emit pc_selected(pc);
  }

signals:
  void pc_selected(quint64 pc);

private:
  std::optional<quint64> pc_;
};

}  // namespace wavescope::gui
