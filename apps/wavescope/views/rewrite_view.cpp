#include "views/rewrite_view.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>

#include "app/rewrite_trace_document.hpp"
#include "app/selection.hpp"
#include "app/theme.hpp"
#include "app/workspace.hpp"
#include "models/rewrite_node_model.hpp"
#include "models/rewrite_rules_model.hpp"
#include "models/rewrite_steps_model.hpp"
#include "models/rewrite_text.hpp"
#include "views/rewrite_graph_layout.hpp"
#include "views/rewrite_graph_view.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/rewrite/program_views.hpp"
#include "wavescope/compiler/rewrite/rewrite_contexts.hpp"

namespace wavescope::gui {

namespace {

// The inspector's width beside a view step: its header alone.
constexpr int kPageInspectorWidth = 300;

QString html(const std::string &text) { return QString::fromStdString(text).toHtmlEscaped(); }

QString nothing_open_message() {
  return QObject::tr(
      "Open a rewrite trace (wavectl simplify EXPR --trace trace.json) or a symbolic "
      "case file (.jsonl) to step through its rewrites.");
}

QColor added_color() { return QColor(0x3a, 0xa5, 0x6d); }    // VIZ's diff green
QColor removed_color() { return QColor(0xd1, 0x4b, 0x4b); }  // VIZ's diff red

// Appends one line to a text panel in a color (invalid: the default) and optionally bold.
void append_line(QPlainTextEdit &edit, const QString &text, const QColor &color = {},
                 bool bold = false) {
  QTextCursor cursor(edit.document());
  cursor.movePosition(QTextCursor::End);
  if (!edit.document()->isEmpty()) cursor.insertBlock();
  QTextCharFormat format;
  if (color.isValid()) format.setForeground(color);
  if (bold) format.setFontWeight(QFont::Bold);
  cursor.insertText(text, format);
}

QPlainTextEdit *make_text_panel(QWidget *parent) {
  auto *edit = new QPlainTextEdit(parent);
  edit->setReadOnly(true);
  edit->setLineWrapMode(QPlainTextEdit::NoWrap);
  edit->setFont(theme::monospace_font(9));
  edit->setFrameShape(QFrame::NoFrame);
  return edit;
}

QTableView *make_table(QAbstractItemModel *model, QWidget *parent) {
  auto *table = new QTableView(parent);
  table->setModel(model);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setSelectionMode(QAbstractItemView::SingleSelection);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->verticalHeader()->hide();
  table->verticalHeader()->setDefaultSectionSize(20);
  table->setShowGrid(false);
  table->setWordWrap(false);
  table->setFrameShape(QFrame::NoFrame);
  table->horizontalHeader()->setHighlightSections(false);
  return table;
}

QToolButton *make_button(const QString &text, const QString &tip, QWidget *parent) {
  auto *button = new QToolButton(parent);
  button->setText(text);
  button->setToolTip(tip);
  button->setAutoRaise(true);
  button->setFocusPolicy(Qt::NoFocus);
  return button;
}

// "family: name" -> {family, name}; a rule without a family is all name.
std::pair<QString, QString> split_rule(const std::string &rule) {
  const auto colon = rule.find(": ");
  if (colon == std::string::npos) return {{}, QString::fromStdString(rule)};
  return {QString::fromStdString(rule.substr(0, colon)),
          QString::fromStdString(rule.substr(colon + 2))};
}

}  // namespace

RewriteView::RewriteView(Workspace &workspace, Selection &selection, QWidget *parent)
    : QWidget(parent), workspace_(workspace), selection_(selection),
      graph_(new RewriteGraphView(this)), graph_stack_(new QStackedWidget(this)),
      program_view_(new ProgramPageView(this)), header_(new QLabel(this)),
      position_label_(new QLabel(this)), steps_model_(new RewriteStepsModel(this)),
      node_model_(new RewriteNodeModel(this)), rules_model_(new RewriteRulesModel(this)),
      rules_sorted_(new QSortFilterProxyModel(this)), loader_(new RewriteGraphLoader(this)) {
  rewrite_node_fonts();  // created on the GUI thread before any layout job measures with them

  // Tool row: step and pass moves, where we are, graph options.
  prev_step_ = make_button(QStringLiteral("\u25c0"), tr("Previous step (\u2190)"), this);
  next_step_ = make_button(QStringLiteral("\u25b6"), tr("Next step (\u2192)"), this);
  prev_pass_ = make_button(QStringLiteral("\u25b2"), tr("Previous pass (\u2191)"), this);
  next_pass_ = make_button(QStringLiteral("\u25bc"), tr("Next pass (\u2193)"), this);
  auto *fit = make_button(tr("Fit"), tr("Fit the graph (F, Space)"), this);
  fold_constants_ = new QCheckBox(tr("Fold constants"), this);
  fold_constants_->setToolTip(tr("Show constants inside the nodes that use them"));
  fold_constants_->setChecked(options_.fold_constants);
  fold_constants_->setFocusPolicy(Qt::NoFocus);
  all_nodes_ = new QCheckBox(tr("All nodes"), this);
  all_nodes_->setToolTip(tr("Large graphs show the neighbourhood of the change; this shows all"));
  all_nodes_->setFocusPolicy(Qt::NoFocus);
  direction_box_ = new QComboBox(this);
  direction_box_->addItems({tr("Auto layout"), tr("Top down"), tr("Left to right")});
  direction_box_->setToolTip(tr("Which way the graph flows (Auto: whichever shows it larger)"));
  direction_box_->setFocusPolicy(Qt::NoFocus);
  position_label_->setTextFormat(Qt::PlainText);
  auto *tools = new QHBoxLayout;
  tools->setContentsMargins(6, 2, 6, 2);
  tools->setSpacing(2);
  for (QWidget *w : {static_cast<QWidget *>(prev_pass_), static_cast<QWidget *>(next_pass_),
                     static_cast<QWidget *>(prev_step_), static_cast<QWidget *>(next_step_)})
    tools->addWidget(w);
  tools->addSpacing(8);
  tools->addWidget(position_label_, 1);
  tools->addWidget(fold_constants_);
  tools->addSpacing(8);
  tools->addWidget(all_nodes_);
  tools->addSpacing(8);
  tools->addWidget(direction_box_);
  tools->addSpacing(4);
  tools->addWidget(fit);

  // Inspector: header, steps, tabs.
  header_->setTextFormat(Qt::RichText);
  header_->setWordWrap(true);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  header_->setContentsMargins(8, 6, 8, 6);
  header_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  steps_table_ = make_table(steps_model_, this);
  steps_table_->horizontalHeader()->setSectionResizeMode(RewriteStepsModel::RuleColumn,
                                                         QHeaderView::Stretch);
  steps_table_->horizontalHeader()->setSectionResizeMode(RewriteStepsModel::IndexColumn,
                                                         QHeaderView::ResizeToContents);
  steps_table_->horizontalHeader()->setSectionResizeMode(RewriteStepsModel::LocationColumn,
                                                         QHeaderView::ResizeToContents);
  steps_table_->horizontalHeader()->setSectionResizeMode(RewriteStepsModel::TimeColumn,
                                                         QHeaderView::ResizeToContents);
  diff_ = make_text_panel(this);
  graph_text_ = make_text_panel(this);
  node_table_ = make_table(node_model_, this);
  node_table_->horizontalHeader()->setStretchLastSection(true);
  node_table_->horizontalHeader()->setSectionResizeMode(RewriteNodeModel::PropertyColumn,
                                                        QHeaderView::ResizeToContents);
  rules_sorted_->setSourceModel(rules_model_);
  rules_sorted_->setSortRole(RewriteRulesModel::SortRole);
  rules_table_ = make_table(rules_sorted_, this);
  rules_table_->setSortingEnabled(true);
  rules_table_->sortByColumn(RewriteRulesModel::HitsColumn, Qt::DescendingOrder);
  rules_table_->horizontalHeader()->setSectionResizeMode(RewriteRulesModel::RuleColumn,
                                                         QHeaderView::Stretch);
  rules_table_->setToolTip(tr("Double-click a rule to go to its next application"));
  tabs_ = new QTabWidget(this);
  tabs_->setDocumentMode(true);
  tabs_->addTab(diff_, tr("Diff"));
  tabs_->addTab(node_table_, tr("Node"));
  tabs_->addTab(rules_table_, tr("Rules"));
  tabs_->addTab(graph_text_, tr("Graph text"));

  auto *inspector = new QSplitter(Qt::Vertical, this);
  inspector->addWidget(header_);
  inspector->addWidget(steps_table_);
  inspector->addWidget(tabs_);
  inspector->setStretchFactor(0, 0);
  inspector->setStretchFactor(1, 2);
  inspector->setStretchFactor(2, 3);
  inspector->setChildrenCollapsible(false);

  graph_stack_->addWidget(graph_);
  graph_stack_->addWidget(program_view_);

  split_ = new QSplitter(Qt::Horizontal, this);
  split_->addWidget(graph_stack_);
  split_->addWidget(inspector);
  split_->setStretchFactor(0, 3);
  split_->setStretchFactor(1, 2);
  split_->setSizes({780, 480});

  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addLayout(tools);
  layout->addWidget(split_, 1);
  setFocusProxy(graph_);

  connect(prev_step_, &QToolButton::clicked, this, [this] { step(-1); });
  connect(next_step_, &QToolButton::clicked, this, [this] { step(1); });
  connect(prev_pass_, &QToolButton::clicked, this, [this] { move_pass(-1); });
  connect(next_pass_, &QToolButton::clicked, this, [this] { move_pass(1); });
  connect(fit, &QToolButton::clicked, graph_, &RewriteGraphView::fit);
  connect(fold_constants_, &QCheckBox::toggled, this, &RewriteView::set_fold_constants);
  connect(all_nodes_, &QCheckBox::toggled, this, &RewriteView::set_show_all_nodes);
  connect(direction_box_, &QComboBox::currentIndexChanged, this,
          [this](int index) { set_direction_mode(static_cast<DirectionMode>(index)); });
  connect(graph_, &RewriteGraphView::step_requested, this, &RewriteView::step);
  connect(graph_, &RewriteGraphView::pass_requested, this, &RewriteView::move_pass);
  connect(graph_, &RewriteGraphView::node_clicked, this, &RewriteView::on_node_clicked);
  connect(steps_table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex &current) {
            if (current.isValid() && position_.valid() && current.row() != position_.record)
              selection_.set_focus(
                  focus_of(document_index_, {position_.group, position_.pass, current.row()}));
          });
  connect(rules_table_, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
    jump_to_rule(index.siblingAtColumn(RewriteRulesModel::RuleColumn).data().toString());
  });
  connect(&selection_, &Selection::focus_changed, this, &RewriteView::on_focus);
  connect(&workspace_, &Workspace::document_added, this, &RewriteView::on_document_added);
  connect(loader_, &RewriteGraphLoader::ready, this, [this](const RewriteGraphKey &key) {
    if (!(key == wanted_)) return;
    if (const LaidOutRewriteGraph *graph = loader_->cached(key))
      present(key, *graph, pending_refit_);
    pending_refit_ = false;
  });

  graph_->show_message(nothing_open_message());
  update_inspector();
}

