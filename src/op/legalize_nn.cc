// Legalization of the nn, statistical, image and einsum operators: each
// call becomes R.call_tir of a PrimFunc built from its TE computation
// (include/rlx/op/te_compute.h), with the attributes normalized exactly as
// the struct-info rules read them. Symbolic shapes flow from the arguments'
// struct info into the placeholders, so one PrimFunc serves every size.
//
// An operator whose arguments lack a known shape (only a rank), or whose
// attributes ask for something the TE computation does not implement
// (attention's window_size), is left as it is:
// legalization returns the call unchanged, as TVM's does for what it cannot
// lower.
#include "legalize_nn.h"

#include <fmt/format.h>

#include "attr_util.h"
#include "op_common.h"
#include "rlx/op/legalize.h"
#include "rlx/op/te_compute.h"

namespace rlx::op::detail {
namespace {

using compute::Tensor;
using Shapes = std::vector<std::vector<ir::PrimExpr>>;

std::vector<int> Positions(const Call& call, const std::string& key, const std::string& fallback,
                           const std::string& canonical) {
  return LayoutPositions(call, key, GetStringAttr(call, key, fallback), canonical);
}

int Rank(const Call& call, size_t index) {
  return graph::GetStructInfo(call->args[index]).as<graph::TensorStructInfoNode>()->ndim;
}

std::vector<int> NormalizedAxes(const Call& call, const std::string& key, int ndim, std::vector<int64_t> fallback) {
  return NormalizeAxes(call, GetIntListAttr(call, key, fallback), ndim);
}

DataType OutDtype(const Call& call) {
  DataType dtype = GetDataTypeAttr(call, "out_dtype", DataType::Void());
  if (!dtype.is_void()) return dtype;
  return graph::GetStructInfo(call->args[0]).as<graph::TensorStructInfoNode>()->dtype;
}

// A spec named after the operator ("nn.conv2d" -> "conv2d").
LegalizeSpec NamedSpec(const Call& call) {
  std::string name = OpName(call);
  LegalizeSpec spec;
  spec.name = name.substr(name.rfind('.') + 1);
  return spec;
}

std::optional<LegalizeSpec> SoftmaxSpec(const Call& call) {
  std::string name = OpName(call);
  LegalizeSpec spec = NamedSpec(call);
  int axis = NormalizeAxis(call, GetIntAttr(call, "axis", -1), Rank(call, 0));
  bool log = name == "nn.log_softmax";
  spec.compute = [axis, log](const std::vector<Tensor>& in, const Shapes&) {
    return std::vector<Tensor>{log ? compute::LogSoftmax(in[0], axis) : compute::Softmax(in[0], axis)};
  };
  return spec;
}

std::optional<LegalizeSpec> LayerNormSpec(const Call& call) {
  LegalizeSpec spec = NamedSpec(call);
  std::vector<int> axes = NormalizedAxes(call, "axes", Rank(call, 0), {-1});
  double eps = GetFloatAttr(call, "epsilon", 1e-5);
  bool center = GetBoolAttr(call, "center", true), scale = GetBoolAttr(call, "scale", true);
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes&) {
    return std::vector<Tensor>{
        compute::LayerNorm(in[0], scale ? in[1] : Tensor(), center ? in[2] : Tensor(), axes, eps)};
  };
  return spec;
}

std::optional<LegalizeSpec> RmsNormSpec(const Call& call) {
  LegalizeSpec spec = NamedSpec(call);
  std::vector<int> axes = NormalizedAxes(call, "axes", Rank(call, 0), {-1});
  double eps = GetFloatAttr(call, "epsilon", 1e-5);
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes&) {
    return std::vector<Tensor>{compute::RmsNorm(in[0], in[1], axes, eps)};
  };
  return spec;
}

std::optional<LegalizeSpec> GroupNormSpec(const Call& call) {
  LegalizeSpec spec = NamedSpec(call);
  int ndim = Rank(call, 0);
  std::vector<int> axes = NormalizedAxes(call, "axes", ndim, {});
  int channel_axis = NormalizeAxis(call, GetIntAttr(call, "channel_axis", 1), ndim);
  int64_t groups = GetIntAttr(call, "num_groups", 1);
  double eps = GetFloatAttr(call, "epsilon", 1e-5);
  bool center = GetBoolAttr(call, "center", true), scale = GetBoolAttr(call, "scale", true);
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes&) {
    return std::vector<Tensor>{compute::GroupNorm(in[0], scale ? in[1] : Tensor(), center ? in[2] : Tensor(),
                                                  groups, channel_axis, axes, eps)};
  };
  return spec;
}

