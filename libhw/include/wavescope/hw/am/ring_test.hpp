#pragma once
// `wavectl am ring --submit`: prove a queue works end to end on a GPU AM booted. In a scratch area
// at the top of the general pool (the last 8 MiB below the reserved top, which a runtime
// allocating bottom-up reaches last) it maps 1 MiB at the top of the 2^44 VA window into the
// existing VMID-0 page tables (flushing both hubs' TLBs), sets up compute queue 0 (MQD, HQD) or
// SDMA queue 0 there, writes one packet — PM4 RELEASE_MEM or an SDMA WRITE of 0xC0DE_0049 /
// 0xC0DE_5D4A to a data dword —, sets the write pointer, flushes the HDP and rings the doorbell,
// then waits up to a second for the dword. Afterwards the queue is taken down again (HQD dequeue,
// or SDMA fini) and the scratch VA unmapped. Refuses a GPU that AM did not boot (SCRATCH_REG7) or
// whose queue 0 is already in use. On a real GPU this writes registers, VRAM and a doorbell:
// untested on hardware.

#include <string_view>

#include "wavescope/hw/am/ring_report.hpp"

namespace wavescope::hw::am {

class AmDevice;

enum class RingTestEngine { Compute, Sdma };
RingTestEngine ring_test_engine(std::string_view name);  // "compute", "sdma"; Error(Usage)

// Fills report.submission and the queue status right after execution.
void run_ring_test(AmDevice &device, RingTestEngine engine, RingReport &report);

}  // namespace wavescope::hw::am
