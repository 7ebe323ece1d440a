// The PrimFunc interpreter: slots, scopes and expressions (see
// interpreter_compile.h for the design, rlx/tir/interpreter.h for the
// semantics).
//
// Each PrimExpr compiles to one closure. Operators are chosen by the operand
// dtype's number class (signed, unsigned, floating, bool) at compile time;
// integer results wrap to their dtype, floating results round to theirs.
// Intrinsic calls resolve by name (a "tir." prefix is ignored) to a C math
// function or a small lambda.
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "tir/interpreter_compile.h"

namespace rlx::tir::interp {
namespace {

enum class NumClass { kSigned, kUnsigned, kFloat, kBool };

NumClass ClassOf(DataType dtype) {
  if (dtype.is_bool()) return NumClass::kBool;
  if (dtype.is_floating()) return NumClass::kFloat;
  if (dtype.is_uint()) return NumClass::kUnsigned;
  return NumClass::kSigned;
}

template <typename Op>
ExprFn Binary(ExprFn a, ExprFn b, Op op) {
  return [a = std::move(a), b = std::move(b), op](Frame& f) {
    Value x = a(f);
    Value y = b(f);
    return op(x, y);
  };
}

int64_t WrappedAdd(int64_t x, int64_t y) { return static_cast<int64_t>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y)); }
int64_t WrappedSub(int64_t x, int64_t y) { return static_cast<int64_t>(static_cast<uint64_t>(x) - static_cast<uint64_t>(y)); }
int64_t WrappedMul(int64_t x, int64_t y) { return static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y)); }