std::optional<LegalizeSpec> BatchNormSpec(const Call& call) {
  LegalizeSpec spec = NamedSpec(call);
  int axis = NormalizeAxis(call, GetIntAttr(call, "axis", 1), Rank(call, 0));
  double eps = GetFloatAttr(call, "epsilon", 1e-5);
  bool center = GetBoolAttr(call, "center", true), scale = GetBoolAttr(call, "scale", true);
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes&) {
    return compute::BatchNorm(in[0], scale ? in[1] : Tensor(), center ? in[2] : Tensor(), in[3], in[4], axis, eps);
  };
  return spec;
}

std::optional<LegalizeSpec> PadSpec(const Call& call) {
  LegalizeSpec spec = NamedSpec(call);
  std::vector<int64_t> widths = GetIntListAttr(call, "pad_width");
  double value = GetFloatAttr(call, "pad_value", 0.0);
  std::string mode = GetStringAttr(call, "pad_mode", "constant");
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes&) {
    return std::vector<Tensor>{compute::Pad(in[0], widths, value, mode)};
  };
  return spec;
}

std::optional<LegalizeSpec> DropoutSpec(const Call& call) {
  LegalizeSpec spec = NamedSpec(call);
  // Inference: the data passes unchanged and the mask keeps everything.
  spec.compute = [](const std::vector<Tensor>& in, const Shapes&) {
    return compute::DropoutInference(in[0]);
  };
  return spec;
}

std::optional<LegalizeSpec> AttentionSpec(const Call& call) {
  LegalizeSpec spec = NamedSpec(call);
  if (GetOptionalIntAttr(call, "window_size")) return std::nullopt;
  std::optional<double> scale = GetOptionalFloatAttr(call, "scale");
  std::optional<std::string> causal = GetOptionalStringAttr(call, "causal_mask");
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes&) {
    return std::vector<Tensor>{
        compute::Attention(in[0], in[1], in[2], in.size() > 3 ? in[3] : Tensor(), scale, causal)};
  };
  return spec;
}

std::optional<LegalizeSpec> ConvSpec(const Call& call) {
  std::string name = OpName(call);
  LegalizeSpec spec = NamedSpec(call);
  bool transpose = name == "nn.conv2d_transpose";
  size_t spatial = name == "nn.conv1d" ? 1 : name == "nn.conv3d" ? 3 : 2;
  const char* data_canonical_by_rank[] = {"NCW", "NCHW", "NCDHW"};
  const char* kernel_canonical_by_rank[] = {"OIW", "OIHW", "OIDHW"};
  std::string data_canonical = data_canonical_by_rank[spatial - 1];
  std::string kernel_canonical = kernel_canonical_by_rank[spatial - 1];
  compute::ConvParams p;
  p.strides = ExpandToRank(call, "strides", GetIntListAttr(call, "strides", {1}), spatial);
  p.dilation = ExpandToRank(call, "dilation", GetIntListAttr(call, "dilation", {1}), spatial);
  p.padding = CompletePadding(call, GetIntListAttr(call, "padding", {0}), spatial);
  p.output_padding = transpose ? ExpandToRank(call, "output_padding", GetIntListAttr(call, "output_padding", {0}), spatial)
                               : std::vector<int64_t>(spatial, 0);
  p.groups = GetIntAttr(call, "groups", 1);
  std::string data_layout = GetStringAttr(call, "data_layout", data_canonical);
  p.data_pos = LayoutPositions(call, "data_layout", data_layout, data_canonical);
  p.kernel_pos = Positions(call, "kernel_layout", transpose ? "IOHW" : kernel_canonical, kernel_canonical);
  p.out_pos = LayoutPositions(call, "out_layout", GetOptionalStringAttr(call, "out_layout").value_or(data_layout),
                              data_canonical);
  p.out_dtype = OutDtype(call);
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes&) {
    return std::vector<Tensor>{transpose ? compute::ConvTranspose(in[0], in[1], p) : compute::Conv(in[0], in[1], p)};
  };
  return spec;
}

