// Unary elementwise operators (and clip, whose bounds are PrimValues).
//
// The result has the input's struct info (logical_not too, as in TVM: it is
// meant for bool tensors and keeps their dtype). Transcendental operators (exp, log, sqrt, rsqrt, sin, cos,
// asin, acos, atan, asinh, acosh, atanh, tanh, sigmoid, erf, gelu, gelu_tanh, silu) require a floating-point input
// when its dtype is known, as in TVM; an unknown dtype is accepted.
#include <fmt/format.h>

#include "op_common.h"
#include "rlx/op/op.h"

namespace rlx::op {
namespace detail {
namespace {

enum class UnaryKind { kArith, kFloatOnly };

StructInfo InferUnarySInfo(const Call& call, UnaryKind kind) {
  CheckNumArgs(call, 1);
  TensorStructInfo x = TensorArg(call, 0);
  if (kind == UnaryKind::kFloatOnly && !x->IsUnknownDtype() && !x->dtype.is_floating()) {
    ThrowOpError(call, fmt::format("expected a tensor of float dtype, got {}", x->dtype.ToString()));
  }
  return x;
}

// Checks that clip's bound `index` is a scalar (PrimValue).
void CheckPrimArg(const Call& call, size_t index) {
  StructInfo sinfo = graph::GetStructInfo(call->args[index]);
  if (!sinfo.isa<graph::PrimStructInfoNode>()) {
    ThrowOpError(call, fmt::format("expected a PrimValue for argument '{}', got {}", ArgName(call, index),
                                   graph::ToString(sinfo)));
  }
}

StructInfo InferClipSInfo(const Call& call) {
  CheckNumArgs(call, 3);
  TensorStructInfo x = TensorArg(call, 0);
  CheckPrimArg(call, 1);
  CheckPrimArg(call, 2);
  return x;
}

void RegisterUnary(const std::string& name, const std::string& arg_name, UnaryKind kind) {
  graph::RegisterOp(MakeOpInfo(
      name, {arg_name}, [kind](const Call& call, BlockBuilder&) { return InferUnarySInfo(call, kind); },
      graph::OpPatternKind::kElemWise));
}

}  // namespace

void RegisterUnaryOps() {
  for (const char* name : {"abs", "negative", "floor", "ceil", "round", "sign", "square", "logical_not"}) {
    RegisterUnary(name, "x", UnaryKind::kArith);
  }
  for (const char* name : {"exp", "log", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid", "erf", "asin", "acos",
                           "atan", "asinh", "acosh", "atanh"}) {
    RegisterUnary(name, "x", UnaryKind::kFloatOnly);
  }
  RegisterUnary("nn.relu", "data", UnaryKind::kArith);
  for (const char* name : {"nn.gelu", "nn.gelu_tanh", "nn.silu"}) {
    RegisterUnary(name, "data", UnaryKind::kFloatOnly);
  }
  graph::RegisterOp(MakeOpInfo(
      "clip", {"x", "min", "max"}, [](const Call& call, BlockBuilder&) { return InferClipSInfo(call); },
      graph::OpPatternKind::kElemWise));
}

}  // namespace detail

#define RLX_DEFINE_UNARY_CALL(name) \
  Call name(Expr x) { return detail::MakeOpCall(#name, {std::move(x)}); }

RLX_DEFINE_UNARY_CALL(abs)
RLX_DEFINE_UNARY_CALL(negative)
RLX_DEFINE_UNARY_CALL(exp)
RLX_DEFINE_UNARY_CALL(log)
RLX_DEFINE_UNARY_CALL(sqrt)
RLX_DEFINE_UNARY_CALL(rsqrt)
RLX_DEFINE_UNARY_CALL(sin)
RLX_DEFINE_UNARY_CALL(cos)
RLX_DEFINE_UNARY_CALL(tanh)
RLX_DEFINE_UNARY_CALL(sigmoid)
RLX_DEFINE_UNARY_CALL(erf)
RLX_DEFINE_UNARY_CALL(asin)
RLX_DEFINE_UNARY_CALL(acos)
RLX_DEFINE_UNARY_CALL(atan)
RLX_DEFINE_UNARY_CALL(asinh)
RLX_DEFINE_UNARY_CALL(acosh)
RLX_DEFINE_UNARY_CALL(atanh)
RLX_DEFINE_UNARY_CALL(floor)
RLX_DEFINE_UNARY_CALL(ceil)
RLX_DEFINE_UNARY_CALL(round)
RLX_DEFINE_UNARY_CALL(sign)
RLX_DEFINE_UNARY_CALL(square)
RLX_DEFINE_UNARY_CALL(logical_not)
#undef RLX_DEFINE_UNARY_CALL

Call clip(Expr x, Expr min, Expr max) {
  return detail::MakeOpCall("clip", {std::move(x), std::move(min), std::move(max)});
}

namespace nn {

Call relu(Expr data) { return detail::MakeOpCall("nn.relu", {std::move(data)}); }
Call gelu(Expr data) { return detail::MakeOpCall("nn.gelu", {std::move(data)}); }
Call gelu_tanh(Expr data) { return detail::MakeOpCall("nn.gelu_tanh", {std::move(data)}); }
Call silu(Expr data) { return detail::MakeOpCall("nn.silu", {std::move(data)}); }

}  // namespace nn
}  // namespace rlx::op
