// rlx.dnnl.conv2d_transpose: R.nn.conv2d_transpose (NCHW data, IOHW weight)
// with fused bias and post-ops through oneDNN's deconvolution_forward; see
// rlx/runtime/contrib/dnnl.h for the calling convention.
//
// oneDNN's deconvolution is the same scatter as TVM's conv2d_transpose:
// out[oh] += data[ih] * weight[kh] where oh = ih * stride - pad_begin +
// kh * dilation. Its weight is logically (O, I, KH, KW) (grouped: (G, O/G,
// I/G, KH, KW)); Relax's IOHW array is exactly that with the format tag
// iohw (grouped: giohw, since IOHW with I = G * I/G is G, I/G, O/G, ...), so
// no copy is needed. TVM's output_padding adds rows and columns at the end,
// which for oneDNN is a smaller right padding (pad_end - output_padding,
// negative when output_padding > pad_end: oneDNN computes those outputs
// like any other, from the kernel taps that reach them).
//
// As for conv2d, a constant weight is reordered once into oneDNN's preferred
// layout and cached; the activations stay NCHW. On NCHW oneDNN 2.6 picks a
// gemm-based deconvolution which applies fused post-ops with a reference
// loop (on PaddleOCR's det head 100 ms against 10 ms for the deconvolution
// itself), so then only the bias is fused and the other steps run
// afterwards as the entry's epilogue (dnnl_common.h).
#ifdef RLX_USE_DNNL  // compiled only with oneDNN (CMake option RLX_USE_DNNL)
#include <string>

#include "dnnl_common.h"
#include "rlx/runtime/error.h"

