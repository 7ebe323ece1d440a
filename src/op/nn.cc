// nn operators without spatial windows: softmax, log_softmax, layer_norm,
// rms_norm, group_norm, batch_norm, dropout, pad, attention.
//
// Deduction rules (after TVM's src/relax/op/nn/nn.cc and attention.cc):
// - softmax, log_softmax: the input's struct info; the axis must be in range
//   and a known dtype must be float.
// - layer_norm / rms_norm: gamma, beta (weight) have rank len(axes) and the
//   data's dims at `axes`; group_norm and batch_norm take 1-D parameters of
//   the channel count. A parameter dim that provably differs is an error
//   naming both shapes; undecidable ones are accepted. The result is the
//   data's struct info (batch_norm: a tuple with the moving statistics'
//   struct info).
// - dropout: (data, mask), both with the data's struct info.
// - pad: each dim grows by its (before, after) pair; pad_width must hold
//   2 * rank values.
// - attention: query (b, s, h, d), key (b, s_kv, h, d), value
//   (b, s_kv, h, d_v) give (b, s, h, d_v); an optional bias is
//   (b, h, s, s_kv) where each dim may also be 1 (broadcast).
#include <fmt/format.h>

#include "attr_util.h"
#include "op_common.h"
#include "rlx/op/nn.h"

