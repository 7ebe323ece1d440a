// image.resize2d(data, size, roi, layout, method,
// coordinate_transformation_mode, rounding_method, cubic_alpha,
// cubic_exclude, extrapolation_value, out_dtype).
//
// Deduction (after TVM's src/relax/op/image/resize.cc): data has rank 4 in a
// permutation of "NCHW"; `size` is a Shape of 1 or 2 values (the output
// height and width; one value means both) given as a ShapeExpr or a
// Shape-typed var. The result keeps N and C and takes H, W from `size`; its
// dtype is out_dtype, or the data's when void. A size whose values are
// unknown keeps only the rank.
#include <fmt/format.h>

#include "attr_util.h"
#include "op_common.h"
#include "rlx/op/nn.h"

namespace rlx::op {
namespace detail {
namespace {

using graph::AttrKind;

void CheckChoice(const Call& call, const std::string& key, const std::string& value,
                 const std::vector<std::string>& choices) {
  for (const std::string& choice : choices) {
    if (value == choice) return;
  }
  ThrowOpError(call, fmt::format("unsupported {} \"{}\"; expected one of: \"{}\"", key, value,
                                 fmt::join(choices, "\", \"")));
}

// The output (height, width) values, or nullopt when unknown.
std::optional<Shape> ResizeSize(const Call& call) {
  StructInfo sinfo = graph::GetStructInfo(call->args[1]);
  const auto* shape = sinfo.as<graph::ShapeStructInfoNode>();
  if (shape == nullptr) {
    ThrowOpError(call, fmt::format("expected a Shape for argument 'size', got {}", graph::ToString(sinfo)));
  }
  if (shape->ndim != -1 && shape->ndim != 1 && shape->ndim != 2) {
    ThrowOpError(call, fmt::format("expected 1 or 2 values for 'size', got {}", graph::ToString(sinfo)));
  }
  if (!shape->values) return std::nullopt;
  Shape values = *shape->values;
  if (values.size() == 1) values.push_back(values[0]);
  return values;
}

StructInfo InferResize2DSInfo(const Call& call, BlockBuilder& builder) {
  CheckNumArgs(call, 2);
  TensorStructInfo data = TensorArg(call, 0);
  std::optional<Shape> size = ResizeSize(call);
  CheckChoice(call, "method", GetStringAttr(call, "method", "linear"), {"nearest_neighbor", "linear", "cubic"});
  CheckChoice(call, "coordinate_transformation_mode",
              GetStringAttr(call, "coordinate_transformation_mode", "half_pixel"),
              {"half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel", "tf_half_pixel_for_nn",
               "tf_crop_and_resize"});
  CheckChoice(call, "rounding_method", GetStringAttr(call, "rounding_method", "round"),
              {"", "round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil"});
  std::vector<int> pos = LayoutPositions(call, "layout", GetStringAttr(call, "layout", "NCHW"), "NCHW");
  DataType dtype = GetDataTypeAttr(call, "out_dtype", DataType::Void());
  if (dtype.is_void()) dtype = data->dtype;
  if (!data->IsUnknownNdim() && data->ndim != 4) {
    ThrowOpError(call, fmt::format("expected data of rank 4, got {}", graph::ToString(data)));
  }
  std::optional<Shape> shape = data->GetShape();
  if (!shape || !size) return graph::TensorSInfo(dtype, 4);
  Shape out = *shape;
  out[pos[2]] = (*size)[0];
  out[pos[3]] = (*size)[1];
  return graph::TensorSInfo(SimplifyShape(builder.analyzer(), out), dtype);
}

ObjectRef RoiAttr(const std::vector<double>& roi) {
  std::vector<ObjectRef> values;
  for (double v : roi) values.push_back(ir::MakeFloat(v, DataType::Float32()));
  return make<ir::ArrayNode>(std::move(values));
}

}  // namespace

void RegisterImageOps() {
  graph::RegisterOp(MakeOpInfo("image.resize2d", {"data", "size"}, InferResize2DSInfo,
                               graph::OpPatternKind::kInjective,
                               {{"roi", AttrKind::kAny, RoiAttr({0.0, 0.0, 0.0, 0.0})},
                                {"layout", AttrKind::kString, StringAttr("NCHW")},
                                {"method", AttrKind::kString, StringAttr("linear")},
                                {"coordinate_transformation_mode", AttrKind::kString, StringAttr("half_pixel")},
                                {"rounding_method", AttrKind::kString, StringAttr("round")},
                                {"cubic_alpha", AttrKind::kFloat, FloatAttr(-0.5)},
                                {"cubic_exclude", AttrKind::kInt, IntAttr(0)},
                                {"extrapolation_value", AttrKind::kFloat, FloatAttr(0.0)},
                                {"out_dtype", AttrKind::kDataType, DataTypeAttr(DataType::Void())}}));
}

}  // namespace detail

namespace image {

Call resize2d(Expr data, Expr size, const Resize2DAttrs& attrs) {
  using namespace detail;  // NOLINT: attribute helpers
  std::vector<ir::DictNode::Item> items = {
      {"roi", RoiAttr(attrs.roi)},
      {"layout", StringAttr(attrs.layout)},
      {"method", StringAttr(attrs.method)},
      {"coordinate_transformation_mode", StringAttr(attrs.coordinate_transformation_mode)},
      {"rounding_method", StringAttr(attrs.rounding_method)},
      {"cubic_alpha", FloatAttr(attrs.cubic_alpha)},
      {"cubic_exclude", IntAttr(attrs.cubic_exclude)},
      {"extrapolation_value", FloatAttr(attrs.extrapolation_value)},
      {"out_dtype", DataTypeAttr(attrs.out_dtype)}};
  return MakeOpCall("image.resize2d", {std::move(data), std::move(size)}, make<ir::DictNode>(std::move(items)));
}

}  // namespace image
}  // namespace rlx::op
