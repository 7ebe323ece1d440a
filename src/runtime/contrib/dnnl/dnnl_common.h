// Shared pieces of the oneDNN functions (private to src/runtime/contrib/dnnl):
// the engine and stream, the post-op list, the primitive cache, thread-count
// synchronisation and argument checks. Compiled only with RLX_USE_DNNL.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "rlx/runtime/ndarray.h"
#include "rlx/runtime/packed_func.h"

namespace rlx::runtime::contrib::dnnl_impl {

// One step of a post_ops string (see rlx/runtime/contrib/dnnl.h).
struct PostOp {
  enum class Kind { kBias, kAdd, kRelu, kClip, kHardSigmoid, kHardSwish, kSigmoid, kLinear, kSwish };
  Kind kind;
  float alpha = 0.f;
  float beta = 0.f;
};

// Parses `spec`; RuntimeError naming `func` on an unknown step, a bias not
// in first place or more than one add.
std::vector<PostOp> ParsePostOps(const std::string& spec, const std::string& func);
// How many extra tensor arguments the steps consume (bias, add).
int CountExtraTensors(const std::vector<PostOp>& post_ops);
bool HasBias(const std::vector<PostOp>& post_ops);
bool HasAdd(const std::vector<PostOp>& post_ops);
// The oneDNN attribute for every step but the bias (an add becomes a sum:
// the residual is placed in the destination before the primitive runs).
dnnl::primitive_attr MakeAttr(const std::vector<PostOp>& post_ops);

dnnl::engine& Engine();
dnnl::stream& Stream();
// Makes oneDNN's OpenMP team as large as rlx's thread count.
void SyncThreadCount();

// A primitive and what running it needs, cached by a key of shapes and
// attributes. `mutex` serialises the runs of one entry (its scratch buffers
// are shared).
struct CachedPrimitive {
  dnnl::primitive primitive;
  dnnl::memory::desc src_desc, weights_desc, dst_desc;              // what the primitive wants
  dnnl::memory::desc user_src_desc, user_weights_desc, user_dst_desc;  // the caller's layouts
  dnnl::memory::desc bias_desc;  // zero desc when no bias
  dnnl::memory src_scratch, dst_scratch, weights_scratch;  // used when the layouts differ
  // Reordered constant weights by the source array's address; the NDArray
  // keeps the address valid.
  std::map<const void*, std::pair<NDArray, dnnl::memory>> constant_weights;
  std::mutex mutex;
  // Post-ops run as primitives of their own, in place on the caller's
  // destination, after `primitive` (instead of fused into it, where
  // PostOpsAreSlow). A residual add is a binary primitive reading the
  // residual tensor.
  struct EpilogueStep {
    dnnl::primitive primitive;
    bool is_residual_add = false;
  };
  std::vector<EpilogueStep> epilogue;
};

// The entry for `key`, built by `make` the first time.
std::shared_ptr<CachedPrimitive> LookupPrimitive(const std::string& key,
                                                 const std::function<std::shared_ptr<CachedPrimitive>()>& make);
void ClearCache();

// Fills the scratch memories of `entry` whose layout differs from the user's.
void AllocateScratch(CachedPrimitive& entry);
// The weights in the primitive's layout: the user's array as it is, its
// cached reorder (constant weights) or a reorder into the scratch buffer.
dnnl::memory PrepareWeights(CachedPrimitive& entry, const NDArray& weight, bool weight_is_const);
// True when a primitive implementation (primitive_desc::impl_info_str)
// applies fused post-ops slowly: oneDNN 2.6's gemm-based convolution and
// deconvolution run them as a reference loop on plain NCHW data (measured:
// a 1x1 conv with hard_swish + linear 36 ms against 2.5 ms without).
bool PostOpsAreSlow(const std::string& impl_info);
// One in-place primitive on `dst_md` per post-op but the bias: the eltwise
// steps of MakeAttr's list, or a binary add reading the residual.
std::vector<CachedPrimitive::EpilogueStep> MakeEpilogue(const dnnl::memory::desc& dst_md,
                                                        const std::vector<PostOp>& post_ops);
// Builds `entry`'s primitive from its operation descriptor with the
// post-ops fused; where `may_split_post_ops` and oneDNN's choice applies
// them slowly (PostOpsAreSlow), they become the entry's epilogue instead.
// Then records the primitive's layouts and allocates the scratch memories.
template <typename Primitive>
void BuildPrimitive(CachedPrimitive& entry, const typename Primitive::desc& desc, const std::vector<PostOp>& post_ops,
                    bool may_split_post_ops) {
  typename Primitive::primitive_desc pd(desc, MakeAttr(post_ops), Engine());
  if (may_split_post_ops && PostOpsAreSlow(pd.impl_info_str())) {
    entry.epilogue = MakeEpilogue(entry.user_dst_desc, post_ops);
    pd = typename Primitive::primitive_desc(desc, Engine());
  }
  entry.src_desc = pd.src_desc();
  entry.weights_desc = pd.weights_desc();
  entry.dst_desc = pd.dst_desc();
  entry.primitive = Primitive(pd);
  AllocateScratch(entry);
}
// Runs the primitive: the source reordered if needed, the residual (if any)
// placed in the destination, the destination reordered back into `out`;
// then the entry's epilogue (if any) in place on `out`.
void Execute(CachedPrimitive& entry, const NDArray& src, const dnnl::memory& weights, const NDArray* bias,
             const NDArray* residual, const NDArray& out);

// RuntimeError unless `array` is a contiguous float32 CPU tensor of rank
// `ndim` (ndim < 0: any rank >= 2).
void CheckTensor(const std::string& func, const char* what, const NDArray& array, int ndim);
// The bias and residual extra arguments of a convolution (arguments 5 and
// on; null when the post-ops have none), checked: the bias holds
// `out_channels` float32 values, the residual has `out`'s shape.
std::pair<const NDArray*, const NDArray*> ConvExtraTensors(const std::string& func, const Args& args,
                                                           const std::vector<PostOp>& post_ops, int64_t out_channels,
                                                           const NDArray& out);
std::string DimsToString(const dnnl::memory::dims& dims);
dnnl::memory::dims ToDims(const ShapeTuple& shape);

}  // namespace rlx::runtime::contrib::dnnl_impl