namespace rlx::op {
namespace detail {
namespace {

using graph::AttrKind;
using graph::AttrSpec;

void CheckFloatDtype(const Call& call, const TensorStructInfo& tensor) {
  if (!tensor->IsUnknownDtype() && !tensor->dtype.is_floating()) {
    ThrowOpError(call, fmt::format("expected a tensor of float dtype, got {}", tensor->dtype.ToString()));
  }
}

StructInfo InferSoftmaxSInfo(const Call& call, BlockBuilder&) {
  CheckNumArgs(call, 1);
  TensorStructInfo data = TensorArg(call, 0);
  CheckFloatDtype(call, data);
  if (!data->IsUnknownNdim()) NormalizeAxis(call, GetIntAttr(call, "axis", -1), data->ndim);
  return data;
}

std::string ShapeText(const TensorStructInfo& tensor) {
  std::optional<Shape> shape = tensor->GetShape();
  return shape ? ir::ShapeToString(*shape) : graph::ToString(tensor);
}

// Checks that parameter `index` has rank `rank` and (where known) the dims
// `expected`, naming both shapes on a mismatch.
void CheckParamShape(const Call& call, BlockBuilder& builder, size_t index, const TensorStructInfo& data,
                     const std::optional<Shape>& expected, int rank) {
  TensorStructInfo param = TensorArg(call, index);
  if (!param->IsUnknownDtype() && !data->IsUnknownDtype() && param->dtype != data->dtype) {
    ThrowOpError(call, fmt::format("argument '{}' has dtype {}, but the data has dtype {}", ArgName(call, index),
                                   param->dtype.ToString(), data->dtype.ToString()));
  }
  if (param->IsUnknownNdim() || rank < 0) return;
  if (param->ndim != rank) {
    ThrowOpError(call, fmt::format("expected argument '{}' to have rank {}, got shape {} for data of shape {}",
                                   ArgName(call, index), rank, ShapeText(param), ShapeText(data)));
  }
  std::optional<Shape> shape = param->GetShape();
  if (!shape || !expected) return;
  for (size_t i = 0; i < shape->size(); ++i) {
    if (ProvablyDifferent(builder.analyzer(), (*shape)[i], (*expected)[i])) {
      ThrowOpError(call, fmt::format("argument '{}' of shape {} does not match the data of shape {}",
                                     ArgName(call, index), ir::ShapeToString(*shape), ShapeText(data)));
    }
  }
}

// The data dims at `axes` (nullopt when the data shape is unknown).
std::optional<Shape> DimsAt(const TensorStructInfo& data, const std::vector<int>& axes) {
  std::optional<Shape> shape = data->GetShape();
  if (!shape) return std::nullopt;
  Shape dims;
  for (int axis : axes) dims.push_back((*shape)[axis]);
  return dims;
}

StructInfo InferNormSInfo(const Call& call, BlockBuilder& builder, size_t num_params) {
  CheckNumArgs(call, 1 + num_params);
  TensorStructInfo data = TensorArg(call, 0);
  CheckFloatDtype(call, data);
  std::vector<int64_t> axes = GetIntListAttr(call, "axes", {-1});
  if (data->IsUnknownNdim()) {
    for (size_t i = 1; i <= num_params; ++i) CheckParamShape(call, builder, i, data, std::nullopt, -1);
    return data;
  }
  std::vector<int> normalized = NormalizeAxes(call, axes, data->ndim);
  std::optional<Shape> expected = DimsAt(data, normalized);
  for (size_t i = 1; i <= num_params; ++i) {
    CheckParamShape(call, builder, i, data, expected, static_cast<int>(normalized.size()));
  }
  return data;
}

StructInfo InferLayerNormSInfo(const Call& call, BlockBuilder& builder) { return InferNormSInfo(call, builder, 2); }
StructInfo InferRmsNormSInfo(const Call& call, BlockBuilder& builder) { return InferNormSInfo(call, builder, 1); }

StructInfo InferGroupNormSInfo(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 3);
  TensorStructInfo data = TensorArg(call, 0);
  CheckFloatDtype(call, data);
  int64_t num_groups = GetIntAttr(call, "num_groups", 1);
  if (num_groups <= 0) ThrowOpError(call, fmt::format("num_groups must be positive, got {}", num_groups));
  GetIntListAttr(call, "axes");
  if (data->IsUnknownNdim()) return data;
  int channel_axis = NormalizeAxis(call, GetIntAttr(call, "channel_axis", 1), data->ndim);
  NormalizeAxes(call, GetIntListAttr(call, "axes"), data->ndim);
  std::optional<Shape> channels = DimsAt(data, {channel_axis});
  if (channels) {
    std::optional<int64_t> c = ir::AsConstInt((*channels)[0]);
    if (c && *c % num_groups != 0) {
      ThrowOpError(call, fmt::format("the channel count {} of data shape {} is not divisible by num_groups {}", *c,
                                     ShapeText(data), num_groups));
    }
  }
  CheckParamShape(call, builder, 1, data, channels, 1);
  CheckParamShape(call, builder, 2, data, channels, 1);
  return data;
}

StructInfo InferBatchNormSInfo(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 5);
  TensorStructInfo data = TensorArg(call, 0);
  CheckFloatDtype(call, data);
  std::optional<Shape> channels;
  if (!data->IsUnknownNdim()) {
    int axis = NormalizeAxis(call, GetIntAttr(call, "axis", 1), data->ndim);
    channels = DimsAt(data, {axis});
  }
  for (size_t i = 1; i < 5; ++i) CheckParamShape(call, builder, i, data, channels, 1);
  StructInfo stat = channels ? graph::TensorSInfo(*channels, data->dtype) : graph::TensorSInfo(data->dtype, 1);
  return graph::TupleSInfo({data, stat, stat});
}

StructInfo InferDropoutSInfo(const Call& call, BlockBuilder&) {
  CheckNumArgs(call, 1);
  TensorStructInfo data = TensorArg(call, 0);
  double rate = GetFloatAttr(call, "rate", 0.5);
  if (rate < 0.0 || rate >= 1.0) ThrowOpError(call, fmt::format("rate must be in [0, 1), got {}", rate));
  return graph::TupleSInfo({data, data});
}

StructInfo InferPadSInfo(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 1);
  TensorStructInfo data = TensorArg(call, 0);
  std::vector<int64_t> pad_width = GetIntListAttr(call, "pad_width");
  std::string mode = GetStringAttr(call, "pad_mode", "constant");
  if (mode != "constant" && mode != "edge" && mode != "reflect") {
    ThrowOpError(call, fmt::format("unsupported pad_mode \"{}\": expected \"constant\", \"edge\" or \"reflect\"", mode));
  }
  if (data->IsUnknownNdim()) return data;
  if (pad_width.size() != 2 * static_cast<size_t>(data->ndim)) {
    ThrowOpError(call, fmt::format("pad_width {} must hold 2 values per dimension of data shape {}",
                                   IntListToString(pad_width), ShapeText(data)));
  }
  std::optional<Shape> shape = data->GetShape();
  if (!shape) return graph::TensorSInfo(data->dtype, data->ndim);
  Shape out;
  for (size_t i = 0; i < shape->size(); ++i) {
    out.push_back(AsInt64((*shape)[i]) + (pad_width[2 * i] + pad_width[2 * i + 1]));
  }
  return graph::TensorSInfo(SimplifyShape(builder.analyzer(), out), data->dtype);
}

