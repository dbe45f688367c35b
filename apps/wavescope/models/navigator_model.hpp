#pragma once
// The tree of what is open: code object -> kernel; capture -> kernel -> SE -> wave; rewrite
// trace -> group -> pass -> step. Every item carries the Focus it stands for.

#include <QStandardItemModel>

namespace wavescope::gui {

class Document;
class CodeObjectDocument;
class CaptureDocument;
struct Focus;

class NavigatorModel : public QStandardItemModel {
  Q_OBJECT
public:
  enum Role {
    FocusRole = Qt::UserRole + 1,  // wavescope::gui::Focus
  };

  explicit NavigatorModel(QObject *parent = nullptr);
  // Adds the document (with its children) at the top level; returns the new item's index.
  QModelIndex add_document(const Document &document, int document_index);
  // The item standing for `focus`, or an invalid index.
  QModelIndex index_of(const Focus &focus) const;

  // Creates an item for the tree; used by the per-kind builders.
  static QStandardItem *make_item(const QString &text, const Focus &focus);

private:
  void add_code_object_children(QStandardItem &root, const CodeObjectDocument &document,
                                int document_index);
  void add_capture_children(QStandardItem &root, const CaptureDocument &document,
                            int document_index);
};

}  // namespace wavescope::gui
