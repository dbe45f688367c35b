#include "views/profile_timeline_view.hpp"

#include <QCompleter>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QShortcut>
#include <QSplitter>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

#include "app/selection.hpp"
#include "app/workspace.hpp"
#include "models/ansi_html.hpp"
#include "models/profile_track_model.hpp"
#include "views/profile_timeline_widget.hpp"
#include "wavescope/trace/profile/memory_layout.hpp"

namespace wavescope::gui {

namespace tp = trace::profile;

namespace {
QString esc(const std::string &s) { return QString::fromStdString(s).toHtmlEscaped(); }
QString row(const QString &key, const QString &value) {
  return QStringLiteral("<tr><td style='color:#8a8f98;padding-right:10px'>%1</td><td>%2</td></tr>")
      .arg(key, value);
}
}  // namespace

ProfileTimelineView::ProfileTimelineView(Workspace &workspace, Selection &selection,
                                         QWidget *parent)
    : QWidget(parent), workspace_(workspace), selection_(selection),
      tracks_(new ProfileTrackModel(this)), timeline_(new ProfileTimelineWidget(*tracks_, this)),
      header_(new QLabel(this)), inspector_(new QTextBrowser(this)), finder_(new QLineEdit(this)) {
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  header_->setTextFormat(Qt::RichText);
  layout->addWidget(header_);
  finder_->setPlaceholderText(tr("Find a track (Enter to go, Esc to close)"));
  finder_->hide();
  auto *completer = new QCompleter(tracks_, this);
  completer->setCaseSensitivity(Qt::CaseInsensitive);
  completer->setFilterMode(Qt::MatchContains);
  finder_->setCompleter(completer);
  layout->addWidget(finder_);
  auto *split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(timeline_);
  split->addWidget(inspector_);
  split->setStretchFactor(0, 4);
  split->setStretchFactor(1, 1);
  split->setSizes({1200, 340});
  layout->addWidget(split, 1);
  inspector_->setOpenLinks(false);

  auto go = [this](const QString &name) {
    const int track = tracks_->row_of(name);
    if (track < 0) return;
    timeline_->scroll_to_track(track);
    finder_->hide();
    timeline_->setFocus();
  };
  connect(completer, qOverload<const QString &>(&QCompleter::activated), this, go);
  connect(finder_, &QLineEdit::returnPressed, this, [this, go] {
    QString name = finder_->text();
    if (tracks_->row_of(name) < 0 && finder_->completer()->completionCount() > 0)
      name = finder_->completer()->currentCompletion();
    go(name);
  });
  auto *escape = new QShortcut(QKeySequence(Qt::Key_Escape), finder_);
  escape->setContext(Qt::WidgetShortcut);
  connect(escape, &QShortcut::activated, this, [this] {
    finder_->hide();
    timeline_->setFocus();
  });
  auto *find = new QShortcut(QKeySequence(tr("Ctrl+P")), this);
  find->setContext(Qt::WidgetWithChildrenShortcut);
  connect(find, &QShortcut::activated, this, &ProfileTimelineView::find_track);
  connect(timeline_, &ProfileTimelineWidget::find_track_requested, this,
          &ProfileTimelineView::find_track);

  connect(timeline_, &ProfileTimelineWidget::span_selected, this,
          &ProfileTimelineView::publish_span);
  connect(timeline_, &ProfileTimelineWidget::range_changed, this,
          &ProfileTimelineView::inspect_range);
  connect(timeline_, &ProfileTimelineWidget::selection_cleared, this, [this] {
    inspect_profile();
    selection_.select_profile_item({});
  });
  connect(timeline_, &ProfileTimelineWidget::range_cleared, this,
          &ProfileTimelineView::inspect_profile);

  connect(&workspace_, &Workspace::document_added, this, [this](int index) {
    if (document_ < 0) show_document(index);
  });
  connect(&selection, &Selection::focus_changed, this, &ProfileTimelineView::on_focus);
  connect(&selection, &Selection::profile_item_selected, this,
          &ProfileTimelineView::on_profile_item);
  connect(inspector_, &QTextBrowser::anchorClicked, this, &ProfileTimelineView::on_link);
  show_document(-1);
}

void ProfileTimelineView::find_track() {
  finder_->show();
  finder_->clear();
  finder_->setFocus();
}

QString ProfileTimelineView::inspector_text() const { return inspector_->toPlainText(); }

void ProfileTimelineView::on_focus(const Focus &focus) {
  const Document *doc = workspace_.document(focus.document);
  if (doc && doc->profile() && focus.document != document_) show_document(focus.document);
}

void ProfileTimelineView::publish_span(int track, int span) {
  inspect_span(track, span);
  ProfileItem item;
  item.document = document_;
  item.track = track;
  item.span = span;
  selection_.select_profile_item(item);
}

void ProfileTimelineView::on_profile_item(const ProfileItem &item) {
  if (item.document < 0 || item.is_buffer()) return;
  if (item.document != document_) show_document(item.document);
  if (item.document != document_) return;
  if (item.is_span()) {
    const auto now = timeline_->selected();
    if (!now || now->track != item.track || now->span != item.span)
      timeline_->select_span({item.track, item.span});
  } else if (item.track >= 0 && item.buffer < 0) {
    timeline_->scroll_to_track(item.track);
  } else if (item.time >= 0) {
    // A kernel run the device left no span for: mark the moment it was launched.
    const tp::Profile *profile = tracks_->profile();
    QString label;
    for (const tp::Execution &x : profile->executions)
      if (x.time == item.time) label = QString::fromStdString(tp::plain_text(x.name)).simplified();
    timeline_->mark_time(static_cast<double>(item.time), label);
    inspect_moment(item.time);
  }
}

void ProfileTimelineView::inspect_moment(qint64 time) {
  const tp::Profile *profile = tracks_->profile();
  if (!profile) return;
  QString html;
  for (const tp::Execution &x : profile->executions) {
    if (x.time != time) continue;
    html += QStringLiteral("<h3>%1</h3><table>").arg(ansi_to_html(x.name));
    html += row(tr("device"), esc(x.device));
    html += row(tr("launched"), format_time(static_cast<double>(x.time)));
    html += row(tr("run"), QString::number(x.run));
    html += QStringLiteral("</table>") + buffers_html(x.run);
    html += tr("<p style='color:#8a8f98'>The device recorded no span for this run: the line marks "
               "its launch.</p>");
  }
  inspector_->setHtml(html);
}

QString ProfileTimelineView::buffers_html(std::uint64_t run) const {
  const tp::Profile *profile = tracks_->profile();
  const auto used = tp::buffers_of_run(*profile, run);
  if (used.empty()) return {};
  QString html = QStringLiteral("<h4>Buffers</h4><table>");
  for (const tp::RunBuffer &u : used) {
    const tp::Track &track = profile->tracks[static_cast<std::size_t>(u.track)];
    const tp::Buffer &b = track.buffers[static_cast<std::size_t>(u.buffer)];
    html += QStringLiteral("<tr><td>%1@data%2</td><td><a href='buffer:%3:%4'>buffer %5</a> %6 "
                           "<span style='color:#8a8f98'>%7</span></td></tr>")
                .arg(QLatin1String(tp::to_string(u.mode)))
                .arg(u.argument)
                .arg(u.track)
                .arg(u.buffer)
                .arg(b.key)
                .arg(format_bytes(static_cast<double>(b.bytes())), esc(track.name));
  }
  return html + QStringLiteral("</table>");
}

void ProfileTimelineView::on_link(const QUrl &url) {
  const QStringList parts = url.toString().split(':');
  if (parts.size() == 3 && parts[0] == QStringLiteral("buffer")) {
    ProfileItem item;
    item.document = document_;
    item.track = parts[1].toInt();
    item.buffer = parts[2].toInt();
    selection_.select_profile_item(item);
    selection_.reveal(QStringLiteral("memory"));
  }
}

void ProfileTimelineView::show_document(int index) {
  const Document *doc = workspace_.document(index);
  if (doc && !doc->profile()) return;
  document_ = doc ? index : -1;
  tracks_->set_profile(doc ? doc->profile() : nullptr);
  timeline_->reset();
  inspect_profile();
}

void ProfileTimelineView::inspect_profile() {
  const tp::Profile *profile = tracks_->profile();
  if (!profile) {
    header_->setText(tr("<b>Timeline</b> — no profile open"));
    inspector_->setHtml(tr("<p>Open a tinygrad <code>profile.pkl</code> or a Chrome/Perfetto trace "
                           "JSON to see its timeline.</p>"));
    return;
  }
  header_->setText(
      tr("<b>%1</b> &nbsp; %2 &nbsp;·&nbsp; %3 tracks &nbsp;·&nbsp; %4 spans &nbsp;·&nbsp; %5 "
         "&nbsp;&nbsp;<span style='color:#8a8f98'>W/S zoom · A/D pan · drag pan · ./, next/prev "
         "span · F fit · drag the axis: range · Ctrl+P find track</span>")
          .arg(esc(profile->source.filename().string()), esc(profile->format))
          .arg(profile->tracks.size())
          .arg(profile->span_count())
          .arg(format_time(static_cast<double>(profile->duration))));
  QString html = QStringLiteral("<h3>Profile</h3><table>");
  html += row(tr("source"), esc(profile->source.string()));
  html += row(tr("format"), esc(profile->format));
  html += row(tr("duration"), format_time(static_cast<double>(profile->duration)));
  html += row(tr("devices"), QString::number(profile->devices.size()));
  html += row(tr("markers"), QString::number(profile->markers.size()));
  html += QStringLiteral("</table><h4>Tracks</h4><table>");
  for (const tp::Track &t : profile->tracks)
    html +=
        row(esc(t.name), t.kind == tp::TrackKind::Spans    ? tr("%1 spans").arg(t.spans.size())
                         : t.kind == tp::TrackKind::Memory ? tr("peak %1").arg(format_bytes(t.peak))
                                                           : tr("peak %1").arg(t.peak, 0, 'g', 6));
  html += QStringLiteral("</table><p style='color:#8a8f98'>Click a span for its fields.</p>");
  inspector_->setHtml(html);
}

void ProfileTimelineView::inspect_span(int track_index, int span_index) {
  const tp::Profile *profile = tracks_->profile();
  if (!profile) return;
  const tp::Track &track = profile->tracks[static_cast<std::size_t>(track_index)];
  const tp::Span &span = track.spans[static_cast<std::size_t>(span_index)];
  QString html =
      QStringLiteral("<h3>%1</h3><table>").arg(esc(tp::plain_text(profile->str(span.name))));
  html += row(tr("track"), esc(track.name));
  html += row(tr("start"), format_time(static_cast<double>(span.start)));
  html += row(tr("end"), format_time(static_cast<double>(span.end)));
  html += row(tr("duration"), format_time(static_cast<double>(span.duration())));
  html += row(tr("depth"), QString::number(span.depth));
  const SpanRates rates = span_rates(*profile, span);
  if (rates.gflops > 0) html += row(tr("GFLOP/s"), QString::number(rates.gflops, 'f', 2));
  if (rates.gbytes_per_s > 0) html += row(tr("GB/s"), QString::number(rates.gbytes_per_s, 'f', 2));
  if (span.program >= 0 && static_cast<std::size_t>(span.program) < profile->programs.size()) {
    const tp::Program &prog = profile->programs[static_cast<std::size_t>(span.program)];
    html += row(tr("program"), esc(tp::plain_text(prog.name)));
  }
  QString stack;
  if (const tp::SpanDetails *d = profile->details(span)) {
    if (d->exec) html += row(tr("run"), QString::number(*d->exec));
    if (d->bytes)
      html += row(tr("bytes"), QStringLiteral("%1 <span style='color:#8a8f98'>(%2)</span>")
                                   .arg(format_bytes(static_cast<double>(*d->bytes)))
                                   .arg(*d->bytes));
    if (!d->category.empty()) html += row(tr("category"), esc(d->category));
    if (!d->metadata.empty()) html += row(tr("metadata"), esc(d->metadata));
    if (!d->profile_key.empty()) html += row(tr("key"), esc(d->profile_key));
    for (const auto &[key, value] : d->fields) html += row(esc(key), esc(value));
    for (auto it = d->stack.rbegin(); it != d->stack.rend(); ++it)
      stack += QStringLiteral("<div><b>%1</b> <span style='color:#8a8f98'>%2:%3</span><br>"
                              "<code>%4</code></div>")
                   .arg(esc(it->function), esc(it->file))
                   .arg(it->line)
                   .arg(esc(it->code));
  }
  html += QStringLiteral("</table>");
  if (const tp::SpanDetails *d = profile->details(span); d && d->exec)
    html += buffers_html(*d->exec);
  if (!stack.isEmpty()) html += QStringLiteral("<h4>Stack (innermost first)</h4>") + stack;
  inspector_->setHtml(html);
}

void ProfileTimelineView::inspect_range(double t0, double t1) {
  const tp::Profile *profile = tracks_->profile();
  if (!profile) return;
  const auto a = static_cast<tp::Picoseconds>(t0), b = static_cast<tp::Picoseconds>(t1);
  struct Hit {
    const tp::Track *track;
    const tp::Span *span;
  };
  std::vector<Hit> hits;
  std::size_t total = 0;
  QString per_track;
  for (int i = 0; i < tracks_->rowCount(); ++i) {
    const tp::Track &track = profile->tracks[static_cast<std::size_t>(i)];
    std::size_t n = 0;
    for (const auto &level : tracks_->levels(i).levels) {
      const auto [first, last] = tp::overlapping(track, level, a, b + 1);
      n += last - first;
      for (std::size_t k = first; k < last && hits.size() < 20000; ++k)
        hits.push_back({&track, &track.spans[level[k]]});
    }
    if (n) per_track += row(esc(track.name), QString::number(n));
    total += n;
  }
  std::sort(hits.begin(), hits.end(),
            [](const Hit &x, const Hit &y) { return x.span->duration() > y.span->duration(); });
  QString html = QStringLiteral("<h3>Range %1</h3><table>").arg(format_time(t1 - t0));
  html += row(tr("from"), format_time(t0));
  html += row(tr("to"), format_time(t1));
  html += row(tr("spans"), QString::number(total));
  html += per_track + QStringLiteral("</table><h4>Longest spans in it</h4><table>");
  for (std::size_t i = 0; i < hits.size() && i < 40; ++i)
    html += row(
        format_time(static_cast<double>(hits[i].span->duration())),
        esc(tp::plain_text(profile->str(hits[i].span->name))) +
            QStringLiteral(" <span style='color:#8a8f98'>%1</span>").arg(esc(hits[i].track->name)));
  html += QStringLiteral("</table>");
  inspector_->setHtml(html);
}

}  // namespace wavescope::gui
