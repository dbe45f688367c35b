#include "wavescope/trace/profile/memory_layout.hpp"

#include <algorithm>
#include <unordered_map>

namespace wavescope::trace::profile {

std::uint64_t BufferBand::base_at(Picoseconds time) const {
  if (steps.empty()) return 0;
  const auto it = std::upper_bound(steps.begin(), steps.end(), time,
                                   [](Picoseconds t, const BandStep &s) { return t < s.time; });
  return it == steps.begin() ? steps.front().base : std::prev(it)->base;
}

namespace {
struct Event {
  Picoseconds time;
  bool alloc;  // frees sort first at equal times
  std::uint32_t buffer;
};

void set_base(BufferBand &band, Picoseconds time, std::uint64_t base) {
  if (!band.steps.empty()) {
    if (band.steps.back().time == time) {
      band.steps.back().base = base;
      // A change undone within the same instant leaves no step.
      if (band.steps.size() > 1 && band.steps[band.steps.size() - 2].base == base)
        band.steps.pop_back();
      return;
    }
    if (band.steps.back().base == base) return;
  }
  band.steps.push_back({time, base});
}
}  // namespace

MemoryLayout layout_memory(const Track &track) {
  MemoryLayout layout;
  const auto n = static_cast<std::uint32_t>(track.buffers.size());
  layout.bands.resize(n);
  std::vector<Event> events;
  events.reserve(2 * static_cast<std::size_t>(n));
  for (std::uint32_t i = 0; i < n; ++i) {
    const Buffer &b = track.buffers[i];
    layout.bands[i].buffer = i;
    if (b.freed <= b.allocated) {
      // Never alive: a band of no width, at the bottom.
      layout.bands[i].steps.push_back({b.allocated, 0});
      continue;
    }
    events.push_back({b.allocated, true, i});
    events.push_back({b.freed, false, i});
  }
  std::sort(events.begin(), events.end(), [](const Event &a, const Event &b) {
    if (a.time != b.time) return a.time < b.time;
    if (a.alloc != b.alloc) return !a.alloc;
    return a.buffer < b.buffer;
  });

  // The buffers alive, in stacking (allocation) order, with their current bases.
  std::vector<std::uint32_t> live;
  std::vector<std::uint64_t> base(n, 0);
  std::uint64_t total = 0;
  for (std::size_t e = 0; e < events.size();) {
    const Picoseconds time = events[e].time;
    for (; e < events.size() && events[e].time == time; ++e) {
      const Event &ev = events[e];
      const std::uint64_t bytes = track.buffers[ev.buffer].bytes();
      const auto pos = std::lower_bound(live.begin(), live.end(), ev.buffer);
      if (ev.alloc) {
        const auto at = live.insert(pos, ev.buffer);
        base[ev.buffer] =
            at == live.begin() ? 0 : base[*std::prev(at)] + track.buffers[*std::prev(at)].bytes();
        set_base(layout.bands[ev.buffer], time, base[ev.buffer]);
        for (auto it = std::next(at); it != live.end(); ++it) {
          base[*it] += bytes;
          set_base(layout.bands[*it], time, base[*it]);
        }
        total += bytes;
      } else {
        const auto at = live.erase(pos);
        for (auto it = at; it != live.end(); ++it) {
          base[*it] -= bytes;
          set_base(layout.bands[*it], time, base[*it]);
        }
        total -= bytes;
      }
    }
    const auto alive = static_cast<std::uint32_t>(live.size());
    layout.live.push_back({time, total, alive});
    layout.max_buffers = std::max(layout.max_buffers, alive);
    if (total > layout.peak) {
      layout.peak = total;
      layout.peak_time = time;
      layout.peak_buffers = alive;
    }
  }
  return layout;
}

std::vector<std::uint32_t> MemoryLayout::alive_at(const Track &track, Picoseconds time) const {
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < track.buffers.size() && i < bands.size(); ++i) {
    const Buffer &b = track.buffers[i];
    if (b.allocated <= time && time < b.freed) out.push_back(i);
  }
  return out;
}

int MemoryLayout::buffer_at(const Track &track, Picoseconds time, double bytes) const {
  if (bytes < 0) return -1;
  for (const std::uint32_t i : alive_at(track, time)) {
    const auto bottom = static_cast<double>(bands[i].base_at(time));
    if (bytes >= bottom && bytes < bottom + static_cast<double>(track.buffers[i].bytes()))
      return static_cast<int>(i);
  }
  return -1;
}

std::vector<SpanIndex> spans_of_users(const Profile &profile, const Buffer &buffer) {
  std::vector<SpanIndex> out(buffer.users.size());
  if (buffer.users.empty()) return out;
  std::unordered_map<std::uint64_t, std::size_t> wanted;  // run -> first user with it
  for (std::size_t u = 0; u < buffer.users.size(); ++u) wanted.emplace(buffer.users[u].exec, u);
  std::unordered_map<std::uint64_t, SpanIndex> found;
  for (std::size_t t = 0; t < profile.tracks.size() && found.size() < wanted.size(); ++t) {
    const Track &track = profile.tracks[t];
    for (std::size_t s = 0; s < track.spans.size(); ++s) {
      const SpanDetails *d = profile.details(track.spans[s]);
      if (!d || !d->exec || !wanted.count(*d->exec)) continue;
      found.emplace(*d->exec, SpanIndex{static_cast<int>(t), static_cast<int>(s)});
    }
  }
  for (std::size_t u = 0; u < buffer.users.size(); ++u) {
    const auto it = found.find(buffer.users[u].exec);
    if (it != found.end()) out[u] = it->second;
  }
  return out;
}

int execution_of(const Profile &profile, std::uint64_t run) {
  for (std::size_t i = 0; i < profile.executions.size(); ++i)
    if (profile.executions[i].run == run) return static_cast<int>(i);
  return -1;
}

std::vector<RunBuffer> buffers_of_run(const Profile &profile, std::uint64_t run) {
  std::vector<RunBuffer> out;
  for (std::size_t t = 0; t < profile.tracks.size(); ++t) {
    const Track &track = profile.tracks[t];
    if (track.kind != TrackKind::Memory) continue;
    for (std::size_t b = 0; b < track.buffers.size(); ++b)
      for (const BufferUser &u : track.buffers[b].users)
        if (u.exec == run)
          out.push_back({static_cast<int>(t), static_cast<int>(b), u.argument, u.mode});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const RunBuffer &a, const RunBuffer &b) { return a.argument < b.argument; });
  return out;
}

}  // namespace wavescope::trace::profile
