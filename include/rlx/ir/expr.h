// Scalar expressions (PrimExpr) and buffers.
//
// PrimExprs are the integer and floating-point expressions of both levels:
// symbolic shape dimensions at graph level (`n * 4`), index and value
// arithmetic in tensor programs.
//
// Semantics (what the analyzer, the interpreter and codegen must agree on):
// - Integer arithmetic is two's-complement in the expression's dtype; shape
//   arithmetic is int64. Overflow wraps (the analyzer assumes shapes do not
//   overflow int64 and may simplify as if arithmetic were exact).
// - FloorDiv/FloorMod round towards negative infinity: floordiv(-7, 2) = -4,
//   floormod(-7, 2) = 1; the result of floormod has the sign of the divisor.
//   Div/Mod (TIR's truncdiv/truncmod) round towards zero: div(-7, 2) = -3,
//   mod(-7, 2) = -1. For floating-point operands Div is true division.
//   Division by zero is undefined; the analyzer never folds it.
// - Comparisons and And/Or/Not produce bool. Select evaluates both arms;
//   Call("if_then_else") evaluates only the chosen one.
// - Min/Max, Select and binary operators require both operands to have the
//   same dtype (constructors check this; mixed int literals are converted).
// - Ramp(base, stride, lanes) is the vector base + i * stride, i < lanes;
//   Broadcast(value, lanes) repeats a scalar.
// - Vars are compared by identity: two Vars named "n" are different
//   variables. Shape variables default to int64.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rlx/ir/attrs.h"
#include "rlx/ir/dtype.h"
#include "rlx/ir/node.h"
#include "rlx/support/source.h"

namespace rlx::ir {

class PrimExprNode : public Node {
 public:
  static bool classof(NodeKind kind) {
    return kind >= NodeKind::kPrimIntImm && kind <= NodeKind::kPrimBroadcast;
  }
  PrimExprNode(NodeKind kind, DataType dtype) : Node(kind), dtype(dtype) {}

  DataType dtype;
  Span span;
};
using PrimExpr = Ref<PrimExprNode>;

class IntImmNode : public PrimExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kPrimIntImm;
  IntImmNode(DataType dtype, int64_t value) : PrimExprNode(kKind, dtype), value(value) {}
  int64_t value;
};
using IntImm = Ref<IntImmNode>;

class FloatImmNode : public PrimExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kPrimFloatImm;
  FloatImmNode(DataType dtype, double value) : PrimExprNode(kKind, dtype), value(value) {}
  double value;
};
using FloatImm = Ref<FloatImmNode>;

class StringImmNode : public PrimExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kPrimStringImm;
  explicit StringImmNode(std::string value) : PrimExprNode(kKind, DataType::Handle()), value(std::move(value)) {}
  std::string value;
};
using StringImm = Ref<StringImmNode>;

// A scalar variable: a symbolic shape dimension, a loop variable, a buffer's
// data pointer (dtype handle), a function parameter.
class VarNode : public PrimExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kPrimVar;
  VarNode(std::string name_hint, DataType dtype) : PrimExprNode(kKind, dtype), name_hint(std::move(name_hint)) {}
  std::string name_hint;
  // For handles that point to data: the element type ("T.handle('float32')").
  DataType pointee;
};
using Var = Ref<VarNode>;

// Binary nodes share a layout; each has its own kind.
class BinaryNode : public PrimExprNode {
 public:
  static bool classof(NodeKind kind) { return kind >= NodeKind::kPrimAdd && kind <= NodeKind::kPrimOr; }
  BinaryNode(NodeKind kind, DataType dtype, PrimExpr a, PrimExpr b)
      : PrimExprNode(kind, dtype), a(std::move(a)), b(std::move(b)) {}
  PrimExpr a;
  PrimExpr b;
};

#define RLX_DEFINE_BINARY_NODE(Name)                                                        \
  class Name##Node : public BinaryNode {                                                    \
   public:                                                                                  \
    static constexpr NodeKind kKind = NodeKind::kPrim##Name;                                \
    Name##Node(DataType dtype, PrimExpr a, PrimExpr b) : BinaryNode(kKind, dtype, std::move(a), std::move(b)) {} \
  };
