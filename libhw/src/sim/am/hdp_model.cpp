#include "sim/am/hdp_model.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/am/fake_gpu.hpp"

namespace wavescope::hw::sim::am {

namespace {
constexpr std::uint64_t kDefaultFlushOffset = 0x7F000;  // amdgpu's MMIO_REG_HOLE_OFFSET

const BlockModelRegistration kHdp("hdp", 20, [](FakeGpu &gpu) -> std::unique_ptr<BlockModel> {
  if (!gpu.has_register("nbio.BIF_BX0_REMAP_HDP_MEM_FLUSH_CNTL")) return nullptr;
  return std::make_unique<HdpModel>(gpu);
});
}  // namespace

HdpModel::HdpModel(FakeGpu &gpu) : gpu_(gpu) {
  auto &regs = gpu_.registers();
  remap_ = gpu_.key("nbio.BIF_BX0_REMAP_HDP_MEM_FLUSH_CNTL");
  flush_key_ = gpu_.config().number("hdp.flush_offset", kDefaultFlushOffset) / 4;
  regs.own(remap_, "hdp");
  regs.on_write(
      flush_key_, [this](RegisterKey, std::uint32_t, std::uint32_t) { ++flushes_; }, "hdp");
  // The PM4 handshake: DONE reads what REQ asked for once the flush is done (at once here).
  for (const char *pf : {"PF0", "PF1"}) {
    const std::string req = fmt::format("nbio.BIF_BX_{}_GPU_HDP_FLUSH_REQ", pf);
    const std::string done = fmt::format("nbio.BIF_BX_{}_GPU_HDP_FLUSH_DONE", pf);
    if (!gpu_.has_register(req) || !gpu_.has_register(done)) continue;
    const RegisterKey req_key = gpu_.key(req), done_key = gpu_.key(done);
    regs.on_write(
        req_key,
        [this, done_key](RegisterKey, std::uint32_t v, std::uint32_t) {
          ++flushes_;
          gpu_.registers().poke(done_key, v);
        },
        "hdp");
    regs.own(done_key, "hdp");
    handshakes_.emplace_back(req_key, done_key);
  }
  // A 64-bit doorbell is rung by its low dword (the high one follows or precedes it).
  gpu_.on_doorbell([this](const DoorbellWrite &w) {
    if (w.offset % 8 == 0) event(Event::Doorbell);
  });
}

void HdpModel::reset(ResetKind) {
  // The remap register holds the flush register's BAR5 byte offset (AM never programs it).
  gpu_.registers().poke(remap_, static_cast<std::uint32_t>(flush_key_ * 4));
  flushes_ = events_ = unflushed_ = flushes_at_last_event_ = 0;
}

bool HdpModel::cp_write(RegisterKey key, std::uint32_t value) {
  for (const auto &[req, done] : handshakes_) {
    if (key != req) continue;
    ++flushes_;
    gpu_.registers().poke(req, value);
    gpu_.registers().poke(done, value);
    return true;
  }
  return false;
}

void HdpModel::event(Event) {
  ++events_;
  if (flushes_ == flushes_at_last_event_) ++unflushed_;
  flushes_at_last_event_ = flushes_;
}

nlohmann::json HdpModel::save() const {
  return {{"flushes", flushes_},
          {"events", events_},
          {"unflushed", unflushed_},
          {"flushes_at_last_event", flushes_at_last_event_}};
}

void HdpModel::load(const nlohmann::json &j) {
  if (!j.is_object()) return;
  flushes_ = j.value("flushes", std::uint64_t{0});
  events_ = j.value("events", std::uint64_t{0});
  unflushed_ = j.value("unflushed", std::uint64_t{0});
  flushes_at_last_event_ = j.value("flushes_at_last_event", std::uint64_t{0});
}

nlohmann::json HdpModel::status() const {
  return {{"flush_register", fmt::format("0x{:X}", flush_key_ * 4)},
          {"flushes", flushes_},
          {"doorbells_and_invalidations", events_},
          {"without_a_flush_before", unflushed_}};
}

}  // namespace wavescope::hw::sim::am
