#pragma once
// The ISA view: one kernel's disassembly, coloured by instruction category, padding collapsed,
// branch targets followable (double-click or Enter) with back navigation.

#include <QWidget>

#include <vector>

class QLabel;
class QTableView;

namespace wavescope::gui {

class DisassemblyModel;
class Selection;
struct KernelCode;

class IsaView : public QWidget {
  Q_OBJECT
public:
  IsaView(Selection &selection, QWidget *parent = nullptr);
  void show_kernel(const QString &title, const KernelCode &kernel);
  DisassemblyModel &model() { return *model_; }

  // Moves to the branch target of the current row, remembering where we came from.
  bool follow_branch();
  bool go_back();

private:
  void on_pc_selected(quint64 pc);
  Selection &selection_;
  DisassemblyModel *model_;
  QTableView *table_;
  QLabel *title_;
  std::vector<quint64> history_;
};

}  // namespace wavescope::gui
