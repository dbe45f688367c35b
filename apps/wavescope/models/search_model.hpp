#pragma once
// Everything open, searchable by name (Ctrl+K): kernels, profile tracks, span names, kernel runs,
// buffers, PCs (address and instruction) and rewrite groups and passes, one row each, with where
// choosing it leads (a focus, a profile item, a PC and the view to show). The command palette's
// model (Ctrl+Shift+P) is a CommandModel: the app's actions by menu path.

#include <QAbstractListModel>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

#include "app/selection.hpp"

class QAction;
class QMenuBar;

namespace wavescope::gui {

class Document;
class Workspace;

// Where a search hit or a link leads.
struct Target {
  QString view;                // the view to show ("isa", "timeline", "memory", "rewrite", ...)
  std::optional<Focus> focus;  // the navigator focus to set
  std::optional<ProfileItem> item;  // the profile span, buffer, track or moment to select
  std::optional<quint64> pc;        // the instruction to select
  bool operator==(const Target &) const = default;
};

struct SearchEntry {
  QString kind;    // "kernel", "track", "span", "run", "buffer", "pc", "rewrite"
  QString text;    // what is matched and shown
  QString detail;  // where it is (document title, track, ...)
  Target target;
};

// The entries of one open document (document index `index`).
std::vector<SearchEntry> search_entries(const Document &document, int index);

class SearchModel : public QAbstractListModel {
  Q_OBJECT
public:
  enum Role { KindRole = Qt::UserRole + 1, DetailRole };
  using QAbstractListModel::QAbstractListModel;

  // Indexes every document of the workspace (call again when one is added).
  void rebuild(const Workspace &workspace);
  void set_entries(std::vector<SearchEntry> entries);
  const SearchEntry &entry(int row) const { return entries_[static_cast<std::size_t>(row)]; }
  int rowCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
  std::vector<SearchEntry> entries_;
};

struct Command {
  QString name;      // "File › Open File…"
  QString shortcut;  // "Ctrl+O", empty when none
  std::function<void()> run;
};

// Every enabled action of a menu bar, by menu path (submenus included, separators skipped).
std::vector<Command> commands_of(const QMenuBar &menus);

class CommandModel : public QAbstractListModel {
  Q_OBJECT
public:
  enum Role { ShortcutRole = Qt::UserRole + 2 };  // shown where a search hit shows its detail
  using QAbstractListModel::QAbstractListModel;

  void set_commands(std::vector<Command> commands);
  const Command &command(int row) const { return commands_[static_cast<std::size_t>(row)]; }
  int rowCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
  std::vector<Command> commands_;
};

}  // namespace wavescope::gui
