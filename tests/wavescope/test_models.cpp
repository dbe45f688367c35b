// The app's models over real code objects, checked with QAbstractItemModelTester.

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QApplication>

#include "app/documents.hpp"
#include "gui_test_app.hpp"
#include "models/disassembly_model.hpp"
#include "models/navigator_model.hpp"
#include "testdata.hpp"

using namespace wavescope::gui;

TEST_CASE("DisassemblyModel rows match the listing, padding collapsed") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(elf, "sqtt/gfx1100/gemm/program.elf");
  const auto doc = load_code_object(QString::fromStdString(elf.string()));
  DisassemblyModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.set_instructions(doc->text);
  REQUIRE(doc->text.size() == 173);
  // 173 instructions, of which the trailing s_code_end run collapses into one row.
  const int padding = model.data(model.index(model.rowCount() - 1, 0),
                                 DisassemblyModel::PaddingCountRole).toInt();
  CHECK(padding > 1);
  CHECK(model.rowCount() == 173 - padding + 1);
  CHECK(model.data(model.index(0, DisassemblyModel::InstructionColumn), Qt::DisplayRole).toString() ==
        "s_load_b128 s[4:7], s[0:1], null");
  CHECK(model.row_of_address(0x1700) == 0);
  CHECK(model.row_of_address(0x1704) == 0);  // inside the 8-byte instruction
  CHECK(model.row_of_address(0x1708) == 1);
  CHECK(model.row_of_address(0x10) == -1);
}

TEST_CASE("NavigatorModel lists code objects and their kernels") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(elf, "sqtt/gfx950/gemm/program.elf");
  const auto doc = load_code_object(QString::fromStdString(elf.string()));
  NavigatorModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  const QModelIndex root = model.add_code_object(*doc, 0);
  CHECK(model.rowCount() == 1);
  CHECK(model.rowCount(root) == 1);
  CHECK(root.data().toString().contains("gfx950"));
  const QModelIndex kernel = model.index(0, 0, root);
  CHECK(kernel.data().toString().startsWith("r_32_32_16_2"));
  CHECK(kernel.data(NavigatorModel::KindRole).toInt() ==
        static_cast<int>(NavigatorModel::ItemKind::Kernel));
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