const RewriteTraceDocument *RewriteView::document() const {
  return dynamic_cast<const RewriteTraceDocument *>(workspace_.document(document_index_));
}

Focus RewriteView::current_focus() const {
  const Focus &focus = selection_.focus();
  if (focus.document == document_index_ && document_index_ >= 0) return focus;
  return focus_of(document_index_, position_);
}

void RewriteView::on_focus(const Focus &focus) {
  const auto *doc = dynamic_cast<const RewriteTraceDocument *>(workspace_.document(focus.document));
  // Another kind of document: keep the trace on show.
  if (!doc) return;
  if (focus.page != ProgramPage::None) {
    show_program(focus.document, focus.group, focus.pass, focus.page);
    return;
  }
  graph_stack_->setCurrentWidget(graph_);
  steps_table_->show();
  tabs_->show();
  if (!graph_sizes_.isEmpty()) split_->setSizes(std::exchange(graph_sizes_, {}));
  show_position(focus.document, resolve_position(*doc, focus));
}

void RewriteView::show_program(int document, int group, int pass, ProgramPage page) {
  document_index_ = document;
  const RewriteTraceDocument *doc = this->document();
  using compiler::rewrite::ProgramView;
  const ProgramView view = page == ProgramPage::UOpList       ? ProgramView::UOpList
                           : page == ProgramPage::Disassembly ? ProgramView::Disassembly
                                                              : ProgramView::Source;
  const auto text = doc ? doc->program_page(group, pass, view) : std::nullopt;
  const auto *g = doc ? doc->group(group) : nullptr;
  const QString kernel = g ? QString::fromStdString(strip_ansi(g->name)) : QString();
  program_view_->show_page(page, kernel,
                           text ? std::optional(QString::fromStdString(*text)) : std::nullopt,
                           QString::fromStdString(compiler::rewrite::missing_part_text(view)));
  graph_stack_->setCurrentWidget(program_view_);
  // As VIZ's right pane beside a view step, the inspector keeps only its header, and gives the
  // text (a UOp list is wide) the room it does not need; coming back to a graph restores it.
  steps_table_->hide();
  tabs_->hide();
  const QList<int> sizes = split_->sizes();
  if (graph_sizes_.isEmpty() && sizes.size() == 2 && sizes[1] > kPageInspectorWidth) {
    graph_sizes_ = sizes;
    split_->setSizes({sizes[0] + sizes[1] - kPageInspectorWidth, kPageInspectorWidth});
  }
  // As in VIZ the inspector has nothing to say about a view step; coming back shows the pass
  // anew.
  position_ = {};
  steps_model_->set_pass(nullptr);
  diff_->clear();
  graph_text_->clear();
  node_model_->set_node({});
  for (QToolButton *b : {prev_step_, next_step_, prev_pass_, next_pass_}) b->setEnabled(false);
  header_->setText(tr("<div style='font-size:11pt'><b>%1</b> <span style='color:%2'>"
                      "of</span> %3</div><div style='color:%2'>%4</div>")
                       .arg(program_page_name(page), theme::muted_text().name(),
                            html(kernel.toStdString()),
                            page == ProgramPage::UOpList
                                ? tr("the linearized list of the program linearize/render made")
                            : page == ProgramPage::Disassembly
                                ? tr("the code object linearize/render compiled")
                                : tr("the program rendered by linearize/render")));
  position_label_->setText(program_page_name(page));
}

