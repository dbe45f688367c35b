#pragma once
// The disassembly of one kernel as a table: one row per listing line (runs of s_code_end padding
// collapse into one row). Columns: heat, address, encoding, instruction.

#include <QAbstractTableModel>

#include <cstdint>
#include <map>
#include <vector>

#include "wavescope/compiler/isa/instruction.hpp"
#include "wavescope/compiler/isa/listing.hpp"

namespace wavescope::gui {

class DisassemblyModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { HeatColumn, AddressColumn, BytesColumn, InstructionColumn, ColumnCount };
  enum Role {
    AddressRole = Qt::UserRole + 1,  // quint64 address of the row's (first) instruction
    CategoryRole,                    // int InstCategory
    MnemonicRole,                    // QString
    BranchTargetRole,                // quint64, or invalid when the row does not branch
    PaddingCountRole,                // int: instructions a collapsed row stands for (1 if none)
    HeatRole,       // double in [0, 1]: cost share relative to the hottest instruction, or invalid
    CostShareRole,  // double: the instruction's share of the kernel's cost, or invalid
  };

  explicit DisassemblyModel(QObject *parent = nullptr);
  void set_instructions(std::vector<compiler::isa::Instruction> instructions);
  // Per-PC heat to show in the margin (nullptr clears); the map must outlive the model's use.
  void set_heat(const std::map<std::uint64_t, double> *heat);

  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  // The row showing the instruction at `address`, or -1.
  int row_of_address(quint64 address) const;
  const compiler::isa::Instruction &instruction_at_row(int row) const;
  const std::vector<compiler::isa::Instruction> &instructions() const { return instructions_; }

private:
  std::vector<compiler::isa::Instruction> instructions_;
  std::vector<compiler::isa::ListingLine> lines_;
  const std::map<std::uint64_t, double> *heat_ = nullptr;
  double max_heat_ = 0;
};

}  // namespace wavescope::gui
