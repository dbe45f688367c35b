#include "views/flash_view.hpp"

#include <QCheckBox>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

#include "app/flash_controller.hpp"
#include "app/theme.hpp"
#include "models/flash_device_model.hpp"
#include "wavescope/hw/flash/flash_report.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"
#include "wavescope/hw/transport/transport_report.hpp"

namespace wavescope::gui {

namespace {

QString esc(const QString &s) { return s.toHtmlEscaped(); }
QString esc(const std::string &s) { return esc(QString::fromStdString(s)); }

QString row(const QString &key, const QString &value) {
  return QStringLiteral("<tr><td style='color:#8a919e;padding-right:14px'>%1</td><td>%2</td></tr>")
      .arg(key, value);
}

QString colored(const QString &text, const char *color) {
  return QStringLiteral("<span style='color:%1'>%2</span>").arg(QLatin1String(color), text);
}

// The board states of docs/flash-recovery.md §1, colored by what still works.
QString state_html(const QString &state) {
  if (state == QStringLiteral("bricked")) return colored(esc(state), "#e09a3e");
  if (state == QStringLiteral("booted")) return colored(esc(state), "#6cc06a");
  return colored(esc(state), "#e05a5a");
}

QString eta_text(const FlashPhase &p) {
  if (p.complete()) return QObject::tr("done");
  if (!p.eta_seconds) return QObject::tr("measuring…");
  const long s = std::lround(*p.eta_seconds);
  return QStringLiteral("%1:%2%3")
      .arg(s / 60)
      .arg(s % 60, 2, 10, QLatin1Char('0'))
      .arg(p.simulated_time ? QObject::tr(" simulated") : QString());
}

QPushButton *button(const QString &text, const QString &tip, QWidget *parent) {
  auto *b = new QPushButton(text, parent);
  b->setToolTip(tip);
  return b;
}

}  // namespace

FlashView::FlashView(QWidget *parent)
    : QWidget(parent), controller_(new FlashController(this)),
      device_model_(new FlashDeviceModel(this)), device_table_(new QTableView(this)),
      sim_root_(new QLabel(this)), board_(new QTextBrowser(this)), image_(new QLineEdit(this)),
      work_dir_(new QLineEdit(this)), validation_(new QTextBrowser(this)),
      clear_protection_(new QCheckBox(tr("Clear write protection if it covers the image"), this)),
      restore_protection_(new QCheckBox(tr("Restore protection after the final verify"), this)),
      force_image_(new QCheckBox(tr("Write an image that fails validation"), this)),
      journal_(new QLabel(this)), phases_(new QTreeWidget(this)), log_(new QTextBrowser(this)) {
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  auto *title = new QLabel(
      tr("<b>Flash recovery</b> <span style='color:#8a919e'>— a Navi31 board's 2 MiB SPI flash "
         "through ROM_SW: probe, verified backup, validated write with a journal, verify, "
         "resume (docs/flash-recovery.md)</span>"),
      this);
  layout->addWidget(title);

  // Left: devices and the selected board.
  device_table_->setModel(device_model_);
  device_table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  device_table_->setSelectionMode(QAbstractItemView::SingleSelection);
  device_table_->verticalHeader()->hide();
  device_table_->horizontalHeader()->setStretchLastSection(true);
  device_table_->setAlternatingRowColors(true);
  device_table_->setShowGrid(false);
  refresh_ =
      button(tr("&Refresh"), tr("List ASM24 bridges, PCI Navi31 cards and simulated boards"), this);
  sim_root_->setWordWrap(true);
  sim_root_->setStyleSheet(QStringLiteral("color:#8a919e"));
  auto *devices_box = new QGroupBox(tr("Devices"), this);
  auto *devices_layout = new QVBoxLayout(devices_box);
  auto *devices_bar = new QHBoxLayout;
  devices_bar->addWidget(sim_root_, 1);
  devices_bar->addWidget(refresh_);
  devices_layout->addWidget(device_table_, 1);
  devices_layout->addLayout(devices_bar);

  auto *board_box = new QGroupBox(tr("Board"), this);
  auto *board_layout = new QVBoxLayout(board_box);
  board_layout->addWidget(board_);
  auto *left = new QSplitter(Qt::Vertical, this);
  left->addWidget(devices_box);
  left->addWidget(board_box);
  left->setStretchFactor(0, 2);
  left->setStretchFactor(1, 3);

  // Right: the recovery steps, progress and the log.
  probe_ = button(tr("&Probe"),
                  tr("Board state, JEDEC id, status registers, protection (read-only)"), this);
  backup_ = button(tr("&Backup"),
                   tr("Read the whole chip twice, compare, and keep it in the work folder"), this);
  browse_ = button(tr("Image…"), tr("Choose the 2 MiB image to write"), this);
  validate_ = button(tr("&Validate"), tr("The image's validation report (no device access)"), this);
  write_ =
      button(tr("&Write…"),
             tr("Validate, confirm, back up, write sector by sector (header last), verify"), this);
  verify_ = button(tr("V&erify"), tr("Compare the chip with the image"), this);
  resume_ = button(tr("Res&ume"), tr("Continue the write recorded in the journal"), this);
  cancel_ = button(tr("&Cancel"),
                   tr("Finish the current sector, then stop (resumable); again: stop at the next "
                      "register access"),
                   this);
  power_cycle_ =
      button(tr("Power-c&ycle"),
             tr("Simulated boards: power off and on (after an injected power loss)"), this);
  image_->setPlaceholderText(tr("2 MiB image to write or verify"));
  work_dir_->setText(controller_->work_dir());
  work_dir_->setToolTip(tr("Backups and the write journal go here"));

  auto *steps_box = new QGroupBox(tr("Recovery"), this);
  auto *steps = new QGridLayout(steps_box);
  int r = 0;
  steps->addWidget(new QLabel(tr("1. Board"), this), r, 0);
  auto *board_buttons = new QHBoxLayout;
  board_buttons->addWidget(probe_);
  board_buttons->addWidget(power_cycle_);
  board_buttons->addStretch(1);
  steps->addLayout(board_buttons, r++, 1);
  steps->addWidget(new QLabel(tr("2. Keep"), this), r, 0);
  auto *keep = new QHBoxLayout;
  keep->addWidget(backup_);
  keep->addWidget(new QLabel(tr("into"), this));
  keep->addWidget(work_dir_, 1);
  steps->addLayout(keep, r++, 1);
  steps->addWidget(new QLabel(tr("3. Image"), this), r, 0);
  auto *image_row = new QHBoxLayout;
  image_row->addWidget(image_, 1);
  image_row->addWidget(browse_);
  image_row->addWidget(validate_);
  steps->addLayout(image_row, r++, 1);
  auto *options = new QHBoxLayout;
  options->addWidget(clear_protection_);
  options->addWidget(restore_protection_);
  options->addWidget(force_image_);
  options->addStretch(1);
  steps->addLayout(options, r++, 1);
  steps->addWidget(new QLabel(tr("4. Write"), this), r, 0);
  auto *write_row = new QHBoxLayout;
  write_row->addWidget(write_);
  write_row->addWidget(verify_);
  write_row->addWidget(resume_);
  write_row->addWidget(cancel_);
  write_row->addStretch(1);
  steps->addLayout(write_row, r++, 1);
  journal_->setWordWrap(true);
  journal_->setTextFormat(Qt::RichText);
  steps->addWidget(journal_, r++, 1);
  steps->setColumnStretch(1, 1);

  phases_->setHeaderLabels({tr("Phase"), tr("Progress"), tr("Sectors"), tr("ETA"), tr("ms/op")});
  phases_->setRootIsDecorated(false);
  phases_->setUniformRowHeights(true);
  phases_->header()->setStretchLastSection(false);
  phases_->header()->setSectionResizeMode(1, QHeaderView::Stretch);
  phases_->setMaximumHeight(120);

  validation_->setFont(theme::monospace_font(9));
  log_->setFont(theme::monospace_font(9));
  board_->setOpenLinks(false);
  auto *right = new QSplitter(Qt::Vertical, this);
  right->addWidget(steps_box);
  right->addWidget(phases_);
  right->addWidget(validation_);
  right->addWidget(log_);
  right->setStretchFactor(2, 2);
  right->setStretchFactor(3, 3);

  auto *split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(left);
  split->addWidget(right);
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 3);
  split->setSizes({560, 840});
  layout->addWidget(split, 1);

