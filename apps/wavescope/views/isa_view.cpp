#include "views/isa_view.hpp"

#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QShortcut>
#include <QTableView>
#include <QVBoxLayout>

#include "app/documents.hpp"
#include "app/selection.hpp"
#include "app/theme.hpp"
#include "models/disassembly_model.hpp"

namespace wavescope::gui {

IsaView::IsaView(Selection &selection, QWidget *parent)
    : QWidget(parent), selection_(selection), model_(new DisassemblyModel(this)),
      table_(new QTableView(this)), title_(new QLabel(this)) {
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  title_->setStyleSheet(QStringLiteral("color: %1; font-weight: bold;").arg(theme::text().name()));
  layout->addWidget(title_);
  layout->addWidget(table_);
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setShowGrid(false);
  table_->setAlternatingRowColors(true);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(18);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);

  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex &current) {
            if (current.isValid())
              selection_.select_pc(current.data(DisassemblyModel::AddressRole).toULongLong());
          });
  connect(table_, &QTableView::doubleClicked, this, [this] { follow_branch(); });
  connect(&selection_, &Selection::pc_selected, this, &IsaView::on_pc_selected);
  auto *follow = new QShortcut(QKeySequence(Qt::Key_Return), table_);
  connect(follow, &QShortcut::activated, this, [this] { follow_branch(); });
  auto *back = new QShortcut(QKeySequence(Qt::Key_Backspace), table_);
  connect(back, &QShortcut::activated, this, [this] { go_back(); });
}

void IsaView::show_kernel(const QString &title, const KernelCode &kernel) {
  title_->setText(title);
  history_.clear();
  model_->set_instructions(kernel.instructions);
  table_->resizeColumnsToContents();
}

bool IsaView::follow_branch() {
  const QModelIndex current = table_->currentIndex();
  if (!current.isValid()) return false;
  const QVariant target = current.data(DisassemblyModel::BranchTargetRole);
  if (!target.isValid()) return false;
  history_.push_back(current.data(DisassemblyModel::AddressRole).toULongLong());
  selection_.select_pc(target.toULongLong());
  return true;
}

bool IsaView::go_back() {
  if (history_.empty()) return false;
  const quint64 pc = history_.back();
  history_.pop_back();
  selection_.select_pc(pc);
  return true;
}

void IsaView::on_pc_selected(quint64 pc) {
  const int row = model_->row_of_address(pc);
  if (row < 0 || table_->currentIndex().row() == row) return;
  table_->setCurrentIndex(model_->index(row, DisassemblyModel::InstructionColumn));
  table_->scrollTo(model_->index(row, 0), QAbstractItemView::PositionAtCenter);
}

}  // namespace wavescope::gui
