#include "models/links.hpp"

#include <QFileInfo>

#include <algorithm>

#include "app/capture_document.hpp"
#include "app/document.hpp"
#include "app/rewrite_trace_document.hpp"
#include "app/workspace.hpp"
#include "models/profile_track_model.hpp"

namespace wavescope::gui {

namespace tp = trace::profile;

namespace {

QString qs(const std::string &s) { return QString::fromStdString(s); }

// A run's identity: its folder and its file name without the words every tinygrad run writes
// ("profile.pkl" and "rewrites.pkl" of one run both give "<folder>/").
QString run_key(const QString &path) {
  const QFileInfo info(path);
  QString stem = info.completeBaseName();
  for (const char *word : {"profile", "rewrites", "rewrite"})
    stem.remove(QLatin1String(word), Qt::CaseInsensitive);
  while (!stem.isEmpty() && !stem.back().isLetterOrNumber()) stem.chop(1);
  while (!stem.isEmpty() && !stem.front().isLetterOrNumber()) stem.remove(0, 1);
  return info.absolutePath() + QStringLiteral("/") + stem;
}

bool same_run(const Document &a, const Document &b) { return run_key(a.path) == run_key(b.path); }

// Names equal as written, else equal as plain text (when `exact` is false).
bool same_name(const std::string &a, const std::string &b, bool exact) {
  return a == b || (!exact && tp::plain_text(a) == tp::plain_text(b));
}

// A kernel as a profile names it: the raw (colored) name and, if known, its profile key.
struct KernelName {
  std::string raw;
  std::string profile_key;
  bool exact = false;  // the raw name carries tinygrad's colors: match it exactly
};

// Codegen contexts of `kernel` in rewrite traces of the same run as `from`.
void add_rewrite_links(std::vector<Link> &out, const Workspace &ws, const Document &from,
                       const KernelName &kernel) {
  for (int d = 0; d < ws.size(); ++d) {
    const Document *doc = ws.document(d);
    if (!doc || doc->kind() != DocumentKind::RewriteTrace) continue;
    const auto &trace = static_cast<const RewriteTraceDocument &>(*doc);
    const bool run = same_run(from, *doc);
    for (int g = 0; g < trace.group_count(); ++g) {
      const auto &group = *trace.group(g);
      const bool keyed =
          !kernel.profile_key.empty() &&
          std::find(group.keys.begin(), group.keys.end(), kernel.profile_key) != group.keys.end();
      if (!keyed && !(run && same_name(group.name, kernel.raw, kernel.exact))) continue;
      Focus focus;
      focus.document = d;
      focus.group = g;
      out.push_back(
          {QStringLiteral("rewrite"),
           QStringLiteral("rewrite context %1 (%2)").arg(qs(strip_ansi(group.name)), doc->title),
           {QStringLiteral("rewrite"), focus, {}, {}}});
    }
  }
}

// Programs named `name` in the open documents: `prefer` first.
void add_program_links(std::vector<Link> &out, const Workspace &ws, int prefer,
                       const std::string &name) {
  const std::string plain = tp::plain_text(name);
  for (int pass = 0; pass < 2; ++pass)
    for (int d = 0; d < ws.size(); ++d) {
      if ((pass == 0) != (d == prefer)) continue;
      const Document *doc = ws.document(d);
      if (!doc) continue;
      for (int k = 0; k < doc->kernel_count(); ++k) {
        const KernelCode *code = doc->kernel(k);
        if (!code || tp::plain_text(code->name) != plain) continue;
        Focus focus;
        focus.document = d;
        focus.kernel = k;
        out.push_back({QStringLiteral("isa"),
                       QStringLiteral("ISA of %1 (%2)").arg(qs(plain), doc->title),
                       {QStringLiteral("isa"), focus, {}, {}}});
        out.push_back({QStringLiteral("cfg"),
                       QStringLiteral("CFG of %1").arg(qs(plain)),
                       {QStringLiteral("cfg"), focus, {}, {}}});
        // A capture traced it: its SQTT waves and its PMC counters.
        const auto *capture = doc->kind() == DocumentKind::Capture
                                  ? static_cast<const CaptureDocument *>(doc)->dispatch(k)
                                  : nullptr;
        if (capture && capture->waves > 0) {
          Focus waves = focus;
          waves.shader_engine = capture->default_engine();
          out.push_back(
              {QStringLiteral("waves"),
               QStringLiteral("SQTT waves of %1 (%2 waves)").arg(qs(plain)).arg(capture->waves),
               {QStringLiteral("waves"), waves, {}, {}}});
        }
        if (capture && !capture->counters.empty())
          out.push_back({QStringLiteral("counters"),
                         QStringLiteral("counters of %1 (%2 PMC samples)")
                             .arg(qs(plain))
                             .arg(capture->counters.size()),
                         {QStringLiteral("counters"), focus, {}, {}}});
      }
    }
}

// The runs of a kernel in the profiles of the same run as `from` (any profile when `from` is
// that profile's own document): device spans, else launch moments.
void add_run_links(std::vector<Link> &out, const Workspace &ws, const Document &from,
                   const KernelName &kernel, int program_doc, int program) {
  for (int d = 0; d < ws.size(); ++d) {
    const Document *doc = ws.document(d);
    const tp::Profile *p = doc ? doc->profile() : nullptr;
    if (!p || (doc != &from && !same_run(from, *doc))) continue;
    std::size_t added = 0;
    // Device spans of the program (a capture's kernel k is its profile's program k's runs) or
    // named as the kernel.
    for (std::size_t t = 0; t < p->tracks.size() && added < 8; ++t) {
      const tp::Track &track = p->tracks[t];
      if (track.kind != tp::TrackKind::Spans) continue;
      for (std::size_t s = 0; s < track.spans.size() && added < 8; ++s) {
        const tp::Span &span = track.spans[s];
        const bool by_program =
            d == program_doc && program >= 0 && span.program >= 0 &&
            p->programs[static_cast<std::size_t>(span.program)].name == kernel.raw;
        const tp::SpanDetails *det = p->details(span);
        const bool by_key =
            det && !kernel.profile_key.empty() && det->profile_key == kernel.profile_key;
        const bool by_name =
            det && det->exec && same_name(std::string(p->str(span.name)), kernel.raw, kernel.exact);
        if (!by_program && !by_key && !by_name) continue;
        ProfileItem item;
        item.document = d;
        item.track = static_cast<int>(t);
        item.span = static_cast<int>(s);
        out.push_back({QStringLiteral("run"),
                       QStringLiteral("run on %1 at %2 (%3)")
                           .arg(qs(track.name), format_time(static_cast<double>(span.start)),
                                format_time(static_cast<double>(span.duration()))),
                       {QStringLiteral("timeline"), {}, item, {}}});
        ++added;
      }
    }
    if (added) continue;
    for (const tp::Execution &x : p->executions) {
      if (added >= 8 || !same_name(x.name, kernel.raw, kernel.exact)) continue;
      ProfileItem item;
      item.document = d;
      item.time = x.time;
      out.push_back({QStringLiteral("run"),
                     QStringLiteral("run %1 on %2 at %3")
                         .arg(x.run)
                         .arg(qs(x.device), format_time(static_cast<double>(x.time))),
                     {QStringLiteral("timeline"), {}, item, {}}});
      ++added;
    }
  }
}

bool colored(const std::string &name) { return name.find('\x1b') != std::string::npos; }

// The rewrite context a span of the TINY track names: "Schedule 8 Kernels n1" itself,
// "do_to_program for <kernel>" its kernel.
std::string tiny_context(const tp::Profile &profile, const tp::Span &span) {
  std::string name(profile.str(span.name));
  constexpr std::string_view kPrefix = "do_to_program for ";
  if (name.starts_with(kPrefix)) name = name.substr(kPrefix.size());
  return name;
}

std::string plain_name(const tp::Profile &profile, const tp::Span &span) {
  return tp::plain_text(std::string(profile.str(span.name)));
}

// The outermost span of the TINY track enclosing spans[index] (itself when at depth 0), or -1.
int tiny_root(const std::vector<tp::Span> &spans, int index) {
  const tp::Span &span = spans[static_cast<std::size_t>(index)];
  for (int r = index; r >= 0; --r) {
    const tp::Span &s = spans[static_cast<std::size_t>(r)];
    if (s.depth == 0 && s.start <= span.start && s.end >= span.end) return r;
  }
  return -1;
}

// A span of the TINY track → the rewrite pass it timed (viz.md §2.6: a click on a TINY span
// jumps to the matching rewrite step). Its outermost enclosing span names the context, the n-th
// such span the n-th context of that name; a nested span is the pass of its name, the k-th span
// of that name inside the context the k-th pass of that name.
void add_step_links(std::vector<Link> &out, const Workspace &ws, const Document &from,
                    const tp::Track &track, int index) {
  const auto &spans = track.spans;
  const tp::Profile &profile = *from.profile();
  const int root = tiny_root(spans, index);
  if (root < 0) return;
  const std::string context = tiny_context(profile, spans[static_cast<std::size_t>(root)]);
  int occurrence = 0;
  for (int s = 0; s < root; ++s)
    if (spans[static_cast<std::size_t>(s)].depth == 0 &&
        tiny_context(profile, spans[static_cast<std::size_t>(s)]) == context)
      ++occurrence;
  const std::string pass_name = plain_name(profile, spans[static_cast<std::size_t>(index)]);
  int pass_occurrence = 0;
  for (int s = root + 1; s < index; ++s)
    if (plain_name(profile, spans[static_cast<std::size_t>(s)]) == pass_name) ++pass_occurrence;
  for (int d = 0; d < ws.size(); ++d) {
    const Document *doc = ws.document(d);
    if (!doc || doc->kind() != DocumentKind::RewriteTrace || !same_run(from, *doc)) continue;
    const auto &trace = static_cast<const RewriteTraceDocument &>(*doc);
    // The n-th context of that name (the last one when there are fewer).
    int group = -1;
    for (int g = 0, seen = 0; g < trace.group_count(); ++g) {
      if (!same_name(trace.group(g)->name, context, colored(context))) continue;
      group = g;
      if (seen++ == occurrence) break;
    }
    if (group < 0) continue;
    Focus focus;
    focus.document = d;
    focus.group = group;
    const auto &rewrites = trace.group(group)->rewrites;
    for (int r = 0, seen = 0; index != root && r < static_cast<int>(rewrites.size()); ++r) {
      if (tp::plain_text(rewrites[static_cast<std::size_t>(r)].name) != pass_name) continue;
      focus.pass = r;
      if (seen++ == pass_occurrence) break;
    }
    const QString where =
        focus.pass >= 0
            ? QStringLiteral("rewrite step %1 of %2").arg(qs(pass_name), qs(strip_ansi(context)))
            : QStringLiteral("rewrite context %1").arg(qs(strip_ansi(context)));
    out.push_back({QStringLiteral("rewrite"),
                   QStringLiteral("%1 (%2)").arg(where, doc->title),
                   {QStringLiteral("rewrite"), focus, {}, {}}});
  }
}

// Back: a rewrite context or pass → its span on the TINY track of the same run's profiles.
void add_tiny_links(std::vector<Link> &out, const Workspace &ws, const RewriteTraceDocument &trace,
                    const Focus &focus) {
  const auto *group = trace.group(focus.group);
  if (!group) return;
  const std::string &context = group->name;
  int occurrence = 0;
  for (int g = 0; g < focus.group; ++g)
    if (trace.group(g)->name == context) ++occurrence;
  const auto *pass = focus.pass >= 0 ? trace.pass(focus.group, focus.pass) : nullptr;
  const std::string pass_name = pass ? tp::plain_text(pass->name) : std::string();
  int pass_occurrence = 0;
  for (int r = 0; pass && r < focus.pass; ++r)
    if (tp::plain_text(group->rewrites[static_cast<std::size_t>(r)].name) == pass_name)
      ++pass_occurrence;
  for (int d = 0; d < ws.size(); ++d) {
    const Document *doc = ws.document(d);
    const tp::Profile *p = doc ? doc->profile() : nullptr;
    if (!p || !same_run(trace, *doc)) continue;
    const tp::Track *tiny = p->track("TINY");
    if (!tiny) continue;
    const auto &spans = tiny->spans;
    int root = -1;
    for (int s = 0, seen = 0; s < static_cast<int>(spans.size()); ++s)
      if (spans[static_cast<std::size_t>(s)].depth == 0 &&
          same_name(tiny_context(*p, spans[static_cast<std::size_t>(s)]), context,
                    colored(context)) &&
          seen++ == occurrence) {
        root = s;
        break;
      }
    if (root < 0) continue;
    int found = root;
    if (pass) {
      found = -1;
      const tp::Span &r = spans[static_cast<std::size_t>(root)];
      for (int s = root + 1, seen = 0;
           s < static_cast<int>(spans.size()) && spans[static_cast<std::size_t>(s)].start <= r.end;
           ++s)
        if (spans[static_cast<std::size_t>(s)].end <= r.end &&
            plain_name(*p, spans[static_cast<std::size_t>(s)]) == pass_name &&
            seen++ == pass_occurrence) {
          found = s;
          break;
        }
      if (found < 0) continue;
    }
    const tp::Span &span = spans[static_cast<std::size_t>(found)];
    ProfileItem item;
    item.document = d;
    item.track = static_cast<int>(tiny - p->tracks.data());
    item.span = found;
    out.push_back({QStringLiteral("run"),
                   QStringLiteral("TINY span %1 at %2 (%3)")
                       .arg(qs(plain_name(*p, span)), format_time(static_cast<double>(span.start)),
                            format_time(static_cast<double>(span.duration()))),
                   {QStringLiteral("timeline"), {}, item, {}}});
  }
}

}  // namespace

std::vector<Link> links_of_item(const Workspace &ws, const ProfileItem &item) {
  std::vector<Link> out;
  const Document *doc = ws.document(item.document);
  const tp::Profile *p = doc ? doc->profile() : nullptr;
  if (!p) return out;
  KernelName kernel;
  std::string program_name;
  if (item.is_span()) {
    if (item.track >= static_cast<int>(p->tracks.size())) return out;
    const tp::Track &track = p->tracks[static_cast<std::size_t>(item.track)];
    if (item.span >= static_cast<int>(track.spans.size())) return out;
    const tp::Span &span = track.spans[static_cast<std::size_t>(item.span)];
    if (track.name == "TINY") {
      add_step_links(out, ws, *doc, track, item.span);
      return out;
    }
    kernel.raw = std::string(p->str(span.name));
    if (const tp::SpanDetails *d = p->details(span)) kernel.profile_key = d->profile_key;
    if (span.program >= 0) program_name = p->programs[static_cast<std::size_t>(span.program)].name;
  } else if (item.time >= 0 && item.track < 0) {
    for (const tp::Execution &x : p->executions)
      if (x.time == item.time) {
        kernel.raw = x.name;
        break;
      }
  } else {
    return out;
  }
  if (kernel.raw.empty()) return out;
  kernel.exact = colored(kernel.raw);
  add_program_links(out, ws, item.document, program_name.empty() ? kernel.raw : program_name);
  add_rewrite_links(out, ws, *doc, kernel);
  return out;
}

std::vector<Link> links_of_focus(const Workspace &ws, const Focus &focus) {
  std::vector<Link> out;
  const Document *doc = ws.document(focus.document);
  if (!doc) return out;
  if (doc->kind() == DocumentKind::RewriteTrace) {
    if (focus.group < 0) return out;
    const auto &trace = static_cast<const RewriteTraceDocument &>(*doc);
    const auto *group = trace.group(focus.group);
    if (!group) return out;
    KernelName kernel;
    kernel.raw = group->name;
    kernel.exact = colored(group->name);
    for (const std::string &key : group->keys) {
      // A key that a profile span names (hex) links exactly.
      KernelName keyed = kernel;
      keyed.profile_key = key;
      add_run_links(out, ws, *doc, keyed, -1, -1);
      if (!out.empty()) break;
    }
    if (out.empty()) add_run_links(out, ws, *doc, kernel, -1, -1);
    add_tiny_links(out, ws, trace, focus);
    add_program_links(out, ws, -1, group->name);
    return out;
  }
  if (focus.kernel < 0) return out;
  const KernelCode *code = doc->kernel(focus.kernel);
  if (!code) return out;
  KernelName kernel;
  kernel.raw = code->name;
  kernel.exact = colored(code->name);
  add_run_links(out, ws, *doc, kernel, focus.document, focus.kernel);
  add_rewrite_links(out, ws, *doc, kernel);
  return out;
}

}  // namespace wavescope::gui