std::optional<LegalizeSpec> PoolSpec(const Call& call) {
  std::string name = OpName(call);
  LegalizeSpec spec = NamedSpec(call);
  compute::PoolParams p;
  bool is_3d = name == "nn.max_pool3d" || name == "nn.avg_pool3d";
  size_t spatial = is_3d ? 3 : 2;
  std::string canonical = is_3d ? "NCDHW" : "NCHW";
  p.pool_size = ExpandToRank(call, "pool_size", GetIntListAttr(call, "pool_size", {1}), spatial);
  p.strides = ExpandToRank(call, "strides", GetIntListAttr(call, "strides", {1}), spatial);
  p.dilation = ExpandToRank(call, "dilation", GetIntListAttr(call, "dilation", {1}), spatial);
  p.padding = CompletePadding(call, GetIntListAttr(call, "padding", {0}), spatial);
  p.ceil_mode = GetBoolAttr(call, "ceil_mode", false);
  p.count_include_pad = GetBoolAttr(call, "count_include_pad", false);
  std::string layout = GetStringAttr(call, "layout", canonical);
  p.pos = LayoutPositions(call, "layout", layout, canonical);
  p.out_pos = LayoutPositions(call, "out_layout", GetOptionalStringAttr(call, "out_layout").value_or(layout), canonical);
  bool is_max = name == "nn.max_pool2d" || name == "nn.max_pool3d";
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes&) {
    return std::vector<Tensor>{is_max ? compute::MaxPool2D(in[0], p) : compute::AvgPool2D(in[0], p)};
  };
  return spec;
}

std::optional<LegalizeSpec> AdaptivePoolSpec(const Call& call) {
  LegalizeSpec spec = NamedSpec(call);
  std::string layout = GetStringAttr(call, "layout", "NCHW");
  std::vector<int> pos = LayoutPositions(call, "layout", layout, "NCHW");
  std::vector<int> out_pos =
      LayoutPositions(call, "out_layout", GetOptionalStringAttr(call, "out_layout").value_or(layout), "NCHW");
  std::optional<std::vector<int64_t>> size = GetOptionalIntListAttr(call, "output_size");
  if (size) size = ExpandToRank(call, "output_size", *size, 2);
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes&) {
    return std::vector<Tensor>{compute::AdaptiveAvgPool2D(in[0], size, pos, out_pos)};
  };
  return spec;
}

std::optional<LegalizeSpec> VarianceSpec(const Call& call) {
  std::string name = OpName(call);
  LegalizeSpec spec = NamedSpec(call);
  int ndim = Rank(call, 0);
  std::optional<std::vector<int64_t>> axis = GetOptionalIntListAttr(call, "axis");
  std::vector<int> axes;
  if (axis) {
    axes = NormalizeAxes(call, *axis, ndim);
  } else {
    for (int d = 0; d < ndim; ++d) axes.push_back(d);
  }
  bool keepdims = GetBoolAttr(call, "keepdims", false);
  bool is_std = name == "std";
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes&) {
    return std::vector<Tensor>{is_std ? compute::Std(in[0], axes, keepdims) : compute::Variance(in[0], axes, keepdims)};
  };
  return spec;
}

std::optional<LegalizeSpec> ArgReduceSpec(const Call& call) {
  std::string name = OpName(call);
  LegalizeSpec spec = NamedSpec(call);
  std::optional<int64_t> axis = GetOptionalIntAttr(call, "axis");
  std::optional<int> normalized;
  if (axis) normalized = NormalizeAxis(call, *axis, Rank(call, 0));
  bool keepdims = GetBoolAttr(call, "keepdims", false);
  bool is_max = name == "argmax";
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes&) {
    return std::vector<Tensor>{compute::ArgReduce(in[0], normalized, keepdims, is_max)};
  };
  return spec;
}

std::optional<LegalizeSpec> CumsumSpec(const Call& call) {
  LegalizeSpec spec = NamedSpec(call);
  std::optional<int64_t> axis = GetOptionalIntAttr(call, "axis");
  std::optional<int> normalized;
  if (axis) normalized = NormalizeAxis(call, *axis, Rank(call, 0));
  DataType dtype = GetDataTypeAttr(call, "dtype", DataType::Void());
  if (dtype.is_void()) dtype = graph::GetStructInfo(call->args[0]).as<graph::TensorStructInfoNode>()->dtype;
  bool exclusive = GetBoolAttr(call, "exclusive", false);
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes&) {
    return std::vector<Tensor>{compute::Cumsum(in[0], normalized, dtype, exclusive)};
  };
  return spec;
}

