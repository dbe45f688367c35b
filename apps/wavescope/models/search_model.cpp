#include "models/search_model.hpp"

#include <QAction>
#include <QMenu>
#include <QMenuBar>

#include <unordered_map>

#include "app/document.hpp"
#include "app/rewrite_trace_document.hpp"
#include "app/workspace.hpp"
#include "models/profile_track_model.hpp"

namespace wavescope::gui {

namespace tp = trace::profile;

namespace {
// Past this many distinct span names a track lists no more (a generated trace can have millions).
constexpr std::size_t kMaxNamesPerTrack = 5000;

QString qs(const std::string &s) { return QString::fromStdString(s); }

void add_profile(std::vector<SearchEntry> &out, const tp::Profile &p, int doc,
                 const QString &title) {
  // Runs that left a span: exec id -> (track, span).
  std::unordered_map<std::uint64_t, std::pair<int, int>> run_spans;
  for (std::size_t t = 0; t < p.tracks.size(); ++t) {
    const tp::Track &track = p.tracks[t];
    ProfileItem item;
    item.document = doc;
    item.track = static_cast<int>(t);
    const bool memory = track.kind == tp::TrackKind::Memory;
    out.push_back({QStringLiteral("track"),
                   qs(track.name),
                   memory ? QStringLiteral("%1 · %2 buffers").arg(title).arg(track.buffers.size())
                          : QStringLiteral("%1 · %2 spans").arg(title).arg(track.spans.size()),
                   {memory ? QStringLiteral("memory") : QStringLiteral("timeline"), {}, item, {}}});
    // Span names: the first span of each, with how many there are.
    std::unordered_map<tp::StringId, std::pair<int, int>> names;  // name -> (first span, count)
    std::vector<tp::StringId> order;
    for (std::size_t s = 0; s < track.spans.size(); ++s) {
      const tp::Span &span = track.spans[s];
      if (const tp::SpanDetails *d = p.details(span); d && d->exec)
        run_spans.emplace(*d->exec, std::pair<int, int>{static_cast<int>(t), static_cast<int>(s)});
      auto [it, fresh] = names.try_emplace(span.name, static_cast<int>(s), 0);
      ++it->second.second;
      if (fresh && order.size() < kMaxNamesPerTrack) order.push_back(span.name);
    }
    for (const tp::StringId name : order) {
      const auto [first, count] = names[name];
      ProfileItem span = item;
      span.span = first;
      out.push_back({QStringLiteral("span"),
                     qs(tp::plain_text(p.str(name))).simplified(),
                     count > 1
                         ? QStringLiteral("%1 · %2 × %3").arg(qs(track.name)).arg(count).arg(title)
                         : QStringLiteral("%1 · %2").arg(qs(track.name), title),
                     {QStringLiteral("timeline"), {}, span, {}}});
    }
    for (std::size_t b = 0; b < track.buffers.size(); ++b) {
      const tp::Buffer &buf = track.buffers[b];
      ProfileItem buffer = item;
      buffer.buffer = static_cast<int>(b);
      out.push_back({QStringLiteral("buffer"),
                     QStringLiteral("buffer %1 %2 %3")
                         .arg(buf.key)
                         .arg(qs(buf.dtype), format_bytes(static_cast<double>(buf.bytes()))),
                     QStringLiteral("%1 · %2 users · %3")
                         .arg(qs(track.name))
                         .arg(buf.users.size())
                         .arg(title),
                     {QStringLiteral("memory"), {}, buffer, {}}});
    }
  }
  for (const tp::Execution &x : p.executions) {
    ProfileItem item;
    item.document = doc;
    if (const auto it = run_spans.find(x.run); it != run_spans.end()) {
      item.track = it->second.first;
      item.span = it->second.second;
    } else {
      item.time = x.time;
    }
    out.push_back({QStringLiteral("run"),
                   qs(tp::plain_text(x.name)).simplified(),
                   QStringLiteral("run %1 on %2 at %3 · %4")
                       .arg(x.run)
                       .arg(qs(x.device), format_time(static_cast<double>(x.time)), title),
                   {QStringLiteral("timeline"), {}, item, {}}});
  }
}
}  // namespace

std::vector<SearchEntry> search_entries(const Document &document, int index) {
  std::vector<SearchEntry> out;
  const QString title = document.title;
  const bool capture = document.kind() == DocumentKind::Capture;
  for (int k = 0; k < document.kernel_count(); ++k) {
    const KernelCode *code = document.kernel(k);
    if (!code) continue;
    Focus focus;
    focus.document = index;
    focus.kernel = k;
    out.push_back({QStringLiteral("kernel"),
                   qs(code->name),
                   QStringLiteral("%1 · %2 · %3 instructions")
                       .arg(title, qs(code->target))
                       .arg(code->instructions.size()),
                   {capture ? QStringLiteral("waves") : QStringLiteral("isa"), focus, {}, {}}});
    for (const auto &inst : code->instructions)
      out.push_back({QStringLiteral("pc"),
                     QStringLiteral("0x%1  %2").arg(inst.address, 0, 16).arg(qs(inst.text)),
                     QStringLiteral("%1 · %2").arg(qs(code->name), title),
                     {QStringLiteral("isa"), focus, {}, inst.address}});
  }
  if (const tp::Profile *p = document.profile()) add_profile(out, *p, index, title);
  if (document.kind() == DocumentKind::RewriteTrace) {
    const auto &trace = static_cast<const RewriteTraceDocument &>(document);
    for (int g = 0; g < trace.group_count(); ++g) {
      const auto &group = *trace.group(g);
      Focus focus;
      focus.document = index;
      focus.group = g;
      const QString name = qs(strip_ansi(group.name));
      out.push_back({QStringLiteral("rewrite"),
                     name,
                     QStringLiteral("%1 passes · %2").arg(group.rewrites.size()).arg(title),
                     {QStringLiteral("rewrite"), focus, {}, {}}});
      for (std::size_t s = 0; s < group.rewrites.size(); ++s) {
        Focus pass = focus;
        pass.pass = static_cast<int>(s);
        out.push_back(
            {QStringLiteral("rewrite"),
             QStringLiteral("%1 › %2").arg(name, qs(strip_ansi(group.rewrites[s].name))),
             QStringLiteral("%1 steps · %2").arg(group.rewrites[s].steps.size()).arg(title),
             {QStringLiteral("rewrite"), pass, {}, {}}});
      }
    }
  }
  return out;
}

void SearchModel::rebuild(const Workspace &workspace) {
  beginResetModel();
  entries_.clear();
  for (int i = 0; i < workspace.size(); ++i)
    if (const Document *doc = workspace.document(i)) {
      auto more = search_entries(*doc, i);
      entries_.insert(entries_.end(), std::make_move_iterator(more.begin()),
                      std::make_move_iterator(more.end()));
    }
  endResetModel();
}

void SearchModel::set_entries(std::vector<SearchEntry> entries) {
  beginResetModel();
  entries_ = std::move(entries);
  endResetModel();
}

int SearchModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

QVariant SearchModel::data(const QModelIndex &index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const SearchEntry &e = entry(index.row());
  switch (role) {
  case Qt::DisplayRole: return e.text;
  case Qt::ToolTipRole: return QStringLiteral("%1: %2\n%3").arg(e.kind, e.text, e.detail);
  case KindRole: return e.kind;
  case DetailRole: return e.detail;
  default: return {};
  }
}

namespace {
void collect(std::vector<Command> &out, const QList<QAction *> &actions, const QString &path) {
  for (QAction *a : actions) {
    if (a->isSeparator()) continue;
    const QString text = a->text().remove(QLatin1Char('&'));
    if (QMenu *menu = a->menu()) {
      collect(out, menu->actions(), path.isEmpty() ? text : path + QStringLiteral(" › ") + text);
      continue;
    }
    if (!a->isEnabled() || text.isEmpty()) continue;
    out.push_back({path.isEmpty() ? text : path + QStringLiteral(" › ") + text,
                   a->shortcut().toString(QKeySequence::NativeText), [a] { a->trigger(); }});
  }
}
}  // namespace

std::vector<Command> commands_of(const QMenuBar &menus) {
  std::vector<Command> out;
  collect(out, menus.actions(), {});
  return out;
}

void CommandModel::set_commands(std::vector<Command> commands) {
  beginResetModel();
  commands_ = std::move(commands);
  endResetModel();
}

int CommandModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : static_cast<int>(commands_.size());
}

QVariant CommandModel::data(const QModelIndex &index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const Command &c = command(index.row());
  switch (role) {
  case Qt::DisplayRole: return c.name;
  case ShortcutRole: return c.shortcut;
  case Qt::ToolTipRole:
    return c.shortcut.isEmpty() ? c.name : c.name + QStringLiteral("  ") + c.shortcut;
  default: return {};
  }
}

}  // namespace wavescope::gui