bool RewriteView::inspecting_steps() const { return !tabs_->isHidden(); }

QList<int> RewriteView::split_sizes() const { return split_->sizes(); }

ProgramPage RewriteView::shown_page() const {
  return graph_stack_->currentWidget() == program_view_ ? program_view_->page() : ProgramPage::None;
}

QString RewriteView::page_text() const {
  return shown_page() != ProgramPage::None ? program_view_->text() : QString();
}

void RewriteView::on_document_added(int index) {
  // The first trace opened shows here even while the app's focus is elsewhere.
  if (document_index_ >= 0) return;
  const auto *doc = dynamic_cast<const RewriteTraceDocument *>(workspace_.document(index));
  if (!doc) return;
  Focus focus;
  focus.document = index;
  show_position(index, resolve_position(*doc, focus));
}

void RewriteView::step(int delta) {
  if (const RewriteTraceDocument *doc = document())
    selection_.set_focus(step_focus(*doc, current_focus(), delta));
}

void RewriteView::move_pass(int delta) {
  if (const RewriteTraceDocument *doc = document())
    selection_.set_focus(pass_focus(*doc, current_focus(), delta));
}

bool RewriteView::jump_to_rule(const QString &rule) {
  const RewriteTraceDocument *doc = document();
  if (!doc || !position_.valid()) return false;
  const std::string wanted = rule.toStdString();
  // Every (pass, record) of the group in order, starting after the one on show.
  std::vector<RewritePosition> order;
  for (int p = 0; p < doc->pass_count(position_.group); ++p) {
    const auto &steps = doc->pass(position_.group, p)->steps;
    for (std::size_t s = 0; s < steps.size(); ++s)
      if (compiler::rewrite::rule_title(steps[s]) == wanted)
        order.push_back({position_.group, p, static_cast<int>(s) + 1});
  }
  if (order.empty()) return false;
  const auto here = std::tie(position_.pass, position_.record);
  auto next = std::find_if(order.begin(), order.end(), [&](const RewritePosition &p) {
    return std::tie(p.pass, p.record) > here;
  });
  selection_.set_focus(focus_of(document_index_, next == order.end() ? order.front() : *next));
  return true;
}

