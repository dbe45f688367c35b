#pragma once
// The `flash` view: the Navi31 recovery panel over a FlashController. Devices (real and
// simulated) on the left with the selected board's state, JEDEC id, status registers and
// protection; on the right the steps of docs/flash-recovery.md — probe, verified backup, the
// image's validation report, write (after an explicit confirmation), verify, resume from the
// journal, power-cycle a simulated board — with the progress of each phase and its ETA, a cancel
// that finishes the current sector, and a log of the library's reports, refusals and errors.

#include <QWidget>

#include <functional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTextBrowser;
class QTreeWidget;

namespace wavescope::gui {

class FlashController;
class FlashDeviceModel;
struct FlashOutcome;
struct FlashPhase;

class FlashView : public QWidget {
  Q_OBJECT
public:
  explicit FlashView(QWidget *parent = nullptr);

  FlashController &controller() { return *controller_; }
  FlashDeviceModel &devices() { return *device_model_; }
  // Selects `spec` (also when the list does not show it) and probes the board.
  void open_device(const QString &spec);
  // Asked before a write erases anything; returns true to go ahead. The default is a dialog
  // (screenshots and tests replace it).
  void set_confirmation(std::function<bool(const QString &question)> confirm) {
    confirm_ = std::move(confirm);
  }
  void set_image(const QString &path);

  QString board_text() const;
  QString log_text() const;
  QString validation_text() const;

  // The panel's buttons (what a click does).
  void probe();
  void backup();
  void validate();
  void write();
  void verify();
  void resume();
  void power_cycle();
  void cancel();

private:
  void on_progress(const FlashPhase &phase);
  void on_finished(const FlashOutcome &outcome);
  void update_buttons();
  void update_journal();
  void show_board(const FlashOutcome &outcome);
  void log(const QString &html);
  void start_write(bool resume);

  FlashController *controller_;
  FlashDeviceModel *device_model_;
  QTableView *device_table_;
  QLabel *sim_root_;
  QTextBrowser *board_;
  QLineEdit *image_;
  QLineEdit *work_dir_;
  QTextBrowser *validation_;
  QCheckBox *clear_protection_, *restore_protection_, *force_image_;
  QPushButton *refresh_, *probe_, *backup_, *validate_, *write_, *verify_, *resume_, *cancel_,
      *power_cycle_, *browse_;
  QLabel *journal_;
  QTreeWidget *phases_;
  QTextBrowser *log_;
  std::function<bool(const QString &)> confirm_;
};

}  // namespace wavescope::gui
