#pragma once
// What the `flash` panel does, without widgets: the Navi31 recovery workflow of
// docs/flash-recovery.md through libhw's flash calls — the same ones `wavectl flash` makes. It
// lists devices (real and simulated), probes a board (state, JEDEC id, status registers,
// protection), takes a verified backup, validates an image, writes it (confirmation first,
// progress with an ETA per phase, a cancel that finishes the current sector), verifies, resumes
// from the journal, and power-cycles simulated boards. Each device operation runs on a worker
// thread, opens the device, runs one library procedure and closes the device (a simulated board
// is saved and its invariants checked, as after a wavectl command); every refusal and error
// arrives in finished() with the library's message.

#include <QObject>
#include <QString>
#include <QStringList>

#include <future>
#include <memory>
#include <optional>
#include <vector>

#include "wavescope/base/cancel_token.hpp"
#include "wavescope/hw/device.hpp"
#include "wavescope/hw/flash/flash_backup.hpp"
#include "wavescope/hw/flash/flash_report.hpp"
#include "wavescope/hw/flash/flash_writer.hpp"

namespace wavescope::gui {

enum class FlashOperation { Probe, Backup, Write, Verify, PowerCycle };
QString operation_name(FlashOperation operation);

// One phase of an operation as the library reports it ("backup", "write", "final verify",
// "verify"): sectors done of total, and the ETA priced from the measured operation latency.
struct FlashPhase {
  QString stage;
  quint64 done = 0, total = 0;
  QString unit;
  std::optional<double> eta_seconds;
  double op_latency_us = 0;
  quint64 operations = 0;
  bool simulated_time = false;  // a simulated board: the ETA is the simulator's time
  bool complete() const { return total && done >= total; }
};

// How to write an image; `confirmed` is the panel's explicit confirmation (wavectl's --yes).
struct FlashWriteOptions {
  QString image;
  bool confirmed = false;
  bool clear_protection = false;    // --clear-cmp
  bool restore_protection = false;  // --restore-protection
  bool resume = false;              // --resume
  bool force_image = false;         // --force-image
  bool no_backup = false;           // --no-backup
};

// The validation report shown before a write (no device access): the image's size, SHA-256,
// its findings and the library's inspection text, or the library's refusal.
struct ImageValidation {
  QString path;
  bool accepted = false;  // check_write_request would let it through (without --force-image)
  QString error;          // the library's refusal, when not accepted
  QString sha256;
  qint64 size = -1;  // -1: unreadable
  int errors = 0, warnings = 0;
  QStringList findings;  // "error: ..." / "warning: ..." with offsets
  QString report;        // ifwi::to_text(inspect_image(...))
};

// The write journal of the selected device in the work directory (what --resume continues).
struct FlashJournalState {
  QString path;
  bool exists = false;
  QString status;  // in-progress | complete | failed | interrupted
  int verified = 0, sectors = 0;
  QString image_sha256, image_path, last_error;
  bool resumable() const { return exists && status != QStringLiteral("complete"); }
};

struct FlashOutcome {
  FlashOperation operation = FlashOperation::Probe;
  QString device;
  bool ok = false;
  bool interrupted = false;  // stopped by cancel() after finishing a sector
  QString error;             // the library's message
  int exit_code = 0;         // ErrorKind of the error (wavectl's exit status)
  QString report;            // the library's text report of what was done
  QStringList warnings;      // the library's warnings and a simulated board's findings
  // Probe: the board state (also when ROM_SW refuses the flash commands) and the flash info.
  QString board_state, board_explanation;
  std::optional<hw::flash::FlashInfoReport> info;
  std::optional<hw::flash::BackupResult> backup;
  std::optional<hw::flash::WriteSummary> write;
  QString sha256;  // verify: of what was read
};

class FlashController : public QObject {
  Q_OBJECT
public:
  explicit FlashController(QObject *parent = nullptr);
  // Stops a running operation at the next register access and waits for it.
  ~FlashController() override;

  // The simulator root ("" = $WAVESCOPE_SIM_ROOT, else $XDG_DATA_HOME/wavescope/sim).
  void set_sim_root(const QString &root) { sim_root_ = root; }
  QString sim_root() const { return sim_root_; }
  // Where backups and journals go (default: the current directory, as for wavectl).
  void set_work_dir(const QString &dir) { work_dir_ = dir; }
  QString work_dir() const { return work_dir_; }

  // Real bridges and cards, then simulated boards (library list_devices).
  const std::vector<hw::device::DeviceListing> &refresh_devices();
  const std::vector<hw::device::DeviceListing> &devices() const { return devices_; }
  // The device operations work on: usb:N, pci:BDF, sim:NAME or sim-pci:NAME.
  void set_device(const QString &spec);
  QString device() const { return device_; }
  bool device_simulated() const;

  // No device access: the report to show before asking for confirmation.
  ImageValidation validate_image(const QString &path) const;
  FlashJournalState journal() const;

  bool busy() const { return busy_; }
  // Each starts one operation on the worker thread; false (and nothing happens) while busy.
  bool start_probe();
  // Into `output`, or into the work directory under the name a write's backup takes.
  bool start_backup(const QString &output = {});
  bool start_write(const FlashWriteOptions &options);
  bool start_verify(const QString &image);
  // Simulated boards only: power off and on (restores power after an injected power loss).
  bool start_power_cycle();
  // First call: finish the current sector, then stop (resumable); second: stop at the next
  // register access.
  void cancel();
  int cancel_requests() const;
  // Runs the event loop until the operation in progress has finished; false on timeout.
  bool wait(int timeout_ms = 600000);

  const std::optional<FlashOutcome> &last_outcome() const { return last_; }
  const std::optional<FlashOutcome> &last_probe() const { return last_probe_; }
  // The phases of the operation in progress (or the last one), in the order they started.
  const std::vector<FlashPhase> &phases() const { return phases_; }

signals:
  void devices_changed();
  void device_changed(const QString &device);
  void busy_changed(bool busy);
  void progress(const FlashPhase &phase);
  void finished(const FlashOutcome &outcome);

private:
  struct Job;
  bool start(FlashOperation operation, std::function<FlashOutcome(Job &)> body);
  void on_progress(const FlashPhase &phase);
  void on_finished(FlashOutcome outcome);

  QString sim_root_;
  QString work_dir_ = QStringLiteral(".");
  QString device_;
  std::vector<hw::device::DeviceListing> devices_;
  bool busy_ = false;
  std::shared_ptr<CancelToken> cancel_;
  std::future<void> worker_;
  std::optional<FlashOutcome> last_, last_probe_;
  std::vector<FlashPhase> phases_;
};

}  // namespace wavescope::gui