// Truncating division and remainder without INT64_MIN / -1 overflow.
int64_t TruncDiv(int64_t x, int64_t y) { return y == -1 ? WrappedSub(0, x) : x / y; }
int64_t TruncMod(int64_t x, int64_t y) { return y == -1 ? 0 : x % y; }
int64_t FloorDiv(int64_t x, int64_t y) {
  int64_t q = TruncDiv(x, y);
  return (TruncMod(x, y) != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
}
int64_t FloorMod(int64_t x, int64_t y) {
  int64_t r = TruncMod(x, y);
  return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
}

// Integer arithmetic (+ - * and the divisions) for signed and unsigned types.
ExprFn IntArith(NodeKind kind, NumClass cls, DataType t, ExprFn a, ExprFn b, Span span, std::string text) {
  auto checked = [span, text](int64_t y) {
    if (y == 0) ThrowError(span, fmt::format("integer division by zero in `{}`", text));
  };
  bool is_unsigned = cls == NumClass::kUnsigned;
  auto u = [](int64_t v) { return static_cast<uint64_t>(v); };
  switch (kind) {
    case NodeKind::kPrimAdd:
      return Binary(a, b, [t](Value x, Value y) { return Value::Int(WrapInt(WrappedAdd(x.i, y.i), t)); });
    case NodeKind::kPrimSub:
      return Binary(a, b, [t](Value x, Value y) { return Value::Int(WrapInt(WrappedSub(x.i, y.i), t)); });
    case NodeKind::kPrimMul:
      return Binary(a, b, [t](Value x, Value y) { return Value::Int(WrapInt(WrappedMul(x.i, y.i), t)); });
    case NodeKind::kPrimDiv:
    case NodeKind::kPrimFloorDiv:
      if (is_unsigned) {
        return Binary(a, b, [t, checked, u](Value x, Value y) {
          checked(y.i);
          return Value::Int(WrapInt(static_cast<int64_t>(u(x.i) / u(y.i)), t));
        });
      }
      if (kind == NodeKind::kPrimDiv) {
        return Binary(a, b, [t, checked](Value x, Value y) {
          checked(y.i);
          return Value::Int(WrapInt(TruncDiv(x.i, y.i), t));
        });
      }
      return Binary(a, b, [t, checked](Value x, Value y) {
        checked(y.i);
        return Value::Int(WrapInt(FloorDiv(x.i, y.i), t));
      });
    case NodeKind::kPrimMod:
    case NodeKind::kPrimFloorMod:
      if (is_unsigned) {
        return Binary(a, b, [t, checked, u](Value x, Value y) {
          checked(y.i);
          return Value::Int(WrapInt(static_cast<int64_t>(u(x.i) % u(y.i)), t));
        });
      }
      if (kind == NodeKind::kPrimMod) {
        return Binary(a, b, [t, checked](Value x, Value y) {
          checked(y.i);
          return Value::Int(WrapInt(TruncMod(x.i, y.i), t));
        });
      }
      return Binary(a, b, [t, checked](Value x, Value y) {
        checked(y.i);
        return Value::Int(WrapInt(FloorMod(x.i, y.i), t));
      });
    default: break;
  }
  RLX_UNREACHABLE() << "not an arithmetic kind";
  __builtin_unreachable();
}

ExprFn FloatArith(NodeKind kind, DataType t, ExprFn a, ExprFn b) {
  switch (kind) {
    case NodeKind::kPrimAdd:
      return Binary(a, b, [t](Value x, Value y) { return Value::Float(RoundFloat(x.f + y.f, t)); });
    case NodeKind::kPrimSub:
      return Binary(a, b, [t](Value x, Value y) { return Value::Float(RoundFloat(x.f - y.f, t)); });
    case NodeKind::kPrimMul:
      return Binary(a, b, [t](Value x, Value y) { return Value::Float(RoundFloat(x.f * y.f, t)); });
    case NodeKind::kPrimDiv:
      return Binary(a, b, [t](Value x, Value y) { return Value::Float(RoundFloat(x.f / y.f, t)); });
    case NodeKind::kPrimMod:
      return Binary(a, b, [t](Value x, Value y) { return Value::Float(RoundFloat(std::fmod(x.f, y.f), t)); });
    case NodeKind::kPrimFloorDiv:
      return Binary(a, b, [t](Value x, Value y) { return Value::Float(RoundFloat(std::floor(x.f / y.f), t)); });
    case NodeKind::kPrimFloorMod:
      return Binary(a, b, [t](Value x, Value y) {
        return Value::Float(RoundFloat(x.f - std::floor(x.f / y.f) * y.f, t));
      });
    default: break;
  }
  RLX_UNREACHABLE() << "not an arithmetic kind";
  __builtin_unreachable();
}

// A total order key per class, for comparisons and min/max.
template <typename Cmp>
ExprFn Compare(NumClass cls, ExprFn a, ExprFn b, Cmp cmp) {
  switch (cls) {
    case NumClass::kFloat: return Binary(a, b, [cmp](Value x, Value y) { return Value::Bool(cmp(x.f, y.f)); });
    case NumClass::kUnsigned:
      return Binary(a, b, [cmp](Value x, Value y) {
        return Value::Bool(cmp(static_cast<uint64_t>(x.i), static_cast<uint64_t>(y.i)));
      });
    case NumClass::kBool: return Binary(a, b, [cmp](Value x, Value y) { return Value::Bool(cmp(x.b, y.b)); });
    case NumClass::kSigned: break;
  }
  return Binary(a, b, [cmp](Value x, Value y) { return Value::Bool(cmp(x.i, y.i)); });
}

// min/max as compiled code computes them: `a > b ? a : b` and
// `a < b ? a : b` (with a NaN operand the second one wins).
ExprFn MinMax(bool is_max, NumClass cls, ExprFn a, ExprFn b) {
  auto first_wins = [cls, is_max](const Value& x, const Value& y) {
    switch (cls) {
      case NumClass::kFloat: return is_max ? x.f > y.f : x.f < y.f;
      case NumClass::kUnsigned: {
        auto ux = static_cast<uint64_t>(x.i), uy = static_cast<uint64_t>(y.i);
        return is_max ? ux > uy : ux < uy;
      }
      case NumClass::kBool: return is_max ? x.b > y.b : x.b < y.b;
      case NumClass::kSigned: break;
    }
    return is_max ? x.i > y.i : x.i < y.i;
  };
  return Binary(std::move(a), std::move(b), [first_wins](Value x, Value y) { return first_wins(x, y) ? x : y; });
}

// ---------------------------------------------------------------- intrinsics

using UnaryMath = double (*)(double);

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double Rsqrt(double x) { return 1.0 / std::sqrt(x); }
double Exp10(double x) { return std::pow(10.0, x); }
double Round(double x) { return std::round(x); }
double Exp(double x) { return std::exp(x); }
double Exp2(double x) { return std::exp2(x); }
double Expm1(double x) { return std::expm1(x); }
double Log(double x) { return std::log(x); }
double Log2(double x) { return std::log2(x); }
double Log10(double x) { return std::log10(x); }
double Log1p(double x) { return std::log1p(x); }
double Sqrt(double x) { return std::sqrt(x); }
double Sin(double x) { return std::sin(x); }
double Cos(double x) { return std::cos(x); }
double Tan(double x) { return std::tan(x); }
double Asin(double x) { return std::asin(x); }
double Acos(double x) { return std::acos(x); }
double Atan(double x) { return std::atan(x); }
double Sinh(double x) { return std::sinh(x); }
double Cosh(double x) { return std::cosh(x); }
double Tanh(double x) { return std::tanh(x); }
double Asinh(double x) { return std::asinh(x); }
double Acosh(double x) { return std::acosh(x); }
double Atanh(double x) { return std::atanh(x); }
double Erf(double x) { return std::erf(x); }
double Floor(double x) { return std::floor(x); }
double Ceil(double x) { return std::ceil(x); }
double Trunc(double x) { return std::trunc(x); }
double NearbyInt(double x) { return std::nearbyint(x); }
double Fabs(double x) { return std::fabs(x); }

UnaryMath FindUnaryMath(const std::string& name) {
  static const std::unordered_map<std::string, UnaryMath> table = {
      {"exp", Exp},       {"fast_exp", Exp},     {"exp2", Exp2},   {"exp10", Exp10},       {"expm1", Expm1},
      {"log", Log},       {"log2", Log2},        {"log10", Log10}, {"log1p", Log1p},       {"sqrt", Sqrt},
      {"rsqrt", Rsqrt},   {"sin", Sin},          {"cos", Cos},     {"tan", Tan},           {"asin", Asin},
      {"acos", Acos},     {"atan", Atan},        {"sinh", Sinh},   {"cosh", Cosh},         {"tanh", Tanh},
      {"fast_tanh", Tanh}, {"asinh", Asinh},     {"acosh", Acosh}, {"atanh", Atanh},       {"erf", Erf},
      {"fast_erf", Erf},  {"sigmoid", Sigmoid},  {"floor", Floor}, {"ceil", Ceil},         {"trunc", Trunc},
      {"round", Round},   {"nearbyint", NearbyInt}, {"fabs", Fabs},
  };
  auto it = table.find(name);
  return it == table.end() ? nullptr : it->second;
}

using BinaryMath = double (*)(double, double);

double Pow(double x, double y) { return std::pow(x, y); }
double Atan2(double x, double y) { return std::atan2(x, y); }
double Fmod(double x, double y) { return std::fmod(x, y); }
double Hypot(double x, double y) { return std::hypot(x, y); }
double Copysign(double x, double y) { return std::copysign(x, y); }
double Nextafter(double x, double y) { return std::nextafter(x, y); }

BinaryMath FindBinaryMath(const std::string& name) {
  static const std::unordered_map<std::string, BinaryMath> table = {
      {"pow", Pow},           {"atan2", Atan2},         {"fmod", Fmod},
      {"hypot", Hypot},       {"copysign", Copysign},   {"nextafter", Nextafter},
  };
  auto it = table.find(name);
  return it == table.end() ? nullptr : it->second;
}

// A double result as a Value of the call's dtype.
Value FromDouble(double result, DataType dtype) {
  if (dtype.is_floating()) return Value::Float(RoundFloat(result, dtype));
  return Convert(Value::Float(result), DataType::Float(64), dtype);
}

}  // namespace

