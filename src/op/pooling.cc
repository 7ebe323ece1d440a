// 2-D pooling: max_pool2d, avg_pool2d, adaptive_avg_pool2d.
//
// The layout is a permutation of "NCHW" (out_layout None: the layout).
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

std::vector<int> OutPositions(const Call& call, const std::string& layout) {
  return LayoutPositions(call, "out_layout", GetOptionalStringAttr(call, "out_layout").value_or(layout), "NCHW");
}

TensorStructInfo Rank4Data(const Call& call) {
  CheckNumArgs(call, 1);
  TensorStructInfo data = TensorArg(call, 0);
  if (!data->IsUnknownNdim() && data->ndim != 4) {
    ThrowOpError(call, fmt::format("expected data of rank 4, got {}", graph::ToString(data)));
  }
  return data;
}

StructInfo InferPool2DSInfo(const Call& call, BlockBuilder& builder) {
  TensorStructInfo data = Rank4Data(call);
  std::vector<int64_t> pool = ExpandToRank(call, "pool_size", GetIntListAttr(call, "pool_size", {1}), 2);
  std::vector<int64_t> strides = ExpandToRank(call, "strides", GetIntListAttr(call, "strides", {1}), 2);
  std::vector<int64_t> dilation = ExpandToRank(call, "dilation", GetIntListAttr(call, "dilation", {1}), 2);
  std::vector<int64_t> padding = CompletePadding(call, GetIntListAttr(call, "padding", {0}), 2);
  bool ceil_mode = GetBoolAttr(call, "ceil_mode", false);
  for (const std::vector<int64_t>* values : {&pool, &strides, &dilation}) {
    for (int64_t v : *values) {
      if (v <= 0) ThrowOpError(call, fmt::format("pool_size, strides and dilation must be positive, got {}", v));
    }
  }
  std::string layout = GetStringAttr(call, "layout", "NCHW");
  std::vector<int> pos = LayoutPositions(call, "layout", layout, "NCHW");
  std::vector<int> out_pos = OutPositions(call, layout);
  std::optional<Shape> shape = data->GetShape();
  if (!shape) return graph::TensorSInfo(data->dtype, 4);
  Shape canonical = {(*shape)[pos[0]], (*shape)[pos[1]]};
  for (size_t i = 0; i < 2; ++i) {
    PrimExpr numerator = AsInt64((*shape)[pos[2 + i]]) + (padding[i] + padding[i + 2] - dilation[i] * (pool[i] - 1) - 1 +
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
  graph::RegisterOp(MakeOpInfo("nn.adaptive_avg_pool2d", {"data"}, InferAdaptivePool2DSInfo,
                               OpPatternKind::kOutEWiseFusable,
                               {{"output_size", AttrKind::kOptionalIntList, ObjectRef()},
                                {"layout", AttrKind::kString, ir::MakeString("NCHW")},
                                {"out_layout", AttrKind::kOptionalString, ObjectRef()}}));
}

namespace {

Call MakePool(const std::string& name, Expr data, const nn::Pool2DAttrs& attrs) {
  auto expand = [](const std::vector<int64_t>& values) {
    return values.size() == 1 ? std::vector<int64_t>{values[0], values[0]} : values;
  };
  std::vector<int64_t> padding = attrs.padding;
  if (padding.size() == 1) padding.assign(4, padding[0]);
  if (padding.size() == 2) padding = {padding[0], padding[1], padding[0], padding[1]};
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