// attention: checks one pair of dims that must agree.
void CheckAttentionDim(const Call& call, BlockBuilder& builder, const Shape& a, size_t ia, const Shape& b, size_t ib,
                       const char* what, const char* names) {
  if (ProvablyDifferent(builder.analyzer(), a[ia], b[ib])) {
    ThrowOpError(call, fmt::format("{} differ: {} have shapes {} and {}", what, names, ir::ShapeToString(a),
                                   ir::ShapeToString(b)));
  }
}

void CheckAttentionBias(const Call& call, BlockBuilder& builder, const Shape& expected) {
  TensorStructInfo bias = TensorArg(call, 3);
  if (bias->IsUnknownNdim()) return;
  if (bias->ndim != 4) {
    ThrowOpError(call, fmt::format("expected a bias of rank 4 (batch, heads, seq, seq_kv), got {}",
                                   graph::ToString(bias)));
  }
  std::optional<Shape> shape = bias->GetShape();
  if (!shape) return;
  for (size_t i = 0; i < 4; ++i) {
    if (ProvablyDifferent(builder.analyzer(), (*shape)[i], expected[i]) &&
        ProvablyDifferent(builder.analyzer(), (*shape)[i], ir::MakeInt(1))) {
      ThrowOpError(call, fmt::format("bias of shape {} does not broadcast to {}", ir::ShapeToString(*shape),
                                     ir::ShapeToString(expected)));
    }
  }
}

StructInfo InferAttentionSInfo(const Call& call, BlockBuilder& builder) {
  if (call->args.size() != 3 && call->args.size() != 4) {
    ThrowOpError(call, fmt::format("expected 3 or 4 arguments (query, key, value, bias), got {}", call->args.size()));
  }
  TensorStructInfo q = TensorArg(call, 0);
  TensorStructInfo k = TensorArg(call, 1);
  TensorStructInfo v = TensorArg(call, 2);
  DataType dtype = UnifyDtypes(call, UnifyDtypes(call, q->dtype, k->dtype), v->dtype);
  for (const TensorStructInfo& t : {q, k, v}) {
    if (!t->IsUnknownNdim() && t->ndim != 4) {
      ThrowOpError(call, fmt::format("expected query, key and value of rank 4 (batch, seq, heads, head_dim), got {}",
                                     graph::ToString(t)));
    }
  }
  std::optional<std::string> causal = GetOptionalStringAttr(call, "causal_mask");
  if (causal && *causal != "TopLeft" && *causal != "BottomRight") {
    ThrowOpError(call, fmt::format("causal_mask must be \"TopLeft\" or \"BottomRight\", got \"{}\"", *causal));
  }
  std::optional<Shape> sq = q->GetShape();
  std::optional<Shape> sk = k->GetShape();
  std::optional<Shape> sv = v->GetShape();
  if (!sq || !sk || !sv) return graph::TensorSInfo(dtype, 4);
  CheckAttentionDim(call, builder, *sq, 0, *sk, 0, "batch sizes", "query and key");
  CheckAttentionDim(call, builder, *sq, 0, *sv, 0, "batch sizes", "query and value");
  CheckAttentionDim(call, builder, *sq, 2, *sk, 2, "head counts", "query and key");
  CheckAttentionDim(call, builder, *sq, 2, *sv, 2, "head counts", "query and value");
  CheckAttentionDim(call, builder, *sq, 3, *sk, 3, "head dims", "query and key");
  CheckAttentionDim(call, builder, *sk, 1, *sv, 1, "sequence lengths", "key and value");
  if (call->args.size() == 4) CheckAttentionBias(call, builder, {(*sq)[0], (*sq)[2], (*sq)[1], (*sk)[1]});
  return graph::TensorSInfo(SimplifyShape(builder.analyzer(), {(*sq)[0], (*sq)[1], (*sq)[2], (*sv)[3]}), dtype);
}

