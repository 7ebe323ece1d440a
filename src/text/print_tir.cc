// TVMScript printer: scalar expressions, TIR statements and PrimFuncs.
//
// Follows TVM's TIR printer (src/script/printer/tir/*.cc):
// - Literals: int32 plain (`4`), other integers typed (`T.int64(4)`),
//   floats always typed (`T.float32(0.5)`), `T.bool(True)`. In graph-level
//   spelling (relax_mode_) int64 and bool print plain instead.
// - Operators print infix (`a + b`, `a // b`, `a % b`, `a < b`, `a and b`,
//   `not a`) unless TVM's constructor would have folded the operands (two
//   constants, `x + 0`, `x * 1`, ...), in which case the explicit form
//   (`T.Add(a, b)`) keeps the node. Integer Div/Mod are `T.Div` /
//   `T.truncmod`; float Div is `a / b`; `T.min`, `T.max`, `T.Select`,
//   `T.Cast`, `T.Let(body, where={x: v})`, `T.Ramp`, `T.Broadcast`.
// - PrimFunc: a parameter whose buffer has a constant shape prints inline
//   (`A: T.Buffer((T.int64(2),), "float32")`), others as `T.handle` with a
//   `T.match_buffer` in the body preceded by `n = T.int64()` for new shape
//   variables (several at once: `m, n = T.int64(), T.int64()`). An implicit
//   root block (no reads/writes/annotations, holding blocks or buffers)
//   prints as the comment `# with T.block("root"):` with its alloc_buffers
//   and body at function level.
// - Loops: perfectly nested serial loops from 0 fold into `T.grid`; else
//   `range(n)`, `range(a, b)`, `T.serial/parallel/vectorized/unroll`,
//   `T.thread_binding(n, thread="threadIdx.x")`.
// - Blocks: iteration variables bound to an enclosing loop over the same
//   domain print as `T.axis.remap("SR", [i, k])`, others as
//   `T.axis.spatial(extent, value)`; then `T.where`, `T.reads`, `T.writes`
//   (always), `T.block_attr`, buffers, `with T.init():`, the body.
// - LetStmt, AssertStmt, Allocate and DeclBuffer print concisely (`x:
//   T.int32 = v` followed by the body at the same level) when they are the
//   last statement of their sequence, else as `with ...:` scopes.
#include <fmt/format.h>

#include <algorithm>
#include <fmt/ranges.h>

#include "rlx/ir/functor.h"
#include "rlx/tir/stmt_functor.h"
#include "text/printer_internal.h"
#include "text/tir_builtins.h"

