#pragma once
// F14 USB faults written as text (`wavectl sim fault NAME usb:...`), applied to the simulated
// ASM24 bridge's UsbFaultPlan when a command opens the board through `sim:NAME`:
//
//   usb:transfer=bulk-in,nth=40,effect=timeout     the 40th bulk IN times out
//   usb:transfer=control-out,request=0xF0,mode=2,nth=3,effect=stall
//   usb:transfer=bulk-in,nth=10,effect=short,short=2,after
//   usb:return-status=3      the next 3 single TLPs are not executed (retry path)
//   usb:completion=ur,count=1 | usb:link-training=0x11 | usb:link-down-after=500
//
// Transfers are counted from the start of the command that opens the board; a USB fault is
// used by one command and then removed (the bridge exists only while a command runs).

#include <string>

#include "fault/usb_fault_plan.hpp"

namespace wavescope::hw::device {

// Throws Error(Usage) naming the bad key and listing the accepted forms.
void apply_usb_fault(UsbFaultPlan &plan, const std::string &spec);

}  // namespace wavescope::hw::device
