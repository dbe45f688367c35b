#include "views/memory_view.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

#include "app/selection.hpp"
#include "app/workspace.hpp"
#include "models/ansi_html.hpp"
#include "models/memory_model.hpp"
#include "models/profile_track_model.hpp"
#include "views/memory_graph_widget.hpp"

namespace wavescope::gui {

namespace tp = trace::profile;

namespace {
QString esc(const std::string &s) { return QString::fromStdString(s).toHtmlEscaped(); }
QString row(const QString &key, const QString &value) {
  return QStringLiteral("<tr><td style='color:#8a8f98;padding-right:12px'>%1</td><td>%2</td></tr>")
      .arg(key, value);
}
QString commas(std::uint64_t n) {
  return QLocale(QLocale::English).toString(static_cast<qulonglong>(n));
}
}  // namespace

MemoryView::MemoryView(Workspace &workspace, Selection &selection, QWidget *parent)
    : QWidget(parent), workspace_(workspace), selection_(selection), model_(new MemoryModel(this)),
      sorted_(new QSortFilterProxyModel(this)), graph_(new MemoryGraphWidget(*model_, this)),
      header_(new QLabel(this)), inspector_(new QTextBrowser(this)), buffers_(new QTreeView(this)) {
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  header_->setTextFormat(Qt::RichText);
  layout->addWidget(header_);

  sorted_->setSourceModel(model_);
  sorted_->setSortRole(MemoryModel::SortRole);
  buffers_->setModel(sorted_);
  buffers_->setSortingEnabled(true);
  buffers_->sortByColumn(-1, Qt::AscendingOrder);
  buffers_->setUniformRowHeights(true);
  buffers_->setAlternatingRowColors(true);
  buffers_->header()->setStretchLastSection(false);
  buffers_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  // The inspector tells when a buffer was allocated; the list keeps to what compares.
  buffers_->setColumnHidden(MemoryModel::AllocatedColumn, true);
  inspector_->setOpenLinks(false);

  auto *side = new QSplitter(Qt::Vertical, this);
  side->addWidget(inspector_);
  side->addWidget(buffers_);
  side->setStretchFactor(0, 3);
  side->setStretchFactor(1, 2);
  auto *split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(graph_);
  split->addWidget(side);
  split->setStretchFactor(0, 4);
  split->setStretchFactor(1, 1);
  split->setSizes({1110, 430});
  layout->addWidget(split, 1);

  connect(graph_, &MemoryGraphWidget::buffer_selected, this, &MemoryView::on_buffer_selected);
  connect(graph_, &MemoryGraphWidget::selection_cleared, this, [this] {
    buffers_->setCurrentIndex({});
    inspect_profile();
  });
  connect(buffers_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex &current) {
            const QModelIndex source = sorted_->mapToSource(current);
            if (!source.isValid() || !source.parent().isValid()) return;
            const int m = source.parent().row();
            const auto now = graph_->selected();
            if (now && now->track == m && now->buffer == source.row()) return;
            graph_->select_buffer({m, source.row()});
          });
  connect(inspector_, &QTextBrowser::anchorClicked, this, &MemoryView::on_link);
  connect(&workspace_, &Workspace::document_added, this, [this](int index) {
    if (document_ < 0) show_document(index);
  });
  connect(&selection_, &Selection::focus_changed, this, &MemoryView::on_focus);
  connect(&selection_, &Selection::profile_item_selected, this, &MemoryView::on_profile_item);
  show_document(-1);
}

QString MemoryView::inspector_text() const { return inspector_->toPlainText(); }

void MemoryView::on_focus(const Focus &focus) {
  const Document *doc = workspace_.document(focus.document);
  if (doc && doc->profile() && focus.document != document_) show_document(focus.document);
}

void MemoryView::show_document(int index) {
  const Document *doc = workspace_.document(index);
  if (doc && !doc->profile()) return;
  document_ = doc ? index : -1;
  model_->set_profile(doc ? doc->profile() : nullptr);
  buffers_->expandAll();
  graph_->reset();
  inspect_profile();
}

