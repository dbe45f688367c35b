// Optimization actions as text (the CLI's --opts), as tinygrad's repr, and carried by a kernel's
// KernelInfo.

#include <string>

#include <catch2/catch.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/opt/kernel_info.hpp"
#include "wavescope/compiler/opt/opt.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::opt;
using Catch::Matchers::Contains;

TEST_CASE("opts: the text form reads and prints every action", "[compiler][opt]") {
  const auto opts =
      parse_opt_list("UPCAST:0:4, unroll:1:0,LOCAL:2:8,GROUP:0:16,GROUPTOP:1:16,THREAD:0:2,"
                     "PADTO:1:32,SWAP:0:1,NOLOCALS,SPLIT:3:8:GROUP_REDUCE:top,SPLIT:1:4:unroll");
  REQUIRE(opts.size() == 11);
  CHECK(opts[0] == Opt{OptOp::Upcast, 0, 4});
  CHECK(opts[1] == Opt{OptOp::Unroll, 1, 0});
  CHECK(opts[8].op == OptOp::NoLocals);
  CHECK(opts[9] == Opt{OptOp::Split, 3, 8, AxisType::GroupReduce, true});
  CHECK(opts[10] == Opt{OptOp::Split, 1, 4, AxisType::Unroll, false});
  CHECK(to_string(opts) ==
        "UPCAST:0:4,UNROLL:1:0,LOCAL:2:8,GROUP:0:16,GROUPTOP:1:16,THREAD:0:2,PADTO:1:32,SWAP:0:1,"
        "NOLOCALS,SPLIT:3:8:GROUP_REDUCE:top,SPLIT:1:4:UNROLL");
  CHECK(parse_opt_list(to_string(opts)) == opts);
  CHECK(parse_opt_list("").empty());
}

TEST_CASE("opts: a malformed list is a usage error naming the item", "[compiler][opt]") {
  for (const char *bad :
       {"FROB:0:4", "UPCAST:0", "UPCAST:x:4", "UPCAST:0:-4", "SPLIT:0:4", "SPLIT:0:4:SIDEWAYS",
        "SPLIT:0:4:UPCAST:bottom", "NOLOCALS:0", "UPCAST:0:4:2"}) {
    INFO(bad);
    try {
      parse_opt_list(std::string("UNROLL:0:4,") + bad);
      FAIL("accepted");
    } catch (const wavescope::Error &e) {
      CHECK(e.kind() == wavescope::ErrorKind::Usage);
      CHECK_THAT(e.what(), Contains(std::string("opt '") + bad + "'"));
    }
  }
}

TEST_CASE("opts: tinygrad's repr reads back, SPLIT with its axis type", "[compiler][opt]") {
  const std::vector<Opt> opts{{OptOp::Upcast, 1, 4},
                              {OptOp::Unroll, 0, 4},
                              {OptOp::Split, 3, 8, AxisType::GroupReduce, true},
                              {OptOp::NoLocals, 0, 0}};
  CHECK(to_repr(opts[0]) == "Opt(op=OptOps.UPCAST, axis=1, arg=4)");
  CHECK(to_repr(opts[2]) == "Opt(op=OptOps.SPLIT, axis=3, arg=(8, AxisType.GROUP_REDUCE, True))");
  CHECK(to_repr(opts[3]) == "Opt(op=OptOps.NOLOCALS, axis=None, arg=None)");
  std::string tuple = "(";
  for (const auto &o : opts) tuple += to_repr(o) + ", ";
  tuple += ")";
  CHECK(parse_opt_reprs(tuple) == opts);
  CHECK_THROWS_AS(parse_opt_reprs("(Opt(op=OptOps.FROB, axis=0, arg=1),)"), wavescope::Error);
}

TEST_CASE("opts: a kernel's KernelInfo carries the opts to apply and the applied ones",
          "[compiler][opt]") {
  const UOp k = kernel::builtin_example("matmul")[0];
  CHECK_FALSE(kernel_info_of(k).opts_to_apply);
  const UOp none = with_opt_choice(k, OptChoice::none());
  REQUIRE(kernel_info_of(none).opts_to_apply);
  CHECK(kernel_info_of(none).opts_to_apply->empty());
  CHECK(kernel::kernel_name(none) == kernel::kernel_name(k));
  const UOp listed = with_opt_choice(k, OptChoice::list(parse_opt_list("UPCAST:0:4,UNROLL:0:4")));
  const auto text = std::get<ForeignArg>(listed.arg()).text;
  CHECK(text == "KernelInfo(name='r_16_20_24', opts_to_apply=(Opt(op=OptOps.UPCAST, axis=0, "
                "arg=4), Opt(op=OptOps.UNROLL, axis=0, arg=4)))");
  CHECK(kernel_info_of(listed).opts_to_apply == parse_opt_list("UPCAST:0:4,UNROLL:0:4"));
  // The choice survives the kernel's JSON form, and --heuristic clears it again.
  const UOp back = kernel::kernel_from_json(kernel::kernel_to_json(listed));
  CHECK(kernel_info_of(back).opts_to_apply == kernel_info_of(listed).opts_to_apply);
  CHECK_FALSE(kernel_info_of(with_opt_choice(back, OptChoice::heuristic())).opts_to_apply);
  KernelInfo applied;
  applied.name = "r_4";
  applied.applied_opts = {{OptOp::Unroll, 0, 4}};
  applied.dont_use_locals = true;
  const auto info = kernel_info_of(k.with_arg(to_arg(applied)));
  CHECK(info.name == "r_4");
  CHECK(info.applied_opts == applied.applied_opts);
  CHECK(info.dont_use_locals);
}
