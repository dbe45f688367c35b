#include "views/quick_open.hpp"

#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QVBoxLayout>

#include "app/theme.hpp"
#include "models/fuzzy_filter.hpp"

namespace wavescope::gui {

namespace {
constexpr int kKindRole = Qt::UserRole + 1;
constexpr int kDetailRole = Qt::UserRole + 2;

// kind · text · detail (right, muted) in one line.
class QuickDelegate : public QStyledItemDelegate {
public:
  using QStyledItemDelegate::QStyledItemDelegate;
  void paint(QPainter *p, const QStyleOptionViewItem &option,
             const QModelIndex &index) const override {
    QStyleOptionViewItem o = option;
    initStyleOption(&o, index);
    p->save();
    if (o.state & QStyle::State_Selected) p->fillRect(o.rect, theme::selection());
    const QRect r = o.rect.adjusted(8, 0, -8, 0);
    const QString kind = index.data(kKindRole).toString();
    const QString detail = index.data(kDetailRole).toString();
    int x = r.left();
    const QFontMetrics fm(o.font);
    if (!kind.isEmpty()) {
      p->setPen(theme::accent());
      p->drawText(QRect(x, r.top(), 64, r.height()), Qt::AlignLeft | Qt::AlignVCenter, kind);
      x += 68;
    }
    const int detail_w =
        detail.isEmpty() ? 0 : std::min(fm.horizontalAdvance(detail), r.width() / 2);
    p->setPen(theme::text());
    p->drawText(QRect(x, r.top(), r.right() - x - detail_w - 12, r.height()),
                Qt::AlignLeft | Qt::AlignVCenter,
                fm.elidedText(o.text, Qt::ElideMiddle, r.right() - x - detail_w - 12));
    if (detail_w) {
      p->setPen(theme::muted_text());
      p->drawText(QRect(r.right() - detail_w, r.top(), detail_w, r.height()),
                  Qt::AlignRight | Qt::AlignVCenter,
                  fm.elidedText(detail, Qt::ElideLeft, detail_w));
    }
    p->restore();
  }
  QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override {
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setHeight(std::max(s.height(), 22));
    return s;
  }
};
}  // namespace

QuickOpen::QuickOpen(QWidget *parent)
    : QFrame(parent), filter_(new FuzzyFilterModel(this)), title_(new QLabel(this)),
      line_(new QLineEdit(this)), list_(new QListView(this)) {
  setFrameShape(QFrame::StyledPanel);
  setAutoFillBackground(true);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  title_->setStyleSheet(QStringLiteral("color:#8a919e"));
  layout->addWidget(title_);
  layout->addWidget(line_);
  layout->addWidget(list_);
  list_->setModel(filter_);
  list_->setItemDelegate(new QuickDelegate(list_));
  list_->setUniformItemSizes(true);
  list_->setFocusPolicy(Qt::NoFocus);
  line_->installEventFilter(this);
  connect(line_, &QLineEdit::textChanged, this, [this](const QString &text) {
    filter_->set_query(text);
    list_->setCurrentIndex(filter_->index(0, 0));
  });
  connect(line_, &QLineEdit::returnPressed, this, &QuickOpen::choose);
  connect(list_, &QListView::activated, this, [this](const QModelIndex &index) {
    list_->setCurrentIndex(index);
    choose();
  });
  hide();
}

void QuickOpen::place() {
  const QWidget *p = parentWidget();
  const int w = std::min(760, p->width() - 40);
  const int h = std::min(460, p->height() - 80);
  setGeometry((p->width() - w) / 2, 60, w, h);
}

void QuickOpen::open(QAbstractItemModel *model, const QString &title, const QString &placeholder) {
  if (filter_->sourceModel() != model) filter_->setSourceModel(model);
  title_->setText(title);
  line_->setPlaceholderText(placeholder);
  line_->clear();
  filter_->set_query({});
  list_->setCurrentIndex(filter_->index(0, 0));
  place();
  show();
  raise();
  line_->setFocus();
}

void QuickOpen::choose() {
  const QModelIndex current =
      list_->currentIndex().isValid() ? list_->currentIndex() : filter_->index(0, 0);
  if (!current.isValid()) return;
  const int row = filter_->mapToSource(current).row();
  hide();
  Q_EMIT chosen(row);
}

bool QuickOpen::eventFilter(QObject *watched, QEvent *event) {
  if (watched == line_ && event->type() == QEvent::KeyPress) {
    auto *key = static_cast<QKeyEvent *>(event);
    const int rows = filter_->rowCount();
    const int row = list_->currentIndex().row();
    switch (key->key()) {
    case Qt::Key_Down:
      if (rows) list_->setCurrentIndex(filter_->index(std::min(row + 1, rows - 1), 0));
      return true;
    case Qt::Key_Up:
      if (rows) list_->setCurrentIndex(filter_->index(std::max(row - 1, 0), 0));
      return true;
    case Qt::Key_PageDown:
      if (rows) list_->setCurrentIndex(filter_->index(std::min(row + 10, rows - 1), 0));
      return true;
    case Qt::Key_PageUp:
      if (rows) list_->setCurrentIndex(filter_->index(std::max(row - 10, 0), 0));
      return true;
    case Qt::Key_Escape:
      hide();
      if (parentWidget()) parentWidget()->setFocus();
      return true;
    default: break;
    }
  }
  return QFrame::eventFilter(watched, event);
}

}  // namespace wavescope::gui
