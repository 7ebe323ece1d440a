// rlx.dnnl.conv2d: a 2-d convolution (NCHW data, OIHW weight; or NHWC data,
// OHWI weight when attrs has a tenth value 1) with fused bias and post-ops
// through oneDNN's convolution_forward; see
// rlx/runtime/contrib/dnnl.h for the calling convention.
//
// The weights get oneDNN's preferred layout (format_tag::any) when they are
// constant, reordered once and cached; otherwise the plain OIHW array is
// used as it is. The activations stay NCHW at the call boundary: the
// primitive runs on NCHW directly (default) or, with RLX_DNNL_LAYOUT=blocked,
// on its preferred layout with reorders in and out inside the call.
#ifdef RLX_USE_DNNL  // compiled only with oneDNN (CMake option RLX_USE_DNNL)
#include <cstdlib>
#include <string>

#include "rlx/runtime/error.h"
#include "dnnl_common.h"

namespace rlx::runtime::contrib::dnnl_impl {
namespace {

constexpr const char* kFunc = "rlx.dnnl.conv2d";

struct ConvAttrs {
  int64_t stride_h, stride_w, pad_top, pad_left, pad_bottom, pad_right, dilation_h, dilation_w, groups;
  bool nhwc = false;  // NHWC data and out, OHWI weight
};

// A 4-d shape in the call's layout as oneDNN's logical (N, C, H, W) /
// (O, I, KH, KW) order.
ShapeTuple LogicalNCHW(const ShapeTuple& shape, bool channels_last) {
  if (!channels_last) return shape;
  return ShapeTuple{shape[0], shape[3], shape[1], shape[2]};
}

ConvAttrs ReadAttrs(const ShapeTuple& attrs) {
  if (attrs.size() != 9 && !(attrs.size() == 10 && (attrs[9] == 0 || attrs[9] == 1))) {
    throw RuntimeError(StrCat("'", kFunc, "': attrs must have 9 values (strides, padding, dilation, groups), "
                              "optionally a tenth (layout: 0 NCHW/OIHW, 1 NHWC/OHWI), got ",
                              ShapeToString(attrs)));
  }
  ConvAttrs a{attrs[0], attrs[1], attrs[2], attrs[3], attrs[4], attrs[5], attrs[6], attrs[7], attrs[8],
              attrs.size() == 10 && attrs[9] == 1};
  if (a.stride_h < 1 || a.stride_w < 1 || a.dilation_h < 1 || a.dilation_w < 1 || a.groups < 1 || a.pad_top < 0 ||
      a.pad_left < 0 || a.pad_bottom < 0 || a.pad_right < 0) {
    throw RuntimeError(StrCat("'", kFunc, "': bad attrs ", ShapeToString(attrs),
                              " (strides, dilation and groups must be >= 1, padding >= 0)"));
  }
  return a;
}

bool UseBlockedLayout() {
  static const bool blocked = [] {
    const char* value = std::getenv("RLX_DNNL_LAYOUT");
    return value != nullptr && std::string(value) == "blocked";
  }();
  return blocked;
}

int64_t OutputExtent(int64_t in, int64_t pad_begin, int64_t pad_end, int64_t dilation, int64_t kernel,
                     int64_t stride) {
  int64_t span = in + pad_begin + pad_end - dilation * (kernel - 1) - 1;
  return span < 0 ? 0 : span / stride + 1;
}

// Throws unless data, weight and out agree with the attributes.
void CheckShapes(const NDArray& data, const NDArray& weight, const NDArray& out, const ConvAttrs& a) {
  const ShapeTuple x = LogicalNCHW(data.shape(), a.nhwc);
  const ShapeTuple w = LogicalNCHW(weight.shape(), a.nhwc);
  auto fail = [&](const std::string& why) {
    throw RuntimeError(StrCat("'", kFunc, "': ", why, " (data ", ShapeToString(x), ", weight ", ShapeToString(w),
                              ", out ", ShapeToString(out.shape()), ", groups ", a.groups, ")"));
  };
  if (x[1] % a.groups != 0 || w[0] % a.groups != 0) fail("channels are not divisible by groups");
  if (w[1] * a.groups != x[1]) fail("the weight's input channels times groups differ from the data's channels");
  int64_t oh = OutputExtent(x[2], a.pad_top, a.pad_bottom, a.dilation_h, w[2], a.stride_h);
  int64_t ow = OutputExtent(x[3], a.pad_left, a.pad_right, a.dilation_w, w[3], a.stride_w);
  if (oh < 1 || ow < 1) fail("the kernel is larger than the padded input");
  ShapeTuple expected = a.nhwc ? ShapeTuple{x[0], oh, ow, w[0]} : ShapeTuple{x[0], w[0], oh, ow};
  if (out.shape() != expected) fail(StrCat("the output must have shape ", ShapeToString(expected)));
}

// The oneDNN format tags of the call's data / weight layouts.
struct ConvTags {
  dnnl::memory::format_tag activation, weight;
};

ConvTags UserTags(bool nhwc, bool grouped) {
  using tag = dnnl::memory::format_tag;
  if (nhwc) return {tag::nhwc, grouped ? tag::gohwi : tag::ohwi};
  return {tag::nchw, grouped ? tag::goihw : tag::oihw};
}

// x, w, y: the logical (N, C, H, W) / (O, I, KH, KW) shapes.
std::shared_ptr<CachedPrimitive> MakeConv(const ShapeTuple& x, const ShapeTuple& w, const ShapeTuple& y,
                                          const ConvAttrs& a, const std::vector<PostOp>& post_ops,
                                          bool weight_is_const) {
  using dnnl::memory;
  using tag = memory::format_tag;
  auto f32 = memory::data_type::f32;
  bool grouped = a.groups > 1;
  memory::dims weight_dims = grouped ? memory::dims{a.groups, w[0] / a.groups, w[1], w[2], w[3]} : ToDims(w);
  ConvTags user = UserTags(a.nhwc, grouped);
  auto entry = std::make_shared<CachedPrimitive>();
  entry->user_src_desc = memory::desc(ToDims(x), f32, user.activation);
  entry->user_dst_desc = memory::desc(ToDims(y), f32, user.activation);
  entry->user_weights_desc = memory::desc(weight_dims, f32, user.weight);
  bool blocked = UseBlockedLayout();
  memory::desc src_md(ToDims(x), f32, blocked ? tag::any : user.activation);
  memory::desc dst_md(ToDims(y), f32, blocked ? tag::any : user.activation);
  memory::desc weights_md(weight_dims, f32, weight_is_const ? tag::any : user.weight);
  memory::dims strides = {a.stride_h, a.stride_w};
  memory::dims dilates = {a.dilation_h - 1, a.dilation_w - 1};
  memory::dims pad_l = {a.pad_top, a.pad_left};
  memory::dims pad_r = {a.pad_bottom, a.pad_right};
  auto prop = dnnl::prop_kind::forward_inference;
  auto alg = dnnl::algorithm::convolution_direct;
  std::unique_ptr<dnnl::convolution_forward::desc> desc;
  if (HasBias(post_ops)) {
    entry->bias_desc = memory::desc({w[0]}, f32, tag::a);
    desc = std::make_unique<dnnl::convolution_forward::desc>(prop, alg, src_md, weights_md, entry->bias_desc, dst_md,
                                                             strides, dilates, pad_l, pad_r);
  } else {
    desc = std::make_unique<dnnl::convolution_forward::desc>(prop, alg, src_md, weights_md, dst_md, strides, dilates,
                                                             pad_l, pad_r);
  }
  BuildPrimitive<dnnl::convolution_forward>(*entry, *desc, post_ops, /*may_split_post_ops=*/!blocked);
  return entry;
}

Value Conv2d(const Args& args) {
  if (args.size() < 6) throw RuntimeError(StrCat("'", kFunc, "' expects at least 6 arguments, got ", args.size()));
  const NDArray& data = args.GetNDArray(0);
  const NDArray& weight = args.GetNDArray(1);
  ConvAttrs attrs = ReadAttrs(args.GetShape(2));
  std::vector<PostOp> post_ops = ParsePostOps(args.GetString(3), kFunc);
  bool weight_is_const = args.GetInt(4) != 0;
  args.CheckCount(6 + CountExtraTensors(post_ops));
  const NDArray& out = args.GetNDArray(args.size() - 1);
  CheckTensor(kFunc, "data", data, 4);
  CheckTensor(kFunc, "weight", weight, 4);
  CheckTensor(kFunc, "out", out, 4);
  CheckShapes(data, weight, out, attrs);
  auto [bias, residual] = ConvExtraTensors(kFunc, args, post_ops, weight.shape()[0], out);
  std::string key = StrCat("conv2d|", DimsToString(ToDims(data.shape())), "|", DimsToString(ToDims(weight.shape())),
                           "|", DimsToString(ToDims(args.GetShape(2))), "|", args.GetString(3), "|", weight_is_const);
  auto entry = LookupPrimitive(key, [&] {
    return MakeConv(LogicalNCHW(data.shape(), attrs.nhwc), LogicalNCHW(weight.shape(), attrs.nhwc),
                    LogicalNCHW(out.shape(), attrs.nhwc), attrs, post_ops, weight_is_const);
  });
  SyncThreadCount();
  std::lock_guard<std::mutex> lock(entry->mutex);
  dnnl::memory weights = PrepareWeights(*entry, weight, weight_is_const);
  Execute(*entry, data, weights, bias, residual, out);
  return Value();
}

}  // namespace

void RegisterConv2d() { Registry::Register(kFunc, Conv2d, true); }

}  // namespace rlx::runtime::contrib::dnnl_impl

#endif  // RLX_USE_DNNL