std::optional<LegalizeSpec> EinsumSpec(const Call& call) {
  LegalizeSpec spec = NamedSpec(call);
  std::string subscripts = GetStringAttr(call, "subscripts", "");
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes&) {
    return std::vector<Tensor>{compute::Einsum(in, subscripts)};
  };
  return spec;
}

// resize2d's roi (start_h, start_w, end_h, end_w): 4 numbers, or nullopt
// when it is something else (left unlegalized).
std::optional<std::vector<double>> RoiValues(const Call& call) {
  ObjectRef roi = FindAttr(call, "roi");
  if (!roi.defined()) return std::vector<double>{0.0, 0.0, 0.0, 0.0};
  const auto* array = roi.as<ir::ArrayNode>();
  if (array == nullptr || array->elements.size() != 4) return std::nullopt;
  std::vector<double> values;
  for (const ObjectRef& element : array->elements) {
    if (const auto* f = element.as<ir::FloatImmNode>()) {
      values.push_back(f->value);
    } else if (const auto* i = element.as<ir::IntImmNode>()) {
      values.push_back(static_cast<double>(i->value));
    } else {
      return std::nullopt;
    }
  }
  return values;
}

std::optional<LegalizeSpec> Resize2DSpec(const Call& call) {
  LegalizeSpec spec = NamedSpec(call);
  compute::ResizeParams p;
  p.pos = LayoutPositions(call, "layout", GetStringAttr(call, "layout", "NCHW"), "NCHW");
  p.method = GetStringAttr(call, "method", "linear");
  p.coordinate_transformation_mode = GetStringAttr(call, "coordinate_transformation_mode", "half_pixel");
  p.rounding_method = GetStringAttr(call, "rounding_method", "round");
  p.out_dtype = OutDtype(call);
  p.cubic_alpha = GetFloatAttr(call, "cubic_alpha", -0.5);
  p.cubic_exclude = GetIntAttr(call, "cubic_exclude", 0) != 0;
  p.extrapolation_value = GetFloatAttr(call, "extrapolation_value", 0.0);
  std::optional<std::vector<double>> roi = RoiValues(call);
  if (!roi) return std::nullopt;
  p.roi = *roi;
  const auto* size = graph::GetStructInfo(call->args[1]).as<graph::ShapeStructInfoNode>();
  if (size == nullptr || !size->values) return std::nullopt;
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes& shapes) {
    std::vector<ir::PrimExpr> values = shapes[0];
    if (values.size() == 1) values.push_back(values[0]);
    return std::vector<Tensor>{compute::Resize2D(in[0], values, p)};
  };
  return spec;
}

// topk's K: k, or the whole axis when k <= 0 or k is not below a constant
// axis dim (the struct-info rule).
ir::PrimExpr TopKCount(const Tensor& x, int axis, int64_t k) {
  std::optional<int64_t> dim = ir::AsConstInt(x.shape()[axis]);
  if (k > 0 && (!dim || k < *dim)) return ir::MakeInt(k);
  return x.shape()[axis];
}

DataType IndexDtype(const Call& call) {
  DataType dtype = GetDataTypeAttr(call, "dtype", DataType::Int32());
  return dtype.is_void() ? graph::GetStructInfo(call->args[0]).as<graph::TensorStructInfoNode>()->dtype : dtype;
}

std::optional<LegalizeSpec> TopKSpec(const Call& call) {
  LegalizeSpec spec = NamedSpec(call);
  int axis = NormalizeAxis(call, GetIntAttr(call, "axis", -1), Rank(call, 0));
  int64_t k = GetIntAttr(call, "k", 1);
  bool largest = GetBoolAttr(call, "largest", true);
  std::string ret_type = GetStringAttr(call, "ret_type", "both");
  DataType index_dtype = IndexDtype(call);
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes&) {
    std::vector<Tensor> both = compute::TopK(in[0], TopKCount(in[0], axis, k), axis, largest, index_dtype);
    if (ret_type == "values") return std::vector<Tensor>{both[0]};
    if (ret_type == "indices") return std::vector<Tensor>{both[1]};
    return both;
  };
  return spec;
}