namespace rlx::text::detail {

using ir::PrimExpr;

namespace {

bool IsConst(const PrimExpr& e) { return e.isa<ir::IntImmNode>() || e.isa<ir::FloatImmNode>(); }

bool IsConstValue(const PrimExpr& e, double value) {
  if (const auto* imm = e.as<ir::IntImmNode>()) return static_cast<double>(imm->value) == value;
  if (const auto* imm = e.as<ir::FloatImmNode>()) return imm->value == value;
  return false;
}

bool IsZero(const PrimExpr& e) { return IsConstValue(e, 0); }
bool IsOne(const PrimExpr& e) { return IsConstValue(e, 1); }

// Would TVM's operator constructor (with its constant folding and type
// matching) turn `a op b` into something else? Then TVM prints the node in
// explicit form so that it survives parsing.
bool WouldFold(NodeKind kind, const PrimExpr& a, const PrimExpr& b) {
  if (a->dtype != b->dtype) return true;
  if (IsConst(a) && IsConst(b)) return true;
  switch (kind) {
    case NodeKind::kPrimAdd: return IsZero(a) || IsZero(b);
    case NodeKind::kPrimSub: return IsZero(b);
    case NodeKind::kPrimMul: return IsZero(a) || IsZero(b) || IsOne(a) || IsOne(b);
    case NodeKind::kPrimDiv:
    case NodeKind::kPrimFloorDiv:
    case NodeKind::kPrimMod:
    case NodeKind::kPrimFloorMod: return IsZero(a) || IsOne(b);
    case NodeKind::kPrimAnd:
    case NodeKind::kPrimOr: return a.isa<ir::IntImmNode>() || b.isa<ir::IntImmNode>();
    default: return false;
  }
}

struct InfixSpec {
  const char* symbol;   // nullptr: no infix form
  const char* explicit_name;  // T.<name>(a, b)
  int prec;
};

InfixSpec InfixFor(NodeKind kind) {
  switch (kind) {
    case NodeKind::kPrimAdd: return {"+", "Add", kPrecAdd};
    case NodeKind::kPrimSub: return {"-", "Sub", kPrecAdd};
    case NodeKind::kPrimMul: return {"*", "Mul", kPrecMul};
    case NodeKind::kPrimFloorDiv: return {"//", "FloorDiv", kPrecMul};
    case NodeKind::kPrimFloorMod: return {"%", "FloorMod", kPrecMul};
    case NodeKind::kPrimEQ: return {"==", "EQ", kPrecCompare};
    case NodeKind::kPrimNE: return {"!=", "NE", kPrecCompare};
    case NodeKind::kPrimLT: return {"<", "LT", kPrecCompare};
    case NodeKind::kPrimLE: return {"<=", "LE", kPrecCompare};
    case NodeKind::kPrimGT: return {">", "GT", kPrecCompare};
    case NodeKind::kPrimGE: return {">=", "GE", kPrecCompare};
    case NodeKind::kPrimAnd: return {"and", "And", kPrecAnd};
    case NodeKind::kPrimOr: return {"or", "Or", kPrecOr};
    case NodeKind::kPrimDiv: return {"/", "Div", kPrecMul};
    case NodeKind::kPrimMod: return {nullptr, "truncmod", kPrecAtom};
    case NodeKind::kPrimMin: return {nullptr, "min", kPrecAtom};
    case NodeKind::kPrimMax: return {nullptr, "max", kPrecAtom};
    default: return {nullptr, "?", kPrecAtom};
  }
}

std::string Parenthesize(const ExprText& e, bool needed) { return needed ? "(" + e.text + ")" : e.text; }

// min + extent, folded when both are constants or one is zero (as TVM's
// operator+ does before printing).
PrimExpr AddFold(const PrimExpr& a, const PrimExpr& b) {
  if (!a.defined() || !b.defined()) return a.defined() ? a : b;
  const auto* ia = a.as<ir::IntImmNode>();
  const auto* ib = b.as<ir::IntImmNode>();
  if (ia && ib) return ir::MakeInt(ia->value + ib->value, a->dtype);
  if (ib && ib->value == 0) return a;
  if (ia && ia->value == 0) return b;
  return ir::add(a, b);
}

bool UsesAnyVar(const PrimExpr& e, const std::unordered_set<const Node*>& vars) {
  bool found = false;
  if (!e.defined()) return false;
  ir::PostOrderVisit(e, [&](const PrimExpr& sub) {
    if (vars.count(sub.get())) found = true;
  });
  return found;
}

bool HasVars(const PrimExpr& e) {
  bool found = false;
  if (!e.defined()) return false;
  ir::PostOrderVisit(e, [&](const PrimExpr& sub) {
    if (sub.isa<ir::VarNode>()) found = true;
  });
  return found;
}

bool ContainsBlockRealize(const tir::Stmt& stmt) {
  bool found = false;
  if (stmt.defined()) {
    tir::PostOrderVisit(stmt, [&](const ObjectRef& node) {
      if (node.isa<tir::BlockRealizeNode>()) found = true;
    });
  }
  return found;
}

// The variables an expression position of `stmt` mentions.
std::unordered_set<const Node*> VarsUsedIn(const tir::Stmt& stmt) {
  std::unordered_set<const Node*> vars;
  if (stmt.defined()) {
    tir::PostOrderVisit(stmt, [&](const ObjectRef& node) {
      if (node.isa<ir::VarNode>()) vars.insert(node.get());
    });
  }
  return vars;
}

bool IsDefaultAlignment(int alignment) { return alignment == -1 || alignment == 64; }

bool IsSimpleBuffer(const ir::Buffer& buffer) {
  if (!buffer->strides.empty()) return false;
  for (const PrimExpr& dim : buffer->shape) {
    if (HasVars(dim)) return false;
  }
  if (buffer->elem_offset.defined() && !IsZero(buffer->elem_offset)) return false;
  return buffer->scope == "global" && IsDefaultAlignment(buffer->data_alignment) && buffer->offset_factor <= 1;
}

// Intrinsics whose result dtype TVMScript passes as the first argument.
bool PrintsDtypeFirst(const std::string& op) {
  return op == "call_extern" || op == "call_pure_extern" || op == "call_llvm_intrin" ||
         op == "call_llvm_pure_intrin" || op == "reinterpret";
}

std::string Join(const std::vector<std::string>& items) { return fmt::format("{}", fmt::join(items, ", ")); }

}  // namespace

bool ExprDeepEqual(const PrimExpr& a, const PrimExpr& b) {
  if (a.same_as(b)) return true;
  if (!a.defined() || !b.defined() || a->kind() != b->kind() || a->dtype != b->dtype) return false;
  if (const auto* x = a.as<ir::IntImmNode>()) return x->value == b.as<ir::IntImmNode>()->value;
  if (const auto* x = a.as<ir::FloatImmNode>()) return x->value == b.as<ir::FloatImmNode>()->value;
  if (const auto* x = a.as<ir::StringImmNode>()) return x->value == b.as<ir::StringImmNode>()->value;
  if (const auto* x = a.as<ir::BinaryNode>()) {
    const auto* y = b.as<ir::BinaryNode>();
    return ExprDeepEqual(x->a, y->a) && ExprDeepEqual(x->b, y->b);
  }
  if (const auto* x = a.as<ir::NotNode>()) return ExprDeepEqual(x->a, b.as<ir::NotNode>()->a);
  if (const auto* x = a.as<ir::CastNode>()) return ExprDeepEqual(x->value, b.as<ir::CastNode>()->value);
  if (const auto* x = a.as<ir::SelectNode>()) {
    const auto* y = b.as<ir::SelectNode>();
    return ExprDeepEqual(x->condition, y->condition) && ExprDeepEqual(x->true_value, y->true_value) &&
           ExprDeepEqual(x->false_value, y->false_value);
  }
  auto list_equal = [](const std::vector<PrimExpr>& xs, const std::vector<PrimExpr>& ys) {
    if (xs.size() != ys.size()) return false;
    for (size_t i = 0; i < xs.size(); ++i) {
      if (!ExprDeepEqual(xs[i], ys[i])) return false;
    }
    return true;
  };
  if (const auto* x = a.as<ir::CallNode>()) {
    const auto* y = b.as<ir::CallNode>();
    return x->op == y->op && list_equal(x->args, y->args);
  }
  if (const auto* x = a.as<ir::BufferLoadNode>()) {
    const auto* y = b.as<ir::BufferLoadNode>();
    return x->buffer.same_as(y->buffer) && list_equal(x->indices, y->indices);
  }
  if (const auto* x = a.as<ir::RampNode>()) {
    const auto* y = b.as<ir::RampNode>();
    return x->lanes == y->lanes && ExprDeepEqual(x->base, y->base) && ExprDeepEqual(x->stride, y->stride);
  }
  if (const auto* x = a.as<ir::BroadcastNode>()) {
    const auto* y = b.as<ir::BroadcastNode>();
    return x->lanes == y->lanes && ExprDeepEqual(x->value, y->value);
  }
  if (const auto* x = a.as<ir::LetNode>()) {
    const auto* y = b.as<ir::LetNode>();
    return x->var.same_as(y->var) && ExprDeepEqual(x->value, y->value) && ExprDeepEqual(x->body, y->body);
  }
  return false;  // Vars: identity only (checked above)
}

// ---------------------------------------------------------------------------
// Scalar expressions.

ExprText ScriptPrinter::PrintExpr(const PrimExpr& expr) {
  if (!expr.defined()) return {"None"};
  switch (expr->kind()) {
    case NodeKind::kPrimIntImm: return IntImmText(expr.as<ir::IntImmNode>());
    case NodeKind::kPrimFloatImm: return FloatImmText(expr.as<ir::FloatImmNode>());
    case NodeKind::kPrimStringImm: return {Quote(expr.as<ir::StringImmNode>()->value)};
    case NodeKind::kPrimVar: return VarText(expr.as<ir::VarNode>());
    case NodeKind::kPrimNot: {
      const PrimExpr& operand = expr.as<ir::NotNode>()->a;
      ExprText a = PrintExpr(operand);
      if (IsConst(operand) && a.text.find('(') == std::string::npos) return {T("Not") + "(" + a.text + ")"};
      return {"not " + Parenthesize(a, a.prec < kPrecNot), kPrecNot};
    }
    case NodeKind::kPrimSelect: {
      const auto* select = expr.as<ir::SelectNode>();
      std::string c = Expr(select->condition), t = Expr(select->true_value), f = Expr(select->false_value);
      return {T("Select") + "(" + c + ", " + t + ", " + f + ")"};
    }
    case NodeKind::kPrimCast: {
      const auto* node = expr.as<ir::CastNode>();
      return {T("Cast") + "(" + Quote(DTypeString(node->dtype)) + ", " + Expr(node->value) + ")"};
    }
    case NodeKind::kPrimLet: {
      const auto* let = expr.as<ir::LetNode>();
      std::string var = Expr(let->var), value = Expr(let->value), body = Expr(let->body);
      return {T("Let") + "(" + body + ", where={" + var + ": " + value + "})"};
    }
    case NodeKind::kPrimCall: return CallText(expr.as<ir::CallNode>());
    case NodeKind::kPrimBufferLoad: {
      const auto* load = expr.as<ir::BufferLoadNode>();
      std::string buffer = BufferName(load->buffer);
      return {buffer + "[" + BufferIndices(load->indices) + "]"};
    }
    case NodeKind::kPrimRamp: {
      const auto* ramp = expr.as<ir::RampNode>();
      std::string base = Expr(ramp->base), stride = Expr(ramp->stride);
      return {fmt::format("{}({}, {}, {})", T("Ramp"), base, stride, ramp->lanes)};
    }
    case NodeKind::kPrimBroadcast: {
      const auto* bc = expr.as<ir::BroadcastNode>();
      return {fmt::format("{}({}, {})", T("Broadcast"), Expr(bc->value), bc->lanes)};
    }
    default:
      if (const auto* binary = expr.as<ir::BinaryNode>()) return BinaryText(binary);
      return {Quote(std::string("<") + NodeKindName(expr->kind()) + ">")};
  }
}

std::string ScriptPrinter::ExprList(const std::vector<PrimExpr>& exprs) {
  std::vector<std::string> items;
  for (const PrimExpr& e : exprs) items.push_back(Expr(e));
  return Join(items);
}

std::string ScriptPrinter::ExprTuple(const std::vector<PrimExpr>& exprs) {
  return "(" + ExprList(exprs) + (exprs.size() == 1 ? ",)" : ")");
}

ExprText ScriptPrinter::IntImmText(const ir::IntImmNode* imm) {
  if (imm->dtype.is_bool()) {
    std::string value = imm->value ? "True" : "False";
    return {relax_mode_ ? value : T("bool") + "(" + value + ")"};
  }
  DataType plain = relax_mode_ ? DataType::Int64() : DataType::Int32();
  if (imm->dtype == plain) return {std::to_string(imm->value)};
  return {T(DTypeString(imm->dtype)) + "(" + std::to_string(imm->value) + ")"};
}

ExprText ScriptPrinter::FloatImmText(const ir::FloatImmNode* imm) {
  return {T(DTypeString(imm->dtype)) + "(" + FloatLiteral(imm->value) + ")"};
}

ExprText ScriptPrinter::VarText(const ir::VarNode* var) {
  if (!IsDefined(var)) DefineFreeVar(var);
  return {NameOf(var)};
}

ExprText ScriptPrinter::BinaryText(const ir::BinaryNode* node) {
  NodeKind kind = node->kind();
  InfixSpec spec = InfixFor(kind);
  ExprText a = PrintExpr(node->a);
  ExprText b = PrintExpr(node->b);
  bool infix = spec.symbol != nullptr && !WouldFold(kind, node->a, node->b);
  if (kind == NodeKind::kPrimDiv && (node->a->dtype.is_integer() || node->b->dtype.is_integer())) infix = false;
  if (!infix) return {T(spec.explicit_name) + "(" + a.text + ", " + b.text + ")"};
  // Comparisons never chain: `(a < b) < c` keeps its parentheses.
  bool left_parens = a.prec < spec.prec || (spec.prec == kPrecCompare && a.prec == spec.prec);
  bool right_parens = b.prec <= spec.prec;
  return {Parenthesize(a, left_parens) + " " + spec.symbol + " " + Parenthesize(b, right_parens), spec.prec};
}

ExprText ScriptPrinter::CallText(const ir::CallNode* call) {
  std::string name = call->op.rfind("tir.", 0) == 0 ? call->op.substr(4) : call->op;
  std::vector<std::string> args;
  if (PrintsDtypeFirst(name)) args.push_back(Quote(DTypeString(call->dtype)));
  for (const PrimExpr& arg : call->args) args.push_back(Expr(arg));
  if (const TIRBuiltinInfo* builtin = FindTIRBuiltin(name)) {
    // dtype= exactly when the parser would not infer it.
    DataType inferred = builtin->default_dtype;
    if (builtin->dtype_from_arg >= 0 && static_cast<size_t>(builtin->dtype_from_arg) < call->args.size()) {
      inferred = call->args[static_cast<size_t>(builtin->dtype_from_arg)]->dtype;
    }
    if (inferred != call->dtype || inferred.is_void()) args.push_back("dtype=" + Quote(DTypeString(call->dtype)));
  }
  return {T(name) + "(" + Join(args) + ")"};
}

std::string ScriptPrinter::VarCreation(const ir::VarNode* var) {
  if (var->dtype.is_handle()) {
    if (var->pointee.is_void()) return T("handle") + "()";
    return T("handle") + "(" + Quote(DTypeString(var->pointee)) + ")";
  }
  return T(DTypeString(var->dtype)) + "()";
}

std::string ScriptPrinter::TypeAnnotation(const ir::VarNode* var) {
  if (var->dtype.is_handle() && !var->pointee.is_void()) {
    return T("handle") + "(" + Quote(DTypeString(var->pointee)) + ")";
  }
  return T(DTypeString(var->dtype));
}

std::string ScriptPrinter::BufferIndices(const std::vector<PrimExpr>& indices) {
  std::vector<std::string> items;
  for (const PrimExpr& index : indices) {
    const auto* ramp = index.as<ir::RampNode>();
    const auto* stride = ramp ? ramp->stride.as<ir::IntImmNode>() : nullptr;
    if (!stride) {
      items.push_back(Expr(index));
      continue;
    }
    std::string start = Expr(ramp->base);
    std::string stop = Expr(AddFold(ramp->base, ir::MakeInt(ramp->lanes * stride->value, ramp->base->dtype)));
    std::string slice = start + ":" + stop;
    if (stride->value != 1) slice += ":" + Expr(ramp->stride);
    items.push_back(slice);
  }
  return items.empty() ? "()" : Join(items);
}

Frame& ScriptPrinter::TIRFunctionFrame() {
  for (const auto& frame : frames_) {
    if (frame->kind == FrameKind::kTIRFunc) return *frame;
  }
  for (const auto& frame : frames_) {
    if (frame->kind == FrameKind::kTIR) return *frame;
  }
  return Top();
}

Frame& ScriptPrinter::BufferViewFrame(const ir::Buffer& buffer) {
  Frame* function_frame = &TIRFunctionFrame();
  size_t index = 0;
  for (size_t i = 0; i < frames_.size(); ++i) {
    if (frames_[i].get() == function_frame) index = i;
  }
  std::vector<const Node*> vars;
  auto collect = [&](const PrimExpr& expr) {
    if (!expr.defined()) return;
    ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
      if (sub.isa<ir::VarNode>()) vars.push_back(sub.get());
    });
  };
  collect(buffer->data);
  for (const PrimExpr& dim : buffer->shape) collect(dim);
  for (const PrimExpr& stride : buffer->strides) collect(stride);
  collect(buffer->elem_offset);
  for (const Node* var : vars) {
    for (size_t i = frames_.size(); i-- > index + 1;) {
      const std::vector<const Node*>& defined = frames_[i]->defined;
      if (std::find(defined.begin(), defined.end(), var) != defined.end()) {
        index = i;
        break;
      }
    }
  }
  return *frames_[index];
}

