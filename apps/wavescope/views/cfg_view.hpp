#pragma once
// The CFG view: the focused kernel's basic blocks laid out by Graphviz; edges colored taken
// (green), not-taken (red), unconditional (blue), fall-through (grey); block and instruction
// heat from the timing data; click an instruction to select it everywhere, click a register or
// opcode token to highlight all its uses. Ctrl+wheel or W/S zoom, drag pans, F fits.

#include <QGraphicsView>

#include <cstdint>
#include <map>
#include <vector>

namespace wavescope::gui {

class Selection;
class Workspace;
struct Focus;
struct KernelCode;
class CfgBlockItem;

class CfgView : public QGraphicsView {
  Q_OBJECT
public:
  CfgView(Workspace &workspace, Selection &selection, QWidget *parent = nullptr);
  void show_kernel(const KernelCode *kernel, const std::map<std::uint64_t, double> *heat);
  void fit();
  std::size_t block_count() const { return blocks_.size(); }

protected:
  void wheelEvent(QWheelEvent *event) override;
  void keyPressEvent(QKeyEvent *event) override;

private:
  void on_focus(const Focus &focus);
  void on_pc_selected(quint64 pc);
  Workspace &workspace_;
  Selection &selection_;
  std::vector<CfgBlockItem *> blocks_;
  const KernelCode *shown_ = nullptr;
  const std::map<std::uint64_t, double> *shown_heat_ = nullptr;
};

}  // namespace wavescope::gui
