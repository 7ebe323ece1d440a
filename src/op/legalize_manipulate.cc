// Legalizations of reshape and permute_dims (TVM's legalize_ops/
// manipulate.py over topi.reshape / topi.transpose).
//
// reshape(x, shape): PrimFunc "reshape", block "T_reshape". The output
// shape is the call's deduced one (a -1 already resolved), passed to the TE
// function as a shape argument so that its symbolic sizes are renamed like
// the input's. Each output element is found through the row-major flat
// position:
//   flat = sum_d out_index[d] * out_stride[d]
//   x_index[d] = floormod(floordiv(flat, x_stride[d]), x_shape[d])
// (simplified by the analyzer; the outermost input dimension needs no
// floormod).
//
// permute_dims(x, axes): PrimFunc "transpose", block "T_transpose":
//   out[i_0, ..., i_k] = x[j] with j[axes[d]] = i_d; axes None reverses.
#include "op/topi.h"
#include "op_common.h"
#include "rlx/op/legalize.h"

namespace rlx::op::detail {
namespace {

// Row-major strides of `shape` (int64).
std::vector<PrimExpr> RowMajorStrides(const std::vector<PrimExpr>& shape) {
  std::vector<PrimExpr> strides(shape.size());
  PrimExpr stride = ir::MakeInt(1);
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride = stride * AsInt64(shape[d]);
  }
  return strides;
}

te::Tensor Reshape(const te::Tensor& x, const std::vector<PrimExpr>& out_shape) {
  arith::Analyzer analyzer;
  std::vector<PrimExpr> out_strides = RowMajorStrides(out_shape);
  std::vector<PrimExpr> x_strides = RowMajorStrides(x.shape());
  return te::Compute(
      out_shape,
      [&](const std::vector<ir::Var>& index) {
        PrimExpr flat = ir::MakeInt(0);
        for (size_t d = 0; d < index.size(); ++d) flat = flat + AsInt64(index[d]) * out_strides[d];
        std::vector<PrimExpr> x_index;
        for (size_t d = 0; d < x_strides.size(); ++d) {
          PrimExpr position = ir::floordiv(flat, analyzer.Simplify(x_strides[d]));
          if (d > 0) position = ir::floormod(position, AsInt64(x.shape()[d]));
          x_index.push_back(analyzer.Simplify(position));
        }
        return x(x_index);
      },
      "T_reshape");
}

te::Tensor Transpose(const te::Tensor& x, const std::vector<int>& axes) {
  std::vector<PrimExpr> out_shape;
  for (int axis : axes) out_shape.push_back(x.shape()[axis]);
  return te::Compute(
      out_shape,
      [&](const std::vector<ir::Var>& index) {
        std::vector<PrimExpr> x_index(axes.size());
        for (size_t d = 0; d < axes.size(); ++d) x_index[axes[d]] = index[d];
        return x(x_index);
      },
      "T_transpose");
}

void RegisterReshapeLegalize() {
  graph::SetOpLegalize("relax.reshape", [](BlockBuilder& builder, const Call& call) -> Expr {
    const auto* out = graph::GetStructInfo(call).as<graph::TensorStructInfoNode>();
    std::optional<Shape> out_shape = out == nullptr ? std::nullopt : out->GetShape();
    if (!out_shape) return call;
    std::vector<Expr> args = {call->args[0], make<graph::ShapeExprNode>(*out_shape)};
    return CallTE(builder, call, args, "reshape",
                  [](const TEArgs& te_args) { return Reshape(te_args[0].tensor(), te_args[1].shape()); });
  });
}

void RegisterPermuteDimsLegalize() {
  graph::SetOpLegalize("relax.permute_dims", [](BlockBuilder& builder, const Call& call) -> Expr {
    TensorStructInfo x = TensorArg(call, 0);
    if (x->IsUnknownNdim()) return call;
    std::optional<std::vector<int64_t>> given = GetOptionalIntListAttr(call, "axes");
    std::vector<int> axes;
    if (given) {
      axes = NormalizeAxes(call, *given, x->ndim);
    } else {
      for (int d = x->ndim - 1; d >= 0; --d) axes.push_back(d);
    }
    return CallTE(builder, call, "transpose",
                  [&](const TEArgs& args) { return Transpose(args[0].tensor(), axes); });
  });
}

}  // namespace

void RegisterManipulateLegalizations() {
  RegisterReshapeLegalize();
  RegisterPermuteDimsLegalize();
}

}  // namespace rlx::op::detail
