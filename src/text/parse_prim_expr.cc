// Scalar expressions (PrimExpr) for both dialects, and attribute values.
//
// Semantics follow TVM's script parser:
// - Literals: an int is int32 in TIR and int64 in Relax shapes (int64 when it
//   does not fit in int32); a float is float32; True/False are bool. In a
//   binary operation a literal takes the other operand's type (ir::add and
//   friends do this, see ir/expr.h), ints widen, ints meet floats as floats,
//   and a scalar meets a vector as a Broadcast.
// - `+ - * // %` fold like TVM's Python operators (constants, `x + 0`,
//   `x * 1`, ...); the explicit constructors `T.Add(a, b)` ... never fold, so
//   the printer's explicit forms read back unchanged. `/` is true division on
//   floats; on integers it is rejected as ambiguous, as in TVM (write `//`
//   for floordiv or T.truncdiv). Comparisons and and/or/not build their nodes
//   as written; `a < b < c` is `a < b and b < c`.
// - `A[i, j]` loads from a buffer (a slice `A[i:i + 4]` is a Ramp index);
//   `A.data`, `A.elem_offset` and `A.shape[k]` read buffer fields.
// - `T.int32(x)` ... make typed constants or casts; `T.Cast(dtype, x)`,
//   `T.Select`, `T.if_then_else`, `T.min/max`, `T.Let(body, where={v: x})`,
//   `T.Ramp`, `T.Broadcast`, `T.call_extern("dtype", "name", ...)` and the
//   math intrinsics (`T.exp`, `T.sqrt`, ...: an ir::Call with the first
//   argument's dtype) build the corresponding nodes.
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "rlx/arith/analyzer.h"
#include "text/parser_context.h"
#include "text/tir_builtins.h"

