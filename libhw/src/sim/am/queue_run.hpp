#pragma once
// How one run of a fake queue (the CP's PM4 interpreter, the SDMA executor) ended: idle (ran dry),
// waiting (a WAIT_REG_MEM/POLL_REGMEM not yet satisfied) or fault, and why.

#include <cstddef>
#include <optional>
#include <string>

#include "sim/am/gpu_mmu.hpp"

namespace wavescope::hw::sim::am {

enum class QueueRunStatus { Idle, Waiting, Fault };
const char *queue_run_status_name(QueueRunStatus status);

struct QueueRunResult {
  QueueRunStatus status = QueueRunStatus::Idle;
  std::size_t packets = 0;  // run in this call
  std::string message;      // what stopped it, for Waiting and Fault
  std::optional<MmuFault> page_fault;
};

// `result` stopped by the exception being handled: a page fault (kept with its fault) or memory
// the fake cannot reach (a system page without host memory, beyond VRAM). The queue stops there;
// the error never travels back through the doorbell write. Call it from a catch block only.
QueueRunResult stopped_by_exception(QueueRunResult result);

}  // namespace wavescope::hw::sim::am