void RewriteView::set_fold_constants(bool fold) {
  if (fold_constants_->isChecked() != fold) fold_constants_->setChecked(fold);
  if (options_.fold_constants == fold) return;
  options_.fold_constants = fold;
  request_graph(true);
}

void RewriteView::set_show_all_nodes(bool all) {
  if (all_nodes_->isChecked() != all) all_nodes_->setChecked(all);
  const std::size_t max_nodes = all ? 0 : RewriteGraphOptions{}.max_nodes;
  if (options_.max_nodes == max_nodes) return;
  options_.max_nodes = max_nodes;
  request_graph(true);
}

void RewriteView::show_position(int document, const RewritePosition &position) {
  const bool new_pass = document != document_index_ || position.group != position_.group ||
                        position.pass != position_.pass;
  const bool new_group = document != document_index_ || position.group != position_.group;
  document_index_ = document;
  position_ = position;
  const RewriteTraceDocument *doc = this->document();
  if (new_pass) steps_model_->set_pass(doc ? doc->pass(position.group, position.pass) : nullptr);
  if (new_group) rules_model_->set_group(doc ? doc->group(position.group) : nullptr);
  update_inspector();
  request_graph(new_pass || position.record == 0);
}

void RewriteView::update_inspector() {
  const RewriteTraceDocument *doc = document();
  const auto *pass = doc ? doc->pass(position_.group, position_.pass) : nullptr;
  const int steps = pass ? static_cast<int>(pass->steps.size()) : 0;
  const int passes = doc ? static_cast<int>(doc->passes().size()) : 0;
  const int pass_index = doc && pass ? doc->pass_position({position_.group, position_.pass}) : -1;
  prev_step_->setEnabled(pass && position_.record > 0);
  next_step_->setEnabled(pass && position_.record < steps);
  prev_pass_->setEnabled(pass && pass_index > 0);
  next_pass_->setEnabled(pass && pass_index + 1 < passes);

  if (!pass) {
    position_label_->setText(doc ? tr("no rewrites in this group") : QString());
    header_->setText(doc ? tr("<b>%1</b><br>This group recorded no rewrites.")
                               .arg(doc->group(position_.group)
                                        ? html(strip_ansi(doc->group(position_.group)->name))
                                        : QString())
                         : tr("No rewrite trace open."));
    diff_->clear();
    graph_text_->clear();
    node_model_->set_node({});
    return;
  }
  position_label_->setText(tr("pass %1/%2  \u00b7  %3  \u00b7  %4")
                               .arg(pass_index + 1)
                               .arg(passes)
                               .arg(QString::fromStdString(strip_ansi(pass->name)),
                                    position_.record == 0
                                        ? (steps == 1 ? tr("input graph (1 step)")
                                                      : tr("input graph (%1 steps)").arg(steps))
                                        : tr("step %1/%2").arg(position_.record).arg(steps)));
  if (QModelIndex row = steps_model_->index(position_.record, 0); row.isValid()) {
    steps_table_->setCurrentIndex(row);
    steps_table_->scrollTo(row);
  }

  const QString muted = theme::muted_text().name();
  QString text =
      tr("<div style='font-size:11pt'><b>%1</b> <span style='color:%2'>in</span> %3</div>")
          .arg(html(strip_ansi(pass->name)), muted,
               html(strip_ansi(doc->group(position_.group)->name)));
  text += tr("<div style='color:%1'>pass %2 of %3 \u00b7 depth %4 \u00b7 %5%6 \u00b7 %7 "
             "\u00b7 called at %8</div>")
              .arg(muted)
              .arg(pass_index + 1)
              .arg(passes)
              .arg(pass->depth)
              .arg(html(pass->mode), pass->walk ? tr(" \u00b7 walk") : QString(),
                   steps == 1 ? tr("1 step") : tr("%1 steps").arg(steps), html(pass->loc));
  if (position_.record == 0) {
    text += tr("<div style='margin-top:6px; font-size:11pt'>Input graph</div>"
               "<div style='color:%1'>%2</div>")
                .arg(muted, steps ? tr("\u2192 applies step 1; \u2191/\u2193 move between passes")
                                  : tr("no rule matched in this pass"));
  } else {
    const auto &step = pass->steps[static_cast<std::size_t>(position_.record - 1)];
    const auto [family, name] = split_rule(compiler::rewrite::rule_title(step));
    text += tr("<div style='margin-top:6px; font-size:11pt'>step %1/%2 &nbsp;"
               "<span style='color:%3'>%4</span> <b>%5</b></div>")
                .arg(position_.record)
                .arg(steps)
                .arg(muted, family.toHtmlEscaped(), name.toHtmlEscaped());
    text += tr("<div style='color:%1'>rule at <span style='color:%2'>%3</span> \u00b7 %4 us</div>")
                .arg(muted, theme::accent().name(), html(step.rule_loc))
                .arg(static_cast<double>(step.ns) / 1000.0, 0, 'f', 2);
  }
  header_->setText(text);
  update_diff();
}

