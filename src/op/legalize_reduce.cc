// Legalizations of the reductions, matmul and astype (TVM's
// legalize_ops/statistical.py, linear_algebra.py and datatype.py).
//
// sum, max, min, prod (x, axis, keepdims): one block "x_red" whose spatial
// axes are the kept dimensions (a kept-as-1 dimension is read at 0) and
// whose reduce axes are the reduced ones, with the identity 0, the dtype's
// lowest / highest value, or 1 as init. mean is the sum divided by the
// number of reduced elements (a second block, as topi's divide over the
// sum). Float16/bfloat16 sums and means accumulate in float32 (a cast before
// the reduction and after it); max, min and prod stay in the input dtype.
//
// matmul(x1, x2, out_dtype): numpy matmul. A 1-D x1 is a row vector (the
// prepended dimension is dropped from the result), a 1-D x2 a column vector
// (the appended one likewise); the batch dimensions broadcast. One block
// "matmul" with reduce axis k over x1's last dimension:
//   out[b..., i, j] = sum_k x1[b1..., i, k] * x2[b2..., k, j]
// with the operands cast to out_dtype first when it is given (as TVM).
//
// astype(x, dtype): out[i] = cast(dtype, x[i]), block "compute".
#include "op/topi.h"
#include "op_common.h"
#include "rlx/op/legalize.h"