  confirm_ = [this](const QString &question) {
    return QMessageBox::warning(this, tr("Write the flash"), question,
                                QMessageBox::Yes | QMessageBox::Cancel,
                                QMessageBox::Cancel) == QMessageBox::Yes;
  };

  connect(refresh_, &QPushButton::clicked, this, [this] { controller_->refresh_devices(); });
  connect(probe_, &QPushButton::clicked, this, &FlashView::probe);
  connect(backup_, &QPushButton::clicked, this, &FlashView::backup);
  connect(validate_, &QPushButton::clicked, this, &FlashView::validate);
  connect(write_, &QPushButton::clicked, this, &FlashView::write);
  connect(verify_, &QPushButton::clicked, this, &FlashView::verify);
  connect(resume_, &QPushButton::clicked, this, &FlashView::resume);
  connect(cancel_, &QPushButton::clicked, this, &FlashView::cancel);
  connect(power_cycle_, &QPushButton::clicked, this, &FlashView::power_cycle);
  connect(browse_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Flash image"), {},
                                                      tr("Images (*.bin *.rom);;All files (*)"));
    if (!path.isEmpty()) set_image(path);
  });
  connect(work_dir_, &QLineEdit::editingFinished, this, [this] {
    controller_->set_work_dir(work_dir_->text());
    update_journal();
  });
  connect(controller_, &FlashController::devices_changed, this, [this] {
    device_model_->set_devices(controller_->devices());
    const int row = device_model_->row_of(controller_->device());
    if (row >= 0) device_table_->selectRow(row);
    const QString root = controller_->sim_root();
    sim_root_->setText(
        tr("%1 device(s); simulated boards from %2")
            .arg(device_model_->rowCount())
            .arg(root.isEmpty() ? tr("$WAVESCOPE_SIM_ROOT or $XDG_DATA_HOME") : root));
  });
  connect(device_table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex &current) {
            if (!current.isValid()) return;
            const QString spec =
                device_model_->index(current.row(), 0).data(FlashDeviceModel::SpecRole).toString();
            if (spec == controller_->device()) return;
            open_device(spec);
          });
  connect(controller_, &FlashController::progress, this, &FlashView::on_progress);
  connect(controller_, &FlashController::finished, this, &FlashView::on_finished);
  connect(controller_, &FlashController::busy_changed, this, [this] { update_buttons(); });

  board_->setHtml(tr("<p style='color:#8a919e'>Choose a device. Practise on a simulated board "
                     "first: <code>wavectl sim create practice</code> makes a bricked one.</p>"));
  controller_->refresh_devices();
  update_buttons();
  update_journal();
}