void RewriteView::update_diff() {
  diff_->clear();
  graph_text_->clear();
  shown_graph_ = {};
  const RewriteTraceDocument *doc = document();
  RewriteRecord record;
  try {
    record = doc->record(position_.group, position_.pass, position_.record);
    shown_graph_ = record.graph;
  } catch (const std::exception &e) {
    append_line(*diff_, QString::fromStdString(e.what()), removed_color());
    node_model_->set_node({});
    return;
  }
  ExpressionTexts expressions;
  auto expression = [&](const compiler::UOp &u) {
    const QString text = expressions.text(u);
    return text.isEmpty() ? tr("(too large to print)") : text;
  };
  append_line(*graph_text_, tr("graph  %1").arg(expression(record.graph)), theme::accent(), true);
  append_line(*graph_text_, QString());
  for (const QString &line : node_lines(record.graph)) append_line(*graph_text_, line);

  if (!record.step) {
    append_line(*diff_, tr("The input graph of this pass: no step applied yet."),
                theme::muted_text());
    append_line(*diff_, QString());
    append_line(*diff_, tr("graph   %1").arg(expression(record.graph)), theme::accent(), true);
    append_line(*diff_, QString());
    for (const QString &line : node_lines(record.graph)) append_line(*diff_, ' ' + line);
    diff_->moveCursor(QTextCursor::Start);
    show_node_facts(record.graph, RewriteNodeMark::Unchanged);
    return;
  }
  append_line(*diff_, tr("before  %1").arg(expression(record.before)), removed_color(), true);
  append_line(*diff_, tr("after   %1").arg(expression(record.after)), added_color(), true);
  append_line(*diff_, tr("graph   %1").arg(expression(record.graph)), theme::muted_text());
  append_line(*diff_, QString());
  append_line(*diff_, tr("@@ the matched subtree \u2192 the rule's result @@"), theme::accent());
  for (const DiffLine &line : diff_lines(node_lines(record.before), node_lines(record.after))) {
    switch (line.kind) {
    case DiffKind::Removed: append_line(*diff_, '-' + line.text, removed_color()); break;
    case DiffKind::Added: append_line(*diff_, '+' + line.text, added_color()); break;
    case DiffKind::Same: append_line(*diff_, ' ' + line.text); break;
    }
  }
  diff_->moveCursor(QTextCursor::Start);
  show_node_facts(record.after, RewriteNodeMark::Replacement);
}

