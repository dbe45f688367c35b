#pragma once
// The rewrite browser (spec/viz.md §2.2-§2.4): the UOp graph of the selected record of a pass on
// the left, and on the right the pass and step (rule name and where it is written, time), the
// pass's steps as a table, and tabs for the step's before/after diff, the clicked node's details,
// the group's rule statistics and the whole graph as text. A focus on one of VIZ's view steps
// after a kernel's linearize/render ("View UOp List", "View Source", "View Disassembly") shows that
// part of the program the rewrite made, highlighted, in place of the graph.
//
// Keys (in the graph): ←/→ previous/next step, ↑/↓ previous/next pass, F or Space fit, W/S zoom,
// Esc clears the node selection. The view follows the app's focus on a rewrite trace; when the
// focus moves to another kind of document it keeps showing the trace it showed last.
//
// Graphs are laid out on a worker thread for large traces (synchronously for small ones, which
// lay out in milliseconds) and cached, so stepping back and forth is instant.

#include <QList>
#include <QWidget>

#include <map>
#include <tuple>

#include "models/rewrite_graph.hpp"
#include "models/rewrite_navigation.hpp"
#include "views/program_page_view.hpp"
#include "views/rewrite_graph_layout.hpp"
#include "views/rewrite_graph_loader.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QSplitter;
class QStackedWidget;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QToolButton;

namespace wavescope::gui {

class RewriteGraphView;
class RewriteNodeModel;
class RewriteRulesModel;
class RewriteStepsModel;
class RewriteTraceDocument;
class Selection;
class Workspace;

class RewriteView : public QWidget {
  Q_OBJECT
public:
  RewriteView(Workspace &workspace, Selection &selection, QWidget *parent = nullptr);

  // The trace on show (nullptr: none yet) and the record of it.
  const RewriteTraceDocument *document() const;
  int document_index() const { return document_index_; }
  const RewritePosition &position() const { return position_; }

  // ←/→ and ↑/↓: move the app's focus by steps within the pass, or by passes.
  void step(int delta);
  void move_pass(int delta);
  // Moves to the next step (after the current one, wrapping) that applied `rule` in this group.
  bool jump_to_rule(const QString &rule);

  void set_fold_constants(bool fold);
  void set_show_all_nodes(bool all);
  // Which way graphs flow. Auto picks, per pass, the direction in which its graph shows largest
  // in the pane.
  enum class DirectionMode { Auto, TopToBottom, LeftToRight };
  void set_direction_mode(DirectionMode mode);
  GraphDirection direction() const { return wanted_.direction; }
  // Traces with more nodes than this lay out on a worker thread; smaller ones lay out on the GUI
  // thread in milliseconds, without a "laying out" flash. Default 1000.
  void set_background_layout_threshold(std::size_t nodes);
  // Runs the event loop until the graph on show is laid out (tests, screenshots).
  void wait_for_layout();
  // Waits for a layout running on a worker without the event loop (teardown: it reads a document).
  void join_layout();
  bool layout_pending() const;

  RewriteGraphView &graph_view() { return *graph_; }
  RewriteStepsModel &steps_model() { return *steps_model_; }
  RewriteNodeModel &node_model() { return *node_model_; }
  RewriteRulesModel &rules_model() { return *rules_model_; }
  // The plain text of the diff tab, the graph tab and the header (tests).
  QString diff_text() const;
  QString graph_text() const;
  QString header_text() const;
  // The view step on show in place of the graph (None: the graph), and its text.
  ProgramPage shown_page() const;
  QString page_text() const;
  ProgramPageView &program_view() { return *program_view_; }
  // False while a view step is on show: the pass's steps and the tabs are hidden.
  bool inspecting_steps() const;
  // The widths of the graph (or view step) and of the inspector.
  QList<int> split_sizes() const;

private:
  void on_focus(const Focus &focus);
  void on_document_added(int index);
  void show_position(int document, const RewritePosition &position);
  void show_program(int document, int group, int pass, ProgramPage page);
  void update_inspector();
  void update_diff();
  void request_graph(bool refit);
  GraphDirection choose_direction(const RewriteGraphKey &key);
  void present(const RewriteGraphKey &key, const LaidOutRewriteGraph &graph, bool refit);
  void on_node_clicked(int index);
  void show_node_facts(const compiler::UOp &node, RewriteNodeMark mark);
  Focus current_focus() const;

  Workspace &workspace_;
  Selection &selection_;
  int document_index_ = -1;
  RewritePosition position_;
  compiler::UOp shown_graph_;  // the record's whole graph (null when it cannot be replayed)
  RewriteGraphOptions options_;

  RewriteGraphView *graph_;
  QSplitter *split_;             // the graph (or a view step) | the inspector
  QList<int> graph_sizes_;       // the split's sizes for a graph, while a view step is shown
  QStackedWidget *graph_stack_;  // the graph, or a view step of the program
  ProgramPageView *program_view_;
  QLabel *header_;
  QLabel *position_label_;
  QToolButton *prev_step_, *next_step_, *prev_pass_, *next_pass_;
  QCheckBox *fold_constants_, *all_nodes_;
  QComboBox *direction_box_;
  QTableView *steps_table_;
  QTabWidget *tabs_;
  QPlainTextEdit *diff_;
  QPlainTextEdit *graph_text_;
  QTableView *node_table_;
  QTableView *rules_table_;
  RewriteStepsModel *steps_model_;
  RewriteNodeModel *node_model_;
  RewriteRulesModel *rules_model_;
  QSortFilterProxyModel *rules_sorted_;

  RewriteGraphLoader *loader_;
  RewriteGraphKey wanted_;  // the graph on show, or on its way
  bool pending_refit_ = false;
  DirectionMode direction_mode_ = DirectionMode::Auto;
  std::map<std::tuple<int, int, int>, GraphDirection> pass_direction_;  // Auto's choices
};

}  // namespace wavescope::gui
