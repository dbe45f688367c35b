#include "views/timing_view.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include "app/capture_document.hpp"
#include "app/theme.hpp"
#include "app/workspace.hpp"
#include "models/instruction_timing_model.hpp"
#include "views/isa_text_painter.hpp"

namespace wavescope::gui {
namespace {

// The mean latency as a bar from the cell's left, its first (stall) part in the stall color;
// `v` is {stall, latency} as shares of the table's largest mean latency.
void paint_stall_latency(QPainter &p, const QRectF &cell, const QVariantList &v) {
  if (v.size() != 2) return;
  const double latency = std::max(2.0, cell.width() * v[1].toDouble());
  const double stall = std::min(latency, cell.width() * v[0].toDouble());
  const QRectF bar(cell.left(), cell.center().y() - 4, latency, 8);
  p.fillRect(bar, theme::latency_color());
  if (stall > 0)
    p.fillRect(QRectF(bar.left(), bar.top(), stall, bar.height()), theme::stall_color());
}

// Paints the syntax-colored instruction, the issue-gap range bar, the stall/latency bar and the
// cost bar.
class TimingDelegate : public QStyledItemDelegate {
public:
  using QStyledItemDelegate::QStyledItemDelegate;

  void paint(QPainter *p, const QStyleOptionViewItem &option,
             const QModelIndex &index) const override {
    using M = InstructionTimingModel;
    const int column = index.column();
    if (column != M::InstructionColumn && column != M::GapRangeColumn &&
        column != M::StallLatencyBarColumn && column != M::CostColumn) {
      QStyledItemDelegate::paint(p, option, index);
      return;
    }
    QStyleOptionViewItem background = option;
    background.text.clear();
    if (column == M::CostColumn) background.text.clear();
    QStyledItemDelegate::paint(p, background, index);
    p->save();
    const QRectF cell = QRectF(option.rect).adjusted(4, 3, -4, -3);
    if (column == M::InstructionColumn) {
      p->setFont(theme::monospace_font(9));
      paint_instruction(
          *p, QRectF(option.rect).adjusted(4, 0, 0, 0), index.data().toString(),
          static_cast<compiler::isa::InstCategory>(index.data(M::CategoryRole).toInt()), {});
    } else if (column == M::StallLatencyBarColumn) {
      paint_stall_latency(*p, cell, index.data(M::StallLatencyRole).toList());
    } else if (column == M::GapRangeColumn) {
      const QVariantList v = index.data(M::GapRangeRole).toList();
      if (v.size() == 3) {
        const double x_min = cell.left() + cell.width() * v[0].toDouble();
        const double x_mean = cell.left() + cell.width() * v[1].toDouble();
        const double x_max = cell.left() + cell.width() * v[2].toDouble();
        const double mid = cell.center().y();
        p->fillRect(QRectF(cell.left(), mid - 0.5, cell.width(), 1), theme::grid());
        p->fillRect(QRectF(x_min, mid - 1, std::max(1.0, x_max - x_min), 2),
                    QColor(0x6a, 0x73, 0x85));
        p->fillRect(QRectF(x_min, mid - 3, 1, 6), QColor(0x6a, 0x73, 0x85));
        p->fillRect(QRectF(x_max - 1, mid - 3, 1, 6), QColor(0x6a, 0x73, 0x85));
        p->fillRect(QRectF(cell.left(), mid - 4, std::max(2.0, x_mean - cell.left()), 8),
                    theme::heat_color(v[1].toDouble()));
      }
    } else {
      const double share = index.data(M::RelativeCostRole).toDouble();
      if (share > 0)
        p->fillRect(
            QRectF(cell.left(), cell.top(), std::max(2.0, cell.width() * share), cell.height()),
            theme::heat_color(share).darker(150));
      p->setPen(theme::text());
      p->setFont(theme::monospace_font(9));
      p->drawText(cell, Qt::AlignRight | Qt::AlignVCenter, index.data().toString());
    }
    p->restore();
  }
};

}  // namespace

TimingView::TimingView(Workspace &workspace, Selection &selection, QWidget *parent)
    : QWidget(parent), workspace_(workspace), selection_(selection),
      model_(new InstructionTimingModel(this)), proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this)), title_(new QLabel(this)), totals_(new QLabel(this)),
      filter_(new QLineEdit(this)) {
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto *bar = new QHBoxLayout;
  title_->setStyleSheet(QStringLiteral("color: %1; font-weight: bold;").arg(theme::text().name()));
  totals_->setStyleSheet(QStringLiteral("color: %1;").arg(theme::muted_text().name()));
  bar->addWidget(title_);
  bar->addSpacing(12);
  bar->addWidget(totals_, 1);
  filter_->setPlaceholderText(tr("Filter instructions"));
  filter_->setClearButtonEnabled(true);
  filter_->setMaximumWidth(260);
  bar->addWidget(filter_);
  layout->addLayout(bar);
  layout->addWidget(table_);

  proxy_->setSourceModel(model_);
  proxy_->setSortRole(InstructionTimingModel::SortRole);
  proxy_->setFilterKeyColumn(InstructionTimingModel::InstructionColumn);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  table_->setModel(proxy_);
  table_->setItemDelegate(new TimingDelegate(this));
  table_->setSortingEnabled(true);
  table_->sortByColumn(InstructionTimingModel::AddressColumn, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setShowGrid(false);
  table_->setAlternatingRowColors(true);
  table_->setWordWrap(false);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(19);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->horizontalHeader()->setStretchLastSection(false);

  connect(filter_, &QLineEdit::textChanged, this, &TimingView::set_filter);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex &current) {
            if (current.isValid())
              selection_.select_pc(current.data(InstructionTimingModel::AddressRole).toULongLong());
          });
  connect(&selection_, &Selection::focus_changed, this, &TimingView::on_focus);
  connect(&selection_, &Selection::pc_selected, this, &TimingView::on_pc_selected);
  on_focus(selection_.focus());
}