std::vector<AttrSpec> NormAttrs(bool with_center_scale) {
  std::vector<AttrSpec> attrs = {{"axes", AttrKind::kIntList, ObjectRef()},
                                 {"epsilon", AttrKind::kFloat, FloatAttr(1e-5)}};
  if (with_center_scale) {
    attrs.push_back({"center", AttrKind::kBool, BoolAttr(true)});
    attrs.push_back({"scale", AttrKind::kBool, BoolAttr(true)});
  }
  return attrs;
}

}  // namespace

void RegisterNNOps() {
  using graph::OpPatternKind;
  for (const char* name : {"nn.softmax", "nn.log_softmax"}) {
    graph::RegisterOp(MakeOpInfo(name, {"data"}, InferSoftmaxSInfo, OpPatternKind::kOutEWiseFusable,
                                 {{"axis", AttrKind::kInt, IntAttr(-1)}}));
  }
  graph::RegisterOp(MakeOpInfo("nn.layer_norm", {"data", "gamma", "beta"}, InferLayerNormSInfo,
                               OpPatternKind::kOutEWiseFusable, NormAttrs(true)));
  std::vector<AttrSpec> rms_attrs = NormAttrs(false);
  rms_attrs[0].default_value = IntListAttr({-1});
  graph::RegisterOp(MakeOpInfo("nn.rms_norm", {"data", "weight"}, InferRmsNormSInfo, OpPatternKind::kOutEWiseFusable,
                               rms_attrs));
  std::vector<AttrSpec> group_attrs = {{"num_groups", AttrKind::kInt, ObjectRef()},
                                       {"channel_axis", AttrKind::kInt, ObjectRef()}};
  for (AttrSpec& spec : NormAttrs(true)) group_attrs.push_back(spec);
  graph::RegisterOp(MakeOpInfo("nn.group_norm", {"data", "gamma", "beta"}, InferGroupNormSInfo,
                               OpPatternKind::kOutEWiseFusable, group_attrs));
  graph::RegisterOp(MakeOpInfo("nn.batch_norm", {"data", "gamma", "beta", "moving_mean", "moving_var"},
                               InferBatchNormSInfo, OpPatternKind::kOutEWiseFusable,
                               {{"axis", AttrKind::kInt, ObjectRef()},
                                {"epsilon", AttrKind::kFloat, FloatAttr(1e-5)},
                                {"center", AttrKind::kBool, BoolAttr(true)},
                                {"scale", AttrKind::kBool, BoolAttr(true)},
                                {"momentum", AttrKind::kFloat, FloatAttr(0.1)}}));
  graph::RegisterOp(MakeOpInfo("nn.dropout", {"data"}, InferDropoutSInfo, OpPatternKind::kOpaque,
                               {{"rate", AttrKind::kFloat, FloatAttr(0.5)}}));
  graph::RegisterOp(MakeOpInfo("nn.pad", {"data"}, InferPadSInfo, OpPatternKind::kInjective,
                               {{"pad_width", AttrKind::kIntList, ObjectRef()},
                                {"pad_value", AttrKind::kFloat, FloatAttr(0.0)},
                                {"pad_mode", AttrKind::kString, StringAttr("constant")}}));
  graph::OpInfo attention = MakeOpInfo("nn.attention", {"query", "key", "value", "bias"}, InferAttentionSInfo,
                                       OpPatternKind::kOpaque,
                                       {{"scale", AttrKind::kOptionalAny, ObjectRef()},
                                        {"causal_mask", AttrKind::kOptionalString, ObjectRef()},
                                        {"window_size", AttrKind::kOptionalInt, ObjectRef()}});
  attention.variadic_args = true;  // bias is optional
  graph::RegisterOp(std::move(attention));
}

}  // namespace detail