// ---------------------------------------------------------------- slots, scopes

namespace {
int SlotOf(std::unordered_map<const ir::VarNode*, int>& slots, std::vector<int>& depth, const ir::VarNode* var) {
  auto [it, inserted] = slots.emplace(var, static_cast<int>(slots.size()));
  if (inserted) depth.push_back(0);
  return it->second;
}
}  // namespace

int Compiler::VarSlot(const ir::VarNode* var) { return SlotOf(var_slots_, var_depth_, var); }
int Compiler::StorageSlot(const ir::VarNode* data) { return SlotOf(storage_slots_, storage_depth_, data); }
int Compiler::BufferSlot(const ir::BufferNode* buffer) {
  auto [it, inserted] = buffer_slots_.emplace(buffer, static_cast<int>(buffer_slots_.size()));
  if (inserted) buffer_depth_.push_back(0);
  return it->second;
}

void Compiler::DefineVar(const ir::VarNode* var) { ++var_depth_[VarSlot(var)]; }
void Compiler::UndefineVar(const ir::VarNode* var) { --var_depth_[VarSlot(var)]; }
bool Compiler::IsVarDefined(const ir::VarNode* var) const {
  auto it = var_slots_.find(var);
  return it != var_slots_.end() && var_depth_[it->second] > 0;
}
void Compiler::DefineStorage(const ir::VarNode* data) { ++storage_depth_[StorageSlot(data)]; }
void Compiler::UndefineStorage(const ir::VarNode* data) { --storage_depth_[StorageSlot(data)]; }
bool Compiler::IsStorageDefined(const ir::VarNode* data) const {
  auto it = storage_slots_.find(data);
  return it != storage_slots_.end() && storage_depth_[it->second] > 0;
}
void Compiler::DeclareBufferInScope(const ir::BufferNode* buffer) { ++buffer_depth_[BufferSlot(buffer)]; }
void Compiler::UndeclareBufferInScope(const ir::BufferNode* buffer) { --buffer_depth_[BufferSlot(buffer)]; }

