#include "views/isa_view.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPainter>
#include <QShortcut>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include "app/document.hpp"
#include "app/selection.hpp"
#include "app/theme.hpp"
#include "app/workspace.hpp"
#include "models/disassembly_model.hpp"
#include "views/isa_text_painter.hpp"

namespace wavescope::gui {
namespace {

// Paints the heat margin and the syntax-colored instruction column.
class IsaDelegate : public QStyledItemDelegate {
public:
  IsaDelegate(const QString &search, const Selection &selection, QObject *parent)
      : QStyledItemDelegate(parent), search_(search), selection_(selection) {}

  void paint(QPainter *painter, const QStyleOptionViewItem &option,
             const QModelIndex &index) const override {
    if (index.column() == DisassemblyModel::HeatColumn) {
      QStyledItemDelegate::paint(painter, option, index);
      const QVariant heat = index.data(DisassemblyModel::HeatRole);
      if (heat.isValid()) {
        const double share = heat.toDouble();
        QRectF bar = QRectF(option.rect).adjusted(2, 3, -2, -3);
        bar.setWidth(std::max(2.0, bar.width() * share));
        painter->fillRect(bar, theme::heat_color(share));
      }
      return;
    }
    if (index.column() != DisassemblyModel::InstructionColumn ||
        index.data(DisassemblyModel::PaddingCountRole).toInt() > 1) {
      QStyledItemDelegate::paint(painter, option, index);
      return;
    }
    QStyleOptionViewItem background = option;
    background.text.clear();
    QStyledItemDelegate::paint(painter, background, index);
    painter->save();
    painter->setFont(theme::monospace_font());
    const auto category = static_cast<compiler::isa::InstCategory>(
        index.data(DisassemblyModel::CategoryRole).toInt());
    const QRectF text_rect = QRectF(option.rect).adjusted(4, 0, 0, 0);
    const qreal end = paint_instruction(*painter, text_rect, index.data(Qt::DisplayRole).toString(),
                                        category, {search_, selection_.highlight()});
    if (const QVariant target = index.data(DisassemblyModel::BranchTargetRole); target.isValid()) {
      painter->setPen(theme::muted_text());
      painter->drawText(
          QRectF(end + 8, text_rect.top(), text_rect.right() - end, text_rect.height()),
          Qt::AlignVCenter | Qt::AlignLeft,
          QStringLiteral("→ %1").arg(target.toULongLong(), 0, 16));
    }
    painter->restore();
  }

private:
  const QString &search_;
  const Selection &selection_;
};

}  // namespace

IsaView::IsaView(Workspace &workspace, Selection &selection, QWidget *parent)
    : QWidget(parent), workspace_(workspace), selection_(selection),
      model_(new DisassemblyModel(this)), table_(new QTableView(this)), title_(new QLabel(this)),
      search_(new QLineEdit(this)), matches_(new QLabel(this)) {
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto *bar = new QHBoxLayout;
  title_->setStyleSheet(QStringLiteral("color: %1; font-weight: bold;").arg(theme::text().name()));
  bar->addWidget(title_, 1);
  search_->setPlaceholderText(tr("Find (Ctrl+F)"));
  search_->setClearButtonEnabled(true);
  search_->setMaximumWidth(280);
  matches_->setStyleSheet(QStringLiteral("color: %1;").arg(theme::muted_text().name()));
  bar->addWidget(matches_);
  bar->addWidget(search_);
  layout->addLayout(bar);
  layout->addWidget(table_);

  table_->setModel(model_);
  table_->setItemDelegate(new IsaDelegate(search_text_holder_, selection_, this));
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setShowGrid(false);
  table_->setAlternatingRowColors(true);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(18);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);
  table_->setMouseTracking(true);
  table_->viewport()->installEventFilter(this);

  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex &current) {
            if (current.isValid())
              selection_.select_pc(current.data(DisassemblyModel::AddressRole).toULongLong());
          });
  connect(table_, &QTableView::doubleClicked, this, [this] { follow_branch(); });
  connect(&selection_, &Selection::pc_selected, this, &IsaView::on_pc_selected);
  connect(&selection_, &Selection::focus_changed, this, &IsaView::on_focus);
  connect(&selection_, &Selection::highlight_changed, table_->viewport(),
          [this] { table_->viewport()->update(); });
  connect(search_, &QLineEdit::textChanged, this, &IsaView::set_search);
  connect(search_, &QLineEdit::returnPressed, this, [this] { find_next(); });

  auto shortcut = [this](QKeySequence keys, auto fn, QWidget *scope) {
    auto *s = new QShortcut(keys, scope);
    s->setContext(Qt::WidgetWithChildrenShortcut);
    connect(s, &QShortcut::activated, this, fn);
  };
  shortcut(
      QKeySequence::Find,
      [this] {
        search_->setFocus();
        search_->selectAll();
      },
      this);
  shortcut(
      QKeySequence::FindNext, [this] { find_next(); }, this);
  shortcut(
      QKeySequence::FindPrevious, [this] { find_next(true); }, this);
  shortcut(
      QKeySequence(Qt::Key_Return), [this] { follow_branch(); }, table_);
  shortcut(
      QKeySequence(Qt::Key_Backspace), [this] { go_back(); }, table_);
}

