// Converters of ONNX data-movement operators: Transpose, Flatten, Split,
// Tile, Pad, GatherElements, ScatterElements (and its opset-9 name Scatter), CumSum, Einsum, Dropout,
// ArgMax/ArgMin, TopK, Trilu, DepthToSpace, SpaceToDepth.
//
// Opset differences handled here: Split's sizes are an attribute before 13
// and an input from 13; Pad's pads and value are attributes before 11 and
// inputs from 11; ScatterElements gains `reduction` in 16; ArgMax/ArgMin
// gain select_last_index in 12; TopK's k is an attribute in 1 and an input
// (known at import time) from 10, `largest` and `sorted` come in 11 (the
// result is always sorted, which `sorted=0` allows).
#include <algorithm>

#include "frontend/onnx/converter.h"
#include "rlx/op/manipulate.h"
#include "rlx/op/nn.h"
#include "rlx/op/op.h"
#include "rlx/op/sorting.h"
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

// Inference only: a training_mode input that is not known to be false is an
// error (training dropout is random), unless the ratio is known to be 0.
Out ConvertDropout(ConvertContext& ctx) {
  if (ctx.HasInput(2)) {
    auto training = ctx.ConstInts(2);
    auto ratio = ctx.ConstDoubles(1);
    bool identity = (training && (*training)[0] == 0) || (ratio && (*ratio)[0] == 0.0);
    if (!identity) ctx.Fail("training mode is not supported: training_mode must be known at import time to be false, or ratio to be 0");
  }
  Out outputs{ctx.Input(0)};
  if (ctx.NumOutputs() > 1) {
    Expr x = ctx.TensorInput(0);
    outputs.push_back(OnnxValue::Tensor(ctx.Emit(op::ones_like(x, DataType::Bool()))));
  }
  return outputs;
}

// select_last_index=1: the first index of the reversed tensor, mirrored
// (dim - 1 - i).
Out ConvertArgReduce(ConvertContext& ctx, bool is_max) {
  int64_t axis = NormalizeAxis(ctx, ctx.AttrInt("axis", 0), ctx.InputRank(0));
  bool keepdims = ctx.AttrInt("keepdims", 1) != 0;
  Expr x = ctx.TensorInput(0);
  bool last = ctx.AttrInt("select_last_index", 0) != 0;
  if (last) x = ctx.Emit(op::flip(x, axis));
  Expr index = ctx.Emit(is_max ? op::argmax(x, axis, keepdims) : op::argmin(x, axis, keepdims));
  if (!last) return One(index);
  auto dim = AsConstInt(ctx.InputShape(0)[static_cast<size_t>(axis)]);
  if (!dim) ctx.Fail("select_last_index=1 needs a static size along the axis");
  return One(ctx.Emit(op::subtract(ScalarConstant(DataType::Int64(), static_cast<double>(*dim - 1)), index)));
}

// TopK -> R.topk(x, k, axis, "both", largest, int64) and its two fields.
Out ConvertTopK(ConvertContext& ctx) {
  int64_t rank = ctx.InputRank(0);
  int64_t axis = NormalizeAxis(ctx, ctx.AttrInt("axis", -1), rank);
  int64_t k = ctx.opset() < 10 ? ctx.AttrInt("k", 1) : ctx.RequireInts(1, "TopK's k").at(0);
  std::optional<int64_t> dim = AsConstInt(ctx.InputShape(0)[static_cast<size_t>(axis)]);
  if (k <= 0 || (dim && k > *dim)) {
    ctx.Fail("k = " + std::to_string(k) + " is out of range for an axis of size " +
             ir::ToString(ctx.InputShape(0)[static_cast<size_t>(axis)]));
  }
  bool largest = ctx.AttrInt("largest", 1) != 0;
  Expr both = ctx.Emit(op::topk(ctx.TensorInput(0), k, axis, "both", largest, DataType::Int64()));
  return {OnnxValue::Tensor(ctx.Emit(make<graph::TupleGetItemNode>(both, 0))),
          OnnxValue::Tensor(ctx.Emit(make<graph::TupleGetItemNode>(both, 1)))};
}

Out ConvertTrilu(ConvertContext& ctx) {
  int64_t k = 0;
  if (ctx.HasInput(1)) k = ctx.RequireInts(1, "Trilu's k")[0];
  Expr x = ctx.TensorInput(0);
  Expr offset = make<graph::PrimValueNode>(Int64(k));
  return One(ctx.Emit(ctx.AttrInt("upper", 1) ? op::triu(x, offset) : op::tril(x, offset)));
}

// DepthToSpace / SpaceToDepth as reshape -> permute_dims -> reshape.
Out ConvertDepthToSpace(ConvertContext& ctx) {
  std::vector<PrimExpr> d = ctx.InputShape(0);
  if (d.size() != 4) ctx.Fail("expects a 4-D input");
  int64_t bs = ctx.AttrInt("blocksize", 1);
  PrimExpr c = ctx.Simplify(ir::floordiv(d[1], bs * bs));
  bool crd = ctx.AttrString("mode", "DCR") == "CRD";
  std::vector<PrimExpr> split = crd ? std::vector<PrimExpr>{d[0], c, Int64(bs), Int64(bs), d[2], d[3]}
                                    : std::vector<PrimExpr>{d[0], Int64(bs), Int64(bs), c, d[2], d[3]};
  std::vector<int64_t> perm = crd ? std::vector<int64_t>{0, 1, 4, 2, 5, 3} : std::vector<int64_t>{0, 3, 4, 1, 5, 2};
  Expr x = ctx.Emit(op::reshape(ctx.TensorInput(0), ShapeExprOf(split)));
  x = ctx.Emit(op::permute_dims(x, perm));
  return One(ctx.Emit(op::reshape(x, ShapeExprOf({d[0], c, ctx.Simplify(d[2] * bs), ctx.Simplify(d[3] * bs)}))));
}

Out ConvertSpaceToDepth(ConvertContext& ctx) {
  std::vector<PrimExpr> d = ctx.InputShape(0);
  if (d.size() != 4) ctx.Fail("expects a 4-D input");
  int64_t bs = ctx.AttrInt("blocksize", 1);
  PrimExpr h = ctx.Simplify(ir::floordiv(d[2], bs)), w = ctx.Simplify(ir::floordiv(d[3], bs));
  Expr x = ctx.Emit(op::reshape(ctx.TensorInput(0), ShapeExprOf({d[0], d[1], h, Int64(bs), w, Int64(bs)})));
  x = ctx.Emit(op::permute_dims(x, std::vector<int64_t>{0, 3, 5, 1, 2, 4}));
  return One(ctx.Emit(op::reshape(x, ShapeExprOf({d[0], ctx.Simplify(d[1] * (bs * bs)), h, w}))));
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
  table["Scatter"].push_back({9, ConvertScatterElements});  // deprecated in 11 for ScatterElements
  table["CumSum"].push_back({11, ConvertCumSum});
  table["Einsum"].push_back({12, ConvertEinsum});
  table["Dropout"].push_back({1, ConvertDropout});
  table["Trilu"].push_back({14, ConvertTrilu});
  table["DepthToSpace"].push_back({1, ConvertDepthToSpace});
  table["SpaceToDepth"].push_back({1, ConvertSpaceToDepth});
  table["ArgMax"].push_back({1, [](ConvertContext& ctx) { return ConvertArgReduce(ctx, true); }});
  table["ArgMin"].push_back({1, [](ConvertContext& ctx) { return ConvertArgReduce(ctx, false); }});
  table["TopK"].push_back({1, ConvertTopK});
}

}  // namespace rlx::frontend::onnx_impl