void Compiler::Fail(const std::string& message) const { ThrowError(current_span_, "interpreter: " + message); }

// ---------------------------------------------------------------- expressions

std::vector<ExprFn> Compiler::CompileExprs(const std::vector<PrimExpr>& exprs) {
  std::vector<ExprFn> fns;
  fns.reserve(exprs.size());
  for (const PrimExpr& expr : exprs) fns.push_back(CompileExpr(expr));
  return fns;
}

ExprFn Compiler::CompileExpr(const PrimExpr& expr) {
  RLX_ICHECK(expr.defined()) << "compiling an undefined expression";
  DataType dtype = expr->dtype;
  if (!dtype.is_scalar() && !expr.isa<ir::StringImmNode>()) {
    Fail(fmt::format("vector expressions are not supported: `{}` has type {}", ir::ToString(expr), dtype.ToString()));
  }
  switch (expr->kind()) {
    case NodeKind::kPrimIntImm: {
      auto int_value = expr.as<ir::IntImmNode>()->value;
      Value value = MakeValue(int_value, static_cast<double>(int_value), dtype);
      return [value](Frame&) { return value; };
    }
    case NodeKind::kPrimFloatImm: {
      Value value = dtype.is_floating() ? Value::Float(RoundFloat(expr.as<ir::FloatImmNode>()->value, dtype))
                                        : Convert(Value::Float(expr.as<ir::FloatImmNode>()->value), DataType::Float(64), dtype);
      return [value](Frame&) { return value; };
    }
    case NodeKind::kPrimStringImm:
      Fail(fmt::format("the string {} cannot be used as a value", ir::ToString(expr)));
    case NodeKind::kPrimVar: return CompileVar(expr.as<ir::VarNode>());
    case NodeKind::kPrimNot: {
      ExprFn a = CompileExpr(expr.as<ir::NotNode>()->a);
      return [a = std::move(a)](Frame& f) { return Value::Bool(!a(f).AsBool()); };
    }
    case NodeKind::kPrimSelect: {
      const auto* sel = expr.as<ir::SelectNode>();
      ExprFn c = CompileExpr(sel->condition), t = CompileExpr(sel->true_value), e = CompileExpr(sel->false_value);
      return [c = std::move(c), t = std::move(t), e = std::move(e)](Frame& f) {
        bool cond = c(f).AsBool();
        Value tv = t(f);
        Value ev = e(f);
        return cond ? tv : ev;
      };
    }
    case NodeKind::kPrimCast: {
      const auto* node = expr.as<ir::CastNode>();
      ExprFn value = CompileExpr(node->value);
      DataType from = node->value->dtype;
      return [value = std::move(value), from, dtype](Frame& f) { return Convert(value(f), from, dtype); };
    }
    case NodeKind::kPrimLet: return CompileLet(expr.as<ir::LetNode>());
    case NodeKind::kPrimCall: return CompileCall(expr.as<ir::CallNode>());
    case NodeKind::kPrimBufferLoad: return CompileLoad(expr.as<ir::BufferLoadNode>());
    case NodeKind::kPrimRamp: return CompileExpr(expr.as<ir::RampNode>()->base);  // one lane
    case NodeKind::kPrimBroadcast: return CompileExpr(expr.as<ir::BroadcastNode>()->value);
    default: break;
  }
  if (const auto* binary = expr.as<ir::BinaryNode>()) return CompileBinary(binary);
  RLX_UNREACHABLE() << "unhandled PrimExpr kind " << NodeKindName(expr->kind());
  __builtin_unreachable();
}

