#include "models/flash_device_model.hpp"

#include <QColor>

namespace wavescope::gui {

FlashDeviceModel::FlashDeviceModel(QObject *parent) : QAbstractTableModel(parent) {}

void FlashDeviceModel::set_devices(std::vector<hw::device::DeviceListing> devices) {
  beginResetModel();
  devices_ = std::move(devices);
  endResetModel();
}

int FlashDeviceModel::row_of(const QString &spec) const {
  for (std::size_t i = 0; i < devices_.size(); ++i)
    if (QString::fromStdString(devices_[i].id) == spec) return static_cast<int>(i);
  return -1;
}

int FlashDeviceModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : static_cast<int>(devices_.size());
}

int FlashDeviceModel::columnCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant FlashDeviceModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
  const auto &d = devices_[static_cast<std::size_t>(index.row())];
  if (role == SpecRole) return QString::fromStdString(d.id);
  if (role == Qt::ForegroundRole && index.column() == StateColumn) {
    // The states of docs/flash-recovery.md §1: what still works on the board.
    if (d.state == "bricked") return QColor(0xe0, 0x9a, 0x3e);
    if (d.state == "booted") return QColor(0x6c, 0xc0, 0x6a);
    if (d.state == "offline" || d.state == "not-responding") return QColor(0xe0, 0x5a, 0x5a);
    return {};
  }
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  switch (index.column()) {
  case DeviceColumn: return QString::fromStdString(d.id);
  case KindColumn: return QString::fromStdString(d.kind);
  case StateColumn: return QString::fromStdString(d.state);
  case DescriptionColumn: return QString::fromStdString(d.description);
  default: return {};
  }
}

QVariant FlashDeviceModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case DeviceColumn: return tr("Device");
  case KindColumn: return tr("Kind");
  case StateColumn: return tr("State");
  case DescriptionColumn: return tr("Description");
  default: return {};
  }
}

}  // namespace wavescope::gui