void FlashView::open_device(const QString &spec) {
  controller_->set_device(spec);
  const int row = device_model_->row_of(spec);
  if (row >= 0 && device_table_->currentIndex().row() != row) device_table_->selectRow(row);
  update_journal();
  update_buttons();
  probe();
}

void FlashView::set_image(const QString &path) {
  image_->setText(path);
  validate();
}

QString FlashView::board_text() const { return board_->toPlainText(); }
QString FlashView::log_text() const { return log_->toPlainText(); }
QString FlashView::validation_text() const { return validation_->toPlainText(); }

void FlashView::log(const QString &html) {
  log_->append(QStringLiteral("<span style='color:#8a919e'>%1</span> %2")
                   .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), html));
}

void FlashView::probe() {
  if (controller_->device().isEmpty()) return;
  if (controller_->start_probe())
    log(tr("probing %1 (read-only)…").arg(esc(controller_->device())));
}

void FlashView::backup() {
  controller_->set_work_dir(work_dir_->text());
  if (controller_->start_backup())
    log(tr("backup of %1: every sector read twice…").arg(esc(controller_->device())));
}

void FlashView::validate() {
  if (image_->text().isEmpty()) {
    validation_->clear();
    return;
  }
  const ImageValidation v = controller_->validate_image(image_->text());
  QString html = QStringLiteral("<b>%1</b> ").arg(esc(v.path));
  if (v.size >= 0)
    html += tr("— %1 bytes, SHA-256 %2 — %3 error(s), %4 warning(s)<br>")
                .arg(v.size)
                .arg(esc(v.sha256.left(16)) + QStringLiteral("…"))
                .arg(v.errors)
                .arg(v.warnings);
  html += v.accepted ? colored(tr("accepted for writing"), "#6cc06a")
                     : colored(tr("refused: ") + esc(v.error), "#e05a5a");
  if (!v.report.isEmpty()) html += QStringLiteral("<pre>%1</pre>").arg(esc(v.report));
  validation_->setHtml(html);
  update_buttons();
}

