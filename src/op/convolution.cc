// Convolutions: conv1d, conv2d, conv3d, conv2d_transpose.
//
// Layouts are permutations of the canonical letters: data "NCW"/"NCHW"/
// "NCDHW", kernel "OIW"/"OIHW"/"OIDHW" (conv2d_transpose's default "IOHW" is a permutation
// too), out_layout (None: the data layout). Deduction, after TVM's
// src/relax/op/nn/convolution.cc:
//   conv:       C == I * groups, O % groups == 0, out channels O,
//               out = (in + pad_begin + pad_end - dilation * (k - 1) - 1) // stride + 1
//   transpose:  C == I, out channels O * groups,
//               out = (in - 1) * stride - pad_begin - pad_end + dilation * (k - 1) + output_padding + 1
// A channel count that provably differs is an error naming both shapes;
// an undecidable one is accepted. Symbolic spatial sizes give symbolic
// output sizes (simplified by the analyzer). out_dtype void means the data's
// dtype (data and weight dtypes must then agree).
#include <fmt/format.h>

#include "attr_util.h"
#include "op_common.h"
#include "rlx/op/nn.h"

namespace rlx::op {
namespace detail {
namespace {

using graph::AttrKind;

enum class ConvKind { kConv, kTranspose };

struct ConvSpec {
  size_t spatial;         // 1, 2 or 3
  ConvKind kind;
  std::string data_layout;    // canonical letters, e.g. "NCHW"
  std::string kernel_layout;  // canonical letters, e.g. "OIHW"
};

ConvSpec SpecFor(const Call& call) {
  std::string name = OpName(call);
  if (name == "nn.conv1d") return {1, ConvKind::kConv, "NCW", "OIW"};
  if (name == "nn.conv2d") return {2, ConvKind::kConv, "NCHW", "OIHW"};
  if (name == "nn.conv3d") return {3, ConvKind::kConv, "NCDHW", "OIDHW"};
  return {2, ConvKind::kTranspose, "NCHW", "OIHW"};
}

// The default layouts of an op (kernel: transpose uses IOHW).
std::string DefaultKernelLayout(const ConvSpec& spec) {
  return spec.kind == ConvKind::kTranspose ? "IOHW" : spec.kernel_layout;
}

struct ConvParams {
  std::vector<int64_t> strides, padding, dilation, output_padding;
  int64_t groups;
  std::vector<int> data_pos, kernel_pos, out_pos;
};

ConvParams ReadParams(const Call& call, const ConvSpec& spec) {
  ConvParams p;
  p.strides = ExpandToRank(call, "strides", GetIntListAttr(call, "strides", {1}), spec.spatial);
  p.dilation = ExpandToRank(call, "dilation", GetIntListAttr(call, "dilation", {1}), spec.spatial);
  p.padding = CompletePadding(call, GetIntListAttr(call, "padding", {0}), spec.spatial);
  p.output_padding = spec.kind == ConvKind::kTranspose
                         ? ExpandToRank(call, "output_padding", GetIntListAttr(call, "output_padding", {0}), spec.spatial)
                         : std::vector<int64_t>(spec.spatial, 0);
  p.groups = GetIntAttr(call, "groups", 1);
  for (int64_t v : p.strides) {
    if (v <= 0) ThrowOpError(call, fmt::format("strides must be positive, got {}", IntListToString(p.strides)));
  }
  for (int64_t v : p.dilation) {
    if (v <= 0) ThrowOpError(call, fmt::format("dilation must be positive, got {}", IntListToString(p.dilation)));
  }
  if (p.groups <= 0) ThrowOpError(call, fmt::format("groups must be positive, got {}", p.groups));
  std::string data_layout = GetStringAttr(call, "data_layout", spec.data_layout);
  p.data_pos = LayoutPositions(call, "data_layout", data_layout, spec.data_layout);
  p.kernel_pos = LayoutPositions(call, "kernel_layout", GetStringAttr(call, "kernel_layout", DefaultKernelLayout(spec)),
                                 spec.kernel_layout);
  p.out_pos = LayoutPositions(call, "out_layout", GetOptionalStringAttr(call, "out_layout").value_or(data_layout),
                              spec.data_layout);
  return p;
}

DataType ConvDtype(const Call& call, const TensorStructInfo& data, const TensorStructInfo& weight) {
  DataType out_dtype = GetDataTypeAttr(call, "out_dtype", DataType::Void());
  if (!out_dtype.is_void()) return out_dtype;
  return UnifyDtypes(call, data->dtype, weight->dtype);
}

// One output spatial size.
PrimExpr OutputSize(const ConvSpec& spec, const ConvParams& p, size_t i, const PrimExpr& in, const PrimExpr& k) {
  PrimExpr pads = ir::MakeInt(p.padding[i] + p.padding[i + spec.spatial]);
  PrimExpr dilated = p.dilation[i] * (AsInt64(k) - 1);
  if (spec.kind == ConvKind::kTranspose) {
    return (AsInt64(in) - 1) * p.strides[i] - pads + dilated + (p.output_padding[i] + 1);
  }
  return ir::floordiv(AsInt64(in) + pads - dilated - 1, p.strides[i]) + 1;
}

void CheckChannels(const Call& call, BlockBuilder& builder, const ConvSpec& spec, const ConvParams& p,
                   const Shape& data, const Shape& weight) {
  arith::Analyzer& analyzer = builder.analyzer();
  PrimExpr channels = data[p.data_pos[1]];
  PrimExpr in_channels = weight[p.kernel_pos[1]];
  PrimExpr expected = spec.kind == ConvKind::kConv ? AsInt64(in_channels) * p.groups : AsInt64(in_channels);
  if (ProvablyDifferent(analyzer, channels, expected)) {
    ThrowOpError(call, fmt::format("the data's {} input channels do not match the weight ({} groups): data has shape "
                                   "{}, weight has shape {}",
                                   ir::ToString(channels), p.groups, ir::ShapeToString(data),
                                   ir::ShapeToString(weight)));
  }
  std::optional<int64_t> out_channels = ir::AsConstInt(weight[p.kernel_pos[0]]);
  if (spec.kind == ConvKind::kConv && out_channels && *out_channels % p.groups != 0) {
    ThrowOpError(call, fmt::format("the weight's {} output channels are not divisible by groups {}: weight has shape {}",
                                   *out_channels, p.groups, ir::ShapeToString(weight)));
  }
}

StructInfo InferConvSInfo(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 2);
  ConvSpec spec = SpecFor(call);
  TensorStructInfo data = TensorArg(call, 0);
  TensorStructInfo weight = TensorArg(call, 1);
  ConvParams p = ReadParams(call, spec);
  DataType dtype = ConvDtype(call, data, weight);
  int rank = static_cast<int>(spec.spatial + 2);
  for (const TensorStructInfo& t : {data, weight}) {
    if (!t->IsUnknownNdim() && t->ndim != rank) {
      ThrowOpError(call, fmt::format("expected data and weight of rank {}, got {}", rank, graph::ToString(t)));
    }
  }
  std::optional<Shape> ds = data->GetShape();
  std::optional<Shape> ws = weight->GetShape();
  if (!ds || !ws) return graph::TensorSInfo(dtype, rank);
  CheckChannels(call, builder, spec, p, *ds, *ws);
  // Canonical output: N, C, spatial...
  Shape canonical = {(*ds)[p.data_pos[0]]};
  PrimExpr out_channels = (*ws)[p.kernel_pos[0]];
  canonical.push_back(spec.kind == ConvKind::kTranspose ? AsInt64(out_channels) * p.groups : out_channels);
  for (size_t i = 0; i < spec.spatial; ++i) {
    canonical.push_back(OutputSize(spec, p, i, (*ds)[p.data_pos[2 + i]], (*ws)[p.kernel_pos[2 + i]]));
  }
  Shape out(canonical.size());
  for (size_t i = 0; i < canonical.size(); ++i) out[p.out_pos[i]] = canonical[i];
  return graph::TensorSInfo(SimplifyShape(builder.analyzer(), out), dtype);
}

std::vector<graph::AttrSpec> ConvAttrSpecs(size_t spatial, bool transpose, const std::string& data_layout,
                                           const std::string& kernel_layout) {
  std::vector<graph::AttrSpec> specs = {
      {"strides", AttrKind::kIntList, IntListAttr(std::vector<int64_t>(spatial, 1))},
      {"padding", AttrKind::kIntList, IntListAttr(std::vector<int64_t>(2 * spatial, 0))}};
  if (transpose) specs.push_back({"output_padding", AttrKind::kIntList, IntListAttr(std::vector<int64_t>(spatial, 0))});
  specs.push_back({"dilation", AttrKind::kIntList, IntListAttr(std::vector<int64_t>(spatial, 1))});
  specs.push_back({"groups", AttrKind::kInt, IntAttr(1)});
  specs.push_back({"data_layout", AttrKind::kString, ir::MakeString(data_layout)});
  specs.push_back({"kernel_layout", AttrKind::kString, ir::MakeString(kernel_layout)});
  specs.push_back({"out_layout", AttrKind::kOptionalString, ObjectRef()});
  specs.push_back({"out_dtype", AttrKind::kDataType, DataTypeAttr(DataType::Void())});
  return specs;
}

}  // namespace

void RegisterConvolutionOps() {
  using graph::OpPatternKind;
  graph::RegisterOp(MakeOpInfo("nn.conv1d", {"data", "weight"}, InferConvSInfo, OpPatternKind::kOutEWiseFusable,
                               ConvAttrSpecs(1, false, "NCW", "OIW")));
  graph::RegisterOp(MakeOpInfo("nn.conv2d", {"data", "weight"}, InferConvSInfo, OpPatternKind::kOutEWiseFusable,
                               ConvAttrSpecs(2, false, "NCHW", "OIHW")));
  graph::RegisterOp(MakeOpInfo("nn.conv3d", {"data", "weight"}, InferConvSInfo, OpPatternKind::kOutEWiseFusable,
                               ConvAttrSpecs(3, false, "NCDHW", "OIDHW")));
  graph::RegisterOp(MakeOpInfo("nn.conv2d_transpose", {"data", "weight"}, InferConvSInfo,
                               OpPatternKind::kOutEWiseFusable, ConvAttrSpecs(2, true, "NCHW", "IOHW")));
}

namespace {

// The stored (normalized) attributes of a convolution call.
ir::Dict ConvCallAttrs(const nn::ConvAttrs& attrs, size_t spatial, bool transpose, const std::string& data_default,
                       const std::string& kernel_default) {
  auto expand = [&](const std::vector<int64_t>& values, size_t n) {
    return values.size() == 1 ? std::vector<int64_t>(n, values[0]) : values;
  };
  std::vector<int64_t> padding = attrs.padding;
  if (padding.size() == 1) {
    padding.assign(2 * spatial, padding[0]);
  } else if (padding.size() == spatial) {
    padding.insert(padding.end(), attrs.padding.begin(), attrs.padding.end());
  }
  std::string data_layout = attrs.data_layout.value_or(data_default);
  std::vector<ir::DictNode::Item> items = {{"strides", IntListAttr(expand(attrs.strides, spatial))},
                                           {"padding", IntListAttr(padding)}};
  if (transpose) items.push_back({"output_padding", IntListAttr(expand(attrs.output_padding, spatial))});
  items.push_back({"dilation", IntListAttr(expand(attrs.dilation, spatial))});
  items.push_back({"groups", IntAttr(attrs.groups)});
  items.push_back({"data_layout", ir::MakeString(data_layout)});
  items.push_back({"kernel_layout", ir::MakeString(attrs.kernel_layout.value_or(kernel_default))});
  items.push_back({"out_layout", ir::MakeString(attrs.out_layout.value_or(data_layout))});
  items.push_back({"out_dtype", DataTypeAttr(attrs.out_dtype)});
  return make<ir::DictNode>(std::move(items));
}

}  // namespace
}  // namespace detail

namespace nn {

Call conv1d(Expr data, Expr weight, const ConvAttrs& attrs) {
  return detail::MakeOpCall("nn.conv1d", {std::move(data), std::move(weight)},
                            detail::ConvCallAttrs(attrs, 1, false, "NCW", "OIW"));
}
Call conv2d(Expr data, Expr weight, const ConvAttrs& attrs) {
  return detail::MakeOpCall("nn.conv2d", {std::move(data), std::move(weight)},
                            detail::ConvCallAttrs(attrs, 2, false, "NCHW", "OIHW"));
}
Call conv3d(Expr data, Expr weight, const ConvAttrs& attrs) {
  return detail::MakeOpCall("nn.conv3d", {std::move(data), std::move(weight)},
                            detail::ConvCallAttrs(attrs, 3, false, "NCDHW", "OIDHW"));
}
Call conv2d_transpose(Expr data, Expr weight, const ConvAttrs& attrs) {
  return detail::MakeOpCall("nn.conv2d_transpose", {std::move(data), std::move(weight)},
                            detail::ConvCallAttrs(attrs, 2, true, "NCHW", "IOHW"));
}

}  // namespace nn
}  // namespace rlx::op