ExprFn Compiler::CompileVar(const ir::VarNode* var) {
  if (var->dtype.is_handle()) Fail(fmt::format("the handle {} cannot be used as a value", var->name_hint));
  if (!IsVarDefined(var)) Fail(fmt::format("variable {} is used where nothing defines it", var->name_hint));
  int slot = VarSlot(var);
  return [slot](Frame& f) { return f.vars[slot]; };
}

ExprFn Compiler::CompileBinary(const ir::BinaryNode* node) {
  DataType t = node->a->dtype;
  if (node->b->dtype != t) {
    Fail(fmt::format("operands of `{} {} {}` have different dtypes {} and {}", ir::ToString(node->a),
                     ir::BinaryOpName(node->kind()), ir::ToString(node->b), t.ToString(), node->b->dtype.ToString()));
  }
  ExprFn a = CompileExpr(node->a), b = CompileExpr(node->b);
  NumClass cls = ClassOf(t);
  NodeKind kind = node->kind();
  switch (kind) {
    case NodeKind::kPrimEQ: return Compare(cls, a, b, [](auto x, auto y) { return x == y; });
    case NodeKind::kPrimNE: return Compare(cls, a, b, [](auto x, auto y) { return x != y; });
    case NodeKind::kPrimLT: return Compare(cls, a, b, [](auto x, auto y) { return x < y; });
    case NodeKind::kPrimLE: return Compare(cls, a, b, [](auto x, auto y) { return x <= y; });
    case NodeKind::kPrimGT: return Compare(cls, a, b, [](auto x, auto y) { return x > y; });
    case NodeKind::kPrimGE: return Compare(cls, a, b, [](auto x, auto y) { return x >= y; });
    case NodeKind::kPrimAnd: return Binary(a, b, [](Value x, Value y) { return Value::Bool(x.AsBool() && y.AsBool()); });
    case NodeKind::kPrimOr: return Binary(a, b, [](Value x, Value y) { return Value::Bool(x.AsBool() || y.AsBool()); });
    case NodeKind::kPrimMin: return MinMax(false, cls, a, b);
    case NodeKind::kPrimMax: return MinMax(true, cls, a, b);
    default: break;
  }
  if (cls == NumClass::kBool) {
    Fail(fmt::format("arithmetic `{}` on bool operands is not supported", ir::BinaryOpName(kind)));
  }
  PrimExpr self(static_cast<const ir::PrimExprNode*>(node));
  if (cls == NumClass::kFloat) return FloatArith(kind, t, a, b);
  Span span = node->span.defined() ? node->span : current_span_;
  return IntArith(kind, cls, t, a, b, span, ir::ToString(self));
}

ExprFn Compiler::CompileLet(const ir::LetNode* let) {
  ExprFn value = CompileExpr(let->value);
  int slot = VarSlot(let->var.get());
  DefineVar(let->var.get());
  ExprFn body = CompileExpr(let->body);
  UndefineVar(let->var.get());
  return [slot, value = std::move(value), body = std::move(body)](Frame& f) {
    f.vars[slot] = value(f);
    return body(f);
  };
}

