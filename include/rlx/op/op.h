// The operator library: graph-level operators with struct-info deduction.
//
// RegisterAllOps() puts every operator of this layer into the graph
// operator registry (graph/op_registry.h) once; calling it again is a no-op.
// Anything that builds or parses graph IR calls it before normalizing.
//
// The helper constructors below build an un-normalized graph::Call of the
// named operator, with its attributes stored in the Call's Dict the way the
// parser stores them (see src/op/op_common.h for the convention). The
// struct info of the call is deduced when a BlockBuilder normalizes it.
//
// Names and spellings follow Apache TVM's Relax: `relax.add` is written
// `R.add(x1, x2)`, `relax.nn.relu` is `R.nn.relu(data)`, reductions print as
// `R.sum(x, axis=[1], keepdims=False)`.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "rlx/graph/expr.h"

namespace rlx::op {

using graph::Call;
using graph::Expr;

// Registers every operator of the op layer (idempotent, thread safe).
void RegisterAllOps();

// ---------------------------------------------------------------------------
// Binary elementwise operators with numpy broadcasting (pattern kBroadcast).
Call add(Expr x1, Expr x2);
Call subtract(Expr x1, Expr x2);
Call multiply(Expr x1, Expr x2);
Call divide(Expr x1, Expr x2);
Call floor_divide(Expr x1, Expr x2);
Call power(Expr x1, Expr x2);
Call maximum(Expr x1, Expr x2);
Call minimum(Expr x1, Expr x2);
Call floor_mod(Expr x1, Expr x2);
// Comparisons: the result dtype is bool.
Call equal(Expr x1, Expr x2);
Call not_equal(Expr x1, Expr x2);
Call less(Expr x1, Expr x2);
Call less_equal(Expr x1, Expr x2);
Call greater(Expr x1, Expr x2);
Call greater_equal(Expr x1, Expr x2);
Call logical_and(Expr x1, Expr x2);
Call logical_or(Expr x1, Expr x2);
// Bitwise operators on integers (and bool for and/or/xor): &, |, ^, <<, >>
// (arithmetic for signed types, logical for unsigned).
Call bitwise_and(Expr x1, Expr x2);
Call bitwise_or(Expr x1, Expr x2);
Call bitwise_xor(Expr x1, Expr x2);
Call left_shift(Expr x1, Expr x2);
Call right_shift(Expr x1, Expr x2);

// ---------------------------------------------------------------------------
// Unary elementwise operators (pattern kElemWise). exp, log, sqrt, rsqrt,
// sin, cos, tanh, sigmoid, erf and the nn activations except relu require a
// floating-point input when its dtype is known.
Call abs(Expr x);
Call negative(Expr x);
Call exp(Expr x);
Call log(Expr x);
Call sqrt(Expr x);
Call rsqrt(Expr x);
Call sin(Expr x);
Call cos(Expr x);
Call tanh(Expr x);
Call sigmoid(Expr x);
Call erf(Expr x);
// Inverse trigonometric and hyperbolic functions (float inputs; libm).
Call asin(Expr x);
Call acos(Expr x);
Call atan(Expr x);
Call asinh(Expr x);
Call acosh(Expr x);
Call atanh(Expr x);
Call floor(Expr x);
Call ceil(Expr x);
Call round(Expr x);
Call sign(Expr x);
Call square(Expr x);
Call logical_not(Expr x);  // for bool tensors; keeps the input dtype (as TVM)
// clip(x, min, max): `min` and `max` are PrimValue arguments, as in
// `R.clip(x, R.prim_value(0), R.prim_value(6))`.
Call clip(Expr x, Expr min, Expr max);

namespace nn {
Call relu(Expr data);
Call gelu(Expr data);
Call gelu_tanh(Expr data);
Call silu(Expr data);
}  // namespace nn

// ---------------------------------------------------------------------------
// Linear algebra (pattern kOutEWiseFusable).
// numpy matmul: batch dimensions broadcast, a 1-D operand is a vector.
// `out_dtype` void means "the inputs' dtype".
Call matmul(Expr x1, Expr x2, DataType out_dtype = DataType::Void());

// ---------------------------------------------------------------------------
// Manipulation (pattern kInjective).
// `shape` is a ShapeExpr (`R.shape([n, 4])`, may hold one -1) or a Var with
// Shape struct info.
Call reshape(Expr x, Expr shape);
// `axes` nullopt reverses the dimensions.
Call permute_dims(Expr x, std::optional<std::vector<int64_t>> axes = std::nullopt);

// ---------------------------------------------------------------------------
// Reductions (pattern kCommReduce). `axis` nullopt reduces every axis;
// negative axes count from the end.
Call sum(Expr x, std::optional<std::vector<int64_t>> axis = std::nullopt, bool keepdims = false);
Call mean(Expr x, std::optional<std::vector<int64_t>> axis = std::nullopt, bool keepdims = false);
Call max(Expr x, std::optional<std::vector<int64_t>> axis = std::nullopt, bool keepdims = false);
Call min(Expr x, std::optional<std::vector<int64_t>> axis = std::nullopt, bool keepdims = false);
Call prod(Expr x, std::optional<std::vector<int64_t>> axis = std::nullopt, bool keepdims = false);

// ---------------------------------------------------------------------------
// Data type conversion (pattern kElemWise).
Call astype(Expr x, DataType dtype);

// ---------------------------------------------------------------------------
// Creation (TVM's relax.op create.cc). `shape` is a ShapeExpr or a value of
// Shape struct info; `fill_value` a 0-d tensor; dtype void means "the fill
// value's / x's dtype" (zeros and ones require one). arange's bounds and
// tril/triu's diagonal offset `k` are PrimValues.
Call full(Expr shape, Expr fill_value, DataType dtype = DataType::Void());
Call full_like(Expr x, Expr fill_value, DataType dtype = DataType::Void());
Call zeros(Expr shape, DataType dtype);
Call ones(Expr shape, DataType dtype);
Call zeros_like(Expr x, DataType dtype = DataType::Void());
Call ones_like(Expr x, DataType dtype = DataType::Void());
// dtype void: int64 when start, end and step are integers, else float32.
Call arange(Expr start, Expr end, Expr step, DataType dtype = DataType::Void());
Call tril(Expr x, Expr k);
Call triu(Expr x, Expr k);

// ---------------------------------------------------------------------------
// Selection (pattern kBroadcast): condition ? x1 : x2 elementwise, the three
// broadcast together; the condition is bool.
Call where(Expr condition, Expr x1, Expr x2);

}  // namespace rlx::op
