// Legalizations of the unary elementwise operators (TVM's
// legalize_ops/unary.py and nn.py over topi's elementwise ops): one PrimFunc
// with a single block "compute" per call, out[i] = f(x[i]).
//
// PrimFunc names follow TVM: "tir_<op>" for the math ops (so that they never
// clash with libc symbols), "relu", "gelu", "gelu_tanh", "silu" for the nn
// activations. Semantics, per element, as topi defines them:
//   abs        float: fabs(x); signed int: x >= 0 ? x : -x; unsigned/bool: x
//   negative   0 - x
//   exp, log, sqrt, rsqrt, sin, cos, tanh, sigmoid, erf, asin, acos, atan,
//   asinh, acosh, atanh
//              the TIR intrinsic of that name
//   floor, ceil, round
//              floats: the intrinsic (round is half away from zero, as
//              TVM's T.round lowers to llvm.round); integers: x
//   sign       x < 0 ? -1 : (x > 0 ? 1 : 0)
//   square     x * x
//   logical_not  !x on bool (x == 0 on numbers, in x's dtype)
//   clip       min(max(x, lo), hi), the bounds cast to x's dtype
//   relu       max(x, 0)
//   gelu       0.5 * x * (1 + erf(x / sqrt(2)))
//   gelu_tanh  0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
//   silu       x * sigmoid(x)
// Transcendental functions of float16/bfloat16 inputs are computed in
// float32 and rounded back (TVM does this for erf; doing it for all keeps
// every backend's half-precision math out of the picture).
#include <cmath>

#include "op/topi.h"
#include "op_common.h"
#include "rlx/op/legalize.h"

namespace rlx::op::detail {
namespace {

using topi::FUnaryElem;

bool IsHalfFloat(DataType dtype) { return dtype.is_floating() && dtype.bits() == 16; }

// `f(x)` computed in float32 when x is a 16-bit float.
PrimExpr ViaFloat32(const PrimExpr& x, const FUnaryElem& f) {
  if (!IsHalfFloat(x->dtype)) return f(x);
  return ir::cast(x->dtype, f(ir::cast(DataType::Float32(), x)));
}

PrimExpr Const(double value, DataType dtype) {
  if (dtype.is_floating()) return ir::MakeFloat(value, dtype);
  if (dtype.is_bool()) return ir::MakeBool(value != 0);
  return ir::MakeInt(static_cast<int64_t>(value), dtype);
}

FUnaryElem Intrinsic(const std::string& name) {
  return [name](const PrimExpr& x) {
    return ViaFloat32(x, [&name](const PrimExpr& v) { return ir::call(v->dtype, name, {v}); });
  };
}

// floor / ceil / round: the identity on integers.
FUnaryElem Rounding(const std::string& name) {
  return [name](const PrimExpr& x) {
    if (!x->dtype.is_floating()) return x;
    return ViaFloat32(x, [&name](const PrimExpr& v) { return ir::call(v->dtype, name, {v}); });
  };
}

PrimExpr Abs(const PrimExpr& x) {
  DataType dtype = x->dtype;
  if (dtype.is_floating()) return ir::call(dtype, "fabs", {x});
  if (dtype.is_int()) return ir::select(ir::ge(x, Const(0, dtype)), x, ir::sub(Const(0, dtype), x));
  return x;
}

PrimExpr Sign(const PrimExpr& x) {
  DataType dtype = x->dtype;
  PrimExpr zero = Const(0, dtype);
  PrimExpr negative_or_zero = ir::select(ir::lt(x, zero), Const(-1, dtype), zero);
  return ir::select(ir::gt(x, zero), Const(1, dtype), negative_or_zero);
}

PrimExpr LogicalNot(const PrimExpr& x) {
  if (x->dtype.is_bool()) return ir::logical_not(x);
  return ir::cast(x->dtype, ir::eq(x, Const(0, x->dtype)));
}

PrimExpr Gelu(const PrimExpr& x) {
  return ViaFloat32(x, [](const PrimExpr& v) {
    DataType dtype = v->dtype;
    PrimExpr half = Const(0.5, dtype);
    PrimExpr erf = ir::call(dtype, "erf", {v * Const(M_SQRT1_2, dtype)});
    return v * (half + erf * half);
  });
}

PrimExpr GeluTanh(const PrimExpr& x) {
  return ViaFloat32(x, [](const PrimExpr& v) {
    DataType dtype = v->dtype;
    PrimExpr inner = Const(std::sqrt(2.0 / M_PI), dtype) * (v + Const(0.044715, dtype) * v * v * v);
    return Const(0.5, dtype) * v * (Const(1.0, dtype) + ir::call(dtype, "tanh", {inner}));
  });
}

PrimExpr Silu(const PrimExpr& x) {
  return ViaFloat32(x, [](const PrimExpr& v) { return v * ir::call(v->dtype, "sigmoid", {v}); });
}

void RegisterElementwiseLegalize(const std::string& op, const std::string& func_name, const FUnaryElem& f) {
  graph::SetOpLegalize("relax." + op, [func_name, f](BlockBuilder& builder, const Call& call) -> Expr {
    return CallTE(builder, call, func_name,
                  [&](const TEArgs& args) { return topi::Elementwise(args[0].tensor(), f, "compute"); });
  });
}

void RegisterClipLegalize() {
  graph::SetOpLegalize("relax.clip", [](BlockBuilder& builder, const Call& call) -> Expr {
    return CallTE(builder, call, "tir_clip", [](const TEArgs& args) {
      const te::Tensor& x = args[0].tensor();
      PrimExpr lo = ir::cast(x.dtype(), args[1].prim());
      PrimExpr hi = ir::cast(x.dtype(), args[2].prim());
      return topi::Elementwise(
          x, [&](const PrimExpr& v) { return ir::min(ir::max(v, lo), hi); }, "compute");
    });
  });
}

}  // namespace

void RegisterUnaryLegalizations() {
  for (const char* name : {"exp", "log", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid", "erf", "asin", "acos",
                           "atan", "asinh", "acosh", "atanh"}) {
    RegisterElementwiseLegalize(name, std::string("tir_") + name, Intrinsic(name));
  }
  for (const char* name : {"floor", "ceil", "round"}) {
    RegisterElementwiseLegalize(name, std::string("tir_") + name, Rounding(name));
  }
  RegisterElementwiseLegalize("abs", "tir_abs", Abs);
  RegisterElementwiseLegalize("negative", "tir_negative",
                              [](const PrimExpr& x) { return ir::sub(Const(0, x->dtype), x); });
  RegisterElementwiseLegalize("sign", "tir_sign", Sign);
  RegisterElementwiseLegalize("square", "tir_square", [](const PrimExpr& x) { return x * x; });
  RegisterElementwiseLegalize("logical_not", "tir_logical_not", LogicalNot);
  RegisterClipLegalize();
  RegisterElementwiseLegalize("nn.relu", "relu",
                              [](const PrimExpr& x) { return ir::max(x, Const(0, x->dtype)); });
  RegisterElementwiseLegalize("nn.gelu", "gelu", Gelu);
  RegisterElementwiseLegalize("nn.gelu_tanh", "gelu_tanh", GeluTanh);
  RegisterElementwiseLegalize("nn.silu", "silu", Silu);
}

}  // namespace rlx::op::detail