void ScriptPrinter::DefineFreeVar(const ir::VarNode* var) {
  Frame& frame = relax_mode_ ? RelaxFunctionFrame() : TIRFunctionFrame();
  if (relax_mode_ && frame.collecting_func_vars) frame.func_vars.insert(var);
  std::string name = Define(var, frame, var->name_hint.empty() ? "v" : var->name_hint);
  frame.stmts.push_back(Line(name + " = " + VarCreation(var)));
}

std::string ScriptPrinter::DefineTIRVar(const ir::Var& var, Frame& frame) {
  if (IsDefined(var.get())) return NameOf(var.get());
  return Define(var.get(), frame, var->name_hint.empty() ? "v" : var->name_hint);
}

// ---------------------------------------------------------------------------
// Buffers.

std::string ScriptPrinter::DefineBuffer(const ir::Buffer& buffer, Frame& frame) {
  return Define(buffer.get(), frame, buffer->name.empty() ? "buffer" : buffer->name);
}

std::string ScriptPrinter::BufferName(const ir::Buffer& buffer) {
  if (!buffer.defined()) return "None";
  if (IsDefined(buffer.get())) return NameOf(buffer.get());
  // Used before any declaration (a `T.Buffer(..., data=ptr)` view): declare
  // it in the innermost frame that sees every variable it refers to (its
  // data pointer may be an allocation inside the function), at least the
  // function's frame.
  Frame& frame = BufferViewFrame(buffer);
  std::string name = DefineBuffer(buffer, frame);
  std::string decl = BufferDecl(buffer, "Buffer", "", frame, /*inline_data=*/true);
  frame.stmts.push_back(Line(name + " = " + decl));
  return name;
}

