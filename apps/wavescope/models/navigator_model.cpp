#include "models/navigator_model.hpp"

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
  case DocumentKind::RewriteTrace:
    add_rewrite_trace_children(*root, document, document_index);
    break;
  case DocumentKind::Capture:
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

QModelIndex NavigatorModel::index_of(const Focus &focus) const {
  const auto matches = match(index(0, 0), FocusRole, QVariant::fromValue(focus), 1,
                             Qt::MatchExactly | Qt::MatchRecursive);
  return matches.isEmpty() ? QModelIndex() : matches.front();
}

}  // namespace wavescope::gui