void FlashView::start_write(bool resume) {
  controller_->set_work_dir(work_dir_->text());
  const ImageValidation v = controller_->validate_image(image_->text());
  validate();
  FlashWriteOptions o;
  o.image = image_->text();
  o.resume = resume;
  o.clear_protection = clear_protection_->isChecked();
  o.restore_protection = restore_protection_->isChecked();
  o.force_image = force_image_->isChecked();
  // A refused image is refused by the library before anything is asked or touched.
  if (v.accepted || o.force_image) {
    const QString question =
        tr("%1 %2 on %3?\n\nImage %4 (SHA-256 %5…, %6 error(s), %7 warning(s)).\n\n"
           "The whole chip is backed up first (read twice), sectors that already match are "
           "skipped, sector 0 is programmed last, and every sector is read back. Cancel "
           "finishes the current sector; the journal lets you resume.")
            .arg(resume ? tr("Resume writing") : tr("Erase and program the flash"),
                 resume ? QString() : tr("with this image"), controller_->device(), v.path,
                 v.sha256.left(16))
            .arg(v.errors)
            .arg(v.warnings);
    o.confirmed = confirm_ && confirm_(question);
    if (!o.confirmed) {
      log(tr("write not confirmed: nothing was read or written"));
      return;
    }
  }
  if (controller_->start_write(o))
    log(tr("%1 %2 to %3…")
            .arg(resume ? tr("resuming the write of") : tr("writing"), esc(o.image),
                 esc(controller_->device())));
}

void FlashView::write() { start_write(false); }
void FlashView::resume() { start_write(true); }

void FlashView::verify() {
  if (controller_->start_verify(image_->text()))
    log(tr("verifying %1 against %2…").arg(esc(controller_->device()), esc(image_->text())));
}

void FlashView::power_cycle() {
  if (controller_->start_power_cycle())
    log(tr("power-cycling %1…").arg(esc(controller_->device())));
}

void FlashView::cancel() {
  controller_->cancel();
  log(controller_->cancel_requests() >= 2
          ? tr("cancel again: stopping at the next register access")
          : tr("cancel: finishing the current sector, then stopping (cancel again to stop at "
               "once)"));
}

void FlashView::on_progress(const FlashPhase &phase) {
  QTreeWidgetItem *item = nullptr;
  for (int i = 0; i < phases_->topLevelItemCount(); ++i)
    if (phases_->topLevelItem(i)->text(0) == phase.stage) item = phases_->topLevelItem(i);
  if (!item) {
    item = new QTreeWidgetItem(phases_, {phase.stage});
    auto *bar = new QProgressBar(phases_);
    bar->setMaximumHeight(14);
    bar->setTextVisible(false);
    phases_->setItemWidget(item, 1, bar);
  }
  if (auto *bar = qobject_cast<QProgressBar *>(phases_->itemWidget(item, 1))) {
    bar->setRange(0, static_cast<int>(phase.total));
    bar->setValue(static_cast<int>(phase.done));
  }
  item->setText(2, QStringLiteral("%1/%2 %3").arg(phase.done).arg(phase.total).arg(phase.unit));
  item->setText(3, eta_text(phase));
  item->setText(4, QString::number(phase.op_latency_us / 1000.0, 'f', 3));
}