void RewriteView::show_node_facts(const compiler::UOp &node, RewriteNodeMark mark) {
  RewriteNodeModel::NodeFacts facts;
  facts.node = node;
  facts.mark = mark;
  const RewriteTraceDocument *doc = document();
  if (node && doc) {
    facts.trace_id = doc->trace_id(node);
    if (shown_graph_)
      for (const auto &u : compiler::toposort(shown_graph_))
        for (const auto &s : u.src())
          if (s == node) ++facts.consumers;
  }
  node_model_->set_node(facts);
}

void RewriteView::on_node_clicked(int index) {
  const RewriteGraph *graph = graph_->graph();
  if (!graph || index < 0 || index >= static_cast<int>(graph->nodes.size())) return;
  const RewriteGraphNode &node = graph->nodes[static_cast<std::size_t>(index)];
  show_node_facts(node.uop, node.mark);
  tabs_->setCurrentWidget(node_table_);
}

void RewriteView::set_background_layout_threshold(std::size_t nodes) {
  loader_->set_background_threshold(nodes);
}

bool RewriteView::layout_pending() const { return loader_->busy(); }

GraphDirection RewriteView::choose_direction(const RewriteGraphKey &key) {
  if (direction_mode_ == DirectionMode::TopToBottom) return GraphDirection::TopToBottom;
  if (direction_mode_ == DirectionMode::LeftToRight) return GraphDirection::LeftToRight;
  // One choice per pass, so that stepping through it never flips the picture.
  const auto pass = std::make_tuple(key.document, key.group, key.pass);
  if (auto it = pass_direction_.find(pass); it != pass_direction_.end()) return it->second;
  const QSizeF room = graph_->viewport()->size();
  GraphDirection chosen = room.width() > 1.4 * room.height() ? GraphDirection::LeftToRight
                                                             : GraphDirection::TopToBottom;
  if (loader_->synchronous(*document())) {
    // Both layouts are cheap here: keep the one that shows the graph largest (top-down on ties).
    double best = -1;
    for (GraphDirection direction : {GraphDirection::TopToBottom, GraphDirection::LeftToRight}) {
      RewriteGraphKey candidate = key;
      candidate.direction = direction;
      const LaidOutRewriteGraph &result = loader_->build_now(*document(), candidate);
      if (!result.layout) continue;
      const QRectF bounds = result.layout->bounds;
      const double scale = std::min({room.width() / std::max(bounds.width(), 1.0),
                                     room.height() / std::max(bounds.height(), 1.0), 1.3});
      if (scale > best * 1.02) {
        best = scale;
        chosen = direction;
      }
    }
  }
  pass_direction_[pass] = chosen;
  return chosen;
}

