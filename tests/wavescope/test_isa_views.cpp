// The ISA tokenizer and the ISA/CFG views driven through the workspace and selection.

#include <catch2/catch.hpp>

#include <QApplication>

#include "app/code_object_document.hpp"
#include "app/selection.hpp"
#include "app/workspace.hpp"
#include "gui_test_app.hpp"
#include "models/disassembly_model.hpp"
#include "testdata.hpp"
#include "views/cfg_view.hpp"
#include "views/isa_text_painter.hpp"
#include "views/isa_tokens.hpp"
#include "views/isa_view.hpp"

using namespace wavescope::gui;

TEST_CASE("instruction text splits into classified tokens") {
  const auto tokens = tokenize_instruction("global_load_b32 v3, v[3:4], off offset:128");
  REQUIRE(tokens.size() == 7);
  CHECK(tokens[0].kind == IsaToken::Kind::Mnemonic);
  CHECK(tokens[1].kind == IsaToken::Kind::Register);
  CHECK(tokens[1].register_file == "v");
  CHECK(tokens[1].first == 3);
  CHECK(tokens[3].register_file == "v");
  CHECK(tokens[3].first == 3);
  CHECK(tokens[3].last == 4);
  CHECK(tokens[5].kind == IsaToken::Kind::Register);  // off
  CHECK(tokens[6].kind == IsaToken::Kind::Modifier);  // offset:128
  const auto dual = tokenize_instruction("v_dual_mov_b32 v1, 0 :: v_dual_fmac_f32 v4, v2, v3");
  CHECK(dual[0].kind == IsaToken::Kind::Mnemonic);
  CHECK(dual[3].kind == IsaToken::Kind::Number);
  CHECK(dual[5].kind == IsaToken::Kind::Mnemonic);
  CHECK(dual[5].text == "v_dual_fmac_f32");
}

TEST_CASE("register uses overlap across ranges and halves") {
  CHECK(instruction_uses("s_load_b128 s[4:7], s[0:1], null", "s5"));
  CHECK_FALSE(instruction_uses("s_load_b128 s[4:7], s[0:1], null", "s8"));
  CHECK(instruction_uses("v_add_co_ci_u32_e32 v2, vcc_lo, s7, v2, vcc_lo", "vcc"));
  CHECK(instruction_uses("v_add_f32_e32 v0, v0, v2", "v_add_f32_e32"));
  CHECK_FALSE(instruction_uses("v_add_f32_e32 v0, v0, v2", "v_add_f32"));
  CHECK_FALSE(instruction_uses("s_mov_b32 s0, 1", ""));
}

TEST_CASE("the ISA and CFG views follow the focus, search, and link the PC") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(elf, "sqtt/gfx1200/handwritten/program.elf");
  Workspace workspace;
  Selection selection;
  IsaView isa(workspace, selection);
  CfgView cfg(workspace, selection);
  const int doc = workspace.add(load_code_object(QString::fromStdString(elf.string()), "gfx1201"));
  Focus focus;
  focus.document = doc;
  focus.kernel = 0;
  selection.set_focus(focus);
  CHECK(isa.model().rowCount() > 50);
  CHECK(cfg.block_count() >= 3);

  isa.set_search("s_cbranch");
  CHECK(isa.match_count() >= 1);
  REQUIRE(isa.find_next());
  const auto pc = selection.pc();
  REQUIRE(pc);
  CHECK(isa.model().row_of_address(*pc) >= 0);
  // Following the branch moves the selection to its target, and back returns.
  REQUIRE(isa.follow_branch());
  CHECK(selection.pc() != pc);
  REQUIRE(isa.go_back());
  CHECK(selection.pc() == pc);
  isa.set_search("no-such-instruction");
  CHECK(isa.match_count() == 0);
  CHECK_FALSE(isa.find_next());
}