RLX_DEFINE_BINARY_NODE(Add)
RLX_DEFINE_BINARY_NODE(Sub)
RLX_DEFINE_BINARY_NODE(Mul)
RLX_DEFINE_BINARY_NODE(Div)
RLX_DEFINE_BINARY_NODE(Mod)
RLX_DEFINE_BINARY_NODE(FloorDiv)
RLX_DEFINE_BINARY_NODE(FloorMod)
RLX_DEFINE_BINARY_NODE(Min)
RLX_DEFINE_BINARY_NODE(Max)
RLX_DEFINE_BINARY_NODE(EQ)
RLX_DEFINE_BINARY_NODE(NE)
RLX_DEFINE_BINARY_NODE(LT)
RLX_DEFINE_BINARY_NODE(LE)
RLX_DEFINE_BINARY_NODE(GT)
RLX_DEFINE_BINARY_NODE(GE)
RLX_DEFINE_BINARY_NODE(And)
RLX_DEFINE_BINARY_NODE(Or)
#undef RLX_DEFINE_BINARY_NODE

class NotNode : public PrimExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kPrimNot;
  explicit NotNode(PrimExpr a) : PrimExprNode(kKind, a->dtype), a(std::move(a)) {}
  PrimExpr a;
};

class SelectNode : public PrimExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kPrimSelect;
  SelectNode(PrimExpr condition, PrimExpr true_value, PrimExpr false_value)
      : PrimExprNode(kKind, true_value->dtype),
        condition(std::move(condition)),
        true_value(std::move(true_value)),
        false_value(std::move(false_value)) {}
  PrimExpr condition;
  PrimExpr true_value;
  PrimExpr false_value;
};

class CastNode : public PrimExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kPrimCast;
  CastNode(DataType dtype, PrimExpr value) : PrimExprNode(kKind, dtype), value(std::move(value)) {}
  PrimExpr value;
};

class LetNode : public PrimExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kPrimLet;
  LetNode(Var var, PrimExpr value, PrimExpr body)
      : PrimExprNode(kKind, body->dtype), var(std::move(var)), value(std::move(value)), body(std::move(body)) {}
  Var var;
  PrimExpr value;
  PrimExpr body;
};

// A call to an intrinsic by name: "exp", "sqrt", "if_then_else", "pow", ...
// (names as in TVMScript without the "T." prefix; see ir/intrinsics.h).
class CallNode : public PrimExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kPrimCall;
  CallNode(DataType dtype, std::string op, std::vector<PrimExpr> args)
      : PrimExprNode(kKind, dtype), op(std::move(op)), args(std::move(args)) {}
  std::string op;
  std::vector<PrimExpr> args;
};

// A multi-dimensional array: a data pointer plus shape, strides and offset in
// elements. Shapes and strides may be symbolic. Empty strides mean compact
// row-major.
class BufferNode : public Node {
 public:
  static constexpr NodeKind kKind = NodeKind::kBuffer;
  BufferNode() : Node(kKind) {}
  Var data;
  DataType dtype;
  std::vector<PrimExpr> shape;
  std::vector<PrimExpr> strides;
  PrimExpr elem_offset;  // undefined means 0
  std::string name;
  std::string scope = "global";
  int data_alignment = -1;  // -1: default
  int offset_factor = 0;
  Span span;
};
using Buffer = Ref<BufferNode>;

// A compact buffer named `name` with a fresh data var.
Buffer MakeBuffer(std::string name, std::vector<PrimExpr> shape, DataType dtype, std::string scope = "global");

class BufferLoadNode : public PrimExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kPrimBufferLoad;
  BufferLoadNode(Buffer buffer, std::vector<PrimExpr> indices);
  Buffer buffer;
  std::vector<PrimExpr> indices;
};

class RampNode : public PrimExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kPrimRamp;
  RampNode(PrimExpr base, PrimExpr stride, int lanes)
      : PrimExprNode(kKind, base->dtype.with_lanes(lanes)), base(std::move(base)), stride(std::move(stride)), lanes(lanes) {}
  PrimExpr base;
  PrimExpr stride;
  int lanes;
};

