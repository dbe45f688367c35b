#pragma once
// The CFG view: a kernel's basic blocks laid out by Graphviz, edges coloured taken (green),
// not-taken (red), unconditional (blue), fall-through (grey). Clicking an instruction selects it.

#include <QGraphicsView>

#include <vector>

namespace wavescope::gui {

class Selection;
struct KernelCode;
class CfgBlockItem;

class CfgView : public QGraphicsView {
  Q_OBJECT
public:
  explicit CfgView(Selection &selection, QWidget *parent = nullptr);
  void show_kernel(const KernelCode &kernel);
  void fit();
  std::size_t block_count() const { return blocks_.size(); }

protected:
  void wheelEvent(QWheelEvent *event) override;
  void keyPressEvent(QKeyEvent *event) override;

private:
  void on_pc_selected(quint64 pc);
  Selection &selection_;
  std::vector<CfgBlockItem *> blocks_;
};

}  // namespace wavescope::gui
