#pragma once
// The UOp graph of one rewrite record, drawn from a RewriteGraph and its layout: boxes filled by
// op (legend bottom left, or in a corner free of nodes), the step's result and created nodes
// outlined in orange with a glow, rebuilt ancestors dashed; a clicked node outlines its sources
// green and its consumers pink. Ctrl+wheel or W/S zoom, drag pans, F or Space fits; ←/→ and ↑/↓ are
// passed on as step and pass moves.

#include <QBrush>
#include <QGraphicsView>
#include <QPen>
#include <QString>

#include <memory>
#include <vector>

#include "layout/graph_layout.hpp"
#include "models/rewrite_graph.hpp"

namespace wavescope::gui {

class RewriteNodeItem;
class RewriteEdgeItem;

class RewriteGraphView : public QGraphicsView {
  Q_OBJECT
public:
  explicit RewriteGraphView(QWidget *parent = nullptr);

  // Shows a laid-out graph. `refit`: fit it to the view even if the user has zoomed.
  void show_graph(std::shared_ptr<const RewriteGraph> graph,
                  std::shared_ptr<const GraphLayout> layout, bool refit);
  // Clears the graph and shows a message in its place (empty pass, replay error).
  void show_message(const QString &message);
  // A note over the graph (e.g. that a new layout is being computed); empty clears it.
  void set_busy_note(const QString &note);
  // A line of context drawn at the top left (position, node counts).
  void set_caption(const QString &caption);

  const RewriteGraph *graph() const { return graph_.get(); }
  const QString &message() const { return message_; }
  // Selects a node (its sources and consumers outlined); -1 clears.
  void select_node(int index);
  int selected_node() const { return selected_; }
  // The scene rectangle of a drawn node (tests, centring).
  QRectF node_rect(int index) const;

  // Fits the whole graph (F, Space, the Fit button).
  void fit();
  // What the view does by itself until the user zooms: the whole graph when it is readable that
  // way, else the step's change at a readable scale (the minimap shows the rest).
  void auto_fit();
  void zoom(double factor);
  // True when part of the graph is outside the view (the minimap shows).
  bool shows_part() const;
  // Where the legend is drawn, in viewport pixels (empty without a graph).
  QRectF legend_area() const;

signals:
  void node_clicked(int index);  // -1: the background
  void step_requested(int delta);
  void pass_requested(int delta);

protected:
  void wheelEvent(QWheelEvent *event) override;
  void keyPressEvent(QKeyEvent *event) override;
  void mousePressEvent(QMouseEvent *event) override;
  void resizeEvent(QResizeEvent *event) override;
  void drawForeground(QPainter *painter, const QRectF &rect) override;

private:
  struct LegendEntry {
    QString text;
    QBrush fill;
    QPen pen;
  };
  std::vector<LegendEntry> legend_entries() const;
  void draw_legend(QPainter &painter) const;
  // Where a legend panel of this size is drawn, in viewport pixels, and how many nodes it hides
  // there.
  QRectF legend_rect(const QSizeF &size, std::size_t *nodes_covered = nullptr) const;
  void draw_minimap(QPainter &painter) const;
  QRectF minimap_rect() const;  // in viewport pixels; empty when there is no minimap
  double fit_scale(const QRectF &scene_rect) const;

  std::shared_ptr<const RewriteGraph> graph_;
  std::shared_ptr<const GraphLayout> layout_;
  std::vector<RewriteNodeItem *> nodes_;
  std::vector<RewriteEdgeItem *> edges_;
  QString message_, busy_note_, caption_;
  int selected_ = -1;
  bool user_zoomed_ = false;  // until the user zooms, the graph is kept fitted
};

}  // namespace wavescope::gui
