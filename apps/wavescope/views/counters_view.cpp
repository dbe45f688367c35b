#include "views/counters_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "app/capture_document.hpp"
#include "app/theme.hpp"
#include "app/workspace.hpp"
#include "models/counters_model.hpp"
#include "views/clock_chart.hpp"

namespace wavescope::gui {

CountersView::CountersView(Workspace &workspace, Selection &selection, QWidget *parent)
    : QWidget(parent), workspace_(workspace), selection_(selection),
      model_(new CountersModel(this)), proxy_(new QSortFilterProxyModel(this)),
      tree_(new QTreeView(this)), chart_(new ClockChart(this)), title_(new QLabel(this)),
      notes_(new QLabel(this)), samples_(new QComboBox(this)) {
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto *bar = new QHBoxLayout;
  title_->setStyleSheet(QStringLiteral("color: %1; font-weight: bold;").arg(theme::text().name()));
  notes_->setStyleSheet(QStringLiteral("color: %1;").arg(theme::muted_text().name()));
  notes_->setWordWrap(true);
  bar->addWidget(title_);
  bar->addSpacing(12);
  bar->addWidget(notes_, 1);
  samples_->setToolTip(tr("PMC sample of this kernel"));
  samples_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  bar->addWidget(samples_);
  layout->addLayout(bar);

  proxy_->setSourceModel(model_);
  proxy_->setSortRole(CountersModel::SortRole);
  tree_->setModel(proxy_);
  tree_->setSortingEnabled(true);
  tree_->sortByColumn(-1, Qt::AscendingOrder);  // schedule order until a header is clicked
  tree_->setAlternatingRowColors(true);
  tree_->setUniformRowHeights(true);
  tree_->header()->setStretchLastSection(false);
  auto *split = new QSplitter(Qt::Vertical, this);
  split->addWidget(tree_);
  auto *chart_box = new QWidget(this);
  auto *chart_layout = new QVBoxLayout(chart_box);
  chart_layout->setContentsMargins(0, 0, 0, 0);
  chart_layout->setSpacing(0);
  auto *whole = new QToolButton(chart_box);
  whole->setText(tr("Whole trace"));
  whole->setCheckable(true);
  whole->setToolTip(
      tr("Show every clock marker of the blobs, not only the kernel's neighbourhood"));
  connect(whole, &QToolButton::toggled, chart_, &ClockChart::set_whole_trace);
  auto *chart_bar = new QHBoxLayout;
  chart_bar->addStretch(1);
  chart_bar->addWidget(whole);
  chart_layout->addLayout(chart_bar);
  chart_layout->addWidget(chart_, 1);
  split->addWidget(chart_box);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  layout->addWidget(split, 1);

  connect(samples_, &QComboBox::activated, this, &CountersView::show_sample);
  connect(&selection_, &Selection::focus_changed, this, &CountersView::on_focus);
  on_focus(selection_.focus());
}

void CountersView::on_focus(const Focus &focus) {
  const auto *document = dynamic_cast<const CaptureDocument *>(workspace_.document(focus.document));
  const int kernel = document ? std::max(0, focus.kernel) : -1;
  const CaptureDispatch *dispatch = document ? document->dispatch(kernel) : nullptr;
  if (document == document_ && kernel == kernel_) {
    if (focus.shader_engine != highlight_)
      chart_->show_dispatch(dispatch, highlight_ = focus.shader_engine);
    return;
  }
  highlight_ = focus.shader_engine;
  document_ = document;
  kernel_ = kernel;
  samples_->clear();
  if (dispatch)
    for (const auto &c : dispatch->counters)
      samples_->addItem(
          tr("%1 · %2 counters").arg(QString::fromStdString(c.file)).arg(c.counters.size()));
  samples_->setVisible(samples_->count() > 1);
  chart_->show_dispatch(dispatch, focus.shader_engine);
  show_sample(0);
}

void CountersView::show_sample(int index) {
  const CaptureDispatch *dispatch = document_ ? document_->dispatch(kernel_) : nullptr;
  if (!dispatch || index < 0 || index >= static_cast<int>(dispatch->counters.size())) {
    model_->set_counters(std::nullopt);
    title_->setText(
        dispatch ? tr("%1 — no PMC sample").arg(QString::fromStdString(dispatch->program->name))
                 : tr("No capture selected"));
    notes_->setText(dispatch ? QString() : tr("Counters come from a capture folder's PMC samples"));
    return;
  }
  const auto &counters = dispatch->counters[static_cast<std::size_t>(index)];
  model_->set_counters(counters);
  title_->setText(tr("%1 — PMC").arg(QString::fromStdString(dispatch->program->name)));
  QString notes = tr("%1 · %2 counters · %3 metrics · %4")
                      .arg(QString::fromStdString(counters.file))
                      .arg(counters.counters.size())
                      .arg(counters.metrics.size())
                      .arg(QString::fromStdString(counters.processor));
  if (!dispatch->program->exec_ranges.empty()) {
    const auto &r = dispatch->program->exec_ranges.front();
    notes += tr(" · dispatch %1 µs (host)").arg(r.end_us - r.start_us, 0, 'f', 2);
  }
  for (const auto &n : counters.notes) notes += QStringLiteral(" · ") + QString::fromStdString(n);
  notes_->setText(notes);
  // Metrics open; counters open where their instances fit on a screen (one row per SE/SA).
  for (int row = 0; row < model_->rowCount(); ++row) {
    const QModelIndex source = model_->index(row, 0);
    const int children = model_->rowCount(source);
    if (model_->kind(source) == CountersModel::RowKind::MetricGroup ||
        (children > 1 && children <= 12))
      tree_->expand(proxy_->mapFromSource(source));
  }
  tree_->resizeColumnToContents(CountersModel::NameColumn);
  tree_->setColumnWidth(CountersModel::NameColumn,
                        std::max(tree_->columnWidth(CountersModel::NameColumn), 240));
  for (int c = CountersModel::SumColumn; c < model_->columnCount(); ++c)
    tree_->setColumnWidth(c, c < CountersModel::FirstWgpColumn ? 110 : 64);
}

}  // namespace wavescope::gui
