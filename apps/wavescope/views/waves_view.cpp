#include "views/waves_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>

#include "app/capture_document.hpp"
#include "app/theme.hpp"
#include "app/workspace.hpp"
#include "models/wave_timeline_model.hpp"
#include "views/timeline_axis.hpp"
#include "views/timeline_legend.hpp"
#include "views/wave_timeline_widget.hpp"

namespace wavescope::gui {

namespace {

using trace::timeline::RowKind;

QString row_html(const QString &key, const QString &value) {
  return QStringLiteral("<tr><td class='k'>%1</td><td>%2</td></tr>").arg(key, value);
}

QString muted(const QString &text) {
  return QStringLiteral("<span style='color:%1'>%2</span>").arg(theme::muted_text().name(), text);
}

QString mono(const QString &text) {
  return QStringLiteral("<tt>%1</tt>").arg(text.toHtmlEscaped());
}

QString hex(quint64 value) { return QStringLiteral("0x%1").arg(value, 0, 16); }

QString cycles(std::int64_t n) { return QObject::tr("%L1 cycles").arg(n); }

QString name_of(std::string_view name) {
  return QString::fromUtf8(name.data(), static_cast<int>(name.size()));
}

const char *kKeys =
    "<p style='color:#8a919e'>Ctrl+wheel or W/S zoom · drag, A/D or Shift+wheel pan · F fit · "
    "Shift+drag measure · click a bar to select it, ←/→ walk its row · Esc clears</p>";

}  // namespace

WavesView::WavesView(Workspace &workspace, Selection &selection, QWidget *parent)
    : QWidget(parent), workspace_(workspace), selection_(selection),
      model_(new WaveTimelineModel(this)), timeline_(new WaveTimelineWidget(this)),
      legend_(new TimelineLegend(this)), title_(new QLabel(this)), engines_(new QComboBox(this)),
      inspector_(new QTextBrowser(this)) {
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(3);
  auto *bar = new QHBoxLayout;
  title_->setStyleSheet(QStringLiteral("color: %1; font-weight: bold;").arg(theme::text().name()));
  bar->addWidget(title_, 1);
  engines_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  engines_->setToolTip(tr("Shader engine (one SQTT blob each)"));
  bar->addWidget(engines_);
  layout->addLayout(bar);
  layout->addWidget(legend_);

  auto *split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(timeline_);
  split->addWidget(inspector_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 0);
  split->setSizes({1100, 300});
  inspector_->setMinimumWidth(240);
  inspector_->setOpenLinks(false);
  inspector_->document()->setDefaultStyleSheet(
      QStringLiteral("td.k { color: %1; padding-right: 10px; } td { padding: 1px 2px; } "
                     "h3 { margin: 2px 0 6px 0; } tt { color: #c0caf5; }")
          .arg(theme::muted_text().name()));
  layout->addWidget(split, 1);

  connect(&selection_, &Selection::focus_changed, this, &WavesView::on_focus);
  connect(&selection_, &Selection::pc_selected, this, &WavesView::on_pc_selected);
  connect(timeline_, &WaveTimelineWidget::selection_changed, this, &WavesView::on_event_selected);
  connect(timeline_, &WaveTimelineWidget::measure_changed, this, &WavesView::update_inspector);
  connect(engines_, &QComboBox::activated, this, [this](int index) {
    Focus focus;
    focus.document = document_index_;
    focus.kernel = kernel_;
    focus.shader_engine = engines_->itemData(index).toInt();
    selection_.set_focus(focus);
  });
  on_focus(selection_.focus());
}

void WavesView::show_engine(const CaptureDocument *document, int kernel, int engine) {
  document_ = document;
  kernel_ = kernel;
  engine_ = engine;
  const ShaderEngineTrace *se = document ? document->engine(kernel, engine) : nullptr;
  const CaptureDispatch *dispatch = document ? document->dispatch(kernel) : nullptr;
  model_->set_timeline(se ? &se->timeline : nullptr, dispatch ? &dispatch->code : nullptr);
  timeline_->set_model(model_);
  const bool states =
      se && std::any_of(se->timeline.rows.begin(), se->timeline.rows.end(),
                        [](const trace::timeline::TimelineRow &r) { return !r.states.empty(); });
  legend_->set_categories(model_->categories(), se && !se->timeline.waves.empty(), states);
  engines_->clear();
  if (dispatch)
    for (std::size_t i = 0; i < dispatch->engines.size(); ++i) {
      const auto &e = dispatch->engines[i];
      engines_->addItem(tr("SE %1 · %2 waves%3")
                            .arg(e.blob->se)
                            .arg(e.timeline.waves.size())
                            .arg(e.instructions_mapped()
                                     ? tr(" · %1 insts").arg(e.instructions_mapped())
                                     : QString()),
                        static_cast<int>(i));
    }
  engines_->setCurrentIndex(engine);
  engines_->setVisible(dispatch != nullptr);
  if (!se) {
    title_->setText(document ? tr("This kernel has no SQTT blobs")
                             : tr("No capture selected — open a capture folder (Ctrl+Shift+O)"));
  } else {
    title_->setText(tr("%1 — SE %2 (%3)  ·  %4 waves, %5 mapped instructions")
                        .arg(QString::fromStdString(dispatch->program->name))
                        .arg(se->blob->se)
                        .arg(QString::fromStdString(se->blob->file_name))
                        .arg(se->timeline.waves.size())
                        .arg(se->instructions_mapped()));
  }
  update_inspector();
}

void WavesView::on_focus(const Focus &focus) {
  const auto *document = dynamic_cast<const CaptureDocument *>(workspace_.document(focus.document));
  const int kernel = document ? std::max(0, focus.kernel) : -1;
  const CaptureDispatch *dispatch = document ? document->dispatch(kernel) : nullptr;
  const int engine = !dispatch                  ? -1
                     : focus.shader_engine >= 0 ? focus.shader_engine
                                                : dispatch->default_engine();
  document_index_ = focus.document;
  if (document != document_ || kernel != kernel_ || engine != engine_)
    show_engine(document, kernel, engine);
  timeline_->set_focused_wave(focus.wave);
  if (focus.wave >= 0 && model_->timeline() &&
      static_cast<std::size_t>(focus.wave) < model_->timeline()->waves.size()) {
    const auto &w = model_->timeline()->waves[static_cast<std::size_t>(focus.wave)];
    const double margin = std::max(8.0, static_cast<double>(w.end - w.start) * 0.05);
    timeline_->set_visible_range(static_cast<double>(w.start) - margin,
                                 static_cast<double>(w.end) + margin);
    const auto first = model_->first_event_of_wave(focus.wave);
    timeline_->select(first.valid() ? first : model_->wave_bar(focus.wave));
  }
}

void WavesView::on_pc_selected(quint64 pc) {
  timeline_->set_pc(pc);
  if (linking_ || !model_->timeline()) return;
  const auto *current = model_->event(timeline_->selected());
  if (current && current->has_pc && current->pc == pc) return;
  const auto [t0, t1] = timeline_->visible_range();
  const auto ref = model_->first_with_pc(pc, t0);
  if (!ref.valid()) return;
  linking_ = true;
  timeline_->select(ref);
  linking_ = false;
}

void WavesView::on_event_selected(const TimelineEventRef &ref) {
  update_inspector();
  const auto *e = model_->event(ref);
  if (!e || !e->has_pc || linking_) return;
  linking_ = true;
  selection_.select_pc(e->pc);
  linking_ = false;
}

QString WavesView::inspector_text() const { return inspector_->toPlainText(); }

void WavesView::update_inspector() {
  if (!model_->timeline()) {
    inspector_->setHtml(
        tr("<h3>Wave timeline</h3><p>Open a capture folder (meta.json with SQTT blobs) to see what "
           "every wave did, cycle by cycle.</p>") +
        kKeys);
    return;
  }
  QString html;
  if (timeline_->measured()) html += measure_html();
  const auto ref = timeline_->selected();
  html += ref.valid() ? event_html(ref) : summary_html();
  inspector_->setHtml(html + kKeys);
}

QString WavesView::summary_html() const {
  const ShaderEngineTrace *se = document_->engine(kernel_, engine_);
  const auto &tl = se->timeline;
  std::size_t exec = 0, waves_traced = 0, barriers = 0, dispatches = 0;
  for (const auto &row : tl.rows) {
    if (row.kind == RowKind::ExecUnit)
      exec += row.events.size();
    else {
      dispatches += row.events.size();
      for (const auto &e : row.events)
        barriers += e.category == trace::timeline::EventCategory::Barrier;
    }
  }
  for (const auto &w : tl.waves) waves_traced += w.traced;
  const auto [lo, hi] = model_->fit_range();
  const auto &clock = model_->clock();
  const auto &decode = se->report.decode;
  QString html = tr("<h3>SE %1 · %2</h3><table>").arg(se->blob->se).arg(name_of(se->blob->program));
  html += row_html(tr("Blob"), mono(QString::fromStdString(se->blob->file_name)) +
                                   muted(tr(" · %L1 bytes").arg(se->blob->size)));
  html += row_html(tr("Instruction trace"), se->blob->itrace ? tr("on") : tr("off (waves only)"));
  html += row_html(tr("Waves"), tr("%1 on the SE, %2 on the traced SIMD, %3 followed")
                                    .arg(tl.waves.size())
                                    .arg(waves_traced)
                                    .arg(se->mapped_waves.size()));
  html += row_html(tr("Instructions"), tr("%1 mapped to PCs").arg(se->instructions_mapped()));
  html += row_html(tr("Wave-row events"), QString::number(dispatches));
  html += row_html(tr("Exec events"), QString::number(exec));
  html += row_html(tr("Barriers"), QString::number(barriers));
  html += row_html(tr("Kernel span"),
                   cycles(hi - lo) + (clock.empty()
                                          ? QString()
                                          : QStringLiteral(" · ") +
                                                format_ns(clock.ns_at(static_cast<double>(hi)) -
                                                          clock.ns_at(static_cast<double>(lo)))));
  html +=
      row_html(tr("Shader clock"),
               clock.empty() ? tr("no estimate")
                             : tr("mean %1 GHz, median %2 GHz (%3 points)")
                                   .arg(clock.mean_hz() / 1e9, 0, 'f', 2)
                                   .arg(static_cast<double>(se->clock_median_hz) / 1e9, 0, 'f', 2)
                                   .arg(clock.size()));
  html += row_html(tr("Decode"),
                   tr("%L1 packets, %2")
                       .arg(decode.packets)
                       .arg(QString::fromUtf8(trace::sqtt::to_string(decode.family).data())));
  html += row_html(tr("Anomalies"), QString::number(se->report.anomalies.total()));
  html += QStringLiteral("</table>");
  if (const auto &d = *document_->dispatch(kernel_); !d.program->exec_ranges.empty()) {
    const auto &r = d.program->exec_ranges.front();
    html += QStringLiteral("<p>") +
            tr("Host-timed dispatch: %1 µs").arg(r.end_us - r.start_us, 0, 'f', 2) +
            QStringLiteral("</p>");
  }
  return html;
}

QString WavesView::event_html(const TimelineEventRef &ref) const {
  const auto &tl = *model_->timeline();
  const auto &clock = model_->clock();
  const auto origin = static_cast<double>(model_->origin());
  auto when = [&](std::int64_t t) {
    QString text = tr("%L1").arg(static_cast<std::int64_t>(static_cast<double>(t) - origin)) +
                   muted(tr("  (abs %L1)").arg(t));
    if (!clock.empty())
      text += QStringLiteral("<br>") +
              format_ns(clock.ns_at(static_cast<double>(t)) - clock.ns_at(origin));
    return text;
  };
  if (const auto *bar = model_->bar(ref)) {
    const auto &w = tl.waves[bar->wave];
    QString html = tr("<h3>Wave %1</h3><table>").arg(bar->wave);
    html +=
        row_html(tr("Location"), tr("CU %1 · SIMD %2 · slot %3").arg(w.cu).arg(w.simd).arg(w.slot));
    html += row_html(tr("Start"), when(w.start));
    html += row_html(tr("End"), when(w.end));
    html += row_html(tr("Lifetime"), cycles(w.end - w.start));
    const ShaderEngineTrace *se = document_->engine(kernel_, engine_);
    if (const auto *trace = se ? se->mapped_trace(static_cast<int>(bar->wave)) : nullptr)
      html += row_html(tr("Instructions"), tr("%1 traced").arg(trace->instructions.size()));
    else
      html += row_html(tr("Instructions"), muted(tr("not traced (another CU/SIMD)")));
    return html + QStringLiteral("</table>");
  }
  const auto *e = model_->event(ref);
  if (!e) return {};
  const auto &track = model_->track(ref.track);
  const auto &row = tl.rows[static_cast<std::size_t>(track.row)];
  const QColor color = theme::event_color(model_->category_of(track.row, *e));
  QString html = QStringLiteral("<h3><span style='color:%1'>■</span> %2</h3><table>")
                     .arg(color.name(), name_of(e->name));
  html += row_html(tr("Row"), QString::fromStdString(row.name) + muted(tr("  #%1").arg(e->index)));
  html += row_html(tr("Category"), theme::event_category_label(model_->category_of(track.row, *e)));
  html += row_html(tr("Cycle"), when(e->start));
  html += row_html(tr("Duration"), cycles(e->end - e->start));
  if (e->stall >= 0) {
    // As RGP splits an instruction's latency: the stall before it issued, then its execution.
    html += row_html(tr("Stall"),
                     e->stall > 0 ? QStringLiteral("<b>%1</b>").arg(cycles(e->stall)) : cycles(0));
    html += row_html(tr("Latency"), cycles(e->latency) + muted(tr("  stall + execution")));
  }
  if (e->has_pc) {
    html += row_html(tr("PC"), mono(hex(e->pc)));
    html += row_html(tr("Instruction"), mono(model_->instruction_text(e->pc)));
    html +=
        row_html(tr("Executions"), tr("%1 on this SE").arg(model_->events_with_pc(e->pc).size()));
  }
  if (e->category == trace::timeline::EventCategory::Barrier)
    html += row_html(tr("Barrier wait"), cycles(e->end - e->start));
  if (const int wave = model_->wave_of_event(ref); wave >= 0)
    html +=
        row_html(tr("Wave"),
                 tr("%1 (slot %2)").arg(wave).arg(tl.waves[static_cast<std::size_t>(wave)].slot));
  if (const auto partner = model_->partner(ref); partner.valid()) {
    const auto *p = model_->event(partner);
    const auto &partner_row = tl.rows[static_cast<std::size_t>(model_->track(partner.track).row)];
    const bool is_exec = track.kind == TrackKind::ExecUnit;
    const auto dispatch = is_exec ? p : e;
    const auto executed = is_exec ? e : p;
    html += row_html(is_exec ? tr("Dispatched by") : tr("Executed on"),
                     QString::fromStdString(partner_row.name) + muted(tr("  #%1").arg(p->index)));
    html += row_html(tr("Delay"),
                     QStringLiteral("<b>%1</b>").arg(cycles(executed->start - dispatch->start)));
  } else if (track.kind == TrackKind::ExecUnit) {
    html += row_html(tr("Dispatched by"), muted(tr("no pending dispatch (unlinked)")));
  }
  return html + QStringLiteral("</table>");
}

QString WavesView::measure_html() const {
  const auto range = *timeline_->measured();
  const double a = std::min(range.first, range.second), b = std::max(range.first, range.second);
  const auto &clock = model_->clock();
  const auto origin = static_cast<double>(model_->origin());
  QString html = tr("<h3>Measured range</h3><table>");
  html += row_html(tr("Length"),
                   QStringLiteral("<b>%1</b>").arg(cycles(static_cast<std::int64_t>(b - a))));
  if (!clock.empty()) html += row_html(tr("Wall time"), format_ns(clock.ns_at(b) - clock.ns_at(a)));
  html += row_html(tr("From"), tr("%L1").arg(static_cast<std::int64_t>(a - origin)));
  html += row_html(tr("To"), tr("%L1").arg(static_cast<std::int64_t>(b - origin)));
  return html + QStringLiteral("</table><hr>");
}

}  // namespace wavescope::gui