std::string ScriptPrinter::BufferDecl(const ir::Buffer& buffer, const std::string& method,
                                      const std::string& first_arg, Frame& frame, bool inline_data) {
  // New shape variables are defined out of line, before the declaration.
  std::vector<std::string> new_names, creations;
  for (const PrimExpr& dim : buffer->shape) {
    const auto* var = dim.as<ir::VarNode>();
    if (!var || IsDefined(var)) continue;
    new_names.push_back(Define(var, frame, var->name_hint.empty() ? "v" : var->name_hint));
    creations.push_back(VarCreation(var));
  }
  std::vector<std::string> args;
  if (!first_arg.empty()) args.push_back(first_arg);
  args.push_back(ExprTuple(buffer->shape));
  if (buffer->dtype != DataType::Float32()) args.push_back(Quote(DTypeString(buffer->dtype)));
  if (buffer->data.defined()) {
    if (!IsDefined(buffer->data.get()) && inline_data) {
      if (IsDefined(buffer.get())) DefineAlias(buffer->data.get(), frame, NameOf(buffer.get()) + ".data");
    } else {
      args.push_back("data=" + Expr(buffer->data));
    }
  }
  if (!buffer->strides.empty()) args.push_back("strides=" + ExprTuple(buffer->strides));
  bool print_offset_factor = buffer->offset_factor > 1;
  if (const PrimExpr& offset = buffer->elem_offset; offset.defined() && !IsZero(offset)) {
    const auto* var = offset.as<ir::VarNode>();
    if (var && !IsDefined(var) && IsDefined(buffer.get())) {
      DefineAlias(var, frame, NameOf(buffer.get()) + ".elem_offset");
      print_offset_factor = true;
    } else {
      args.push_back("elem_offset=" + Expr(offset));
    }
  }
  if (buffer->scope != "global" && !buffer->scope.empty()) args.push_back("scope=" + Quote(buffer->scope));
  if (!IsDefaultAlignment(buffer->data_alignment)) args.push_back(fmt::format("align={}", buffer->data_alignment));
  if (print_offset_factor) args.push_back(fmt::format("offset_factor={}", std::max(buffer->offset_factor, 1)));
  if (new_names.size() == 1) {
    frame.stmts.push_back(Line(new_names[0] + " = " + creations[0]));
  } else if (new_names.size() > 1) {
    frame.stmts.push_back(Line(Join(new_names) + " = " + Join(creations)));
  }
  return T(method) + "(" + Join(args) + ")";
}