void MemoryView::on_profile_item(const ProfileItem &item) {
  if (item.document < 0 || item.track < 0 || item.span >= 0) return;
  if (item.document != document_) show_document(item.document);
  if (item.document != document_) return;
  const int m = model_->memory_track_of(item.track);
  if (m < 0) return;
  if (item.buffer < 0) {
    graph_->show_track(m);
    return;
  }
  const auto now = graph_->selected();
  if (now && now->track == m && now->buffer == item.buffer) return;
  graph_->select_buffer({m, item.buffer});
}

void MemoryView::on_buffer_selected(int m, int buffer) {
  const int track = model_->profile_track(m);
  const QModelIndex proxy = sorted_->mapFromSource(model_->index_of(track, buffer));
  if (proxy.isValid() && buffers_->currentIndex() != proxy) {
    buffers_->setCurrentIndex(proxy);
    buffers_->scrollTo(proxy);
  }
  inspect_buffer(m, buffer);
  ProfileItem item;
  item.document = document_;
  item.track = track;
  item.buffer = buffer;
  selection_.select_profile_item(item);
}

void MemoryView::inspect_profile() {
  const tp::Profile *profile = model_->profile();
  if (!profile) {
    header_->setText(tr("<b>Memory</b> — no profile open"));
    inspector_->setHtml(
        tr("<p>Open a tinygrad <code>profile.pkl</code> to see its buffers over time.</p>"));
    return;
  }
  std::size_t buffers = 0;
  for (int i = 0; i < model_->track_count(); ++i) buffers += model_->track(i).buffers.size();
  header_->setText(
      tr("<b>%1</b> &nbsp; memory &nbsp;·&nbsp; %2 &nbsp;·&nbsp; %3 buffers &nbsp;·&nbsp; "
         "peak %4 &nbsp;&nbsp;<span style='color:#8a8f98'>click a band · ./, next/prev buffer · "
         "↑/↓ device · W/S zoom · A/D pan · F fit buffer · H whole profile</span>")
          .arg(esc(profile->source.filename().string()),
               tr("%n device(s)", nullptr, model_->track_count()))
          .arg(buffers)
          .arg(format_bytes(profile->memory_peak)));
  QString html = QStringLiteral("<h3>Memory</h3>");
  if (model_->track_count() == 0)
    html += tr("<p>This profile records no allocations (no alloc/free events).</p>");
  for (int i = 0; i < model_->track_count(); ++i) {
    const tp::Track &t = model_->track(i);
    const tp::MemoryLayout &l = model_->layout(i);
    html += QStringLiteral("<h4>%1</h4><table>").arg(esc(t.name));
    html += row(tr("peak"), QStringLiteral("%1 at %2")
                                .arg(format_bytes(static_cast<double>(l.peak)),
                                     format_time(static_cast<double>(l.peak_time))));
    html +=
        row(tr("alive at the peak"), tr("%n buffer(s)", nullptr, static_cast<int>(l.peak_buffers)));
    html += row(tr("buffers"), QString::number(t.buffers.size()));
    std::size_t freed = 0;
    for (const tp::Buffer &b : t.buffers) freed += b.freed_in_profile;
    html += row(tr("freed"), QString::number(freed));
    html += QStringLiteral("</table>");
    // The largest buffers, as links.
    std::vector<std::size_t> order(t.buffers.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return t.buffers[a].bytes() > t.buffers[b].bytes();
    });
    html += QStringLiteral("<table>");
    for (std::size_t k = 0; k < order.size() && k < 6; ++k) {
      const tp::Buffer &b = t.buffers[order[k]];
      html += row(format_bytes(static_cast<double>(b.bytes())),
                  QStringLiteral("<a href='buffer:%1:%2'>buffer %3</a> %4")
                      .arg(i)
                      .arg(order[k])
                      .arg(b.key)
                      .arg(esc(b.dtype)));
    }
    html += QStringLiteral("</table>");
  }
  html += tr("<p style='color:#8a8f98'>Click a band for its dtype, size, lifetime and the kernels "
             "that used it.</p>");
  inspector_->setHtml(html);
}

