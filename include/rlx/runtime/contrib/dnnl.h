// oneDNN library functions that dispatch-library calls through
// R.call_dps_packed (src/runtime/contrib/dnnl/, compiled in when CMake finds
// oneDNN: option RLX_USE_DNNL).
//
// Registered global packed functions (destination-passing: the output
// tensor is the last argument, allocated by the caller, compact row-major):
//
//   rlx.dnnl.conv2d(data, weight, attrs, post_ops, weight_is_const,
//                   extra..., out)
//     data NCHW float32, weight OIHW float32 (I = C / groups), attrs a shape
//     (stride_h, stride_w, pad_top, pad_left, pad_bottom, pad_right,
//     dilation_h, dilation_w, groups) with TVM's meaning (dilation 1 = none),
//     out NCHW. Depthwise is groups == C. A tenth attrs value 1 (0: the
//     default above) means NHWC data, OHWI weight and NHWC out (what
//     convert-layout produces): oneDNN then runs on the channels-last
//     tensors with no activation reorder.
//   rlx.dnnl.conv2d_transpose(data, weight, attrs, post_ops, weight_is_const,
//                             extra..., out)
//     R.nn.conv2d_transpose through oneDNN's deconvolution: data NCHW,
//     weight IOHW (C, O / groups, KH, KW), attrs (stride_h, stride_w,
//     pad_top, pad_left, pad_bottom, pad_right, output_padding_h,
//     output_padding_w, dilation_h, dilation_w, groups), out NCHW of
//     (H - 1) * stride - pads + dilation * (K - 1) + output_padding + 1.
//   rlx.dnnl.matmul(a, b, post_ops, b_is_const, extra..., out)
//     R.matmul of two float32 tensors of rank >= 2: a (..., M, K),
//     b (..., K, N), batch dims broadcast as in NumPy; out (batch..., M, N).
//
// post_ops is a string of ';'-separated steps applied in order to the
// result: "bias" (first if present: a tensor of O / N elements, the next
// extra argument), "add" (the next extra argument, a tensor of the output's
// shape: a residual), "relu", "clip:LO:HI", "hard_sigmoid:ALPHA:BETA"
// (clip(alpha * x + beta, 0, 1)), "hard_swish" (x * clip(x + 3, 0, 6) / 6),
// "sigmoid", "linear:ALPHA:BETA" (alpha * x + beta), "swish:ALPHA"
// (x * sigmoid(alpha * x)). "" is no post-op.
//
// weight_is_const (0/1) says the weight is a compile-time constant: its
// reorder into the layout oneDNN prefers is then done once and cached
// (keyed by the array's address; the cache holds a reference to the array
// so the address stays valid). Primitives are cached by shapes and
// attributes. oneDNN's OpenMP team follows rlx's thread count
// (runtime/threading.h). Bad shapes, dtypes or attributes are
// RuntimeErrors naming the function and the shapes.
//
// RLX_DNNL_LAYOUT=blocked (environment, read once) lets conv2d pick oneDNN's
// preferred activation layout and reorder to and from NCHW inside the call
// instead of running on plain NCHW (the default; see docs/performance.md).
#pragma once

namespace rlx::runtime::contrib {

// True when the runtime was built with oneDNN.
bool DnnlAvailable();
// Registers the rlx.dnnl.* functions (idempotent; nothing without oneDNN).
// The VM calls it with its builtins.
void RegisterDnnlFunctions();
// Drops every cached primitive and reordered weight (tests).
void ClearDnnlCache();

}  // namespace rlx::runtime::contrib