std::string ScriptPrinter::BufferAnnotation(const ir::Buffer& buffer, Frame& frame) {
  if (buffer->data.defined() && !IsDefined(buffer->data.get())) {
    DefineAlias(buffer->data.get(), frame, NameOf(buffer.get()) + ".data");
  }
  return T("Buffer") + "(" + ExprTuple(buffer->shape) + ", " + Quote(DTypeString(buffer->dtype)) + ")";
}

std::string ScriptPrinter::RegionText(const tir::BufferRegion& region) {
  std::string buffer = BufferName(region->buffer);
  std::vector<std::string> items;
  for (const tir::Range& range : region->region) {
    std::string min = Expr(range.min);
    if (IsOne(range.extent)) {
      items.push_back(min);
    } else {
      items.push_back(min + ":" + Expr(AddFold(range.min, range.extent)));
    }
  }
  return buffer + "[" + (items.empty() ? "()" : Join(items)) + "]";
}

// ---------------------------------------------------------------------------
// PrimFunc.

const tir::BlockNode* ScriptPrinter::ImplicitRootBlock(const tir::PrimFunc& func) const {
  const auto* realize = func->body.as<tir::BlockRealizeNode>();
  if (!realize || !realize->iter_values.empty() || !realize->block.defined()) return nullptr;
  if (realize->predicate.defined() && !IsOne(realize->predicate)) return nullptr;
  const tir::BlockNode* root = realize->block.get();
  bool has_annotations = root->annotations.defined() && !root->annotations->items.empty();
  if (has_annotations || !root->match_buffers.empty() || !root->reads.empty() || !root->writes.empty() ||
      root->init.defined()) {
    return nullptr;
  }
  const auto* child = root->body.as<tir::BlockRealizeNode>();
  bool qualifies = !root->alloc_buffers.empty() || (child && !child->block->iter_vars.empty()) ||
                   (!child && ContainsBlockRealize(root->body));
  return qualifies ? root : nullptr;
}

void ScriptPrinter::PrintParams(const tir::PrimFunc& func, std::vector<std::string>* params,
                                std::unordered_set<const Node*>* inlined) {
  // A buffer parameter prints as `A: T.Buffer(...)` when nothing else needs
  // its handle variable or shares its data (TVM's rule).
  std::unordered_map<const Node*, int> data_users;
  for (const auto& entry : func->buffer_map) ++data_users[entry.second->data.get()];
  std::unordered_set<const Node*> used_in_body = VarsUsedIn(func->body);
  for (const ir::Var& param : func->params) {
    ir::Buffer buffer = func->BufferFor(param);
    if (buffer.defined() && IsSimpleBuffer(buffer) && data_users[buffer->data.get()] == 1 &&
        !used_in_body.count(param.get())) {
      std::string name = DefineBuffer(buffer, Top());
      params->push_back(name + ": " + BufferAnnotation(buffer, Top()));
      inlined->insert(buffer.get());
      continue;
    }
    std::string name = DefineTIRVar(param, Top());
    params->push_back(name + ": " + TypeAnnotation(param.get()));
  }
}

Docs ScriptPrinter::PrimFuncDocs(const tir::PrimFunc& func, const std::string& name) {
  bool saved_mode = relax_mode_;
  relax_mode_ = false;
  FrameGuard frame(this, FrameKind::kTIRFunc);
  std::vector<std::string> params;
  std::unordered_set<const Node*> inlined;
  PrintParams(func, &params, &inlined);
  // Attributes; the global symbol is implied by the name.
  if (func->attrs.defined()) {
    ObjectRef symbol = func->attrs->Get("global_symbol");
    const auto* symbol_str = symbol.as<ir::StringImmNode>();
    std::string drop = symbol_str && symbol_str->value == name ? "global_symbol" : "";
    if (func->attrs->items.size() > (drop.empty() ? 0u : 1u)) {
      frame->stmts.push_back(Line(T("func_attr") + "(" + DictText(func->attrs, drop) + ")"));
    }
  }
  for (size_t i = 0; i < func->params.size(); ++i) {
    ir::Buffer buffer = func->BufferFor(func->params[i]);
    if (!buffer.defined() || inlined.count(buffer.get())) continue;
    std::string param_name = NameOf(func->params[i].get());
    std::string lhs = DefineBuffer(buffer, *frame);
    std::string rhs = BufferDecl(buffer, "match_buffer", param_name, *frame, /*inline_data=*/true);
    frame->stmts.push_back(Line(lhs + " = " + rhs));
  }
  if (const tir::BlockNode* root = ImplicitRootBlock(func)) {
    frame->stmts.push_back(Line("# with T.block(\"root\"):"));
    for (const ir::Buffer& buffer : root->alloc_buffers) {
      std::string lhs = DefineBuffer(buffer, *frame);
      std::string rhs = BufferDecl(buffer, "alloc_buffer", "", *frame, /*inline_data=*/true);
      frame->stmts.push_back(Line(lhs + " = " + rhs));
    }
    PrintBody(root->body, *frame);
  } else if (func->body.defined()) {
    PrintBody(func->body, *frame);
  }
  std::string ret = func->ret_type.is_void() ? "" : " -> " + T(DTypeString(func->ret_type));
  std::string decorator = "@" + T("prim_func") + (func->is_private ? "(private=True)" : "");
  Doc def = Block("def " + name + "(" + Join(params) + ")" + ret + ":", std::move(frame->stmts));
  def.blank_line_after = true;
  relax_mode_ = saved_mode;
  return {Line(decorator), std::move(def)};
}

// ---------------------------------------------------------------------------
// Statements.

