#include "models/navigator_model.hpp"

#include "app/capture_document.hpp"
#include "app/code_object_document.hpp"
#include "app/selection.hpp"
#include "models/navigator_rewrite_trace.hpp"

namespace wavescope::gui {

NavigatorModel::NavigatorModel(QObject *parent) : QStandardItemModel(parent) {
  setHorizontalHeaderLabels({tr("Open")});
}

QStandardItem *NavigatorModel::make_item(const QString &text, const Focus &focus) {
  auto *item = new QStandardItem(text);
  item->setEditable(false);
  item->setData(QVariant::fromValue(focus), FocusRole);
  return item;
}

QModelIndex NavigatorModel::add_document(const Document &document, int document_index) {
  Focus focus;
  focus.document = document_index;
  auto *root = make_item(document.title, focus);
  root->setToolTip(document.path);
  switch (document.kind()) {
  case DocumentKind::CodeObject:
    add_code_object_children(*root, static_cast<const CodeObjectDocument &>(document),
                             document_index);
    break;
  case DocumentKind::Capture:
    add_capture_children(*root, static_cast<const CaptureDocument &>(document), document_index);
    break;
  case DocumentKind::RewriteTrace:
    add_rewrite_trace_children(*root, document, document_index);
    break;
  case DocumentKind::Profile:        // the timeline and memory views show it
  case DocumentKind::SymbolicCases:  // loaded as a RewriteTraceDocument, so never a document's kind
  case DocumentKind::Unknown: break;
  }
  appendRow(root);
  return root->index();
}

void NavigatorModel::add_code_object_children(QStandardItem &root,
                                              const CodeObjectDocument &document,
                                              int document_index) {
  for (int k = 0; k < document.kernel_count(); ++k) {
    const KernelCode &kernel = *document.kernel(k);
    Focus focus;
    focus.document = document_index;
    focus.kernel = k;
    root.appendRow(make_item(QStringLiteral("%1  · %2 blocks, %3 insts")
                                 .arg(QString::fromStdString(kernel.name))
                                 .arg(kernel.cfg.blocks.size())
                                 .arg(kernel.instructions.size()),
                             focus));
  }
}

void NavigatorModel::add_capture_children(QStandardItem &root, const CaptureDocument &document,
                                          int document_index) {
  for (int k = 0; k < document.kernel_count(); ++k) {
    const CaptureDispatch &dispatch = *document.dispatch(k);
    Focus focus;
    focus.document = document_index;
    focus.kernel = k;
    QString host;
    if (!dispatch.program->exec_ranges.empty()) {
      const auto &r = dispatch.program->exec_ranges.front();
      host = QStringLiteral(" · %1 µs").arg(r.end_us - r.start_us, 0, 'f', 1);
    }
    auto *kernel = make_item(QStringLiteral("%1  · %2 waves%3")
                                 .arg(QString::fromStdString(dispatch.program->name))
                                 .arg(dispatch.waves)
                                 .arg(host),
                             focus);
    kernel->setToolTip(tr("%1 instructions, %2 SQTT blobs, %3 PMC samples")
                           .arg(dispatch.code.instructions.size())
                           .arg(dispatch.engines.size())
                           .arg(dispatch.counters.size()));
    for (int s = 0; s < static_cast<int>(dispatch.engines.size()); ++s) {
      const ShaderEngineTrace &se = dispatch.engines[static_cast<std::size_t>(s)];
      focus.shader_engine = s;
      focus.wave = -1;
      QString text = tr("SE %1  · %2 waves").arg(se.blob->se).arg(se.timeline.waves.size());
      if (se.instructions_mapped()) text += tr(", %1 insts").arg(se.instructions_mapped());
      if (!se.blob->itrace) text += tr("  (no itrace)");
      auto *engine = make_item(text, focus);
      engine->setToolTip(QString::fromStdString(se.blob->file_name));
      const auto &waves = se.timeline.waves;
      for (int w = 0; w < static_cast<int>(waves.size()); ++w) {
        const auto &wave = waves[static_cast<std::size_t>(w)];
        focus.wave = w;
        QString label = tr("wave %1  · CU %2 SIMD %3 slot %4 · %5 cyc")
                            .arg(w)
                            .arg(wave.cu)
                            .arg(wave.simd)
                            .arg(wave.slot)
                            .arg(wave.end - wave.start);
        if (const auto *trace = se.mapped_trace(w))
          label += tr(" · %1 insts").arg(trace->instructions.size());
        engine->appendRow(make_item(label, focus));
      }
      kernel->appendRow(engine);
    }
    root.appendRow(kernel);
  }
}

QModelIndex NavigatorModel::index_of(const Focus &focus) const {
  const auto matches = match(index(0, 0), FocusRole, QVariant::fromValue(focus), 1,
                             Qt::MatchExactly | Qt::MatchRecursive);
  return matches.isEmpty() ? QModelIndex() : matches.front();
}

}  // namespace wavescope::gui
