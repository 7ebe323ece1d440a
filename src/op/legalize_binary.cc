// Legalizations of the broadcasting binary operators and of `where` (TVM's
// legalize_ops/binary.py and search.py over topi's broadcast ops): one
// PrimFunc per call computing out[i] = f(x1[i1], x2[i2]) with numpy
// broadcasting (an operand's dimension of constant size 1 is read at 0),
// named after the op ("add"), its block named as topi's ("T_add"). A 0-d
// constant operand is inlined as a literal (as TVM), so `x + 1.0` needs no
// second buffer.
//
// Per element, as topi defines them:
//   add, subtract, multiply, maximum, minimum   +, -, *, max, min
//   divide        a / b (true division on floats, truncating on integers)
//   floor_divide  integers: floordiv(a, b); floats: floor(a / b)
//   floor_mod     integers: floormod(a, b); floats: a - floor(a / b) * b
//   power         pow(a, b) (integers: computed in float64, truncated back)
//   equal ... greater_equal   the comparison, bool
//   logical_and, logical_or   && and || on bool (nonzero on numbers)
//   bitwise_and/or/xor, left_shift, right_shift   &, |, ^, <<, >> (TIR's
//                 bitwise_* and shift_* intrinsics; >> is arithmetic for
//                 signed and logical for unsigned types)
//   where(c, a, b)            c ? a : b, all three broadcast together
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "op/topi.h"
#include "op_common.h"
#include "rlx/op/legalize.h"