void ScriptPrinter::PrintBody(const tir::Stmt& body, Frame& frame) {
  RLX_ICHECK(&frame == &Top()) << "TIR bodies print into the innermost frame";
  if (!body.defined()) return;
  if (const auto* seq = body.as<tir::SeqStmtNode>()) {
    for (size_t i = 0; i < seq->seq.size(); ++i) {
      frame.allow_concise = i + 1 == seq->seq.size();
      Docs docs = PrintStmt(seq->seq[i]);
      Append(&frame.stmts, std::move(docs));
    }
    return;
  }
  frame.allow_concise = true;
  Docs docs = PrintStmt(body);
  Append(&frame.stmts, std::move(docs));
}

Docs ScriptPrinter::PrintStmt(const tir::Stmt& stmt) {
  if (!stmt.defined()) return {Line("# undefined statement")};
  switch (stmt->kind()) {
    case NodeKind::kFor: return ForDocs(stmt.as<tir::ForNode>());
    case NodeKind::kBlockRealize: {
      const auto* realize = stmt.as<tir::BlockRealizeNode>();
      if (!realize->block.defined()) return {Line("# block realize without a block")};
      return BlockDocs(realize->block.get(), realize);
    }
    case NodeKind::kBlock: return BlockDocs(stmt.as<tir::BlockNode>(), nullptr);
    case NodeKind::kBufferStore: {
      const auto* store = stmt.as<tir::BufferStoreNode>();
      std::string lhs = BufferName(store->buffer) + "[" + BufferIndices(store->indices) + "]";
      return {Line(lhs + " = " + Expr(store->value))};
    }
    case NodeKind::kSeqStmt: {
      FrameGuard frame(this, FrameKind::kTIR);
      PrintBody(stmt, *frame);
      return std::move(frame->stmts);
    }
    case NodeKind::kIfThenElse: return IfDocs(stmt.as<tir::IfThenElseNode>());
    case NodeKind::kWhile: return WhileDocs(stmt.as<tir::WhileNode>());
    case NodeKind::kLetStmt: return LetDocs(stmt.as<tir::LetStmtNode>());
    case NodeKind::kAttrStmt: return AttrDocs(stmt.as<tir::AttrStmtNode>());
    case NodeKind::kEvaluate: {
      const PrimExpr& value = stmt.as<tir::EvaluateNode>()->value;
      std::string text = Expr(value);
      return {Line(value.isa<ir::CallNode>() ? text : T("evaluate") + "(" + text + ")")};
    }
    case NodeKind::kAssertStmt: return AssertDocs(stmt.as<tir::AssertStmtNode>());
    case NodeKind::kAllocate: return AllocateDocs(stmt.as<tir::AllocateNode>());
    case NodeKind::kDeclBuffer: return DeclBufferDocs(stmt.as<tir::DeclBufferNode>(), /*defines_data=*/false);
    default: return {Line("# unprintable statement " + std::string(NodeKindName(stmt->kind())))};
  }
}

Docs ScriptPrinter::ForDocs(const tir::ForNode* loop) {
  // Perfectly nested serial loops from 0 whose extents do not depend on
  // each other fold into one `T.grid`.
  std::vector<const tir::ForNode*> grid;
  std::unordered_set<const Node*> grid_vars;
  for (const tir::ForNode* l = loop; l != nullptr; l = l->body.as<tir::ForNode>()) {
    bool annotated = l->annotations.defined() && !l->annotations->items.empty();
    if (l->for_kind != tir::ForKind::kSerial || !IsZero(l->min) || !l->HasUnitStep() || annotated ||
        UsesAnyVar(l->extent, grid_vars)) {
      break;
    }
    grid.push_back(l);
    grid_vars.insert(l->loop_var.get());
  }
  FrameGuard frame(this, FrameKind::kTIR);
  if (grid.size() > 1) {
    frame->loops = grid;
    std::vector<std::string> vars, extents;
    for (const tir::ForNode* l : grid) {
      vars.push_back(DefineTIRVar(l->loop_var, *frame));
      extents.push_back(Expr(l->extent));
    }
    PrintBody(grid.back()->body, *frame);
    return {Block("for " + Join(vars) + " in " + T("grid") + "(" + Join(extents) + "):", std::move(frame->stmts))};
  }
  frame->loops = {loop};
  std::string var = DefineTIRVar(loop->loop_var, *frame);
  std::vector<std::string> args;
  bool stepped = !loop->HasUnitStep();
  if (IsZero(loop->min) && !stepped) {
    args.push_back(Expr(loop->extent));
  } else {
    args.push_back(Expr(loop->min));
    args.push_back(Expr(AddFold(loop->min, loop->extent)));
  }
  if (stepped) args.push_back("step=" + Expr(loop->step));
  bool annotated = loop->annotations.defined() && !loop->annotations->items.empty();
  std::string prefix;
  switch (loop->for_kind) {
    case tir::ForKind::kSerial: prefix = annotated || stepped ? T("serial") : "range"; break;
    case tir::ForKind::kParallel: prefix = T("parallel"); break;
    case tir::ForKind::kVectorized: prefix = T("vectorized"); break;
    case tir::ForKind::kUnrolled: prefix = T("unroll"); break;
    case tir::ForKind::kThreadBinding:
      prefix = T("thread_binding");
      args.push_back("thread=" + Quote(loop->thread_tag));
      break;
  }
  if (annotated) args.push_back("annotations=" + DictText(loop->annotations));
  PrintBody(loop->body, *frame);
  return {Block("for " + var + " in " + prefix + "(" + Join(args) + "):", std::move(frame->stmts))};
}