ExprFn Compiler::CompileCall(const ir::CallNode* call) {
  std::string name = call->op.rfind("tir.", 0) == 0 ? call->op.substr(4) : call->op;
  auto expect_args = [&](size_t count) {
    if (call->args.size() != count) {
      Fail(fmt::format("intrinsic {} expects {} argument{}, got {}", name, count, count == 1 ? "" : "s",
                       call->args.size()));
    }
  };
  if (name == "if_then_else") {
    expect_args(3);
    ExprFn c = CompileExpr(call->args[0]), t = CompileExpr(call->args[1]), e = CompileExpr(call->args[2]);
    return [c = std::move(c), t = std::move(t), e = std::move(e)](Frame& f) { return c(f).AsBool() ? t(f) : e(f); };
  }
  if (name == "likely") {
    expect_args(1);
    return CompileExpr(call->args[0]);
  }
  if (name == "assume") return [](Frame&) { return Value::Bool(true); };
  DataType dtype = call->dtype;
  if (UnaryMath fn = FindUnaryMath(name)) {
    expect_args(1);
    ExprFn a = CompileExpr(call->args[0]);
    DataType from = call->args[0]->dtype;
    return [a = std::move(a), fn, from, dtype](Frame& f) { return FromDouble(fn(ToDouble(a(f), from)), dtype); };
  }
  if (BinaryMath fn = FindBinaryMath(name)) {
    expect_args(2);
    ExprFn a = CompileExpr(call->args[0]), b = CompileExpr(call->args[1]);
    DataType ta = call->args[0]->dtype, tb = call->args[1]->dtype;
    return [a = std::move(a), b = std::move(b), fn, ta, tb, dtype](Frame& f) {
      double x = ToDouble(a(f), ta);
      return FromDouble(fn(x, ToDouble(b(f), tb)), dtype);
    };
  }
  return CompileIntrinsic(name, call);
}

// Intrinsics that are not plain double math: integer and bit operations,
// classification, reinterpretation.
ExprFn Compiler::CompileIntrinsic(const std::string& name, const ir::CallNode* call) {
  DataType dtype = call->dtype;
  std::vector<ExprFn> args = CompileExprs(call->args);
  auto expect_args = [&](size_t count) {
    if (args.size() != count) {
      Fail(fmt::format("intrinsic {} expects {} argument{}, got {}", name, count, count == 1 ? "" : "s", args.size()));
    }
  };
  auto expect_integer = [&]() {
    for (const PrimExpr& arg : call->args) {
      if (!arg->dtype.is_integer()) Fail(fmt::format("intrinsic {} expects integer arguments, got {}", name, arg->dtype.ToString()));
    }
  };
  if (name == "abs") {
    expect_args(1);
    if (call->args[0]->dtype.is_floating()) {
      return [a = args[0], dtype](Frame& f) { return Value::Float(RoundFloat(std::fabs(a(f).f), dtype)); };
    }
    return [a = args[0], dtype](Frame& f) {
      int64_t x = a(f).i;
      return Value::Int(WrapInt(x < 0 ? WrappedSub(0, x) : x, dtype));
    };
  }
  if (name == "isnan" || name == "isinf" || name == "isfinite") {
    expect_args(1);
    DataType from = call->args[0]->dtype;
    int which = name == "isnan" ? 0 : name == "isinf" ? 1 : 2;
    return [a = args[0], from, which](Frame& f) {
      double x = ToDouble(a(f), from);
      bool result = which == 0 ? std::isnan(x) : which == 1 ? std::isinf(x) : std::isfinite(x);
      return Value::Bool(result);
    };
  }
  if (name == "bitwise_not") {
    expect_args(1);
    expect_integer();
    return [a = args[0], dtype](Frame& f) { return Value::Int(WrapInt(~a(f).i, dtype)); };
  }
  if (name == "popcount") {
    expect_args(1);
    expect_integer();
    DataType from = call->args[0]->dtype;
    return [a = args[0], from, dtype](Frame& f) {
      uint64_t bits = static_cast<uint64_t>(WrapInt(a(f).i, DataType::UInt(from.bits())));
      return Value::Int(WrapInt(__builtin_popcountll(bits), dtype));
    };
  }
  if (name == "bitwise_and" || name == "bitwise_or" || name == "bitwise_xor") {
    expect_args(2);
    expect_integer();
    char op = name[8];  // 'a', 'o' or 'x'
    return Binary(args[0], args[1], [op, dtype](Value x, Value y) {
      int64_t r = op == 'a' ? (x.i & y.i) : op == 'o' ? (x.i | y.i) : (x.i ^ y.i);
      return Value::Int(WrapInt(r, dtype));
    });
  }
  if (name == "shift_left" || name == "shift_right") {
    expect_args(2);
    expect_integer();
    bool left = name == "shift_left";
    Span span = current_span_;
    return Binary(args[0], args[1], [left, dtype, span](Value x, Value y) {
      if (y.i < 0 || y.i >= dtype.bits()) {
        ThrowError(span, fmt::format("shift by {} is out of range for {}", y.i, dtype.ToString()));
      }
      if (left) return Value::Int(WrapInt(static_cast<int64_t>(static_cast<uint64_t>(x.i) << y.i), dtype));
      if (dtype.is_uint()) return Value::Int(static_cast<int64_t>(static_cast<uint64_t>(x.i) >> y.i));
      return Value::Int(x.i >> y.i);
    });
  }
  if (name == "reinterpret") {
    expect_args(1);
    DataType from = call->args[0]->dtype;
    StoreFn store = StoreFnFor(from);
    LoadFn load = LoadFnFor(dtype);
    if (!store || !load || from.bytes() != dtype.bytes()) {
      Fail(fmt::format("cannot reinterpret {} as {}", from.ToString(), dtype.ToString()));
    }
    return [a = args[0], store, load](Frame& f) {
      uint8_t bytes[8] = {};
      store(bytes, a(f));
      return load(bytes);
    };
  }
  Fail(fmt::format("unsupported intrinsic call {}", ir::ToString(PrimExpr(static_cast<const ir::PrimExprNode*>(call)))));
}

