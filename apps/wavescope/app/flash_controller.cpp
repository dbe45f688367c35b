#include "app/flash_controller.hpp"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QThread>

#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/hw/flash/flash_journal.hpp"
#include "wavescope/hw/flash/flash_operations.hpp"
#include "wavescope/hw/ifwi/image_report.hpp"
#include "wavescope/hw/navi31/board_probe.hpp"
#include "wavescope/hw/sim/board_commands.hpp"
#include "wavescope/hw/sim/board_report.hpp"

namespace wavescope::gui {

namespace fs = std::filesystem;
namespace flash = hw::flash;
namespace device = hw::device;
using nlohmann::json;

namespace {

QString q(const std::string &s) { return QString::fromStdString(s); }
fs::path path_of(const QString &s) { return fs::path(s.toStdString()); }

std::optional<device::DeviceSpec> spec_of(const QString &text) {
  if (text.isEmpty()) return std::nullopt;  // the first real device, as wavectl without --device
  return device::parse_device_spec(text.toStdString());
}

fs::path resolve_root(const QString &root) {
  return device::resolve_sim_root(root.isEmpty() ? std::nullopt
                                                 : std::optional<fs::path>(path_of(root)));
}

flash::FlashRun run_of(device::OpenedDevice &dev, const flash::FlashSessionOptions &options) {
  return {dev.id(), options.optimize.describe(), dev.bar5().stats()};
}

// The JSON a report records with a simulated board's run (as wavectl's print_report returns it).
template <typename Report> json summary_of(const Report &report) {
  return json::parse(flash::to_json(report));
}

void add_warnings(FlashOutcome &out, const std::vector<std::string> &warnings) {
  for (const auto &w : warnings) out.warnings << q(w);
}

// Runs `body`; the library's error, if any, ends in `out` with its message and exit code, so what
// the body found before it (warnings, the board state) stays with the outcome.
template <typename Body> FlashOutcome guarded(Body &&body) {
  FlashOutcome out;
  try {
    body(out);
  } catch (const Error &e) {
    out.error = q(e.what());
    out.exit_code = e.exit_code();
  }
  return out;
}

}  // namespace

QString operation_name(FlashOperation operation) {
  switch (operation) {
  case FlashOperation::Probe: return QStringLiteral("probe");
  case FlashOperation::Backup: return QStringLiteral("backup");
  case FlashOperation::Write: return QStringLiteral("write");
  case FlashOperation::Verify: return QStringLiteral("verify");
  case FlashOperation::PowerCycle: return QStringLiteral("power-cycle");
  }
  return {};
}

// What the worker needs, copied at start so the GUI thread may change the controller meanwhile.
struct FlashController::Job {
  FlashController *owner;
  QString device;
  fs::path sim_root;
  fs::path work_dir;
  std::shared_ptr<CancelToken> cancel;
  flash::FlashSessionOptions session;  // the conservative procedure, as wavectl's default

  // Progress of the library's procedures, posted to the GUI thread.
  OperationProgressSink sink(bool simulated) const {
    FlashController *to = owner;
    return [to, simulated](const OperationProgress &p) {
      FlashPhase phase{
          q(std::string(p.stage)), p.done,          p.total,      q(std::string(p.unit)),
          p.eta_seconds,           p.op_latency_us, p.operations, simulated};
      QMetaObject::invokeMethod(
          to, [to, phase] { to->on_progress(phase); }, Qt::QueuedConnection);
    };
  }

