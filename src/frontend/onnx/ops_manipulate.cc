// Converters of ONNX data-movement operators: Transpose, Flatten, Split,
// Tile, Pad, GatherElements, ScatterElements, CumSum, Einsum, Dropout,
// ArgMax/ArgMin.
//
// Opset differences handled here: Split's sizes are an attribute before 13
// and an input from 13; Pad's pads and value are attributes before 11 and
// inputs from 11; ScatterElements gains `reduction` in 16; ArgMax/ArgMin
// gain select_last_index in 12 (only its default is supported).
#include <algorithm>

#include "frontend/onnx/converter.h"
#include "rlx/op/manipulate.h"
#include "rlx/op/nn.h"
#include "rlx/op/op.h"
#include "rlx/op/statistical.h"

namespace rlx::frontend::onnx_impl {
namespace {

using Out = std::vector<OnnxValue>;

Out One(Expr expr) { return {OnnxValue::Tensor(std::move(expr))}; }

Out ConvertTranspose(ConvertContext& ctx) {
  Expr x = ctx.TensorInput(0);
  auto perm = ctx.AttrInts("perm");
  return One(ctx.Emit(op::permute_dims(x, perm)));
}

Out ConvertFlatten(ConvertContext& ctx) {
  Expr x = ctx.TensorInput(0);
  std::vector<PrimExpr> dims = ctx.InputShape(0);
  int64_t rank = static_cast<int64_t>(dims.size());
  int64_t axis = ctx.AttrInt("axis", 1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank) ctx.Fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  PrimExpr outer = ctx.Simplify(Product(dims, 0, static_cast<size_t>(axis)));
  PrimExpr inner = ctx.Simplify(Product(dims, static_cast<size_t>(axis), dims.size()));
  return One(ctx.Emit(op::reshape(x, ShapeExprOf({outer, inner}))));
}

Out ConvertSplit(ConvertContext& ctx) {
  Expr x = ctx.TensorInput(0);
  std::vector<PrimExpr> dims = ctx.InputShape(0);
  int64_t axis = NormalizeAxis(ctx, ctx.AttrInt("axis", 0), static_cast<int64_t>(dims.size()));
  std::optional<std::vector<int64_t>> sizes;
  if (ctx.opset() < 13) sizes = ctx.AttrInts("split");
  else if (ctx.HasInput(1)) sizes = ctx.RequireInts(1, "Split's sizes");
  Expr parts;
  size_t count = ctx.NumOutputs();
  if (sizes && !sizes->empty()) {
    std::vector<PrimExpr> indices;
    int64_t offset = 0;
    for (size_t i = 0; i + 1 < sizes->size(); ++i) {
      offset += (*sizes)[i];
      indices.push_back(Int64(offset));
    }
    parts = ctx.Emit(op::split(x, indices, axis));
    count = sizes->size();
  } else {
    parts = ctx.Emit(op::split(x, static_cast<int64_t>(count), axis));
  }
  Out outputs;
  for (size_t i = 0; i < count; ++i) {
    outputs.push_back(OnnxValue::Tensor(ctx.Emit(make<graph::TupleGetItemNode>(parts, static_cast<int>(i)))));
  }
  return outputs;
}

Out ConvertTile(ConvertContext& ctx) {
  std::vector<int64_t> repeats = ctx.RequireInts(1, "Tile's repeats");
  return One(ctx.Emit(op::tile(ctx.TensorInput(0), repeats)));
}

Out ConvertPad(ConvertContext& ctx) {
  std::vector<int64_t> pads;
  double value = 0.0;
  if (ctx.opset() < 11) {
    pads = ctx.AttrInts("pads").value_or(ctx.AttrInts("paddings").value_or(std::vector<int64_t>{}));
    value = ctx.AttrFloat("value", 0.0);
  } else {
    pads = ctx.RequireInts(1, "Pad's pads");
    if (ctx.HasInput(2)) {
      auto v = ctx.ConstDoubles(2);
      if (!v) ctx.Fail("the constant value must be known at import time");
      value = (*v)[0];
    }
  }
  int64_t rank = ctx.InputRank(0);
  std::vector<int64_t> axes;
  if (ctx.opset() >= 18 && ctx.HasInput(3)) axes = ctx.RequireInts(3, "Pad's axes");
  if (axes.empty()) {
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  }
  if (pads.size() != 2 * axes.size()) ctx.Fail("pads has " + std::to_string(pads.size()) + " values for rank " + std::to_string(rank));
  std::vector<int64_t> pad_width(static_cast<size_t>(2 * rank), 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t axis = NormalizeAxis(ctx, axes[i], rank);
    pad_width[static_cast<size_t>(2 * axis)] = pads[i];
    pad_width[static_cast<size_t>(2 * axis + 1)] = pads[i + axes.size()];
  }
  for (int64_t p : pad_width) {
    if (p < 0) ctx.Fail("negative pads are not supported");
  }
  std::string mode = ctx.AttrString("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge") ctx.Fail("mode '" + mode + "' is not supported");
  return One(ctx.Emit(op::nn::pad(ctx.TensorInput(0), pad_width, value, mode)));
}

Out ConvertGatherElements(ConvertContext& ctx) {
  int64_t axis = NormalizeAxis(ctx, ctx.AttrInt("axis", 0), ctx.InputRank(0));
  return One(ctx.Emit(op::gather_elements(ctx.TensorInput(0), ctx.TensorInput(1), axis)));
}

Out ConvertScatterElements(ConvertContext& ctx) {
  int64_t axis = NormalizeAxis(ctx, ctx.AttrInt("axis", 0), ctx.InputRank(0));
  std::string reduction = ctx.AttrString("reduction", "none");
  if (reduction == "none") reduction = "update";
  return One(ctx.Emit(op::scatter_elements(ctx.TensorInput(0), ctx.TensorInput(1), ctx.TensorInput(2), axis, reduction)));
}

Out ConvertCumSum(ConvertContext& ctx) {
  int64_t rank = ctx.InputRank(0);
  int64_t axis = NormalizeAxis(ctx, ctx.RequireInts(1, "CumSum's axis")[0], rank);
  Expr x = ctx.TensorInput(0);
  bool reverse = ctx.AttrInt("reverse", 0) != 0;
  if (reverse) x = ctx.Emit(op::flip(x, axis));
  Expr out = ctx.Emit(op::cumsum(x, axis, DataType::Void(), ctx.AttrInt("exclusive", 0) != 0));
  if (reverse) out = ctx.Emit(op::flip(out, axis));
  return One(out);
}

Out ConvertEinsum(ConvertContext& ctx) {
  std::vector<Expr> operands;
  for (size_t i = 0; i < ctx.NumInputs(); ++i) operands.push_back(ctx.TensorInput(i));
  std::string equation = ctx.AttrString("equation", "");
  equation.erase(std::remove(equation.begin(), equation.end(), ' '), equation.end());
  return One(ctx.Emit(op::einsum(make<graph::TupleNode>(operands), equation)));
}

Out ConvertDropout(ConvertContext& ctx) {
  Out outputs{ctx.Input(0)};
  if (ctx.NumOutputs() > 1) {
    Expr x = ctx.TensorInput(0);
    outputs.push_back(OnnxValue::Tensor(ctx.Emit(op::ones_like(x, DataType::Bool()))));
  }
  return outputs;
}

Out ConvertArgReduce(ConvertContext& ctx, bool is_max) {
  if (ctx.AttrInt("select_last_index", 0) != 0) ctx.Fail("select_last_index=1 is not supported");
  int64_t axis = NormalizeAxis(ctx, ctx.AttrInt("axis", 0), ctx.InputRank(0));
  bool keepdims = ctx.AttrInt("keepdims", 1) != 0;
  Expr x = ctx.TensorInput(0);
  return One(ctx.Emit(is_max ? op::argmax(x, axis, keepdims) : op::argmin(x, axis, keepdims)));
}

}  // namespace

void RegisterManipulateConverters(ConverterTable& table) {
  table["Transpose"].push_back({1, ConvertTranspose});
  table["Flatten"].push_back({1, ConvertFlatten});
  table["Split"].push_back({1, ConvertSplit});
  table["Tile"].push_back({6, ConvertTile});
  table["Pad"].push_back({2, ConvertPad});
  table["GatherElements"].push_back({11, ConvertGatherElements});
  table["ScatterElements"].push_back({11, ConvertScatterElements});
  table["CumSum"].push_back({11, ConvertCumSum});
  table["Einsum"].push_back({12, ConvertEinsum});
  table["Dropout"].push_back({1, ConvertDropout});
  table["ArgMax"].push_back({1, [](ConvertContext& ctx) { return ConvertArgReduce(ctx, true); }});
  table["ArgMin"].push_back({1, [](ConvertContext& ctx) { return ConvertArgReduce(ctx, false); }});
}

}  // namespace rlx::frontend::onnx_impl
