#pragma once
// The disassembly of one kernel as a table: one row per listing line (runs of s_code_end padding
// collapse into one row). Columns: address, encoding, instruction.

#include <QAbstractTableModel>

#include <vector>

#include "wavescope/compiler/isa/instruction.hpp"
#include "wavescope/compiler/isa/listing.hpp"

namespace wavescope::gui {

class DisassemblyModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { AddressColumn, BytesColumn, InstructionColumn, ColumnCount };
  enum Role {
    AddressRole = Qt::UserRole + 1,  // quint64 address of the row's (first) instruction
    CategoryRole,                    // int InstCategory
    MnemonicRole,                    // QString
    BranchTargetRole,                // quint64, or invalid when the row does not branch
    PaddingCountRole,                // int: instructions a collapsed row stands for (1 if none)
  };

  explicit DisassemblyModel(QObject *parent = nullptr);
  void set_instructions(std::vector<compiler::isa::Instruction> instructions);

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
};

}  // namespace wavescope::gui
