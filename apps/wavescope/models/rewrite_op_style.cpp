#include "models/rewrite_op_style.hpp"

namespace wavescope::gui {

using compiler::Op;

OpStyle op_style(Op op) {
  namespace ops = compiler::ops;
  auto style = [](const char *hex, const char *group) {
    return OpStyle{QColor(QString::fromLatin1(hex)), QString::fromLatin1(group)};
  };
  switch (op) {
  case Op::CONST: return style("#e0e0e0", "constant");
  case Op::PARAM: return style("#14686f", "variable / param");
  case Op::RANGE: return style("#c8a0e0", "range");
  case Op::SPECIAL: return style("#c0c0ff", "special (gidx, lidx)");
  case Op::LOAD: return style("#ffc0c0", "load");
  case Op::STORE: return style("#87ceeb", "store");
  case Op::REDUCE: return style("#ff5b5b", "reduce");
  case Op::BARRIER: return style("#ff8080", "barrier");
  case Op::IF: return style("#c8b0c0", "if");
  case Op::INDEX: return style("#cef9b7", "index");
  case Op::STACK: return style("#d8f9e4", "stack / movement");
  case Op::THREEFRY: return style("#ffff80", "threefry");
  case Op::WMMA: return style("#efefc0", "wmma");
  case Op::UNSHARD: return style("#f6ccff", "unshard");
  case Op::INS: return style("#eec4ff", "ins");
  case Op::BUFFER: return style("#b0bdff", "buffer");
  case Op::GETADDR: return style("#9db1f0", "getaddr");
  case Op::COPY: return style("#a040a0", "copy");
  case Op::CUSTOM_FUNCTION: return style("#bf71b6", "custom function");
  case Op::CALL: return style("#00b7c8", "call");
  case Op::FUNCTION: return style("#c07788", "function");
  case Op::SOURCE: return style("#c0c0c0", "source");
  case Op::BINARY: return style("#404040", "binary");
  case Op::LINEAR: return style("#7df4ff", "linear");
  case Op::ALLREDUCE: return style("#ff40a0", "allreduce");
  case Op::MSELECT:
  case Op::MSTACK: return style("#d040a0", "mselect / mstack");
  case Op::CONTIGUOUS: return style("#ffc14d", "contiguous");
  case Op::STAGE: return style("#ac640d", "stage");
  case Op::AFTER: return style("#8a7866", "after");
  case Op::END: return style("#524c46", "end");
  case Op::REWRITE_ERROR: return style("#1a1b26", "rewrite error");
  case Op::SINK: return style("#ffffff", "sink");
  // ALU families.
  case Op::ADD:
  case Op::MUL:
  case Op::SUB:
  case Op::NEG:
  case Op::MULACC: return style("#ffffc0", "add / mul");
  case Op::FLOORDIV:
  case Op::FLOORMOD:
  case Op::CDIV:
  case Op::CMOD:
  case Op::FDIV: return style("#ffd9a0", "div / mod");
  case Op::CMPLT:
  case Op::CMPNE:
  case Op::CMPEQ: return style("#d6ecff", "compare");
  case Op::AND:
  case Op::OR:
  case Op::XOR:
  case Op::SHL:
  case Op::SHR: return style("#f3d7f7", "logic / bits");
  case Op::WHERE: return style("#ffc9b8", "where");
  case Op::MAX: return style("#eef5a8", "max");
  case Op::CAST:
  case Op::BITCAST: return style("#d7e8c8", "cast");
  default: break;
  }
  if (ops::kMovement.contains(op)) return style("#d8f9e4", "stack / movement");
  if (ops::kAlu.contains(op)) return style("#ffffc0", "math");
  return style("#ffffff", "other");
}

QColor text_color_on(const QColor &fill) {
  // Relative luminance (sRGB weights, linear enough for a two-way choice).
  const double l = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
  return l > 0.45 ? QColor(0x15, 0x16, 0x1c) : QColor(0xf0, 0xf0, 0xf5);
}

}  // namespace wavescope::gui