void RewriteView::set_direction_mode(DirectionMode mode) {
  if (direction_box_->currentIndex() != static_cast<int>(mode))
    direction_box_->setCurrentIndex(static_cast<int>(mode));
  if (direction_mode_ == mode) return;
  direction_mode_ = mode;
  pass_direction_.clear();
  request_graph(true);
}

void RewriteView::request_graph(bool refit) {
  const RewriteTraceDocument *doc = document();
  if (!doc || !position_.valid()) {
    graph_->show_message(doc ? tr("This group recorded no rewrites.") : nothing_open_message());
    graph_->set_caption({});
    return;
  }
  wanted_ = {document_index_,
             position_.group,
             position_.pass,
             position_.record,
             options_.fold_constants,
             options_.max_nodes,
             GraphDirection::TopToBottom};
  wanted_.direction = choose_direction(wanted_);
  if (const LaidOutRewriteGraph *graph = loader_->request(*doc, wanted_)) {
    present(wanted_, *graph, refit);
    return;
  }
  pending_refit_ = pending_refit_ || refit;
  // The first graph of a trace: not the "nothing open" words while it is laid out.
  if (!graph_->graph()) graph_->show_message({});
  graph_->set_busy_note(tr("laying out\u2026"));
}

void RewriteView::present(const RewriteGraphKey &key, const LaidOutRewriteGraph &result,
                          bool refit) {
  graph_->set_busy_note({});
  if (!result.error.isEmpty()) {
    graph_->show_message(tr("This record cannot be shown:\n%1").arg(result.error));
    graph_->set_caption({});
    return;
  }
  graph_->show_graph(result.graph, result.layout, refit);
  const RewriteGraph &graph = *result.graph;
  QString caption = tr("%1 nodes").arg(graph.graph_nodes);
  if (graph.folded_constants)
    caption += tr(" \u00b7 %1 constants folded into their users").arg(graph.folded_constants);
  if (graph.collapsed)
    caption += tr(" \u00b7 showing %1 around the change (\"All nodes\" shows every one)")
                   .arg(graph.nodes.size());
  graph_->set_caption(caption);
  all_nodes_->setEnabled(graph.collapsed || key.max_nodes == 0);
}

void RewriteView::wait_for_layout() { loader_->wait(); }

void RewriteView::join_layout() { loader_->join(); }

QString RewriteView::diff_text() const { return diff_->toPlainText(); }
QString RewriteView::graph_text() const { return graph_text_->toPlainText(); }
QString RewriteView::header_text() const {
  QTextDocument document;
  document.setHtml(header_->text());
  return document.toPlainText();
}

}  // namespace wavescope::gui