class BroadcastNode : public PrimExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kPrimBroadcast;
  BroadcastNode(PrimExpr value, int lanes)
      : PrimExprNode(kKind, value->dtype.with_lanes(lanes)), value(std::move(value)), lanes(lanes) {}
  PrimExpr value;
  int lanes;
};

// ---------------------------------------------------------------------------
// Constructors. They check operand dtypes (internal error on mismatch) and do
// NOT simplify; use arith::Analyzer for that. `int64_t` operands become
// IntImm of the other operand's dtype.

IntImm MakeInt(int64_t value, DataType dtype = DataType::Int64());
FloatImm MakeFloat(double value, DataType dtype = DataType::Float32());
IntImm MakeBool(bool value);
Var MakeVar(std::string name, DataType dtype = DataType::Int64());
StringImm MakeString(std::string value);

PrimExpr add(PrimExpr a, PrimExpr b);
PrimExpr sub(PrimExpr a, PrimExpr b);
PrimExpr mul(PrimExpr a, PrimExpr b);
PrimExpr truncdiv(PrimExpr a, PrimExpr b);
PrimExpr truncmod(PrimExpr a, PrimExpr b);
PrimExpr floordiv(PrimExpr a, PrimExpr b);
PrimExpr floormod(PrimExpr a, PrimExpr b);
PrimExpr min(PrimExpr a, PrimExpr b);
PrimExpr max(PrimExpr a, PrimExpr b);
PrimExpr eq(PrimExpr a, PrimExpr b);
PrimExpr ne(PrimExpr a, PrimExpr b);
PrimExpr lt(PrimExpr a, PrimExpr b);
PrimExpr le(PrimExpr a, PrimExpr b);
PrimExpr gt(PrimExpr a, PrimExpr b);
PrimExpr ge(PrimExpr a, PrimExpr b);
PrimExpr logical_and(PrimExpr a, PrimExpr b);
PrimExpr logical_or(PrimExpr a, PrimExpr b);
PrimExpr logical_not(PrimExpr a);
PrimExpr select(PrimExpr cond, PrimExpr t, PrimExpr f);
PrimExpr cast(DataType dtype, PrimExpr value);
PrimExpr call(DataType dtype, std::string op, std::vector<PrimExpr> args);
// Builds the binary node of `kind` (one of the BinaryNode kinds).
PrimExpr MakeBinary(NodeKind kind, PrimExpr a, PrimExpr b);

inline PrimExpr operator+(PrimExpr a, PrimExpr b) { return add(std::move(a), std::move(b)); }
inline PrimExpr operator-(PrimExpr a, PrimExpr b) { return sub(std::move(a), std::move(b)); }
inline PrimExpr operator*(PrimExpr a, PrimExpr b) { return mul(std::move(a), std::move(b)); }
PrimExpr operator+(PrimExpr a, int64_t b);
PrimExpr operator-(PrimExpr a, int64_t b);
PrimExpr operator*(PrimExpr a, int64_t b);
PrimExpr operator+(int64_t a, PrimExpr b);
PrimExpr operator-(int64_t a, PrimExpr b);
PrimExpr operator*(int64_t a, PrimExpr b);
PrimExpr floordiv(PrimExpr a, int64_t b);
PrimExpr floormod(PrimExpr a, int64_t b);

// The value of an IntImm (or bool IntImm), else nullopt.
std::optional<int64_t> AsConstInt(const PrimExpr& expr);
bool IsConstInt(const PrimExpr& expr, int64_t value);

// Operator symbol or function name of a binary kind: "+", "//", "min", ...
const char* BinaryOpName(NodeKind kind);

// A short human-readable rendering for error messages: `n * 4 + 1`,
// `(n + 1) // 2`, `min(a, b)`. Not the TVMScript printer (text/printer.h).
std::string ToString(const PrimExpr& expr);
// "(n, 4)" for a list of dimensions.
std::string ShapeToString(const std::vector<PrimExpr>& shape);

}  // namespace rlx::ir