void TimingView::set_filter(const QString &text) { proxy_->setFilterFixedString(text); }

void TimingView::on_focus(const Focus &focus) {
  const auto *document = dynamic_cast<const CaptureDocument *>(workspace_.document(focus.document));
  if (!document) {
    model_->set_table({});
    title_->setText(tr("No capture selected"));
    totals_->setText(tr("Instruction timing needs a capture folder with SQTT blobs"));
    return;
  }
  TimingTable table = timing_table_for(*document, focus);
  const CaptureDispatch *dispatch = document->dispatch(std::max(0, focus.kernel));
  title_->setText(table.scope);
  if (table.rows.empty())
    totals_->setText(tr("No instruction was mapped to a PC in this scope (no itrace, another "
                        "SIMD or CU, or a wave whose stream was not followed)"));
  else
    totals_->setText(tr("%1 PCs · %L2 issues in %3 waves · %L4 issue-gap cycles · %L5 exec cycles"
                        "%6")
                         .arg(table.rows.size())
                         .arg(table.total_hits)
                         .arg(table.waves)
                         .arg(table.total_gap)
                         .arg(table.total_exec)
                         .arg(table.total_barrier
                                  ? tr(" · %L1 barrier cycles").arg(table.total_barrier)
                                  : QString()));
  model_->set_table(std::move(table), dispatch ? &dispatch->code : nullptr);
  table_->resizeColumnsToContents();
  table_->setColumnWidth(
      InstructionTimingModel::InstructionColumn,
      std::clamp(table_->columnWidth(InstructionTimingModel::InstructionColumn), 200, 460));
  table_->setColumnWidth(InstructionTimingModel::GapRangeColumn, 200);
  table_->setColumnWidth(InstructionTimingModel::StallLatencyBarColumn, 160);
  table_->setColumnWidth(InstructionTimingModel::CostColumn, 110);
  // A view that handled the focus before this one may already have selected an instruction.
  if (const auto pc = selection_.pc()) on_pc_selected(*pc);
}

void TimingView::on_pc_selected(quint64 pc) {
  const int row = model_->row_of_pc(pc);
  if (row < 0) return;
  const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
  if (!index.isValid() || table_->currentIndex().row() == index.row()) return;
  table_->setCurrentIndex(index);
  table_->scrollTo(index, QAbstractItemView::PositionAtCenter);
}

}  // namespace wavescope::gui
