#pragma once
// The tree of what is open: code object -> kernel (captures and rewrite traces join later).
// Each item carries what it points at, so selecting it can drive the views.

#include <QStandardItemModel>

#include <memory>

namespace wavescope::gui {

struct CodeObjectDocument;

class NavigatorModel : public QStandardItemModel {
  Q_OBJECT
public:
  enum Role {
    KindRole = Qt::UserRole + 1,  // ItemKind
    DocumentRole,                 // index of the document in the workspace
    KernelRole,                   // index of the kernel within its code object
  };
  enum class ItemKind { CodeObject = 1, Kernel };

  explicit NavigatorModel(QObject *parent = nullptr);
  // Adds a code object and its kernels; returns the new top-level item's index.
  QModelIndex add_code_object(const CodeObjectDocument &document, int document_index);
};

}  // namespace wavescope::gui
