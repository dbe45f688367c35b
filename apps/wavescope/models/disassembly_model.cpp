#include "models/disassembly_model.hpp"

#include <algorithm>

#include "app/theme.hpp"

namespace wavescope::gui {

DisassemblyModel::DisassemblyModel(QObject *parent) : QAbstractTableModel(parent) {}

void DisassemblyModel::set_instructions(std::vector<compiler::isa::Instruction> instructions) {
  beginResetModel();
  instructions_ = std::move(instructions);
  lines_ = compiler::isa::make_listing(instructions_);
  endResetModel();
}

void DisassemblyModel::set_heat(const std::map<std::uint64_t, double> *heat) {
  heat_ = heat;
  max_heat_ = 0;
  if (heat_)
    for (const auto &[pc, share] : *heat_) max_heat_ = std::max(max_heat_, share);
  if (rowCount() > 0) Q_EMIT dataChanged(index(0, HeatColumn), index(rowCount() - 1, HeatColumn));
}

int DisassemblyModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : static_cast<int>(lines_.size());
}

int DisassemblyModel::columnCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

const compiler::isa::Instruction &DisassemblyModel::instruction_at_row(int row) const {
  return instructions_[lines_[static_cast<std::size_t>(row)].first];
}

QVariant DisassemblyModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto &line = lines_[static_cast<std::size_t>(index.row())];
  const auto &inst = instructions_[line.first];
  switch (role) {
  case Qt::DisplayRole:
    switch (index.column()) {
    case AddressColumn: return QStringLiteral("%1").arg(inst.address, 0, 16);
    case BytesColumn:
      return line.is_padding_run() ? QString() : QString::fromStdString(inst.hex_words());
    case InstructionColumn:
      if (line.is_padding_run())
        return QStringLiteral("s_code_end × %1  (padding)").arg(line.count);
      return QString::fromStdString(inst.text);
    }
    return {};
  case Qt::ForegroundRole:
    if (index.column() == InstructionColumn && !line.is_padding_run())
      return theme::category_color(inst.category);
    return theme::muted_text();
  case Qt::FontRole: return theme::monospace_font();
  case Qt::ToolTipRole:
    if (index.column() == HeatColumn) {
      const QVariant share = data(index, CostShareRole);
      return share.isValid()
                 ? tr("%1% of the kernel's cycles").arg(share.toDouble() * 100, 0, 'f', 1)
                 : QVariant();
    }
    return QStringLiteral("%1 — %2 bytes, %3")
        .arg(QString::fromStdString(inst.mnemonic))
        .arg(inst.size)
        .arg(QString::fromUtf8(compiler::isa::to_string(inst.category).data()));
  case AddressRole: return QVariant::fromValue<quint64>(inst.address);
  case CategoryRole: return static_cast<int>(inst.category);
  case MnemonicRole: return QString::fromStdString(inst.mnemonic);
  case BranchTargetRole:
    return inst.branch_target ? QVariant::fromValue<quint64>(*inst.branch_target) : QVariant();
  case PaddingCountRole: return static_cast<int>(line.count);
  case HeatRole:
  case CostShareRole: {
    if (!heat_ || line.is_padding_run()) return {};
    const auto it = heat_->find(inst.address);
    if (it == heat_->end()) return {};
    if (role == CostShareRole) return it->second;
    return max_heat_ > 0 ? it->second / max_heat_ : 0.0;
  }
  default: return {};
  }
}

QVariant DisassemblyModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case HeatColumn: return QString();
  case AddressColumn: return tr("Address");
  case BytesColumn: return tr("Encoding");
  case InstructionColumn: return tr("Instruction");
  }
  return {};
}

int DisassemblyModel::row_of_address(quint64 address) const {
  auto it = std::upper_bound(lines_.begin(), lines_.end(), address,
                             [&](quint64 a, const compiler::isa::ListingLine &l) {
                               return a < instructions_[l.first].address;
                             });
  if (it == lines_.begin()) return -1;
  --it;
  const auto &last = instructions_[it->first + it->count - 1];
  if (address >= last.address + last.size) return -1;
  return static_cast<int>(it - lines_.begin());
}

}  // namespace wavescope::gui