namespace rlx::op::detail {
namespace {

enum class ReduceKind { kSum, kMax, kMin, kProd };

bool IsHalfFloat(DataType dtype) { return dtype.is_floating() && dtype.bits() == 16; }

PrimExpr Reduce(ReduceKind kind, PrimExpr source, std::vector<tir::IterVar> axes) {
  switch (kind) {
    case ReduceKind::kSum: return te::Sum(std::move(source), std::move(axes));
    case ReduceKind::kMax: return te::MaxReduce(std::move(source), std::move(axes));
    case ReduceKind::kMin: return te::MinReduce(std::move(source), std::move(axes));
    case ReduceKind::kProd: return te::ProdReduce(std::move(source), std::move(axes));
  }
  return PrimExpr();
}

// `x` reduced with `kind` over the call's axes; `accumulate` is the dtype
// the elements are summed in (x's own, or float32 for half floats).
te::Tensor ReduceTensor(const Call& call, const te::Tensor& x, ReduceKind kind, DataType accumulate) {
  std::optional<std::vector<int64_t>> axis = GetOptionalIntListAttr(call, "axis");
  bool keepdims = GetBoolAttr(call, "keepdims", false);
  std::vector<bool> reduced(static_cast<size_t>(x.ndim()), !axis.has_value());
  if (axis) {
    for (int a : NormalizeAxes(call, *axis, x.ndim())) reduced[a] = true;
  }
  std::vector<PrimExpr> out_shape;
  std::vector<tir::IterVar> reduce_axes;
  for (int d = 0; d < x.ndim(); ++d) {
    if (!reduced[d]) {
      out_shape.push_back(x.shape()[d]);
    } else {
      if (keepdims) out_shape.push_back(ir::MakeInt(1));
      reduce_axes.push_back(te::ReduceAxis(x.shape()[d], "k" + std::to_string(d)));
    }
  }
  auto fcompute = [&](const std::vector<ir::Var>& out_index) {
    std::vector<PrimExpr> index;
    size_t next_out = 0, next_reduce = 0;
    for (int d = 0; d < x.ndim(); ++d) {
      if (!reduced[d]) {
        index.push_back(out_index[next_out++]);
      } else {
        if (keepdims) ++next_out;
        index.push_back(reduce_axes[next_reduce++]->var);
      }
    }
    PrimExpr element = x(index);
    if (element->dtype != accumulate) element = ir::cast(accumulate, element);
    return Reduce(kind, element, reduce_axes);
  };
  return te::Compute(out_shape, fcompute, x.name() + "_red");
}

// The number of elements the call reduces, as `dtype`.
PrimExpr ReducedCount(const Call& call, const te::Tensor& x, DataType dtype) {
  std::optional<std::vector<int64_t>> axis = GetOptionalIntListAttr(call, "axis");
  PrimExpr count = ir::MakeInt(1);
  if (!axis) {
    for (const PrimExpr& dim : x.shape()) count = count * AsInt64(dim);
  } else {
    for (int a : NormalizeAxes(call, *axis, x.ndim())) count = count * AsInt64(x.shape()[a]);
  }
  arith::Analyzer analyzer;
  return ir::cast(dtype, analyzer.Simplify(count));
}

void RegisterReduceLegalize(const std::string& name, ReduceKind kind) {
  graph::SetOpLegalize("relax." + name, [name, kind](BlockBuilder& builder, const Call& call) -> Expr {
    return CallTE(builder, call, name, [&](const TEArgs& args) {
      const te::Tensor& x = args[0].tensor();
      bool widen = kind == ReduceKind::kSum && IsHalfFloat(x.dtype());
      te::Tensor red = ReduceTensor(call, x, kind, widen ? DataType::Float32() : x.dtype());
      if (!widen) return red;
      return topi::Elementwise(red, [&](const PrimExpr& v) { return ir::cast(x.dtype(), v); }, "compute");
    });
  });
}

void RegisterMeanLegalize() {
  graph::SetOpLegalize("relax.mean", [](BlockBuilder& builder, const Call& call) -> Expr {
    return CallTE(builder, call, "mean", [&](const TEArgs& args) {
      const te::Tensor& x = args[0].tensor();
      DataType accumulate = IsHalfFloat(x.dtype()) ? DataType::Float32() : x.dtype();
      te::Tensor sum = ReduceTensor(call, x, ReduceKind::kSum, accumulate);
      PrimExpr count = ReducedCount(call, x, accumulate);
      return topi::Elementwise(
          sum, [&](const PrimExpr& v) { return ir::cast(x.dtype(), ir::truncdiv(v, count)); }, "T_divide");
    });
  });
}

// ---------------------------------------------------------------------------
// matmul

te::Tensor Matmul(const te::Tensor& a, const te::Tensor& b, DataType out_dtype) {
  std::vector<PrimExpr> a_shape = a.shape(), b_shape = b.shape();
  bool a_prepended = a_shape.size() == 1, b_appended = b_shape.size() == 1;
  if (a_prepended) a_shape.insert(a_shape.begin(), ir::MakeInt(1));
  if (b_appended) b_shape.push_back(ir::MakeInt(1));
  std::vector<PrimExpr> a_batch(a_shape.begin(), a_shape.end() - 2), b_batch(b_shape.begin(), b_shape.end() - 2);
  std::vector<PrimExpr> batch = topi::BroadcastShape({a_batch, b_batch});
  std::vector<PrimExpr> out_shape = batch;
  if (!a_prepended) out_shape.push_back(a_shape[a_shape.size() - 2]);
  if (!b_appended) out_shape.push_back(b_shape.back());
  tir::IterVar k = te::ReduceAxis(a_shape.back(), "k");
  size_t nbatch = batch.size();
  auto fcompute = [&](const std::vector<ir::Var>& idx) {
    std::vector<ir::Var> batch_idx(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(nbatch));
    std::vector<PrimExpr> a_index = topi::BroadcastIndex(a_batch, batch_idx);
    std::vector<PrimExpr> b_index = topi::BroadcastIndex(b_batch, batch_idx);
    if (!a_prepended) a_index.push_back(idx[nbatch]);
    a_index.push_back(k->var);
    b_index.push_back(k->var);
    if (!b_appended) b_index.push_back(idx.back());
    PrimExpr lhs = a(a_index), rhs = b(b_index);
    if (lhs->dtype != out_dtype) lhs = ir::cast(out_dtype, lhs);
    if (rhs->dtype != out_dtype) rhs = ir::cast(out_dtype, rhs);
    return te::Sum(lhs * rhs, {k});
  };
  return te::Compute(out_shape, fcompute, "matmul");
}

void RegisterMatmulLegalize() {
  graph::SetOpLegalize("relax.matmul", [](BlockBuilder& builder, const Call& call) -> Expr {
    DataType out_dtype = cast<graph::TensorStructInfoNode>(graph::GetStructInfo(call))->dtype;
    return CallTE(builder, call, "matmul", [&](const TEArgs& args) {
      return Matmul(args[0].tensor(), args[1].tensor(), out_dtype);
    });
  });
}

void RegisterAstypeLegalize() {
  graph::SetOpLegalize("relax.astype", [](BlockBuilder& builder, const Call& call) -> Expr {
    DataType dtype = GetDataTypeAttr(call, "dtype", std::nullopt);
    return CallTE(builder, call, "cast", [&](const TEArgs& args) {
      return topi::Elementwise(
          args[0].tensor(), [&](const PrimExpr& v) { return ir::cast(dtype, v); }, "compute");
    });
  });
}

}  // namespace

void RegisterReduceLegalizations() {
  RegisterReduceLegalize("sum", ReduceKind::kSum);
  RegisterReduceLegalize("max", ReduceKind::kMax);
  RegisterReduceLegalize("min", ReduceKind::kMin);
  RegisterReduceLegalize("prod", ReduceKind::kProd);
  RegisterMeanLegalize();
  RegisterMatmulLegalize();
  RegisterAstypeLegalize();
}

}  // namespace rlx::op::detail
