#pragma once
// The devices the flash panel can work on, as libhw lists them (real ASM24 bridges and PCI
// Navi31 cards, then simulated boards): one row per device with its id, kind, state and
// description. The id column's SpecRole is what --device takes.

#include <QAbstractTableModel>

#include <vector>

#include "wavescope/hw/device.hpp"

namespace wavescope::gui {

class FlashDeviceModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { DeviceColumn, KindColumn, StateColumn, DescriptionColumn, ColumnCount };
  enum Role { SpecRole = Qt::UserRole + 1 };

  explicit FlashDeviceModel(QObject *parent = nullptr);

  void set_devices(std::vector<hw::device::DeviceListing> devices);
  // The row of the device `spec` names, or -1.
  int row_of(const QString &spec) const;
  const hw::device::DeviceListing &device(int row) const {
    return devices_[static_cast<std::size_t>(row)];
  }

  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  std::vector<hw::device::DeviceListing> devices_;
};

}  // namespace wavescope::gui
