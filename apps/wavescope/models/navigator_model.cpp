#include "models/navigator_model.hpp"

#include <QFileInfo>

#include "app/documents.hpp"

namespace wavescope::gui {

NavigatorModel::NavigatorModel(QObject *parent) : QStandardItemModel(parent) {
  setHorizontalHeaderLabels({tr("Open")});
}

QModelIndex NavigatorModel::add_code_object(const CodeObjectDocument &document,
                                             int document_index) {
  auto *root = new QStandardItem(QStringLiteral("%1  (%2)").arg(
      QFileInfo(document.path).fileName(),
      QString::fromStdString(document.code->target().processor)));
  root->setEditable(false);
  root->setToolTip(document.path);
  root->setData(static_cast<int>(ItemKind::CodeObject), KindRole);
  root->setData(document_index, DocumentRole);
  for (std::size_t k = 0; k < document.kernels.size(); ++k) {
    const auto &kernel = document.kernels[k];
    auto *item = new QStandardItem(QStringLiteral("%1  · %2 blocks, %3 insts")
                                       .arg(QString::fromStdString(kernel.name))
                                       .arg(kernel.cfg.blocks.size())
                                       .arg(kernel.instructions.size()));
    item->setEditable(false);
    item->setData(static_cast<int>(ItemKind::Kernel), KindRole);
    item->setData(document_index, DocumentRole);
    item->setData(static_cast<int>(k), KernelRole);
    root->appendRow(item);
  }
  appendRow(root);
  return root->index();
}

}  // namespace wavescope::gui