bool IsaView::eventFilter(QObject *watched, QEvent *event) {
  // A click on a register or opcode token highlights all its uses (in every view).
  if (watched == table_->viewport() && event->type() == QEvent::MouseButtonPress) {
    const auto *mouse = static_cast<QMouseEvent *>(event);
    const QModelIndex index = table_->indexAt(mouse->pos());
    if (index.isValid() && index.column() == DisassemblyModel::InstructionColumn &&
        index.data(DisassemblyModel::PaddingCountRole).toInt() == 1) {
      const QRect cell = table_->visualRect(index);
      const QString token = token_at(index.data(Qt::DisplayRole).toString(),
                                     theme::monospace_font(), mouse->pos().x() - cell.left() - 4);
      if (!token.isEmpty()) selection_.toggle_highlight(token);
    }
  }
  return QWidget::eventFilter(watched, event);
}

void IsaView::on_focus(const Focus &focus) {
  const Document *document = workspace_.document(focus.document);
  const KernelCode *code =
      document ? document->kernel(focus.kernel < 0 ? 0 : focus.kernel) : nullptr;
  history_.clear();
  if (!code) {
    title_->setText(tr("No code selected"));
    model_->set_instructions({});
    return;
  }
  title_->setText(QStringLiteral("%1 — %2 (%3)")
                      .arg(document->title, QString::fromStdString(code->name),
                           QString::fromStdString(code->target)));
  model_->set_instructions(code->instructions);
  model_->set_heat(document->pc_heat(focus.kernel < 0 ? 0 : focus.kernel));
  table_->resizeColumnsToContents();
  table_->setColumnWidth(DisassemblyModel::HeatColumn, 36);
  update_match_label();
  // A view that handled the focus before this one may already have selected an instruction.
  if (const auto pc = selection_.pc()) on_pc_selected(*pc);
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

void IsaView::set_search(const QString &text) {
  search_text_holder_ = text;
  table_->viewport()->update();
  update_match_label();
}

int IsaView::match_count() const {
  if (search_text_holder_.isEmpty()) return 0;
  int count = 0;
  for (int row = 0; row < model_->rowCount(); ++row)
    if (model_->index(row, DisassemblyModel::InstructionColumn)
            .data()
            .toString()
            .contains(search_text_holder_, Qt::CaseInsensitive))
      ++count;
  return count;
}

void IsaView::update_match_label() {
  matches_->setText(search_text_holder_.isEmpty() ? QString()
                                                  : tr("%n match(es)", nullptr, match_count()));
}

bool IsaView::find_next(bool backwards) {
  const int rows = model_->rowCount();
  if (search_text_holder_.isEmpty() || rows == 0) return false;
  const int start = table_->currentIndex().isValid() ? table_->currentIndex().row() : -1;
  for (int step = 1; step <= rows; ++step) {
    const int row = ((backwards ? start - step : start + step) % rows + rows) % rows;
    const QModelIndex index = model_->index(row, DisassemblyModel::InstructionColumn);
    if (index.data().toString().contains(search_text_holder_, Qt::CaseInsensitive)) {
      table_->setCurrentIndex(index);
      table_->scrollTo(index, QAbstractItemView::PositionAtCenter);
      return true;
    }
  }
  return false;
}

void IsaView::on_pc_selected(quint64 pc) {
  const int row = model_->row_of_address(pc);
  if (row < 0 || table_->currentIndex().row() == row) return;
  table_->setCurrentIndex(model_->index(row, DisassemblyModel::InstructionColumn));
  table_->scrollTo(model_->index(row, 0), QAbstractItemView::PositionAtCenter);
}

}  // namespace wavescope::gui
