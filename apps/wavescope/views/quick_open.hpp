#pragma once
// A keyboard-first chooser over a list model (the command palette, Ctrl+Shift+P, and the finder,
// Ctrl+K): a line edit over a fuzzily filtered list, best match first. ↑/↓ move, Enter chooses,
// Esc closes. Rows show their kind (Qt::UserRole + 1) on the left and their detail
// (Qt::UserRole + 2) on the right, when the model has them.

#include <QFrame>

class QAbstractItemModel;
class QLabel;
class QLineEdit;
class QListView;

namespace wavescope::gui {

class FuzzyFilterModel;

class QuickOpen : public QFrame {
  Q_OBJECT
public:
  explicit QuickOpen(QWidget *parent);

  // Shows the chooser over `model` with an empty query, focused.
  void open(QAbstractItemModel *model, const QString &title, const QString &placeholder);
  // Chooses the current row (what Enter does).
  void choose();
  FuzzyFilterModel &filter() { return *filter_; }
  QLineEdit &line() { return *line_; }
  QListView &list() { return *list_; }

Q_SIGNALS:
  // A row of the source model was chosen.
  void chosen(int source_row);

protected:
  bool eventFilter(QObject *watched, QEvent *event) override;

private:
  void place();
  FuzzyFilterModel *filter_;
  QLabel *title_;
  QLineEdit *line_;
  QListView *list_;
};

}  // namespace wavescope::gui
