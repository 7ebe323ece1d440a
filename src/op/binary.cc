// Binary elementwise operators with numpy broadcasting.
//
// One struct-info rule serves them all (TVM's InferStructInfoBroadcast):
//   - each operand is a Tensor or a Prim (R.Prim("float32"), R.prim_value(2.0));
//     a Prim operand is a scalar broadcast against the other operand, seen
//     by the rules below as a tensor of shape (1,) (so with an n-d tensor,
//     n >= 1, the result has the tensor's shape, as in TVM);
//   - the result dtype is the operands' common dtype (an error when both are
//     known and differ), or bool for comparisons (which, like TVM's, accept
//     operands of different dtypes);
//   - two Prim operands give a Prim of that dtype;
//   - an operand of unknown rank makes the result's rank unknown;
//   - with both shapes known the result is their numpy broadcast
//     (op_common.h: BroadcastShapes); a provable mismatch is an error naming
//     both shapes, an undecidable pair keeps only the rank max(ndim1, ndim2);
//   - two operands sharing one shape expression (a shape Var) keep it.
#include <fmt/format.h>

#include <algorithm>

#include "op_common.h"
#include "rlx/op/op.h"

namespace rlx::op {
namespace detail {
namespace {

// kInteger: the common dtype, which must be an integer or bool (bitwise ops).
enum class ResultDtype { kCommon, kBool, kInteger };

// A Tensor operand as it is, a Prim operand as a Tensor of shape (1,).
TensorStructInfo BroadcastOperand(const Call& call, size_t index) {
  StructInfo sinfo = graph::GetStructInfo(call->args[index]);
  if (const auto* prim = sinfo.as<graph::PrimStructInfoNode>()) {
    return cast<graph::TensorStructInfoNode>(graph::TensorSInfo({ir::MakeInt(1)}, prim->dtype));
  }
  TensorStructInfo tensor = dyn_cast<graph::TensorStructInfoNode>(sinfo);
  if (!tensor.defined()) {
    ThrowOpError(call, fmt::format("expected a Tensor or a Prim for argument '{}', got {}", ArgName(call, index),
                                   graph::ToString(sinfo)));
  }
  return tensor;
}

bool IsPrimArg(const Call& call, size_t index) {
  return graph::GetStructInfo(call->args[index]).isa<graph::PrimStructInfoNode>();
}

StructInfo InferBroadcastSInfo(const Call& call, BlockBuilder& builder, ResultDtype result_dtype) {
  CheckNumArgs(call, 2);
  TensorStructInfo x1 = BroadcastOperand(call, 0);
  TensorStructInfo x2 = BroadcastOperand(call, 1);
  DataType dtype =
      result_dtype == ResultDtype::kBool ? DataType::Bool() : UnifyDtypes(call, x1->dtype, x2->dtype);
  if (result_dtype == ResultDtype::kInteger && !dtype.is_void() && !dtype.is_integer() && !dtype.is_bool()) {
    ThrowOpError(call, fmt::format("expects integer operands, got {}", dtype.ToString()));
  }
  if (IsPrimArg(call, 0) && IsPrimArg(call, 1)) return graph::PrimSInfo(dtype);
  if (x1->IsUnknownNdim() || x2->IsUnknownNdim()) return graph::TensorSInfo(dtype, -1);
  if (x1->shape.defined() && x1->shape.same_as(x2->shape)) {
    return make<graph::TensorStructInfoNode>(x1->shape, dtype);
  }
  int ndim = std::max(x1->ndim, x2->ndim);
  std::optional<Shape> shape1 = x1->GetShape();
  std::optional<Shape> shape2 = x2->GetShape();
  if (!shape1 || !shape2) return graph::TensorSInfo(dtype, ndim);
  BroadcastResult result = BroadcastShapes(builder.analyzer(), *shape1, *shape2);
  switch (result.status) {
    case BroadcastResult::Status::kMismatch:
      ThrowOpError(call, fmt::format("cannot broadcast shapes {} and {}", ir::ShapeToString(*shape1),
                                     ir::ShapeToString(*shape2)));
    case BroadcastResult::Status::kUndecidable:
      return graph::TensorSInfo(dtype, ndim);
    case BroadcastResult::Status::kOk:
      break;
  }
  return graph::TensorSInfo(std::move(result.shape), dtype);
}

void RegisterBinary(const std::string& name, ResultDtype result_dtype) {
  graph::RegisterOp(MakeOpInfo(
      name, {"x1", "x2"},
      [result_dtype](const Call& call, BlockBuilder& builder) {
        return InferBroadcastSInfo(call, builder, result_dtype);
      },
      graph::OpPatternKind::kBroadcast));
}

}  // namespace

void RegisterBinaryOps() {
  for (const char* name : {"add", "subtract", "multiply", "divide", "floor_divide", "power", "maximum", "minimum",
                           "floor_mod", "logical_and", "logical_or"}) {
    RegisterBinary(name, ResultDtype::kCommon);
  }
  for (const char* name : {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}) {
    RegisterBinary(name, ResultDtype::kBool);
  }
  for (const char* name : {"bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"}) {
    RegisterBinary(name, ResultDtype::kInteger);
  }
}

}  // namespace detail

#define RLX_DEFINE_BINARY_CALL(name) \
  Call name(Expr x1, Expr x2) { return detail::MakeOpCall(#name, {std::move(x1), std::move(x2)}); }

RLX_DEFINE_BINARY_CALL(add)
RLX_DEFINE_BINARY_CALL(subtract)
RLX_DEFINE_BINARY_CALL(multiply)
RLX_DEFINE_BINARY_CALL(divide)
RLX_DEFINE_BINARY_CALL(floor_divide)
RLX_DEFINE_BINARY_CALL(power)
RLX_DEFINE_BINARY_CALL(maximum)
RLX_DEFINE_BINARY_CALL(minimum)
RLX_DEFINE_BINARY_CALL(floor_mod)
RLX_DEFINE_BINARY_CALL(equal)
RLX_DEFINE_BINARY_CALL(not_equal)
RLX_DEFINE_BINARY_CALL(less)
RLX_DEFINE_BINARY_CALL(less_equal)
RLX_DEFINE_BINARY_CALL(greater)
RLX_DEFINE_BINARY_CALL(greater_equal)
RLX_DEFINE_BINARY_CALL(logical_and)
RLX_DEFINE_BINARY_CALL(logical_or)
RLX_DEFINE_BINARY_CALL(bitwise_and)
RLX_DEFINE_BINARY_CALL(bitwise_or)
RLX_DEFINE_BINARY_CALL(bitwise_xor)
RLX_DEFINE_BINARY_CALL(left_shift)
RLX_DEFINE_BINARY_CALL(right_shift)
#undef RLX_DEFINE_BINARY_CALL

}  // namespace rlx::op