  // Opens the device, runs `body` (which fills `out` and returns the run's JSON summary), closes
  // the device and collects a simulated board's findings; errors end in `out` with their message.
  template <typename Body>
  void on_device(FlashOutcome &out, hw::sim::RunExpectations expectations, const char *command,
                 Body &&body) const {
    device::OpenOptions open;
    open.sim_root = sim_root;
    open.expectations = expectations;
    open.command = std::string("wavescope flash ") + command;
    auto dev = device::open_device(spec_of(device), open);
    out.device = q(dev->id());
    auto findings = [&](const std::vector<hw::sim::Finding> &list) {
      for (const auto &f : list)
        out.warnings
            << QStringLiteral("simulator %1: %2: %3").arg(out.device, q(f.check), q(f.message));
    };
    json summary;
    try {
      summary = body(*dev);
    } catch (const Error &e) {
      findings(dev->close(json{{"error", e.what()}, {"exit_code", e.exit_code()}}.dump()));
      throw;
    }
    findings(dev->close(summary.is_null() ? std::string() : summary.dump()));
  }
};

FlashController::FlashController(QObject *parent) : QObject(parent) {}

FlashController::~FlashController() {
  if (worker_.valid()) {
    if (cancel_) {
      cancel_->request();
      cancel_->request();
    }
    worker_.wait();
  }
}

const std::vector<device::DeviceListing> &FlashController::refresh_devices() {
  try {
    devices_ = device::list_devices(resolve_root(sim_root_));
  } catch (const std::exception &) {
    devices_.clear();  // list_devices works without permissions; a bad root lists nothing
  }
  emit devices_changed();
  return devices_;
}

void FlashController::set_device(const QString &spec) {
  if (spec == device_) return;
  device_ = spec;
  emit device_changed(device_);
}

bool FlashController::device_simulated() const {
  try {
    const auto spec = spec_of(device_);
    return spec && spec->simulated();
  } catch (const Error &) {
    return false;
  }
}

ImageValidation FlashController::validate_image(const QString &path) const {
  ImageValidation v;
  v.path = path;
  try {
    const auto image = read_file_bytes(path_of(path), "image");
    v.size = static_cast<qint64>(image.size());
    v.sha256 = q(sha256_hex(image));
    const auto report = hw::ifwi::inspect_image(image, path.toStdString());
    v.report = q(hw::ifwi::to_text(report));
    v.errors = static_cast<int>(report.check.error_count());
    v.warnings = static_cast<int>(report.check.warning_count());
    for (const auto &f : report.check.findings)
      v.findings << QStringLiteral("%1: %2").arg(q(std::string(to_string(f.severity))),
                                                 q(f.message));
    // The write's own gate, as `flash write --yes` would apply it.
    flash::WriteRequest request;
    request.confirmed = true;
    request.image = image;
    request.image_path = path.toStdString();
    (void)flash::check_write_request(request);
    v.accepted = true;
  } catch (const std::exception &e) {
    v.error = q(e.what());
  }
  return v;
}

FlashJournalState FlashController::journal() const {
  FlashJournalState state;
  if (device_.isEmpty()) return state;
  try {
    const auto spec = spec_of(device_);
    flash::WriteRequest request;
    request.work_dir = path_of(work_dir_);
    const fs::path path = flash::journal_path(request, spec->text());
    state.path = q(path.string());
    const auto journal = flash::FlashJournal::load(path);
    if (!journal) return state;
    state.exists = true;
    state.status = q(journal->status);
    state.verified = static_cast<int>(journal->verified.size());
    state.sectors = static_cast<int>(journal->sector_count);
    state.image_sha256 = q(journal->image_sha256);
    state.image_path = q(journal->image_path);
    state.last_error = q(journal->last_error);
  } catch (const std::exception &e) {
    state.exists = true;
    state.status = QStringLiteral("unreadable");
    state.last_error = q(e.what());
  }
  return state;
}

bool FlashController::start(FlashOperation operation, std::function<FlashOutcome(Job &)> body) {
  if (busy_) return false;
  if (worker_.valid()) worker_.wait();  // finished: its result has been delivered
  busy_ = true;
  phases_.clear();
  cancel_ = std::make_shared<CancelToken>();
  auto job = std::make_shared<Job>();
  job->owner = this;
  job->device = device_;
  job->work_dir = path_of(work_dir_);
  job->cancel = cancel_;
  try {
    job->sim_root = resolve_root(sim_root_);
  } catch (const std::exception &) {
    job->sim_root = path_of(sim_root_);
  }
  emit busy_changed(true);
  worker_ = std::async(std::launch::async, [this, job, operation, body = std::move(body)] {
    FlashOutcome out;
    try {
      out = body(*job);
    } catch (const Error &e) {
      out.error = q(e.what());
      out.exit_code = e.exit_code();
    } catch (const std::exception &e) {
      out.error = q(e.what());
      out.exit_code = static_cast<int>(ErrorKind::Internal);
    }
    out.operation = operation;
    if (out.device.isEmpty()) out.device = job->device;
    out.ok = out.error.isEmpty() && !out.interrupted;
    QMetaObject::invokeMethod(
        this, [this, out] { on_finished(out); }, Qt::QueuedConnection);
  });
  return true;
}

bool FlashController::start_probe() {
  return start(FlashOperation::Probe, [](Job &job) {
    return guarded([&](FlashOutcome &out) {
      job.on_device(out, {true, false}, "info", [&](device::OpenedDevice &dev) {
        // The read-only state probe first: it tells the board state even where ROM_SW refuses.
        const auto probe = hw::navi31::probe_board(dev.bar5());
        out.board_state = q(probe.state_name());
        out.board_explanation = q(probe.explanation());
        flash::FlashSession session(dev.bar5(), dev.clock(), job.session);
        flash::FlashInfoReport report;
        report.info = flash::read_flash_info(session);
        report.board_state = session.probe().state_name();
        report.board_explanation = session.probe().explanation();
        report.run = run_of(dev, job.session);
        out.report = q(flash::to_text(report));
        out.info = report;
        return summary_of(report);
      });
    });
  });
}

bool FlashController::start_backup(const QString &output) {
  return start(FlashOperation::Backup, [output](Job &job) {
    return guarded([&](FlashOutcome &out) {
      job.on_device(out, {true, false}, "backup", [&](device::OpenedDevice &dev) {
        flash::FlashSession session(dev.bar5(), dev.clock(), job.session, job.cancel.get());
        std::optional<fs::path> file;
        if (!output.isEmpty()) file = path_of(output);
        auto result =
            flash::backup_flash(session, dev.id(), file, job.work_dir, job.sink(dev.simulated()));
        add_warnings(out, result.warnings);
        const flash::FlashDumpReport report{run_of(dev, job.session), result.output.string(),
                                            result.bytes, result.sha256, result.reread_sectors};
        out.report = q(flash::to_text(report));
        out.sha256 = q(result.sha256);
        out.backup = std::move(result);
        return summary_of(report);
      });
    });
  });
}

bool FlashController::start_write(const FlashWriteOptions &options) {
  return start(FlashOperation::Write, [options](Job &job) {
    return guarded([&](FlashOutcome &out) {
      // Everything that can refuse the request does so before the device is opened (as wavectl).
      flash::WriteRequest request;
      request.confirmed = options.confirmed;
      request.force_image = options.force_image;
      request.resume = options.resume;
      request.clear_protection = options.clear_protection;
      request.restore_protection = options.restore_protection;
      request.no_backup = options.no_backup;
      request.work_dir = job.work_dir;
      const auto planned = flash::plan_write_from_file(std::move(request), path_of(options.image));
      const auto &plan = planned.plan;
      try {
        job.on_device(
            out, {false, options.clear_protection}, "write", [&](device::OpenedDevice &dev) {
              flash::FlashSession session(dev.bar5(), dev.clock(), job.session, job.cancel.get());
              auto summary = flash::write_flash(session, dev.id(), planned.request, plan,
                                                job.sink(dev.simulated()));
              add_warnings(out, summary.warnings);
              out.interrupted = summary.interrupted;
              const flash::FlashWriteReport report{
                  run_of(dev, job.session), planned.request.image_path, summary, std::nullopt};
              out.report = q(flash::to_text(report));
              out.sha256 = q(summary.range_sha256);
              out.write = std::move(summary);
              return summary_of(report);
            });
      } catch (const Error &) {
        if (job.cancel->abort_requested()) out.interrupted = true;
        throw;
      }
      if (out.interrupted && out.write) out.error = q(out.write->resume_hint);
    });
  });
}

bool FlashController::start_verify(const QString &image_path) {
  return start(FlashOperation::Verify, [image_path](Job &job) {
    return guarded([&](FlashOutcome &out) {
      const auto image = read_file_bytes(path_of(image_path), "image");
      job.on_device(out, {true, false}, "verify", [&](device::OpenedDevice &dev) {
        flash::FlashSession session(dev.bar5(), dev.clock(), job.session, job.cancel.get());
        const auto result = flash::verify_flash(session, image, job.sink(dev.simulated()));
        add_warnings(out, result.warnings);
        const flash::FlashVerifyReport report{run_of(dev, job.session), image_path.toStdString(),
                                              result.sha256};
        out.report = q(flash::to_text(report));
        out.sha256 = q(result.sha256);
        return summary_of(report);
      });
    });
  });
}

bool FlashController::start_power_cycle() {
  return start(FlashOperation::PowerCycle, [](Job &job) {
    return guarded([&](FlashOutcome &out) {
      const auto spec = spec_of(job.device);
      if (!spec || !spec->simulated())
        throw Error(ErrorKind::Usage,
                    "only a simulated board (sim:NAME) can be power-cycled from here; power-cycle "
                    "a real board by hand, with no driver loading it");
      const auto status = hw::sim::power_cycle_board(hw::sim::SimStore(job.sim_root), spec->name);
      out.device = q(spec->text());
      out.report = q(hw::sim::to_text(status));
      out.board_state = q(status.state);
    });
  });
}

void FlashController::cancel() {
  if (busy_ && cancel_) cancel_->request();
}

int FlashController::cancel_requests() const { return cancel_ ? cancel_->requests() : 0; }

bool FlashController::wait(int timeout_ms) {
  QDeadlineTimer deadline(timeout_ms);
  while (busy_) {
    if (deadline.hasExpired()) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    if (busy_) QThread::msleep(2);
  }
  return true;
}

void FlashController::on_progress(const FlashPhase &phase) {
  if (!busy_) return;
  if (phases_.empty() || phases_.back().stage != phase.stage) {
    phases_.push_back(phase);
  } else {
    phases_.back() = phase;
  }
  emit progress(phase);
}

void FlashController::on_finished(FlashOutcome outcome) {
  busy_ = false;
  if (outcome.operation == FlashOperation::Probe) last_probe_ = outcome;
  last_ = std::move(outcome);
  refresh_devices();  // a board's state may have changed
  emit busy_changed(false);
  emit finished(*last_);
}

}  // namespace wavescope::gui