void ScriptPrinter::PrintIterVars(const tir::BlockNode* block, const tir::BlockRealizeNode* realize, Frame& frame) {
  std::unordered_map<const Node*, const tir::ForNode*> loop_of_var;
  for (const auto& f : frames_) {
    for (const tir::ForNode* loop : f->loops) loop_of_var[loop->loop_var.get()] = loop;
  }
  auto remappable = [&](size_t i) {
    if (!realize || i >= realize->iter_values.size()) return false;
    const tir::IterVar& iter = block->iter_vars[i];
    if (iter->iter_kind != tir::IterKind::kSpatial && iter->iter_kind != tir::IterKind::kReduce) return false;
    auto it = loop_of_var.find(realize->iter_values[i].get());
    return it != loop_of_var.end() && ExprDeepEqual(it->second->min, iter->dom.min) &&
           ExprDeepEqual(it->second->extent, iter->dom.extent);
  };
  auto print_single = [&](size_t i) {
    const tir::IterVar& iter = block->iter_vars[i];
    static const char* kAxisNames[] = {"spatial", "reduce", "scan", "opaque"};
    std::string axis = T("axis") + "." + kAxisNames[static_cast<int>(iter->iter_kind)];
    std::string dom = IsZero(iter->dom.min)
                          ? Expr(iter->dom.extent)
                          : "(" + Expr(iter->dom.min) + ", " + Expr(AddFold(iter->dom.min, iter->dom.extent)) + ")";
    std::string rhs = axis + "(" + dom;
    if (realize && i < realize->iter_values.size()) rhs += ", " + Expr(realize->iter_values[i]);
    rhs += ")";
    frame.stmts.push_back(Line(DefineTIRVar(iter->var, frame) + " = " + rhs));
  };
  std::vector<size_t> pending;
  auto flush = [&]() {
    if (pending.size() == 1) print_single(pending[0]);
    if (pending.size() > 1) {
      std::vector<std::string> lhs, values;
      std::string kinds;
      for (size_t i : pending) {
        lhs.push_back(DefineTIRVar(block->iter_vars[i]->var, frame));
        values.push_back(Expr(realize->iter_values[i]));
        kinds += block->iter_vars[i]->iter_kind == tir::IterKind::kSpatial ? "S" : "R";
      }
      frame.stmts.push_back(Line(Join(lhs) + " = " + T("axis") + ".remap(" + Quote(kinds) + ", [" + Join(values) + "])"));
    }
    pending.clear();
  };
  for (size_t i = 0; i < block->iter_vars.size(); ++i) {
    if (remappable(i)) {
      pending.push_back(i);
    } else {
      flush();
      print_single(i);
    }
  }
  flush();
}

Docs ScriptPrinter::BlockDocs(const tir::BlockNode* block, const tir::BlockRealizeNode* realize) {
  FrameGuard frame(this, FrameKind::kTIR);
  PrintIterVars(block, realize, *frame);
  if (realize && realize->predicate.defined() && !IsOne(realize->predicate)) {
    frame->stmts.push_back(Line(T("where") + "(" + Expr(realize->predicate) + ")"));
  }
  auto regions = [&](const std::vector<tir::BufferRegion>& list) {
    std::vector<std::string> items;
    for (const tir::BufferRegion& region : list) items.push_back(RegionText(region));
    return Join(items);
  };
  frame->stmts.push_back(Line(T("reads") + "(" + regions(block->reads) + ")"));
  frame->stmts.push_back(Line(T("writes") + "(" + regions(block->writes) + ")"));
  if (block->annotations.defined() && !block->annotations->items.empty()) {
    frame->stmts.push_back(Line(T("block_attr") + "(" + DictText(block->annotations) + ")"));
  }
  for (const ir::Buffer& buffer : block->alloc_buffers) {
    std::string lhs = DefineBuffer(buffer, *frame);
    std::string rhs = BufferDecl(buffer, "alloc_buffer", "", *frame, /*inline_data=*/true);
    frame->stmts.push_back(Line(lhs + " = " + rhs));
  }
  for (const tir::MatchBufferRegion& match : block->match_buffers) {
    std::string lhs = DefineBuffer(match->buffer, *frame);
    std::string source = RegionText(match->source);
    std::string rhs = BufferDecl(match->buffer, "match_buffer", source, *frame, /*inline_data=*/true);
    frame->stmts.push_back(Line(lhs + " = " + rhs));
  }
  if (block->init.defined()) {
    Docs init;
    {
      FrameGuard init_frame(this, FrameKind::kTIR);
      PrintBody(block->init, *init_frame);
      init = std::move(init_frame->stmts);
    }
    frame->stmts.push_back(Block("with " + T("init") + "():", std::move(init)));
  }
  PrintBody(block->body, *frame);
  std::string header = "with " + T("block") + "(" + Quote(block->name) + (realize ? "" : ", no_realize=True") + "):";
  return {Block(header, std::move(frame->stmts))};
}

Docs ScriptPrinter::IfDocs(const tir::IfThenElseNode* node) {
  std::string cond = Expr(node->condition);
  auto branch = [&](const tir::Stmt& stmt) {
    FrameGuard frame(this, FrameKind::kTIR);
    PrintBody(stmt, *frame);
    return std::move(frame->stmts);
  };
  Docs then_docs = branch(node->then_case);
  Docs else_docs = node->else_case.defined() ? branch(node->else_case) : Docs{};
  Docs out = {Block("if " + cond + ":", std::move(then_docs))};
  if (!else_docs.empty()) out.push_back(Block("else:", std::move(else_docs)));
  return out;
}

// TVM prints a While as Python's `while cond:`.
Docs ScriptPrinter::WhileDocs(const tir::WhileNode* node) {
  std::string cond = Expr(node->condition);
  FrameGuard frame(this, FrameKind::kTIR);
  PrintBody(node->body, *frame);
  return {Block("while " + cond + ":", std::move(frame->stmts))};
}

Docs ScriptPrinter::LetDocs(const tir::LetStmtNode* let) {
  bool concise = AllowConcise();
  std::string type = TypeAnnotation(let->var.get());
  std::string rhs = Expr(let->value);
  FrameGuard frame(this, FrameKind::kTIR);
  bool var_defined = IsDefined(let->var.get());
  std::string lhs = DefineTIRVar(let->var, *frame);
  PrintBody(let->body, *frame);
  Docs body = std::move(frame->stmts);
  if (var_defined) return {Block("with " + T("LetStmt") + "(" + rhs + ", var=" + lhs + "):", std::move(body))};
  if (!concise) return {Block("with " + T("LetStmt") + "(" + rhs + ") as " + lhs + ":", std::move(body))};
  Docs out = {Line(lhs + ": " + type + " = " + rhs)};
  Append(&out, std::move(body));
  return out;
}

