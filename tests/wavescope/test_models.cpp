// The app's models over real code objects, checked with QAbstractItemModelTester.

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QApplication>

#include "app/code_object_document.hpp"
#include "app/selection.hpp"
#include "gui_test_app.hpp"
#include "models/disassembly_model.hpp"
#include "models/navigator_model.hpp"
#include "testdata.hpp"
#include "wavescope/compiler/isa/disassembler.hpp"

using namespace wavescope::gui;

TEST_CASE("DisassemblyModel rows match the listing, padding collapsed") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(elf, "sqtt/gfx1100/gemm/program.elf");
  const auto doc = load_code_object(QString::fromStdString(elf.string()));
  DisassemblyModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  const auto insts = wavescope::compiler::isa::disassemble_text(*doc->code);
  model.set_instructions(insts);
  REQUIRE(insts.size() == 173);
  // The kernel's instructions, of which the trailing s_code_end run collapses into one row.
  const int padding =
      model.data(model.index(model.rowCount() - 1, 0), DisassemblyModel::PaddingCountRole).toInt();
  CHECK(padding > 1);
  CHECK(model.rowCount() == static_cast<int>(insts.size()) - padding + 1);
  CHECK(
      model.data(model.index(0, DisassemblyModel::InstructionColumn), Qt::DisplayRole).toString() ==
      "s_load_b128 s[4:7], s[0:1], null");
  CHECK(model.row_of_address(0x1700) == 0);
  CHECK(model.row_of_address(0x1704) == 0);  // inside the 8-byte instruction
  CHECK(model.row_of_address(0x1708) == 1);
  CHECK(model.row_of_address(0x10) == -1);

  // Heat: cost shares normalised to the hottest instruction; tooltips give the share.
  const std::map<std::uint64_t, double> heat = {{0x1700, 0.10}, {0x1708, 0.40}};
  model.set_heat(&heat);
  CHECK(model.data(model.index(0, 0), DisassemblyModel::HeatRole).toDouble() == Approx(0.25));
  CHECK(model.data(model.index(1, 0), DisassemblyModel::HeatRole).toDouble() == Approx(1.0));
  CHECK_FALSE(model.data(model.index(2, 0), DisassemblyModel::HeatRole).isValid());
  CHECK(model.data(model.index(1, 0), Qt::ToolTipRole).toString().startsWith("40.0%"));
  model.set_heat(nullptr);
  CHECK_FALSE(model.data(model.index(0, 0), DisassemblyModel::HeatRole).isValid());
}

TEST_CASE("NavigatorModel lists code objects and their kernels") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(elf, "sqtt/gfx950/gemm/program.elf");
  const auto doc = load_code_object(QString::fromStdString(elf.string()));
  NavigatorModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  const QModelIndex root = model.add_document(*doc, 3);
  CHECK(model.rowCount() == 1);
  CHECK(model.rowCount(root) == 1);
  CHECK(root.data().toString().contains("gfx950"));
  const QModelIndex kernel = model.index(0, 0, root);
  CHECK(kernel.data().toString().startsWith("r_32_32_16_2"));
  const auto focus = kernel.data(NavigatorModel::FocusRole).value<Focus>();
  CHECK(focus.document == 3);
  CHECK(focus.kernel == 0);
  CHECK(model.index_of(focus) == kernel);
  Focus missing;
  missing.document = 9;
  CHECK_FALSE(model.index_of(missing).isValid());
}

TEST_CASE("documents are recognised by content") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/gemm");
  CHECK(detect_document_kind(QString::fromStdString(dir.string())) == DocumentKind::Capture);
  CHECK(detect_document_kind(QString::fromStdString((dir / "program.elf").string())) ==
        DocumentKind::CodeObject);
  CHECK(detect_document_kind(QString::fromStdString((dir / "se0.bin").string())) ==
        DocumentKind::Unknown);
}