namespace rlx::text::detail {

using ir::PrimExpr;

namespace {

bool IsConstValue(const PrimExpr& e, double value) {
  if (const auto* imm = e.as<ir::IntImmNode>()) return static_cast<double>(imm->value) == value;
  if (const auto* imm = e.as<ir::FloatImmNode>()) return imm->value == value;
  return false;
}

int64_t FloorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

std::optional<PrimExpr> FoldConstants(NodeKind kind, const PrimExpr& a, const PrimExpr& b) {
  const auto* ia = a.as<ir::IntImmNode>();
  const auto* ib = b.as<ir::IntImmNode>();
  if (ia && ib && a->dtype.is_integer()) {
    int64_t x = ia->value, y = ib->value;
    switch (kind) {
      case NodeKind::kPrimAdd: return ir::MakeInt(x + y, a->dtype);
      case NodeKind::kPrimSub: return ir::MakeInt(x - y, a->dtype);
      case NodeKind::kPrimMul: return ir::MakeInt(x * y, a->dtype);
      case NodeKind::kPrimFloorDiv:
        if (y != 0) return ir::MakeInt(FloorDivInt(x, y), a->dtype);
        return std::nullopt;
      case NodeKind::kPrimFloorMod:
        if (y != 0) return ir::MakeInt(x - FloorDivInt(x, y) * y, a->dtype);
        return std::nullopt;
      default: return std::nullopt;
    }
  }
  const auto* fa = a.as<ir::FloatImmNode>();
  const auto* fb = b.as<ir::FloatImmNode>();
  if (fa && fb) {
    switch (kind) {
      case NodeKind::kPrimAdd: return ir::MakeFloat(fa->value + fb->value, a->dtype);
      case NodeKind::kPrimSub: return ir::MakeFloat(fa->value - fb->value, a->dtype);
      case NodeKind::kPrimMul: return ir::MakeFloat(fa->value * fb->value, a->dtype);
      default: return std::nullopt;
    }
  }
  return std::nullopt;
}

// The identities TVM's operators apply (`x + 0` → x, `x * 1` → x, ...).
std::optional<PrimExpr> FoldIdentity(NodeKind kind, const PrimExpr& a, const PrimExpr& b) {
  switch (kind) {
    case NodeKind::kPrimAdd:
      if (IsConstValue(a, 0)) return b;
      if (IsConstValue(b, 0)) return a;
      return std::nullopt;
    case NodeKind::kPrimSub:
      if (IsConstValue(b, 0)) return a;
      return std::nullopt;
    case NodeKind::kPrimMul:
      if (IsConstValue(a, 1)) return b;
      if (IsConstValue(b, 1)) return a;
      if (IsConstValue(a, 0)) return a;
      if (IsConstValue(b, 0)) return b;
      return std::nullopt;
    case NodeKind::kPrimFloorDiv:
      if (IsConstValue(b, 1) || IsConstValue(a, 0)) return a;
      return std::nullopt;
    case NodeKind::kPrimFloorMod:
      if (IsConstValue(a, 0)) return a;
      if (IsConstValue(b, 1) && a->dtype.is_integer()) return ir::MakeInt(0, a->dtype);
      return std::nullopt;
    default: return std::nullopt;
  }
}

// Brings two operands (of equal lanes) to one dtype, as ir::add would.
void UnifyTypes(PrimExpr& a, PrimExpr& b) {
  PrimExpr matched = ir::max(a, b);
  const auto* node = matched.as<ir::BinaryNode>();
  a = node->a;
  b = node->b;
}

std::string DTypeName(DataType dtype) { return dtype.is_void() ? "void" : dtype.ToString(); }

// Intrinsics by name: how many arguments, and whether the result is bool.
struct IntrinsicInfo {
  int num_args;
  bool returns_bool = false;
};

const IntrinsicInfo* FindIntrinsic(const std::string& name) {
  static const std::unordered_map<std::string, IntrinsicInfo> kIntrinsics = {
      {"exp", {1}},       {"exp2", {1}},     {"exp10", {1}},     {"log", {1}},      {"log2", {1}},
      {"log10", {1}},     {"log1p", {1}},    {"expm1", {1}},     {"sqrt", {1}},     {"rsqrt", {1}},
      {"tanh", {1}},      {"sigmoid", {1}},  {"erf", {1}},       {"sin", {1}},      {"cos", {1}},
      {"tan", {1}},       {"sinh", {1}},     {"cosh", {1}},      {"asin", {1}},     {"acos", {1}},
      {"atan", {1}},      {"asinh", {1}},    {"acosh", {1}},     {"atanh", {1}},    {"floor", {1}},
      {"ceil", {1}},      {"round", {1}},    {"trunc", {1}},     {"nearbyint", {1}}, {"fabs", {1}},
      {"abs", {1}},       {"clz", {1}},      {"popcount", {1}},  {"bitwise_not", {1}}, {"likely", {1}},     {"ret", {1}},
      {"isnan", {1, true}}, {"isinf", {1, true}}, {"isfinite", {1, true}},
      {"pow", {2}},       {"fmod", {2}},     {"atan2", {2}},     {"hypot", {2}},    {"copysign", {2}},
      {"nextafter", {2}}, {"ldexp", {2}},    {"shift_left", {2}}, {"shift_right", {2}},
      {"bitwise_and", {2}}, {"bitwise_or", {2}}, {"bitwise_xor", {2}},
  };
  auto it = kIntrinsics.find(name);
  return it == kIntrinsics.end() ? nullptr : &it->second;
}

// Intrinsics whose result dtype is given as their first argument.
bool TakesDtypeFirst(const std::string& name) {
  return name == "call_extern" || name == "call_pure_extern" || name == "call_llvm_intrin" ||
         name == "call_llvm_pure_intrin" || name == "reinterpret";
}

const std::unordered_map<std::string, NodeKind>& ExplicitBinaryKinds() {
  static const std::unordered_map<std::string, NodeKind> kKinds = {
      {"Add", NodeKind::kPrimAdd},         {"Sub", NodeKind::kPrimSub},
      {"Mul", NodeKind::kPrimMul},         {"Div", NodeKind::kPrimDiv},
      {"Mod", NodeKind::kPrimMod},         {"FloorDiv", NodeKind::kPrimFloorDiv},
      {"FloorMod", NodeKind::kPrimFloorMod}, {"Min", NodeKind::kPrimMin},
      {"Max", NodeKind::kPrimMax},         {"min", NodeKind::kPrimMin},
      {"max", NodeKind::kPrimMax},         {"EQ", NodeKind::kPrimEQ},
      {"NE", NodeKind::kPrimNE},           {"LT", NodeKind::kPrimLT},
      {"LE", NodeKind::kPrimLE},           {"GT", NodeKind::kPrimGT},
      {"GE", NodeKind::kPrimGE},           {"And", NodeKind::kPrimAnd},
      {"Or", NodeKind::kPrimOr},           {"truncdiv", NodeKind::kPrimDiv},
      {"truncmod", NodeKind::kPrimMod},    {"floordiv", NodeKind::kPrimFloorDiv},
      {"floormod", NodeKind::kPrimFloorMod},
  };
  return kKinds;
}

}  // namespace

// Gives a node we just built the span of its source (only when no one else
// holds it yet).
PrimExpr WithSpanOf(PrimExpr expr, const Span& span) {
  if (expr.defined() && expr->use_count() == 1 && !expr->span.defined()) {
    const_cast<ir::PrimExprNode*>(expr.get())->span = span;
  }
  return expr;
}

// ---------------------------------------------------------------------------
// Operand types and folding.

void MatchOperandTypes(PrimExpr& a, PrimExpr& b, const Span& span, const char* op) {
  DataType ta = a->dtype, tb = b->dtype;
  if (ta.is_handle() || tb.is_handle() || ta.is_void() || tb.is_void()) {
    Fail(span, fmt::format("'{}' cannot be applied to operands of type {} and {}", op, DTypeName(ta), DTypeName(tb)));
  }
  if (ta.lanes() != tb.lanes()) {
    if (ta.lanes() == 1) {
      a = make<ir::BroadcastNode>(a, tb.lanes());
    } else if (tb.lanes() == 1) {
      b = make<ir::BroadcastNode>(b, ta.lanes());
    } else {
      Fail(span, fmt::format("'{}' cannot be applied to vectors of {} and {} lanes", op, ta.lanes(), tb.lanes()));
    }
  }
}

PrimExpr FoldBinary(NodeKind kind, PrimExpr a, PrimExpr b, const Span& span) {
  MatchOperandTypes(a, b, span, ir::BinaryOpName(kind));
  PrimExpr built = ir::MakeBinary(kind, a, b);  // matches dtypes
  const auto* binary = built.as<ir::BinaryNode>();
  if (binary == nullptr) return built;
  if (std::optional<PrimExpr> folded = FoldConstants(kind, binary->a, binary->b)) return WithSpanOf(std::move(*folded), span);
  if (std::optional<PrimExpr> folded = FoldIdentity(kind, binary->a, binary->b)) return *folded;
  return WithSpanOf(std::move(built), span);
}

// ---------------------------------------------------------------------------
// PrimExprParser.

PrimExpr PrimExprParser::Eval(const py::Expr& expr) {
  switch (expr.kind) {
    case py::NodeKind::kName: return EvalName(expr.Cast<py::Name>());
    case py::NodeKind::kConstant: {
      const auto& c = expr.Cast<py::Constant>();
      switch (c.value_kind) {
        case py::ConstantKind::kInt: {
          int64_t value = *AsIntLiteral(expr);
          DataType dtype = options_.int_literal;
          if (dtype.bits() < 64 && (value > std::numeric_limits<int32_t>::max() ||
                                    value < std::numeric_limits<int32_t>::min())) {
            dtype = DataType::Int64();
          }
          return WithSpanOf(ir::MakeInt(value, dtype), expr.span);
        }
        case py::ConstantKind::kFloat: return WithSpanOf(ir::MakeFloat(c.float_value), expr.span);
        case py::ConstantKind::kBool: return WithSpanOf(ir::MakeBool(c.bool_value), expr.span);
        case py::ConstantKind::kString: return WithSpanOf(ir::MakeString(c.string_value), expr.span);
        default: break;
      }
      break;
    }
    case py::NodeKind::kAttribute: return EvalAttribute(expr.Cast<py::Attribute>());
    case py::NodeKind::kBinOp: return EvalBinOp(expr.Cast<py::BinOp>());
    case py::NodeKind::kCompare: return EvalCompare(expr.Cast<py::Compare>());
    case py::NodeKind::kBoolOp: return EvalBoolOp(expr.Cast<py::BoolOp>());
    case py::NodeKind::kUnaryOp: return EvalUnaryOp(expr.Cast<py::UnaryOp>());
    case py::NodeKind::kSubscript: return EvalSubscript(expr.Cast<py::Subscript>());
    case py::NodeKind::kCall: return EvalCall(expr.Cast<py::Call>());
    default: break;
  }
  Fail(expr.span, fmt::format("expected a scalar expression, got {}", Describe(expr)));
}

std::vector<PrimExpr> PrimExprParser::EvalList(const py::Expr& expr) {
  std::vector<PrimExpr> result;
  if (const std::vector<py::ExprPtr>* elts = AsSequence(expr)) {
    for (const py::ExprPtr& elt : *elts) result.push_back(Eval(*elt));
  } else {
    result.push_back(Eval(expr));
  }
  return result;
}

PrimExpr PrimExprParser::EvalName(const py::Name& name) {
  const Symbol* symbol = scopes_.Lookup(name.id);
  if (symbol == nullptr) {
    if (options_.on_undefined) return options_.on_undefined(name);
    Fail(name.span, fmt::format("undefined {} '{}'", options_.undefined_what, name.id));
  }
  switch (symbol->kind) {
    case SymbolKind::kPrimVar: return symbol->prim_var;
    case SymbolKind::kMetaValue: return symbol->meta_value;
    case SymbolKind::kBuffer:
      Fail(name.span, fmt::format("'{}' is a buffer, not a scalar; index it, e.g. {}[...]", name.id, name.id));
    case SymbolKind::kRelaxVar:
      Fail(name.span, fmt::format("expected a scalar expression, got the graph-level variable '{}'", name.id));
    case SymbolKind::kModule: break;
  }
  Fail(name.span, fmt::format("expected a scalar expression, got the module '{}'", name.id));
}

ir::Buffer PrimExprParser::EvalBuffer(const py::Expr& expr) {
  const auto* name = expr.As<py::Name>();
  const Symbol* symbol = name ? scopes_.Lookup(name->id) : nullptr;
  if (symbol != nullptr && symbol->kind == SymbolKind::kBuffer) return symbol->buffer;
  if (name != nullptr && symbol == nullptr) Fail(expr.span, fmt::format("undefined buffer '{}'", name->id));
  Fail(expr.span, fmt::format("expected a buffer, got {}", Describe(expr)));
}

PrimExpr PrimExprParser::EvalAttribute(const py::Attribute& attr) {
  const auto* base = attr.value->As<py::Name>();
  const Symbol* symbol = base ? scopes_.Lookup(base->id) : nullptr;
  if (symbol != nullptr && symbol->kind == SymbolKind::kBuffer) {
    if (attr.attr == "data") return symbol->buffer->data;
    if (attr.attr == "elem_offset" && symbol->buffer->elem_offset.defined()) return symbol->buffer->elem_offset;
    Fail(attr.attr_span, fmt::format("buffer '{}' has no scalar field '{}'", base->id, attr.attr));
  }
  std::string dotted = DottedName(attr).value_or("");
  if (dotted.rfind("T.", 0) == 0 && DataType::Parse(dotted.substr(2))) {
    Fail(attr.span, fmt::format("{} is a type; write {}(value) for a constant", dotted, dotted));
  }
  Fail(attr.span, fmt::format("expected a scalar expression, got {}", Describe(attr)));
}

PrimExpr PrimExprParser::EvalBinOp(const py::BinOp& op) {
  PrimExpr a = Eval(*op.left);
  PrimExpr b = Eval(*op.right);
  const char* spelling = py::Spelling(op.op);
  switch (op.op) {
    case py::BinOpKind::kAdd: return FoldBinary(NodeKind::kPrimAdd, a, b, op.span);
    case py::BinOpKind::kSub: return FoldBinary(NodeKind::kPrimSub, a, b, op.span);
    case py::BinOpKind::kMult: return FoldBinary(NodeKind::kPrimMul, a, b, op.span);
    case py::BinOpKind::kFloorDiv: return FoldBinary(NodeKind::kPrimFloorDiv, a, b, op.span);
    case py::BinOpKind::kMod: return FoldBinary(NodeKind::kPrimFloorMod, a, b, op.span);
    case py::BinOpKind::kDiv:
      if (!a->dtype.is_floating() && !b->dtype.is_floating()) {
        Fail(op.span, "'/' on integers is ambiguous: write '//' for floor division or T.truncdiv(a, b)");
      }
      MatchOperandTypes(a, b, op.span, spelling);
      return WithSpanOf(ir::truncdiv(a, b), op.span);
    case py::BinOpKind::kPow:
      MatchOperandTypes(a, b, op.span, spelling);
      UnifyTypes(a, b);
      return WithSpanOf(ir::call(a->dtype, "pow", {a, b}), op.span);
    default: break;
  }
  static const std::unordered_map<int, const char*> kBitOps = {
      {static_cast<int>(py::BinOpKind::kBitAnd), "bitwise_and"},
      {static_cast<int>(py::BinOpKind::kBitOr), "bitwise_or"},
      {static_cast<int>(py::BinOpKind::kBitXor), "bitwise_xor"},
      {static_cast<int>(py::BinOpKind::kLShift), "shift_left"},
      {static_cast<int>(py::BinOpKind::kRShift), "shift_right"}};
  auto it = kBitOps.find(static_cast<int>(op.op));
  if (it == kBitOps.end()) Fail(op.span, fmt::format("operator '{}' is not supported on scalars", spelling));
  MatchOperandTypes(a, b, op.span, spelling);
  UnifyTypes(a, b);
  return WithSpanOf(ir::call(a->dtype, it->second, {a, b}), op.span);
}

PrimExpr PrimExprParser::Bool(const PrimExpr& value, const py::Expr& where) {
  if (!value->dtype.is_bool()) {
    Fail(where.span, fmt::format("expected a boolean condition, got an expression of type {}", DTypeName(value->dtype)));
  }
  return value;
}

PrimExpr PrimExprParser::EvalCompare(const py::Compare& cmp) {
  PrimExpr result;
  PrimExpr left = Eval(*cmp.left);
  for (size_t i = 0; i < cmp.ops.size(); ++i) {
    PrimExpr right = Eval(*cmp.comparators[i]);
    PrimExpr a = left, b = right;
    const char* spelling = py::Spelling(cmp.ops[i]);
    MatchOperandTypes(a, b, cmp.span, spelling);
    PrimExpr pair;
    switch (cmp.ops[i]) {
      case py::CmpOpKind::kEq: pair = ir::eq(a, b); break;
      case py::CmpOpKind::kNotEq: pair = ir::ne(a, b); break;
      case py::CmpOpKind::kLt: pair = ir::lt(a, b); break;
      case py::CmpOpKind::kLtE: pair = ir::le(a, b); break;
      case py::CmpOpKind::kGt: pair = ir::gt(a, b); break;
      case py::CmpOpKind::kGtE: pair = ir::ge(a, b); break;
      default: Fail(cmp.span, fmt::format("comparison '{}' is not supported on scalars", spelling));
    }
    pair = WithSpanOf(std::move(pair), cmp.span);
    result = result.defined() ? WithSpanOf(ir::logical_and(result, pair), cmp.span) : pair;
    left = right;
  }
  return result;
}

PrimExpr PrimExprParser::EvalBoolOp(const py::BoolOp& op) {
  PrimExpr result;
  for (const py::ExprPtr& value : op.values) {
    PrimExpr operand = Bool(Eval(*value), *value);
    if (!result.defined()) {
      result = operand;
    } else {
      result = op.op == py::BoolOpKind::kAnd ? ir::logical_and(result, operand) : ir::logical_or(result, operand);
      result = WithSpanOf(result, op.span);
    }
  }
  return result;
}

PrimExpr PrimExprParser::EvalUnaryOp(const py::UnaryOp& op) {
  if (op.op == py::UnaryOpKind::kUSub) {
    // A negative literal has the dtype of its value (-2147483648 is int32).
    if (std::optional<int64_t> value = AsIntLiteral(op)) {
      DataType dtype = options_.int_literal;
      if (dtype.bits() < 64 && (*value > std::numeric_limits<int32_t>::max() || *value < std::numeric_limits<int32_t>::min())) {
        dtype = DataType::Int64();
      }
      return WithSpanOf(ir::MakeInt(*value, dtype), op.span);
    }
  }
  PrimExpr operand = Eval(*op.operand);
  switch (op.op) {
    case py::UnaryOpKind::kUAdd: return operand;
    case py::UnaryOpKind::kNot: return WithSpanOf(ir::logical_not(Bool(operand, *op.operand)), op.span);
    case py::UnaryOpKind::kInvert: return WithSpanOf(ir::call(operand->dtype, "bitwise_not", {operand}), op.span);
    case py::UnaryOpKind::kUSub: break;
  }
  if (const auto* imm = operand.as<ir::IntImmNode>(); imm && !operand->dtype.is_bool()) {
    return WithSpanOf(ir::MakeInt(-imm->value, operand->dtype), op.span);
  }
  if (const auto* imm = operand.as<ir::FloatImmNode>()) return WithSpanOf(ir::MakeFloat(-imm->value, operand->dtype), op.span);
  PrimExpr zero = operand->dtype.is_floating() ? PrimExpr(ir::MakeFloat(0, operand->dtype.element_of()))
                                               : PrimExpr(ir::MakeInt(0, operand->dtype.element_of()));
  MatchOperandTypes(zero, operand, op.span, "-");
  return WithSpanOf(ir::sub(zero, operand), op.span);
}

// ---------------------------------------------------------------------------
// Calls.

PrimExpr PrimExprParser::EvalCall(const py::Call& call) {
  std::string callee = CalleeName(call);
  if (callee.rfind("T.", 0) != 0) {
    Fail(call.func->span, fmt::format("cannot call {} in a scalar expression", callee.empty() ? "this" : callee));
  }
  std::string name = callee.substr(2);
  if (std::optional<DataType> dtype = DataType::Parse(name)) return EvalTypedConstructor(call, *dtype);
  if (ExplicitBinaryKinds().count(name)) return EvalExplicitBinary(call, name);
  if (name == "Not") {
    CallArgs args(call, callee, {"value"}, 1);
    return WithSpanOf(ir::logical_not(Bool(Eval(args.Required("value")), args.Required("value"))), call.span);
  }
  if (name == "Cast" || name == "cast") {
    bool dtype_first = name == "Cast";
    CallArgs args(call, callee, dtype_first ? std::vector<std::string>{"dtype", "value"}
                                            : std::vector<std::string>{"value", "dtype"}, 2);
    DataType dtype = EvalDType(args.Required("dtype"));
    PrimExpr value = Eval(args.Required("value"));
    if (!dtype_first) return ir::cast(dtype, value);
    return WithSpanOf(make<ir::CastNode>(dtype, value), call.span);
  }
  if (name == "Select" || name == "if_then_else") {
    // dtype=: older TVMScript printed if_then_else with the result dtype;
    // it must be the arms' dtype.
    CallArgs args(call, callee, {"condition", "true_value", "false_value", "dtype"}, 3);
    PrimExpr cond = Bool(Eval(args.Required("condition")), args.Required("condition"));
    PrimExpr t = Eval(args.Required("true_value"));
    PrimExpr f = Eval(args.Required("false_value"));
    MatchOperandTypes(t, f, call.span, name.c_str());
    PrimExpr select = ir::select(cond, t, f);  // matches the arms' dtypes
    if (args.Has("dtype")) {
      DataType dtype = EvalDType(args.Required("dtype"));
      if (dtype != select->dtype) {
        Fail(args.Required("dtype").span, fmt::format("T.{}: dtype={} but the values are {}", name, dtype.ToString(),
                                                      select->dtype.ToString()));
      }
    }
    if (name == "Select") return WithSpanOf(std::move(select), call.span);
    const auto* node = select.as<ir::SelectNode>();
    return WithSpanOf(ir::call(select->dtype, "if_then_else", {cond, node->true_value, node->false_value}), call.span);
  }
  if (name == "Let") return EvalLet(call);
  if (name == "Ramp" || name == "Broadcast" || name == "ramp" || name == "broadcast") {  // both spellings
    bool ramp = name == "Ramp" || name == "ramp";
    CallArgs args(call, callee, ramp ? std::vector<std::string>{"base", "stride", "lanes"}
                                     : std::vector<std::string>{"value", "lanes"}, ramp ? 3 : 2);
    std::optional<int64_t> lanes = AsIntLiteral(args.Required("lanes"));
    if (!lanes || *lanes < 1) Fail(args.Required("lanes").span, "lanes must be a positive integer literal");
    if (!ramp) return WithSpanOf(make<ir::BroadcastNode>(Eval(args.Required("value")), static_cast<int>(*lanes)), call.span);
    PrimExpr base = Eval(args.Required("base"));
    PrimExpr stride = Eval(args.Required("stride"));
    MatchOperandTypes(base, stride, call.span, "T.Ramp");
    UnifyTypes(base, stride);
    return WithSpanOf(make<ir::RampNode>(base, stride, static_cast<int>(*lanes)), call.span);
  }
  return EvalIntrinsic(call, name);
}

PrimExpr PrimExprParser::EvalTypedConstructor(const py::Call& call, DataType dtype) {
  std::string callee = CalleeName(call);
  CallArgs args(call, callee, {"value"}, 0);
  const py::Expr* arg = args.Get("value");
  if (arg == nullptr) {
    Fail(call.span, fmt::format("{}() declares a variable; assign it to a name, e.g. n = {}()", callee, callee));
  }
  if (std::optional<std::string> text = AsStringLiteral(*arg)) {
    if (!dtype.is_floating()) Fail(arg->span, fmt::format("{} expects a number, got \"{}\"", callee, *text));
    double value;
    if (*text == "inf") {
      value = std::numeric_limits<double>::infinity();
    } else if (*text == "-inf") {
      value = -std::numeric_limits<double>::infinity();
    } else if (*text == "nan") {
      value = std::numeric_limits<double>::quiet_NaN();
    } else {
      Fail(arg->span, fmt::format("{} expects a number or \"inf\", \"-inf\", \"nan\", got \"{}\"", callee, *text));
    }
    return WithSpanOf(ir::MakeFloat(value, dtype), call.span);
  }
  if (std::optional<bool> b = AsBoolLiteral(*arg)) {
    return WithSpanOf(dtype.is_floating() ? PrimExpr(ir::MakeFloat(*b, dtype)) : PrimExpr(ir::MakeInt(*b, dtype)), call.span);
  }
  if (std::optional<int64_t> i = AsIntLiteral(*arg)) {
    if (dtype.is_floating()) return WithSpanOf(ir::MakeFloat(static_cast<double>(*i), dtype), call.span);
    if (dtype.is_bool()) return WithSpanOf(ir::MakeBool(*i != 0), call.span);
    return WithSpanOf(ir::MakeInt(*i, dtype), call.span);
  }
  PrimExpr value = Eval(*arg);
  if (const auto* imm = value.as<ir::FloatImmNode>()) {
    if (dtype.is_floating()) return WithSpanOf(ir::MakeFloat(imm->value, dtype), call.span);
  }
  return WithSpanOf(ir::cast(dtype, value), call.span);
}

PrimExpr PrimExprParser::EvalExplicitBinary(const py::Call& call, const std::string& name) {
  CallArgs args(call, CalleeName(call), {"a", "b"}, 2);
  PrimExpr a = Eval(args.Required("a"));
  PrimExpr b = Eval(args.Required("b"));
  NodeKind kind = ExplicitBinaryKinds().at(name);
  if (kind == NodeKind::kPrimAnd || kind == NodeKind::kPrimOr) {
    a = Bool(a, args.Required("a"));
    b = Bool(b, args.Required("b"));
  }
  MatchOperandTypes(a, b, call.span, name.c_str());
  if (name == "floordiv" || name == "floormod") return FoldBinary(kind, a, b, call.span);
  return WithSpanOf(ir::MakeBinary(kind, a, b), call.span);
}

PrimExpr PrimExprParser::EvalLet(const py::Call& call) {
  CallArgs args(call, "T.Let", {"body", "where"}, 2);
  const auto* where = args.Required("where").As<py::Dict>();
  if (where == nullptr || where->keys.size() != 1 || where->keys[0] == nullptr) {
    Fail(args.Required("where").span, "T.Let expects where={var: value} with one variable");
  }
  const auto* key = where->keys[0]->As<py::Name>();
  const Symbol* symbol = key ? scopes_.Lookup(key->id) : nullptr;
  if (symbol == nullptr || symbol->kind != SymbolKind::kPrimVar) {
    Fail(where->keys[0]->span, "T.Let: the key of where= must be a declared variable (e.g. x = T.int32())");
  }
  PrimExpr value = Eval(*where->values[0]);
  if (value->dtype != symbol->prim_var->dtype) value = ir::cast(symbol->prim_var->dtype, value);
  PrimExpr body = Eval(args.Required("body"));
  return WithSpanOf(make<ir::LetNode>(symbol->prim_var, value, body), call.span);
}

PrimExpr PrimExprParser::EvalIntrinsic(const py::Call& call, const std::string& name) {
  std::string callee = CalleeName(call);
  // `dtype=` (TVM's keyword form of the result dtype) is the only keyword.
  const py::Expr* dtype_keyword = nullptr;
  for (const py::Keyword& keyword : call.keywords) {
    if (keyword.name != "dtype") Fail(keyword.span, fmt::format("{} has no argument '{}'", callee, keyword.name));
    dtype_keyword = keyword.value.get();
  }
  if (TakesDtypeFirst(name)) {
    // T.call_extern("int32", "f", x) or T.call_extern("f", x, dtype="int32").
    size_t first = dtype_keyword ? 0 : 1;
    if (!dtype_keyword && call.args.empty()) {
      Fail(call.span, fmt::format("{} expects the result dtype as its first argument", callee));
    }
    DataType dtype = EvalDType(dtype_keyword ? *dtype_keyword : *call.args[0]);
    std::vector<PrimExpr> rest;
    for (size_t i = first; i < call.args.size(); ++i) rest.push_back(Eval(*call.args[i]));
    return WithSpanOf(ir::call(dtype, name, std::move(rest)), call.span);
  }
  if (const TIRBuiltinInfo* builtin = FindTIRBuiltin(name)) return EvalBuiltin(call, name, *builtin, dtype_keyword);
  const IntrinsicInfo* info = FindIntrinsic(name);
  if (info == nullptr) Fail(call.func->span, fmt::format("unknown TIR function '{}'", callee));
  if (static_cast<int>(call.args.size()) != info->num_args) {
    Fail(call.span, fmt::format("{} takes {} argument{}, got {}", callee, info->num_args,
                                info->num_args == 1 ? "" : "s", call.args.size()));
  }
  std::vector<PrimExpr> args;
  for (const py::ExprPtr& arg : call.args) args.push_back(Eval(*arg));
  if (args.size() == 2) {
    MatchOperandTypes(args[0], args[1], call.span, callee.c_str());
    UnifyTypes(args[0], args[1]);
  }
  DataType dtype = info->returns_bool ? DataType::Bool(args[0]->dtype.lanes()) : args[0]->dtype;
  return WithSpanOf(ir::call(dtype, name, std::move(args)), call.span);
}

// A TVM builtin kept as an opaque call: every argument is a scalar
// expression (a string literal becomes a StringImm); the result dtype is
// `dtype=`, else the builtin's default (tir_builtins.h).
PrimExpr PrimExprParser::EvalBuiltin(const py::Call& call, const std::string& name, const TIRBuiltinInfo& info,
                                     const py::Expr* dtype_keyword) {
  std::vector<PrimExpr> args;
  for (const py::ExprPtr& arg : call.args) args.push_back(Eval(*arg));
  if (name == "llvm_lookup_intrinsic_id" && (args.size() != 1 || !args[0].isa<ir::StringImmNode>())) {
    Fail(call.span, "T.llvm_lookup_intrinsic_id takes the intrinsic's name, e.g. \"llvm.ctpop.i8\"");
  }
  DataType dtype = info.default_dtype;
  if (info.dtype_from_arg >= 0) {
    if (static_cast<int>(args.size()) <= info.dtype_from_arg) {
      Fail(call.span, fmt::format("T.{} expects at least {} arguments", name, info.dtype_from_arg + 1));
    }
    dtype = args[static_cast<size_t>(info.dtype_from_arg)]->dtype;
  }
  if (dtype_keyword != nullptr) dtype = EvalDType(*dtype_keyword);
  if (dtype.is_void() && dtype_keyword == nullptr) {
    Fail(call.span, fmt::format("T.{} needs its result dtype, e.g. dtype=\"int32\"", name));
  }
  return WithSpanOf(ir::call(dtype, name, std::move(args)), call.span);
}

}  // namespace rlx::text::detail