namespace rlx::runtime::contrib::dnnl_impl {
namespace {

constexpr const char* kFunc = "rlx.dnnl.conv2d_transpose";

struct DeconvAttrs {
  int64_t stride_h, stride_w, pad_top, pad_left, pad_bottom, pad_right, output_padding_h, output_padding_w,
      dilation_h, dilation_w, groups;
};

DeconvAttrs ReadAttrs(const ShapeTuple& attrs) {
  if (attrs.size() != 11) {
    throw RuntimeError(StrCat("'", kFunc,
                              "': attrs must have 11 values (strides, padding, output_padding, dilation, groups), got ",
                              ShapeToString(attrs)));
  }
  DeconvAttrs a{attrs[0], attrs[1], attrs[2], attrs[3], attrs[4], attrs[5],
                attrs[6], attrs[7], attrs[8], attrs[9], attrs[10]};
  if (a.stride_h < 1 || a.stride_w < 1 || a.dilation_h < 1 || a.dilation_w < 1 || a.groups < 1 || a.pad_top < 0 ||
      a.pad_left < 0 || a.pad_bottom < 0 || a.pad_right < 0 || a.output_padding_h < 0 || a.output_padding_w < 0) {
    throw RuntimeError(StrCat("'", kFunc, "': bad attrs ", ShapeToString(attrs),
                              " (strides, dilation and groups must be >= 1, padding and output_padding >= 0)"));
  }
  return a;
}

int64_t OutputExtent(int64_t in, int64_t pad_begin, int64_t pad_end, int64_t output_padding, int64_t dilation,
                     int64_t kernel, int64_t stride) {
  return (in - 1) * stride - pad_begin - pad_end + dilation * (kernel - 1) + output_padding + 1;
}

// Throws unless data, weight and out agree with the attributes.
void CheckShapes(const NDArray& data, const NDArray& weight, const NDArray& out, const DeconvAttrs& a) {
  const ShapeTuple& x = data.shape();
  const ShapeTuple& w = weight.shape();
  auto fail = [&](const std::string& why) {
    throw RuntimeError(StrCat("'", kFunc, "': ", why, " (data ", ShapeToString(x), ", weight ", ShapeToString(w),
                              ", out ", ShapeToString(out.shape()), ", groups ", a.groups, ")"));
  };
  if (x[1] % a.groups != 0) fail("the data's channels are not divisible by groups");
  if (w[0] != x[1]) fail("the weight's input channels (axis 0 of IOHW) differ from the data's channels");
  int64_t oh = OutputExtent(x[2], a.pad_top, a.pad_bottom, a.output_padding_h, a.dilation_h, w[2], a.stride_h);
  int64_t ow = OutputExtent(x[3], a.pad_left, a.pad_right, a.output_padding_w, a.dilation_w, w[3], a.stride_w);
  if (oh < 1 || ow < 1) fail("the padding is larger than the output");
  ShapeTuple expected = {x[0], w[1] * a.groups, oh, ow};
  if (out.shape() != expected) fail(StrCat("the output must have shape ", ShapeToString(expected)));
}

std::shared_ptr<CachedPrimitive> MakeDeconv(const ShapeTuple& x, const ShapeTuple& w, const ShapeTuple& y,
                                            const DeconvAttrs& a, const std::vector<PostOp>& post_ops,
                                            bool weight_is_const) {
  using dnnl::memory;
  using tag = memory::format_tag;
  auto f32 = memory::data_type::f32;
  bool grouped = a.groups > 1;
  int64_t out_channels = w[1] * a.groups;
  memory::dims weight_dims = grouped ? memory::dims{a.groups, w[1], w[0] / a.groups, w[2], w[3]}
                                     : memory::dims{w[1], w[0], w[2], w[3]};
  tag user_weight_tag = grouped ? tag::giohw : tag::iohw;
  auto entry = std::make_shared<CachedPrimitive>();
  entry->user_src_desc = memory::desc(ToDims(x), f32, tag::nchw);
  entry->user_dst_desc = memory::desc(ToDims(y), f32, tag::nchw);
  entry->user_weights_desc = memory::desc(weight_dims, f32, user_weight_tag);
  memory::desc src_md(ToDims(x), f32, tag::nchw);
  memory::desc dst_md(ToDims(y), f32, tag::nchw);
  memory::desc weights_md(weight_dims, f32, weight_is_const ? tag::any : user_weight_tag);
  memory::dims strides = {a.stride_h, a.stride_w};
  memory::dims dilates = {a.dilation_h - 1, a.dilation_w - 1};
  memory::dims pad_l = {a.pad_top, a.pad_left};
  memory::dims pad_r = {a.pad_bottom - a.output_padding_h, a.pad_right - a.output_padding_w};
  auto prop = dnnl::prop_kind::forward_inference;
  auto alg = dnnl::algorithm::deconvolution_direct;
  std::unique_ptr<dnnl::deconvolution_forward::desc> desc;
  if (HasBias(post_ops)) {
    entry->bias_desc = memory::desc({out_channels}, f32, tag::a);
    desc = std::make_unique<dnnl::deconvolution_forward::desc>(prop, alg, src_md, weights_md, entry->bias_desc,
                                                               dst_md, strides, dilates, pad_l, pad_r);
  } else {
    desc = std::make_unique<dnnl::deconvolution_forward::desc>(prop, alg, src_md, weights_md, dst_md, strides,
                                                               dilates, pad_l, pad_r);
  }
  BuildPrimitive<dnnl::deconvolution_forward>(*entry, *desc, post_ops, /*may_split_post_ops=*/true);
  return entry;
}

Value Conv2dTranspose(const Args& args) {
  if (args.size() < 6) throw RuntimeError(StrCat("'", kFunc, "' expects at least 6 arguments, got ", args.size()));
  const NDArray& data = args.GetNDArray(0);
  const NDArray& weight = args.GetNDArray(1);
  DeconvAttrs attrs = ReadAttrs(args.GetShape(2));
  std::vector<PostOp> post_ops = ParsePostOps(args.GetString(3), kFunc);
  bool weight_is_const = args.GetInt(4) != 0;
  args.CheckCount(6 + CountExtraTensors(post_ops));
  const NDArray& out = args.GetNDArray(args.size() - 1);
  CheckTensor(kFunc, "data", data, 4);
  CheckTensor(kFunc, "weight", weight, 4);
  CheckTensor(kFunc, "out", out, 4);
  CheckShapes(data, weight, out, attrs);
  auto [bias, residual] = ConvExtraTensors(kFunc, args, post_ops, out.shape()[1], out);
  std::string key = StrCat("conv2d_transpose|", DimsToString(ToDims(data.shape())), "|",
                           DimsToString(ToDims(weight.shape())), "|", DimsToString(ToDims(args.GetShape(2))), "|",
                           args.GetString(3), "|", weight_is_const);
  auto entry = LookupPrimitive(key, [&] {
    return MakeDeconv(data.shape(), weight.shape(), out.shape(), attrs, post_ops, weight_is_const);
  });
  SyncThreadCount();
  std::lock_guard<std::mutex> lock(entry->mutex);
  dnnl::memory weights = PrepareWeights(*entry, weight, weight_is_const);
  Execute(*entry, data, weights, bias, residual, out);
  return Value();
}

}  // namespace

void RegisterConv2dTranspose() { Registry::Register(kFunc, Conv2dTranspose, true); }

}  // namespace rlx::runtime::contrib::dnnl_impl

#endif  // RLX_USE_DNNL
