// rlx.dnnl.matmul: R.matmul of float32 tensors of rank >= 2 with fused bias
// and post-ops through oneDNN's matmul; see rlx/runtime/contrib/dnnl.h.
//
// A 2-d b (a weight) makes the product one 2-d matmul over all rows of a
// ((batch * M) x K); b is then given oneDNN's preferred layout when it is
// constant (reordered once, cached). Otherwise both operands are brought to
// the output's rank with leading 1s and oneDNN broadcasts the batch dims.
#ifdef RLX_USE_DNNL  // compiled only with oneDNN (CMake option RLX_USE_DNNL)
#include <algorithm>
#include <string>

#include "rlx/runtime/error.h"
#include "dnnl_common.h"

namespace rlx::runtime::contrib::dnnl_impl {
namespace {

constexpr const char* kFunc = "rlx.dnnl.matmul";

using dnnl::memory;

// Row-major strides of `dims`.
memory::dims RowMajorStrides(const memory::dims& dims) {
  memory::dims strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

memory::desc PlainDesc(const memory::dims& dims) {
  return memory::desc(dims, memory::data_type::f32, RowMajorStrides(dims));
}

memory::dims PadRank(const ShapeTuple& shape, size_t rank) {
  memory::dims dims(rank - shape.size(), 1);
  dims.insert(dims.end(), shape.begin(), shape.end());
  return dims;
}

// The output shape R.matmul gives a and b; RuntimeError when they disagree.
ShapeTuple ExpectedOutput(const ShapeTuple& a, const ShapeTuple& b) {
  auto fail = [&](const std::string& why) {
    throw RuntimeError(StrCat("'", kFunc, "': ", why, " (a ", ShapeToString(a), ", b ", ShapeToString(b), ")"));
  };
  if (a.back() != b[b.size() - 2]) fail("the reduction dims differ");
  size_t rank = std::max(a.size(), b.size());
  memory::dims pa = PadRank(a, rank), pb = PadRank(b, rank);
  ShapeTuple out(rank);
  for (size_t i = 0; i + 2 < rank; ++i) {
    if (pa[i] != pb[i] && pa[i] != 1 && pb[i] != 1) fail("the batch dims do not broadcast");
    out[i] = pa[i] == 1 ? pb[i] : pa[i];
  }
  out[rank - 2] = a[a.size() - 2];
  out[rank - 1] = b.back();
  return out;
}

// The operand dims the primitive sees: (src, weights, dst).
struct MatmulDims {
  memory::dims src, weights, dst;
};

MatmulDims ChooseDims(const ShapeTuple& a, const ShapeTuple& b, const ShapeTuple& out) {
  if (b.size() == 2) {
    int64_t rows = 1;
    for (size_t i = 0; i + 1 < a.size(); ++i) rows *= a[i];
    return {{rows, a.back()}, ToDims(b), {rows, b.back()}};
  }
  size_t rank = out.size();
  return {PadRank(a, rank), PadRank(b, rank), ToDims(out)};
}

std::shared_ptr<CachedPrimitive> MakeMatmul(const MatmulDims& dims, const std::vector<PostOp>& post_ops,
                                            bool b_is_const) {
  auto entry = std::make_shared<CachedPrimitive>();
  entry->user_src_desc = PlainDesc(dims.src);
  entry->user_weights_desc = PlainDesc(dims.weights);
  entry->user_dst_desc = PlainDesc(dims.dst);
  memory::desc weights_md = entry->user_weights_desc;
  if (b_is_const && dims.weights.size() == 2) {
    weights_md = memory::desc(dims.weights, memory::data_type::f32, memory::format_tag::any);
  }
  std::unique_ptr<dnnl::matmul::desc> desc;
  if (HasBias(post_ops)) {
    memory::dims bias_dims(dims.dst.size(), 1);
    bias_dims.back() = dims.dst.back();
    entry->bias_desc = PlainDesc(bias_dims);
    desc = std::make_unique<dnnl::matmul::desc>(entry->user_src_desc, weights_md, entry->bias_desc,
                                                entry->user_dst_desc);
  } else {
    desc = std::make_unique<dnnl::matmul::desc>(entry->user_src_desc, weights_md, entry->user_dst_desc);
  }
  BuildPrimitive<dnnl::matmul>(*entry, *desc, post_ops, /*may_split_post_ops=*/false);
  return entry;
}

Value Matmul(const Args& args) {
  if (args.size() < 5) throw RuntimeError(StrCat("'", kFunc, "' expects at least 5 arguments, got ", args.size()));
  const NDArray& a = args.GetNDArray(0);
  const NDArray& b = args.GetNDArray(1);
  std::vector<PostOp> post_ops = ParsePostOps(args.GetString(2), kFunc);
  bool b_is_const = args.GetInt(3) != 0;
  args.CheckCount(5 + CountExtraTensors(post_ops));
  const NDArray& out = args.GetNDArray(args.size() - 1);
  CheckTensor(kFunc, "a", a, -1);
  CheckTensor(kFunc, "b", b, -1);
  CheckTensor(kFunc, "out", out, -1);
  ShapeTuple expected = ExpectedOutput(a.shape(), b.shape());
  if (out.shape() != expected) {
    throw RuntimeError(StrCat("'", kFunc, "': the output ", ShapeToString(out.shape()), " must have shape ",
                              ShapeToString(expected), " (a ", ShapeToString(a.shape()), ", b ",
                              ShapeToString(b.shape()), ")"));
  }
  int64_t next = 4;
  const NDArray* bias = nullptr;
  const NDArray* residual = nullptr;
  if (HasBias(post_ops)) {
    bias = &args.GetNDArray(next++);
    if (bias->dtype() != DataType::Float(32) || !bias->IsContiguous() || bias->NumElements() != b.shape().back()) {
      throw RuntimeError(StrCat("'", kFunc, "': bias ", bias->ToString(), " must hold ", b.shape().back(),
                                " float32 values (one per output column)"));
    }
  }
  if (HasAdd(post_ops)) {
    residual = &args.GetNDArray(next++);
    CheckTensor(kFunc, "residual", *residual, -1);
    if (residual->shape() != out.shape()) {
      throw RuntimeError(StrCat("'", kFunc, "': the residual ", ShapeToString(residual->shape()),
                                " must have the output's shape ", ShapeToString(out.shape())));
    }
  }
  MatmulDims dims = ChooseDims(a.shape(), b.shape(), out.shape());
  std::string key = StrCat("matmul|", DimsToString(dims.src), "|", DimsToString(dims.weights), "|",
                           DimsToString(dims.dst), "|", args.GetString(2), "|", b_is_const);
  auto entry = LookupPrimitive(key, [&] { return MakeMatmul(dims, post_ops, b_is_const); });
  SyncThreadCount();
  std::lock_guard<std::mutex> lock(entry->mutex);
  dnnl::memory weights = PrepareWeights(*entry, b, b_is_const);
  Execute(*entry, a, weights, bias, residual, out);
  return Value();
}

}  // namespace

void RegisterMatmul() { Registry::Register(kFunc, Matmul, true); }

}  // namespace rlx::runtime::contrib::dnnl_impl

#endif  // RLX_USE_DNNL