namespace rlx::op::detail {
namespace {

using topi::FBinaryElem;

PrimExpr FloorDivide(const PrimExpr& a, const PrimExpr& b) {
  if (a->dtype.is_integer()) return ir::floordiv(a, b);
  return ir::call(a->dtype, "floor", {ir::truncdiv(a, b)});
}

PrimExpr FloorMod(const PrimExpr& a, const PrimExpr& b) {
  if (a->dtype.is_integer()) return ir::floormod(a, b);
  return a - FloorDivide(a, b) * b;
}

PrimExpr Power(const PrimExpr& a, const PrimExpr& b) {
  if (a->dtype.is_floating()) return ir::call(a->dtype, "pow", {a, b});
  DataType f64 = DataType::Float(64);
  return ir::cast(a->dtype, ir::call(f64, "pow", {ir::cast(f64, a), ir::cast(f64, b)}));
}

PrimExpr AsBool(const PrimExpr& x) {
  if (x->dtype.is_bool()) return x;
  if (x->dtype.is_floating()) return ir::ne(x, ir::MakeFloat(0, x->dtype));
  return ir::ne(x, ir::MakeInt(0, x->dtype));
}

// logical_and / logical_or keep the operands' dtype (bool for bool inputs).
FBinaryElem Logical(bool is_and) {
  return [is_and](const PrimExpr& a, const PrimExpr& b) {
    PrimExpr result = is_and ? ir::logical_and(AsBool(a), AsBool(b)) : ir::logical_or(AsBool(a), AsBool(b));
    return a->dtype.is_bool() ? result : ir::cast(a->dtype, result);
  };
}

// Comparisons accept operands of different dtypes (TVM's struct-info rule
// does); they are compared in a common one: the wider float when either is
// a float, else int64.
FBinaryElem Compare(const FBinaryElem& f) {
  return [f](const PrimExpr& a, const PrimExpr& b) {
    if (a->dtype == b->dtype) return f(a, b);
    DataType common = DataType::Int64();
    if (a->dtype.is_floating() || b->dtype.is_floating()) {
      int bits = std::max(a->dtype.is_floating() ? a->dtype.bits() : 0, b->dtype.is_floating() ? b->dtype.bits() : 0);
      common = bits > 32 ? DataType::Float(64) : DataType::Float32();
    }
    return f(ir::cast(common, a), ir::cast(common, b));
  };
}

// The value of a 0-d constant of a 32/64-bit float, integer or bool dtype
// (undefined otherwise), read from its payload.
PrimExpr ScalarConstantValue(const Expr& expr) {
  const auto* constant = expr.as<graph::ConstantNode>();
  if (constant == nullptr || !constant->data->shape.empty()) return PrimExpr();
  const graph::TensorData& data = *constant->data;
  DataType dtype = data.dtype;
  auto read = [&data](auto value) {
    std::memcpy(&value, data.bytes.data(), sizeof(value));
    return value;
  };
  if (data.bytes.size() * 8 < static_cast<size_t>(dtype.bits())) return PrimExpr();
  if (dtype.is_float() && dtype.bits() == 32) return ir::MakeFloat(read(float{}), dtype);
  if (dtype.is_float() && dtype.bits() == 64) return ir::MakeFloat(read(double{}), dtype);
  if (dtype.is_bool()) return ir::MakeBool(read(uint8_t{}) != 0);
  if (dtype.is_int() && dtype.bits() == 32) return ir::MakeInt(read(int32_t{}), dtype);
  if (dtype.is_int() && dtype.bits() == 64) return ir::MakeInt(read(int64_t{}), dtype);
  return PrimExpr();
}

// As TVM's binary legalization: a 0-d constant operand (x2 first, x1 only
// when x2 is not one) is inlined into the PrimFunc as a literal instead of
// being passed as a tensor.
std::vector<Expr> InlineScalarConstant(const Call& call) {
  std::vector<Expr> args = call->args;
  for (size_t index : {size_t{1}, size_t{0}}) {
    PrimExpr value = ScalarConstantValue(args[index]);
    if (!value.defined()) continue;
    args[index] = make<graph::PrimValueNode>(value);
    break;
  }
  return args;
}

te::Tensor BroadcastOrScalar(const TEArg& a, const TEArg& b, const FBinaryElem& f, const std::string& name) {
  if (a.is_tensor() && b.is_tensor()) return topi::Broadcast(a.tensor(), b.tensor(), f, name);
  if (a.is_tensor()) {
    return topi::Elementwise(a.tensor(), [&](const PrimExpr& v) { return f(v, b.prim()); }, name);
  }
  return topi::Elementwise(b.tensor(), [&](const PrimExpr& v) { return f(a.prim(), v); }, name);
}

void RegisterBroadcastLegalize(const std::string& name, const FBinaryElem& f) {
  graph::SetOpLegalize("relax." + name, [name, f](BlockBuilder& builder, const Call& call) -> Expr {
    return CallTE(builder, call, InlineScalarConstant(call), name, [&](const TEArgs& args) {
      return BroadcastOrScalar(args[0], args[1], f, "T_" + name);
    });
  });
}

void RegisterWhereLegalize() {
  graph::SetOpLegalize("relax.where", [](BlockBuilder& builder, const Call& call) -> Expr {
    return CallTE(builder, call, "where", [](const TEArgs& args) {
      const te::Tensor& cond = args[0].tensor();
      const te::Tensor& a = args[1].tensor();
      const te::Tensor& b = args[2].tensor();
      std::vector<PrimExpr> shape = topi::BroadcastShape({cond.shape(), a.shape(), b.shape()});
      return te::Compute(
          shape,
          [&](const std::vector<ir::Var>& i) {
            return ir::select(AsBool(cond(topi::BroadcastIndex(cond.shape(), i))), a(topi::BroadcastIndex(a.shape(), i)),
                              b(topi::BroadcastIndex(b.shape(), i)));
          },
          "T_where");
    });
  });
}

}  // namespace

void RegisterBinaryLegalizations() {
  RegisterBroadcastLegalize("add", [](const PrimExpr& a, const PrimExpr& b) { return a + b; });
  RegisterBroadcastLegalize("subtract", [](const PrimExpr& a, const PrimExpr& b) { return a - b; });
  RegisterBroadcastLegalize("multiply", [](const PrimExpr& a, const PrimExpr& b) { return a * b; });
  RegisterBroadcastLegalize("divide", [](const PrimExpr& a, const PrimExpr& b) { return ir::truncdiv(a, b); });
  RegisterBroadcastLegalize("floor_divide", FloorDivide);
  RegisterBroadcastLegalize("floor_mod", FloorMod);
  RegisterBroadcastLegalize("power", Power);
  RegisterBroadcastLegalize("maximum", [](const PrimExpr& a, const PrimExpr& b) { return ir::max(a, b); });
  RegisterBroadcastLegalize("minimum", [](const PrimExpr& a, const PrimExpr& b) { return ir::min(a, b); });
  RegisterBroadcastLegalize("equal", Compare([](const PrimExpr& a, const PrimExpr& b) { return ir::eq(a, b); }));
  RegisterBroadcastLegalize("not_equal", Compare([](const PrimExpr& a, const PrimExpr& b) { return ir::ne(a, b); }));
  RegisterBroadcastLegalize("less", Compare([](const PrimExpr& a, const PrimExpr& b) { return ir::lt(a, b); }));
  RegisterBroadcastLegalize("less_equal", Compare([](const PrimExpr& a, const PrimExpr& b) { return ir::le(a, b); }));
  RegisterBroadcastLegalize("greater", Compare([](const PrimExpr& a, const PrimExpr& b) { return ir::gt(a, b); }));
  RegisterBroadcastLegalize("greater_equal", Compare([](const PrimExpr& a, const PrimExpr& b) { return ir::ge(a, b); }));
  RegisterBroadcastLegalize("logical_and", Logical(true));
  RegisterBroadcastLegalize("logical_or", Logical(false));
  for (const auto& [op, intrinsic] : std::vector<std::pair<std::string, std::string>>{
           {"bitwise_and", "bitwise_and"}, {"bitwise_or", "bitwise_or"}, {"bitwise_xor", "bitwise_xor"},
           {"left_shift", "shift_left"}, {"right_shift", "shift_right"}}) {
    std::string name = intrinsic;
    RegisterBroadcastLegalize(op, [name](const PrimExpr& a, const PrimExpr& b) { return ir::call(a->dtype, name, {a, b}); });
  }
  RegisterWhereLegalize();
}

}  // namespace rlx::op::detail