void MemoryView::inspect_buffer(int m, int buffer) {
  const tp::Profile *profile = model_->profile();
  if (!profile) return;
  const tp::Track &track = model_->track(m);
  const tp::Buffer &b = track.buffers[static_cast<std::size_t>(buffer)];
  const auto &band = model_->layout(m).bands[static_cast<std::size_t>(buffer)];
  QString html = QStringLiteral("<h3>buffer %1 <span style='color:#8a8f98'>%2</span></h3><table>")
                     .arg(b.key)
                     .arg(esc(track.name));
  html += row(tr("DType"), esc(b.dtype));
  html += row(tr("Len"), commas(b.elements));
  html +=
      row(tr("Size"), QStringLiteral("%1 <span style='color:#8a8f98'>(%2 bytes)</span>")
                          .arg(format_bytes(static_cast<double>(b.bytes())), commas(b.bytes())));
  html += row(tr("Lifetime"), format_time(static_cast<double>(b.freed - b.allocated)));
  html += row(tr("Allocated"), format_time(static_cast<double>(b.allocated)));
  html +=
      row(tr("Freed"),
          b.freed_in_profile
              ? format_time(static_cast<double>(b.freed))
              : tr("never (alive at the end, %1)").arg(format_time(static_cast<double>(b.freed))));
  html += row(tr("Stacked on"), format_bytes(static_cast<double>(band.base_at(b.allocated))));
  html += row(tr("Users"), QString::number(b.users.size()));
  html += QStringLiteral("</table>");
  if (!b.users.empty()) {
    const auto spans = tp::spans_of_users(*profile, b);
    html += QStringLiteral("<table>");
    for (std::size_t u = 0; u < b.users.size(); ++u) {
      const tp::BufferUser &user = b.users[u];
      const QString where =
          spans[u].track >= 0
              ? QString()
              : QStringLiteral(" <span style='color:#8a8f98'>(run %1)</span>").arg(user.exec);
      html += QStringLiteral("<tr><td>[%1]</td><td><a href='user:%1' style='text-decoration:none'>"
                             "%2</a> %3@data%4%5</td></tr>")
                  .arg(u)
                  .arg(ansi_to_html(user.kernel), QLatin1String(tp::to_string(user.mode)))
                  .arg(user.argument)
                  .arg(where);
    }
    html += QStringLiteral("</table><p style='color:#8a8f98'>Click a kernel to select its run in "
                           "the timeline.</p>");
  }
  inspector_->setHtml(html);
}

void MemoryView::on_link(const QUrl &url) {
  const QString s = url.toString();
  if (s.startsWith(QStringLiteral("user:"))) {
    open_user(s.mid(5).toInt());
  } else if (s.startsWith(QStringLiteral("buffer:"))) {
    const QStringList parts = s.split(':');
    if (parts.size() == 3) graph_->select_buffer({parts[1].toInt(), parts[2].toInt()});
  }
}

void MemoryView::open_user(int user) {
  const tp::Profile *profile = model_->profile();
  const auto sel = graph_->selected();
  if (!profile || !sel) return;
  const tp::Buffer &b = model_->track(sel->track).buffers[static_cast<std::size_t>(sel->buffer)];
  if (user < 0 || user >= static_cast<int>(b.users.size())) return;
  const auto spans = tp::spans_of_users(*profile, b);
  ProfileItem item;
  item.document = document_;
  const tp::SpanIndex span = spans[static_cast<std::size_t>(user)];
  if (span.track >= 0) {
    item.track = span.track;
    item.span = span.span;
  } else {
    const int x = tp::execution_of(*profile, b.users[static_cast<std::size_t>(user)].exec);
    if (x < 0) return;
    item.time = profile->executions[static_cast<std::size_t>(x)].time;
  }
  selection_.select_profile_item(item);
  selection_.reveal(QStringLiteral("timeline"));
}

}  // namespace wavescope::gui
