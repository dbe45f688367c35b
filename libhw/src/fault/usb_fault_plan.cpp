#include "fault/usb_fault_plan.hpp"

namespace wavescope::hw {

std::string_view to_string(UsbTransferKind kind) {
  switch (kind) {
  case UsbTransferKind::ControlOut: return "control OUT";
  case UsbTransferKind::ControlIn: return "control IN";
  case UsbTransferKind::BulkOut: return "bulk OUT";
  case UsbTransferKind::BulkIn: return "bulk IN";
  }
  return "transfer";
}

void UsbFaultPlan::add(UsbFault fault) { faults_.push_back({fault, 0, false}); }

void UsbFaultPlan::fail_nth(UsbTransferKind kind, std::uint64_t nth, UsbFaultEffect effect,
                            std::size_t short_length) {
  UsbFault fault;
  fault.kind = kind;
  fault.nth = nth;
  fault.effect = effect;
  fault.short_length = short_length;
  add(fault);
}

void UsbFaultPlan::fail_from(UsbTransferKind kind, std::uint64_t nth, UsbFaultEffect effect) {
  UsbFault fault;
  fault.kind = kind;
  fault.nth = nth;
  fault.and_after = true;
  fault.effect = effect;
  add(fault);
}

void UsbFaultPlan::return_status_for(unsigned attempts, std::uint8_t status) {
  return_status_attempts_ = attempts;
  return_status_ = status == 0 ? 1 : status;
}

void UsbFaultPlan::completion_status_for(unsigned count, asm24::CompletionStatus status) {
  completion_count_ = count;
  completion_status_ = status;
}

void UsbFaultPlan::link_training_fails(std::uint8_t ltssm) { training_failure_ = ltssm; }

void UsbFaultPlan::link_down_after(std::uint64_t transfers) {
  if (transfers == 0)
    link_down_ = true;
  else
    link_down_countdown_ = transfers;
}

void UsbFaultPlan::set_link_down(bool down) {
  link_down_ = down;
  link_down_countdown_.reset();
}

void UsbFaultPlan::clear() { *this = UsbFaultPlan{}; }

std::optional<UsbFault> UsbFaultPlan::on_transfer(UsbTransferKind kind,
                                                  const UsbControlSetup *setup) {
  if (link_down_countdown_ && --*link_down_countdown_ == 0) {
    link_down_ = true;
    link_down_countdown_.reset();
  }
  std::optional<UsbFault> hit;
  for (auto &armed : faults_) {
    const auto &f = armed.fault;
    if (armed.spent || (f.kind && *f.kind != kind)) continue;
    if (f.request && (!setup || setup->request != *f.request)) continue;
    if (f.index && (!setup || setup->index != *f.index)) continue;
    ++armed.seen;
    if (armed.seen < f.nth) continue;
    if (!f.and_after) armed.spent = true;
    if (!hit) hit = f;
  }
  if (hit) ++injected_;
  return hit;
}

std::optional<std::uint8_t> UsbFaultPlan::take_return_status() {
  if (return_status_attempts_ == 0) return std::nullopt;
  --return_status_attempts_;
  ++injected_;
  return return_status_;
}

std::optional<asm24::CompletionStatus> UsbFaultPlan::take_completion_status() {
  if (completion_count_ == 0) return std::nullopt;
  --completion_count_;
  ++injected_;
  return completion_status_;
}

}  // namespace wavescope::hw
