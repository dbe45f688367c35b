// How a fake queue's run ended (queue_run.hpp).

#include "sim/am/queue_run.hpp"

#include "wavescope/base/error.hpp"

namespace wavescope::hw::sim::am {

const char *queue_run_status_name(QueueRunStatus status) {
  switch (status) {
  case QueueRunStatus::Idle: return "idle";
  case QueueRunStatus::Waiting: return "waiting";
  case QueueRunStatus::Fault: return "fault";
  }
  return "?";
}

QueueRunResult stopped_by_exception(QueueRunResult result) {
  result.status = QueueRunStatus::Fault;
  try {
    throw;
  } catch (const MmuFaultError &e) {
    result.message = e.what();
    result.page_fault = e.fault();
  } catch (const Error &e) {
    result.message = e.what();
  }
  return result;
}

}  // namespace wavescope::hw::sim::am