// TVM's form: a thread binding whose variable is not defined yet prints as
// `tx = T.launch_thread("threadIdx.x", extent)` (or `with ... as tx:`), one
// whose variable is defined as `T.launch_thread(tx, extent)`; any other
// attribute as `T.attr(node, "key", value)`. The concise form (the last
// statement of its sequence) puts the body after it at the same level.
Docs ScriptPrinter::AttrDocs(const tir::AttrStmtNode* attr) {
  bool concise = AllowConcise();
  std::string value = attr->value.defined() ? Expr(attr->value) : "None";
  const auto* iter_var = attr->node.as<tir::IterVarNode>();
  bool launch = iter_var != nullptr && tir::IsThreadBindingAttr(attr->attr_key);
  bool defines_var = launch && !IsDefined(iter_var->var.get());
  std::string rhs;
  if (launch && attr->attr_key == "thread_extent") {
    rhs = T("launch_thread") + "(" + (defines_var ? Quote(iter_var->thread_tag) : NameOf(iter_var->var.get())) + ", " +
          value + ")";
  } else {
    defines_var = false;
    rhs = T("attr") + "(" + AttrNodeText(attr->node) + ", " + Quote(attr->attr_key) + ", " + value + ")";
  }
  FrameGuard frame(this, FrameKind::kTIR);
  std::string lhs = defines_var ? DefineTIRVar(iter_var->var, *frame) : "";
  PrintBody(attr->body, *frame);
  Docs body = std::move(frame->stmts);
  if (!concise) return {Block("with " + rhs + (lhs.empty() ? "" : " as " + lhs) + ":", std::move(body))};
  Docs out = {Line(lhs.empty() ? rhs : lhs + " = " + rhs)};
  Append(&out, std::move(body));
  return out;
}

std::string ScriptPrinter::AttrNodeText(const ObjectRef& node) {
  if (!node.defined()) return "None";
  if (const auto* iter_var = node.as<tir::IterVarNode>()) {
    if (IsDefined(iter_var->var.get())) return NameOf(iter_var->var.get());
    return T("env_thread") + "(" + Quote(iter_var->thread_tag) + ")";
  }
  if (node.isa<ir::BufferNode>()) return BufferName(cast<ir::BufferNode>(node));
  if (node.isa<ir::PrimExprNode>()) return Expr(cast<ir::PrimExprNode>(node));
  return "None";
}

Docs ScriptPrinter::AssertDocs(const tir::AssertStmtNode* assert_stmt) {
  bool concise = AllowConcise();
  std::string cond = Expr(assert_stmt->condition);
  std::string message = Expr(assert_stmt->message);
  FrameGuard frame(this, FrameKind::kTIR);
  PrintBody(assert_stmt->body, *frame);
  Docs body = std::move(frame->stmts);
  if (!concise) return {Block("with " + T("Assert") + "(" + cond + ", " + message + "):", std::move(body))};
  Docs out = {Line("assert " + cond + ", " + message)};
  Append(&out, std::move(body));
  return out;
}

namespace {

// Allocate immediately followed by the DeclBuffer of the same memory: TVM
// prints the pair as one `T.decl_buffer`.
bool IsAllocateDeclBufferPair(const tir::AllocateNode* alloc) {
  const auto* decl = alloc->body.as<tir::DeclBufferNode>();
  if (!decl) return false;
  const ir::Buffer& buffer = decl->buffer;
  bool annotated = alloc->annotations.defined() && !alloc->annotations->items.empty();
  if (!buffer->data.same_as(alloc->buffer_var) || buffer->dtype != alloc->dtype || annotated ||
      (alloc->condition.defined() && !IsOne(alloc->condition)) || alloc->extents.size() != buffer->shape.size()) {
    return false;
  }
  for (size_t i = 0; i < alloc->extents.size(); ++i) {
    if (!ExprDeepEqual(alloc->extents[i], buffer->shape[i])) return false;
  }
  return true;
}

}  // namespace

Docs ScriptPrinter::AllocateDocs(const tir::AllocateNode* alloc) {
  if (IsAllocateDeclBufferPair(alloc)) return DeclBufferDocs(alloc->body.as<tir::DeclBufferNode>(), true);
  bool concise = AllowConcise();
  std::vector<std::string> args = {"[" + ExprList(alloc->extents) + "]", Quote(DTypeString(alloc->dtype)),
                                   Quote("global")};
  if (alloc->condition.defined() && !IsOne(alloc->condition)) args.push_back(Expr(alloc->condition));
  if (alloc->annotations.defined() && !alloc->annotations->items.empty()) {
    args.push_back("annotations=" + DictText(alloc->annotations));
  }
  // The pointer is defined in the body's frame, so that a buffer view of it
  // (BufferViewFrame) is declared after this line.
  FrameGuard frame(this, FrameKind::kTIR);
  std::string lhs = DefineTIRVar(alloc->buffer_var, *frame);
  std::string rhs = T("allocate") + "(" + Join(args) + ")";
  PrintBody(alloc->body, *frame);
  Docs body = std::move(frame->stmts);
  if (!concise) return {Block("with " + rhs + " as " + lhs + ":", std::move(body))};
  Docs out = {Line(lhs + " = " + rhs)};
  Append(&out, std::move(body));
  return out;
}

Docs ScriptPrinter::DeclBufferDocs(const tir::DeclBufferNode* decl, bool defines_data) {
  bool concise = AllowConcise();
  Frame& parent = Top();
  FrameGuard frame(this, FrameKind::kTIR);
  std::string lhs = DefineBuffer(decl->buffer, *frame);
  std::string rhs = BufferDecl(decl->buffer, "decl_buffer", "", parent, defines_data);
  // The data pointer (`B.data`) belongs to the body's frame too.
  auto& parent_defined = parent.defined;
  if (auto it = std::find(parent_defined.begin(), parent_defined.end(), decl->buffer->data.get());
      it != parent_defined.end() && defines_data) {
    parent_defined.erase(it);
    frame->defined.push_back(decl->buffer->data.get());
  }
  PrintBody(decl->body, *frame);
  Docs body = std::move(frame->stmts);
  if (!concise) return {Block("with " + rhs + " as " + lhs + ":", std::move(body))};
  Docs out = {Line(lhs + " = " + rhs)};
  Append(&out, std::move(body));
  return out;
}

}  // namespace rlx::text::detail
