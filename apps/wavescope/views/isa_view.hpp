#pragma once
// The ISA view: the focused kernel's disassembly with syntax colors, s_code_end padding
// collapsed, timing heat in the margin, branch targets followable (double-click or Enter; back
// with Backspace), Ctrl+F search, and click-a-register-or-opcode to highlight its uses.

#include <QWidget>

#include <vector>

class QLabel;
class QLineEdit;
class QTableView;

namespace wavescope::gui {

class DisassemblyModel;
class Selection;
class Workspace;
struct Focus;
struct KernelCode;

class IsaView : public QWidget {
  Q_OBJECT
public:
  IsaView(Workspace &workspace, Selection &selection, QWidget *parent = nullptr);
  DisassemblyModel &model() { return *model_; }

  // Moves to the branch target of the current row, remembering where we came from.
  bool follow_branch();
  bool go_back();
  // Selects the next (or previous) row whose text contains the search string; false if none.
  bool find_next(bool backwards = false);
  void set_search(const QString &text);
  int match_count() const;

protected:
  bool eventFilter(QObject *watched, QEvent *event) override;

private:
  void on_focus(const Focus &focus);
  void on_pc_selected(quint64 pc);
  void update_match_label();

  Workspace &workspace_;
  Selection &selection_;
  DisassemblyModel *model_;
  QTableView *table_;
  QLabel *title_;
  QLineEdit *search_;
  QLabel *matches_;
  QString search_text_holder_;  // the delegate reads it while painting
  std::vector<quint64> history_;
};

}  // namespace wavescope::gui