void FlashView::show_board(const FlashOutcome &o) {
  QString html = QStringLiteral("<table>");
  html += row(tr("Device"), esc(o.device));
  if (!o.board_state.isEmpty())
    html += row(tr("State"), state_html(o.board_state) +
                                 QStringLiteral("<br><span "
                                                "style='color:#8a919e'>") +
                                 esc(o.board_explanation) + QStringLiteral("</span>"));
  if (o.info) {
    const auto &i = o.info->info;
    const QString jedec = esc(hw::navi31::hex_bytes(i.jedec.bytes));
    html +=
        row(tr("JEDEC id"),
            (i.jedec.expected ? colored(jedec, "#6cc06a") : colored(jedec, "#e05a5a")) +
                QStringLiteral(" — ") + esc(i.part ? i.part->name : std::string("unknown part")));
    html += row(tr("SR1"),
                QStringLiteral("0x%1").arg(
                    QString::number(i.sr1, 16).rightJustified(2, QLatin1Char('0')).toUpper()));
    html += row(tr("SR2"),
                QStringLiteral("0x%1").arg(
                    QString::number(i.sr2, 16).rightJustified(2, QLatin1Char('0')).toUpper()));
    html += row(tr("SR3"),
                QStringLiteral("0x%1").arg(
                    QString::number(i.sr3, 16).rightJustified(2, QLatin1Char('0')).toUpper()));
    html += row(tr("Status"), esc(hw::flash::describe_status_registers(i.sr1, i.sr2)));
    const QString range = esc(i.protection.describe(hw::navi31::kFlashSize));
    html += row(tr("Protected"),
                (i.protection.empty() ? range : colored(range, "#e09a3e")) +
                    (i.status_register_locked ? colored(tr(" — status register locked"), "#e05a5a")
                                              : QString()));
    html += row(tr("SFDP"),
                esc(i.sfdp_signature ? tr("signature at offset %1").arg(*i.sfdp_signature)
                                     : tr("signature not found")) +
                    (i.sfdp_density ? tr(", density %1 bytes").arg(*i.sfdp_density) : QString()));
    html += row(tr("Transport"), esc(hw::to_text(o.info->run.transport)));
  }
  if (!o.error.isEmpty()) html += row(tr("Flash"), colored(esc(o.error), "#e05a5a"));
  html += QStringLiteral("</table>");
  board_->setHtml(html);
}

void FlashView::on_finished(const FlashOutcome &o) {
  const QString what = operation_name(o.operation);
  if (o.operation == FlashOperation::Probe) show_board(o);
  if (o.ok)
    log(colored(tr("%1 done").arg(what), "#6cc06a"));
  else if (o.interrupted)
    log(colored(tr("%1 stopped: ").arg(what), "#e09a3e") + esc(o.error));
  else
    log(colored(tr("%1 failed (exit status %2): ").arg(what).arg(o.exit_code), "#e05a5a") +
        esc(o.error));
  for (const QString &w : o.warnings) log(colored(tr("warning: "), "#e09a3e") + esc(w));
  if (!o.report.isEmpty())
    log_->append(QStringLiteral("<pre>%1</pre>").arg(esc(o.report.trimmed())));
  update_journal();
  update_buttons();
  // A write, power cycle or backup changes what the board shows: probe it again.
  if (o.operation != FlashOperation::Probe && o.operation != FlashOperation::Verify &&
      !controller_->busy())
    controller_->start_probe();
}

void FlashView::update_journal() {
  const FlashJournalState j = controller_->journal();
  if (!j.exists) {
    journal_->setText(tr("<span style='color:#8a919e'>Journal: none for this device in %1</span>")
                          .arg(esc(controller_->work_dir())));
  } else {
    journal_->setText(tr("Journal %1: <b>%2</b>, %3 of %4 sectors verified%5")
                          .arg(esc(j.path), esc(j.status))
                          .arg(j.verified)
                          .arg(j.sectors)
                          .arg(j.last_error.isEmpty() ? QString()
                                                      : QStringLiteral(" — ") +
                                                            colored(esc(j.last_error), "#e05a5a")));
    if (j.resumable() && image_->text().isEmpty() && !j.image_path.isEmpty())
      image_->setText(j.image_path);
  }
  update_buttons();
}

void FlashView::update_buttons() {
  const bool busy = controller_->busy();
  const bool device = !controller_->device().isEmpty();
  const bool image = !image_->text().isEmpty();
  const bool resumable = controller_->journal().resumable();
  probe_->setEnabled(!busy && device);
  backup_->setEnabled(!busy && device);
  write_->setEnabled(!busy && device && image && !resumable);
  verify_->setEnabled(!busy && device && image);
  resume_->setEnabled(!busy && device && image && resumable);
  cancel_->setEnabled(busy);
  power_cycle_->setEnabled(!busy && controller_->device_simulated());
  refresh_->setEnabled(!busy);
}

}  // namespace wavescope::gui