std::optional<LegalizeSpec> SortSpec(const Call& call) {
  LegalizeSpec spec = NamedSpec(call);
  int axis = NormalizeAxis(call, GetIntAttr(call, "axis", -1), Rank(call, 0));
  bool descending = GetBoolAttr(call, "descending", false);
  bool indices = OpName(call) == "argsort";
  DataType index_dtype = indices ? IndexDtype(call) : DataType::Void();
  spec.compute = [=](const std::vector<Tensor>& in, const Shapes&) {
    return std::vector<Tensor>{indices ? compute::Argsort(in[0], axis, descending, index_dtype)
                                       : compute::Sort(in[0], axis, descending)};
  };
  return spec;
}

using SpecBuilder = std::optional<LegalizeSpec> (*)(const Call& call);

// The legalized operators (names without "relax.") and their spec builders.
const std::vector<std::pair<std::string, SpecBuilder>>& SpecTable() {
  static const std::vector<std::pair<std::string, SpecBuilder>> table = {
      {"nn.softmax", SoftmaxSpec},
      {"nn.log_softmax", SoftmaxSpec},
      {"nn.layer_norm", LayerNormSpec},
      {"nn.rms_norm", RmsNormSpec},
      {"nn.group_norm", GroupNormSpec},
      {"nn.batch_norm", BatchNormSpec},
      {"nn.pad", PadSpec},
      {"nn.dropout", DropoutSpec},
      {"nn.attention", AttentionSpec},
      {"nn.conv1d", ConvSpec},
      {"nn.conv3d", ConvSpec},
      {"nn.conv2d", ConvSpec},
      {"nn.conv2d_transpose", ConvSpec},
      {"nn.max_pool2d", PoolSpec},
      {"nn.avg_pool2d", PoolSpec},
      {"nn.adaptive_avg_pool2d", AdaptivePoolSpec},
      {"variance", VarianceSpec},
      {"std", VarianceSpec},
      {"argmax", ArgReduceSpec},
      {"argmin", ArgReduceSpec},
      {"cumsum", CumsumSpec},
      {"einsum", EinsumSpec},
      {"image.resize2d", Resize2DSpec},
      {"topk", TopKSpec},
      {"sort", SortSpec},
      {"argsort", SortSpec},
      {"nn.max_pool3d", PoolSpec},
      {"nn.avg_pool3d", PoolSpec},
  };
  return table;
}

}  // namespace

std::optional<LegalizeSpec> NNLegalizeSpec(const Call& call) {
  std::string name = OpName(call);
  for (const auto& [op, make_spec] : SpecTable()) {
    if (op == name) return make_spec(call);
  }
  return std::nullopt;
}

namespace {

// Does every tensor argument (and tuple field) have a known shape? Only
// then can the attributes be normalized against ranks.
bool ArgShapesKnown(const Call& call) {
  for (const Expr& arg : call->args) {
    StructInfo sinfo = graph::GetStructInfo(arg);
    std::vector<StructInfo> parts = {sinfo};
    if (const auto* tuple = sinfo.as<graph::TupleStructInfoNode>()) parts = tuple->fields;
    for (const StructInfo& part : parts) {
      const auto* tensor = part.as<graph::TensorStructInfoNode>();
      if (tensor != nullptr && !tensor->GetShape()) return false;
    }
  }
  return true;
}

Expr LegalizeNNCall(BlockBuilder& builder, const Call& call) {
  if (!ArgShapesKnown(call)) return call;
  std::optional<LegalizeSpec> spec = NNLegalizeSpec(call);
  if (!spec) return call;
  // Tensors in argument order (einsum's operand tuple spread into its
  // fields), and the Shape arguments.
  auto fcompute = [&](const TEArgs& te_args) {
    std::vector<Tensor> tensors;
    Shapes shapes;
    for (const TEArg& arg : te_args) {
      if (arg.is_tensor()) tensors.push_back(arg.tensor());
      if (arg.is_tensors()) tensors.insert(tensors.end(), arg.tensors().begin(), arg.tensors().end());
      if (arg.is_shape()) shapes.push_back(arg.shape());
    }
    return spec->compute(tensors, shapes);
  };
  if (call->struct_info.isa<graph::TupleStructInfoNode>()) return CallTEMulti(builder, call, spec->name, fcompute);
  return CallTE(builder, call, spec->name, [&](const TEArgs& te_args) { return fcompute(te_args)[0]; });
}

}  // namespace

void RegisterNNLegalizations() {
  for (const auto& [name, make_spec] : SpecTable()) {
    graph::SetOpLegalize(std::string("relax.") + name, LegalizeNNCall);
  }
}

}  // namespace rlx::op::detail