namespace nn {
namespace {

using detail::BoolAttr;
using detail::FloatAttr;
using detail::IntAttr;
using detail::IntListAttr;
using detail::MakeOpCall;
using detail::StringAttr;

ir::Dict Attrs(std::vector<ir::DictNode::Item> items) { return make<ir::DictNode>(std::move(items)); }

}  // namespace

Call softmax(Expr data, int64_t axis) { return MakeOpCall("nn.softmax", {std::move(data)}, Attrs({{"axis", IntAttr(axis)}})); }
Call log_softmax(Expr data, int64_t axis) {
  return MakeOpCall("nn.log_softmax", {std::move(data)}, Attrs({{"axis", IntAttr(axis)}}));
}

Call layer_norm(Expr data, Expr gamma, Expr beta, IntList axes, double epsilon, bool center, bool scale) {
  return MakeOpCall("nn.layer_norm", {std::move(data), std::move(gamma), std::move(beta)},
                    Attrs({{"axes", IntListAttr(axes)},
                           {"epsilon", FloatAttr(epsilon)},
                           {"center", BoolAttr(center)},
                           {"scale", BoolAttr(scale)}}));
}

Call rms_norm(Expr data, Expr weight, IntList axes, double epsilon) {
  return MakeOpCall("nn.rms_norm", {std::move(data), std::move(weight)},
                    Attrs({{"axes", IntListAttr(axes)}, {"epsilon", FloatAttr(epsilon)}}));
}

Call group_norm(Expr data, Expr gamma, Expr beta, int64_t num_groups, int64_t channel_axis, IntList axes,
                double epsilon, bool center, bool scale) {
  return MakeOpCall("nn.group_norm", {std::move(data), std::move(gamma), std::move(beta)},
                    Attrs({{"num_groups", IntAttr(num_groups)},
                           {"channel_axis", IntAttr(channel_axis)},
                           {"axes", IntListAttr(axes)},
                           {"epsilon", FloatAttr(epsilon)},
                           {"center", BoolAttr(center)},
                           {"scale", BoolAttr(scale)}}));
}

Call batch_norm(Expr data, Expr gamma, Expr beta, Expr moving_mean, Expr moving_var, int64_t axis, double epsilon,
                bool center, bool scale, double momentum) {
  return MakeOpCall("nn.batch_norm",
                    {std::move(data), std::move(gamma), std::move(beta), std::move(moving_mean), std::move(moving_var)},
                    Attrs({{"axis", IntAttr(axis)},
                           {"epsilon", FloatAttr(epsilon)},
                           {"center", BoolAttr(center)},
                           {"scale", BoolAttr(scale)},
                           {"momentum", FloatAttr(momentum)}}));
}

Call pad(Expr data, IntList pad_width, double pad_value, std::string pad_mode) {
  return MakeOpCall("nn.pad", {std::move(data)},
                    Attrs({{"pad_width", IntListAttr(pad_width)},
                           {"pad_value", FloatAttr(pad_value)},
                           {"pad_mode", StringAttr(pad_mode)}}));
}

Call dropout(Expr data, double rate) {
  return MakeOpCall("nn.dropout", {std::move(data)}, Attrs({{"rate", FloatAttr(rate)}}));
}

Call attention(Expr query, Expr key, Expr value, Expr bias, std::optional<double> scale,
               std::optional<std::string> causal_mask, std::optional<int64_t> window_size) {
  std::vector<Expr> args = {std::move(query), std::move(key), std::move(value)};
  if (bias.defined()) args.push_back(std::move(bias));
  ir::Dict attrs;
  if (scale) attrs = ir::DictWith(attrs, "scale", ir::MakeFloat(*scale, DataType::Float32()));
  if (causal_mask) attrs = ir::DictWith(attrs, "causal_mask", StringAttr(*causal_mask));
  if (window_size) attrs = ir::DictWith(attrs, "window_size", IntAttr(*window_size));
  return MakeOpCall("nn.attention", std::move(args), attrs);
}

}  // namespace nn
}  // namespace rlx::op
