// 2-D and 3-D pooling: max_pool2d, avg_pool2d, max_pool3d, avg_pool3d,
// adaptive_avg_pool2d.
//
// The layout is a permutation of "NCHW" ("NCDHW" for 3-D; out_layout None:
// the layout). Padding holds the begins then the ends of the spatial dims.
// Deduction, after TVM's src/relax/op/nn/pooling.cc:
//   out = (in + pad_begin + pad_end - dilation * (pool - 1) - 1 [+ stride - 1 with ceil_mode]) // stride + 1
// with symbolic input sizes giving symbolic output sizes. A window larger
// than the padded input (a constant output size below 1) is an error naming
// the shapes. adaptive_avg_pool2d replaces H and W by output_size (1 value:
// both; None: unchanged).
#include <fmt/format.h>

#include "attr_util.h"
#include "op_common.h"
#include "rlx/op/nn.h"

namespace rlx::op {
namespace detail {
namespace {

using graph::AttrKind;

// The output shape in the out layout, from canonical (N, C, H, W) dims.
Shape ToOutLayout(const Shape& canonical, const std::vector<int>& out_pos) {
  Shape out(canonical.size());
  for (size_t i = 0; i < canonical.size(); ++i) out[out_pos[i]] = canonical[i];
  return out;
}

std::vector<int> OutPositions(const Call& call, const std::string& layout, const std::string& canonical = "NCHW") {
  return LayoutPositions(call, "out_layout", GetOptionalStringAttr(call, "out_layout").value_or(layout), canonical);
}

TensorStructInfo RankNData(const Call& call, int rank) {
  CheckNumArgs(call, 1);
  TensorStructInfo data = TensorArg(call, 0);
  if (!data->IsUnknownNdim() && data->ndim != rank) {
    ThrowOpError(call, fmt::format("expected data of rank {}, got {}", rank, graph::ToString(data)));
  }
  return data;
}

TensorStructInfo Rank4Data(const Call& call) { return RankNData(call, 4); }

// max/avg pooling over `spatial` dims (2: NCHW, 3: NCDHW).
StructInfo InferPoolSInfo(const Call& call, BlockBuilder& builder, size_t spatial) {
  std::string canonical_layout = spatial == 3 ? "NCDHW" : "NCHW";
  int rank = static_cast<int>(spatial) + 2;
  TensorStructInfo data = RankNData(call, rank);
  std::vector<int64_t> pool = ExpandToRank(call, "pool_size", GetIntListAttr(call, "pool_size", {1}), spatial);
  std::vector<int64_t> strides = ExpandToRank(call, "strides", GetIntListAttr(call, "strides", {1}), spatial);
  std::vector<int64_t> dilation = ExpandToRank(call, "dilation", GetIntListAttr(call, "dilation", {1}), spatial);
  std::vector<int64_t> padding = CompletePadding(call, GetIntListAttr(call, "padding", {0}), spatial);
  bool ceil_mode = GetBoolAttr(call, "ceil_mode", false);
  for (const std::vector<int64_t>* values : {&pool, &strides, &dilation}) {
    for (int64_t v : *values) {
      if (v <= 0) ThrowOpError(call, fmt::format("pool_size, strides and dilation must be positive, got {}", v));
    }
  }
  std::string layout = GetStringAttr(call, "layout", canonical_layout);
  std::vector<int> pos = LayoutPositions(call, "layout", layout, canonical_layout);
  std::vector<int> out_pos = OutPositions(call, layout, canonical_layout);
  std::optional<Shape> shape = data->GetShape();
  if (!shape) return graph::TensorSInfo(data->dtype, rank);
  Shape canonical = {(*shape)[pos[0]], (*shape)[pos[1]]};
  for (size_t i = 0; i < spatial; ++i) {
    PrimExpr numerator = AsInt64((*shape)[pos[2 + i]]) + (padding[i] + padding[i + spatial] -
                                                          dilation[i] * (pool[i] - 1) - 1 +
                                                          (ceil_mode ? strides[i] - 1 : 0));
    PrimExpr size = builder.analyzer().Simplify(ir::floordiv(numerator, strides[i]) + 1);
    std::optional<int64_t> value = ir::AsConstInt(size);
    if (value && *value < 1) {
      ThrowOpError(call, fmt::format("the pooling window {} does not fit the data of shape {} (padding {})",
                                     IntListToString(pool), ir::ShapeToString(*shape), IntListToString(padding)));
    }
    canonical.push_back(size);
  }
  return graph::TensorSInfo(ToOutLayout(canonical, out_pos), data->dtype);
}

StructInfo InferPool2DSInfo(const Call& call, BlockBuilder& builder) { return InferPoolSInfo(call, builder, 2); }
StructInfo InferPool3DSInfo(const Call& call, BlockBuilder& builder) { return InferPoolSInfo(call, builder, 3); }

StructInfo InferAdaptivePool2DSInfo(const Call& call, BlockBuilder&) {
  TensorStructInfo data = Rank4Data(call);
  std::string layout = GetStringAttr(call, "layout", "NCHW");
  std::vector<int> pos = LayoutPositions(call, "layout", layout, "NCHW");
  std::vector<int> out_pos = OutPositions(call, layout);
  std::optional<std::vector<int64_t>> output_size = GetOptionalIntListAttr(call, "output_size");
  if (output_size) *output_size = ExpandToRank(call, "output_size", *output_size, 2);
  std::optional<Shape> shape = data->GetShape();
  if (!shape) return graph::TensorSInfo(data->dtype, 4);
  Shape canonical;
  for (int p : pos) canonical.push_back((*shape)[p]);
  if (output_size) {
    canonical[2] = ir::MakeInt((*output_size)[0]);
    canonical[3] = ir::MakeInt((*output_size)[1]);
  }
  return graph::TensorSInfo(ToOutLayout(canonical, out_pos), data->dtype);
}

}  // namespace

void RegisterPoolingOps() {
  using graph::OpPatternKind;
  for (const char* name : {"nn.max_pool2d", "nn.avg_pool2d"}) {
    graph::RegisterOp(MakeOpInfo(name, {"data"}, InferPool2DSInfo, OpPatternKind::kOutEWiseFusable,
                                 {{"pool_size", AttrKind::kIntList, IntListAttr({1, 1})},
                                  {"strides", AttrKind::kIntList, IntListAttr({1, 1})},
                                  {"dilation", AttrKind::kIntList, IntListAttr({1, 1})},
                                  {"padding", AttrKind::kIntList, IntListAttr({0, 0, 0, 0})},
                                  {"ceil_mode", AttrKind::kBool, BoolAttr(false)},
                                  {"count_include_pad", AttrKind::kBool, BoolAttr(false)},
                                  {"layout", AttrKind::kString, ir::MakeString("NCHW")},
                                  {"out_layout", AttrKind::kOptionalString, ObjectRef()}}));
  }
  for (const char* name : {"nn.max_pool3d", "nn.avg_pool3d"}) {
    graph::RegisterOp(MakeOpInfo(name, {"data"}, InferPool3DSInfo, OpPatternKind::kOutEWiseFusable,
                                 {{"pool_size", AttrKind::kIntList, IntListAttr({1, 1, 1})},
                                  {"strides", AttrKind::kIntList, IntListAttr({1, 1, 1})},
                                  {"dilation", AttrKind::kIntList, IntListAttr({1, 1, 1})},
                                  {"padding", AttrKind::kIntList, IntListAttr({0, 0, 0, 0, 0, 0})},
                                  {"ceil_mode", AttrKind::kBool, BoolAttr(false)},
                                  {"count_include_pad", AttrKind::kBool, BoolAttr(false)},
                                  {"layout", AttrKind::kString, ir::MakeString("NCDHW")},
                                  {"out_layout", AttrKind::kOptionalString, ObjectRef()}}));
  }
  graph::RegisterOp(MakeOpInfo("nn.adaptive_avg_pool2d", {"data"}, InferAdaptivePool2DSInfo,
                               OpPatternKind::kOutEWiseFusable,
                               {{"output_size", AttrKind::kOptionalIntList, ObjectRef()},
                                {"layout", AttrKind::kString, ir::MakeString("NCHW")},
                                {"out_layout", AttrKind::kOptionalString, ObjectRef()}}));
}

namespace {

// A pooling call over `spatial` dims; pool_size, strides and dilation of 1
// value mean that value in every dim, padding of 1 or `spatial` values pads
// both ends alike.
Call MakePool(const std::string& name, Expr data, const nn::Pool2DAttrs& attrs, size_t spatial = 2) {
  auto expand = [spatial](const std::vector<int64_t>& values) {
    return values.size() == 1 ? std::vector<int64_t>(spatial, values[0]) : values;
  };
  std::vector<int64_t> padding = attrs.padding;
  if (padding.size() == 1) padding.assign(2 * spatial, padding[0]);
  if (padding.size() == spatial) padding.insert(padding.end(), attrs.padding.begin(), attrs.padding.end());
  std::vector<ir::DictNode::Item> items = {{"pool_size", IntListAttr(expand(attrs.pool_size))},
                                           {"strides", IntListAttr(expand(attrs.strides))},
                                           {"dilation", IntListAttr(expand(attrs.dilation))},
                                           {"padding", IntListAttr(padding)},
                                           {"ceil_mode", BoolAttr(attrs.ceil_mode)},
                                           {"count_include_pad", BoolAttr(attrs.count_include_pad)},
                                           {"layout", ir::MakeString(attrs.layout)},
                                           {"out_layout", ir::MakeString(attrs.out_layout.value_or(attrs.layout))}};
  return MakeOpCall(name, {std::move(data)}, make<ir::DictNode>(std::move(items)));
}

}  // namespace
}  // namespace detail

namespace nn {

Call max_pool2d(Expr data, const Pool2DAttrs& attrs) { return detail::MakePool("nn.max_pool2d", std::move(data), attrs); }
Call avg_pool2d(Expr data, const Pool2DAttrs& attrs) { return detail::MakePool("nn.avg_pool2d", std::move(data), attrs); }
Call max_pool3d(Expr data, const Pool2DAttrs& attrs) {
  return detail::MakePool("nn.max_pool3d", std::move(data), attrs, 3);
}
Call avg_pool3d(Expr data, const Pool2DAttrs& attrs) {
  return detail::MakePool("nn.avg_pool3d", std::move(data), attrs, 3);
}

Call adaptive_avg_pool2d(Expr data, std::optional<IntList> output_size, std::string layout,
                         std::optional<std::string> out_layout) {
  ir::Dict attrs;
  if (output_size) attrs = ir::DictWith(attrs, "output_size", detail::IntListAttr(*output_size));
  attrs = ir::DictWith(attrs, "layout", ir::MakeString(layout));
  attrs = ir::DictWith(attrs, "out_layout", ir::MakeString(out_layout.value_or(layout)));
  return detail::MakeOpCall("nn.adaptive_avg_pool2d", {std::move(data)}, attrs);
}

}  // namespace nn
}  // namespace rlx::op