// ---------------------------------------------------------------- buffers

namespace {

struct AccessSite {
  std::string name;
  int slot = -1;
  int elem_bytes = 1;
  std::vector<ExprFn> indices;
  std::shared_ptr<const BufferDecl> implicit;  // set when not declared in scope
  Span span;
};

[[noreturn]] void ReportOutOfBounds(Frame& f, const AccessSite& site, const BufferState& state) {
  std::vector<int64_t> index;
  for (const ExprFn& fn : site.indices) index.push_back(fn(f).i);
  ThrowError(site.span, fmt::format("buffer {}: index {} is out of bounds for shape {}", site.name,
                                    ShapeText(index), ShapeText(state.shape)));
}

}  // namespace

std::function<uint8_t*(Frame&)> Compiler::CompileAddress(const Buffer& buffer, const std::vector<PrimExpr>& indices) {
  if (indices.size() != buffer->shape.size()) {
    Fail(fmt::format("buffer {} has {} dimensions but is accessed with {} indices", buffer->name,
                     buffer->shape.size(), indices.size()));
  }
  for (const PrimExpr& index : indices) {
    if (!index->dtype.is_integer()) Fail(fmt::format("buffer {}: index `{}` is not an integer", buffer->name, ir::ToString(index)));
  }
  auto site = std::make_shared<AccessSite>();
  site->name = buffer->name;
  site->slot = BufferSlot(buffer.get());
  site->elem_bytes = buffer->dtype.bytes();
  site->indices = CompileExprs(indices);
  site->span = current_span_;
  if (buffer_depth_[site->slot] == 0) {
    if (!IsStorageDefined(buffer->data.get())) {
      Fail(fmt::format("buffer {} is used where nothing declares or allocates it", buffer->name));
    }
    site->implicit = std::make_shared<BufferDecl>(CompileBufferDecl(buffer));
  }
  return [site](Frame& f) -> uint8_t* {
    if (site->implicit) DeclareBuffer(f, *site->implicit);
    const BufferState& state = f.buffers[site->slot];
    int64_t flat = state.elem_offset;
    for (size_t d = 0; d < site->indices.size(); ++d) {
      int64_t i = site->indices[d](f).i;
      if (i < 0 || i >= state.shape[d]) ReportOutOfBounds(f, *site, state);
      flat += i * state.strides[d];
    }
    if (flat < 0 || flat >= state.capacity) {
      ThrowError(site->span, fmt::format("buffer {}: element {} is outside its storage of {} elements",
                                         site->name, flat, state.capacity));
    }
    return state.base + flat * site->elem_bytes;
  };
}

ExprFn Compiler::CompileLoad(const ir::BufferLoadNode* load) {
  LoadFn load_fn = LoadFnFor(load->buffer->dtype);
  if (!load_fn) Fail(fmt::format("buffer {} has unsupported dtype {}", load->buffer->name, load->buffer->dtype.ToString()));
  auto address = CompileAddress(load->buffer, load->indices);
  return [address = std::move(address), load_fn](Frame& f) { return load_fn(address(f)); };
}

}  // namespace rlx::tir::interp
