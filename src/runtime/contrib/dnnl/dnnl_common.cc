// Shared pieces of the oneDNN functions; see dnnl_common.h.
#ifdef RLX_USE_DNNL  // compiled only with oneDNN (CMake option RLX_USE_DNNL)
#include "dnnl_common.h"

#include <cstring>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "rlx/runtime/error.h"
#include "rlx/runtime/threading.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace rlx::runtime::contrib::dnnl_impl {
namespace {

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(separator, start);
    if (end == std::string::npos) end = text.size();
    parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

float ParseFloat(const std::string& text, const std::string& step, const std::string& func) {
  try {
    size_t used = 0;
    float value = std::stof(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  throw RuntimeError(StrCat("'", func, "': post-op '", step, "' has a bad number '", text, "'"));
}

PostOp ParseStep(const std::string& step, const std::string& func) {
  std::vector<std::string> parts = Split(step, ':');
  const std::string& name = parts[0];
  size_t params = parts.size() - 1;
  auto expect = [&](size_t count) {
    if (params != count) {
      throw RuntimeError(StrCat("'", func, "': post-op '", name, "' takes ", count, " parameters, got '", step, "'"));
    }
  };
  PostOp op{PostOp::Kind::kRelu};
  if (name == "bias") {
    expect(0), op.kind = PostOp::Kind::kBias;
  } else if (name == "add") {
    expect(0), op.kind = PostOp::Kind::kAdd;
  } else if (name == "relu") {
    expect(0), op.kind = PostOp::Kind::kRelu;
  } else if (name == "hard_swish") {
    expect(0), op.kind = PostOp::Kind::kHardSwish;
  } else if (name == "sigmoid") {
    expect(0), op.kind = PostOp::Kind::kSigmoid;
  } else if (name == "swish") {
    expect(1), op.kind = PostOp::Kind::kSwish;
    op.alpha = ParseFloat(parts[1], step, func);
  } else if (name == "clip" || name == "hard_sigmoid" || name == "linear") {
    expect(2);
    op.kind = name == "clip" ? PostOp::Kind::kClip
              : name == "linear" ? PostOp::Kind::kLinear
                                 : PostOp::Kind::kHardSigmoid;
    op.alpha = ParseFloat(parts[1], step, func);
    op.beta = ParseFloat(parts[2], step, func);
  } else {
    throw RuntimeError(StrCat("'", func, "': unknown post-op '", name,
                              "' (known: bias, add, relu, clip, hard_sigmoid, hard_swish, sigmoid, linear, swish)"));
  }
  return op;
}

}  // namespace

std::vector<PostOp> ParsePostOps(const std::string& spec, const std::string& func) {
  std::vector<PostOp> post_ops;
  if (spec.empty()) return post_ops;
  for (const std::string& step : Split(spec, ';')) {
    PostOp op = ParseStep(step, func);
    if (op.kind == PostOp::Kind::kBias && !post_ops.empty()) {
      throw RuntimeError(StrCat("'", func, "': post-op 'bias' must come first in '", spec, "'"));
    }
    if (op.kind == PostOp::Kind::kAdd && HasAdd(post_ops)) {
      throw RuntimeError(StrCat("'", func, "': at most one 'add' post-op, got '", spec, "'"));
    }
    post_ops.push_back(op);
  }
  return post_ops;
}

int CountExtraTensors(const std::vector<PostOp>& post_ops) {
  return static_cast<int>(HasBias(post_ops)) + static_cast<int>(HasAdd(post_ops));
}

bool HasBias(const std::vector<PostOp>& post_ops) {
  return !post_ops.empty() && post_ops.front().kind == PostOp::Kind::kBias;
}

bool HasAdd(const std::vector<PostOp>& post_ops) {
  for (const PostOp& op : post_ops) {
    if (op.kind == PostOp::Kind::kAdd) return true;
  }
  return false;
}

dnnl::primitive_attr MakeAttr(const std::vector<PostOp>& post_ops) {
  using dnnl::algorithm;
  dnnl::post_ops ops;
  for (const PostOp& op : post_ops) {
    switch (op.kind) {
      case PostOp::Kind::kBias:
        break;
      case PostOp::Kind::kAdd:
        ops.append_sum(1.f);
        break;
      case PostOp::Kind::kRelu:
        ops.append_eltwise(1.f, algorithm::eltwise_relu, 0.f, 0.f);
        break;
      case PostOp::Kind::kClip:
        ops.append_eltwise(1.f, algorithm::eltwise_clip, op.alpha, op.beta);
        break;
      case PostOp::Kind::kHardSigmoid:
        ops.append_eltwise(1.f, algorithm::eltwise_linear, op.alpha, op.beta);
        ops.append_eltwise(1.f, algorithm::eltwise_clip, 0.f, 1.f);
        break;
      case PostOp::Kind::kHardSwish:
        ops.append_eltwise(1.f, algorithm::eltwise_hardswish, 0.f, 0.f);
        break;
      case PostOp::Kind::kSigmoid:
        ops.append_eltwise(1.f, algorithm::eltwise_logistic, 0.f, 0.f);
        break;
      case PostOp::Kind::kLinear:
        ops.append_eltwise(1.f, algorithm::eltwise_linear, op.alpha, op.beta);
        break;
      case PostOp::Kind::kSwish:
        ops.append_eltwise(1.f, algorithm::eltwise_swish, op.alpha, 0.f);
        break;
    }
  }
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  return attr;
}

dnnl::engine& Engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::stream& Stream() {
  thread_local dnnl::stream stream(Engine());
  return stream;
}

void SyncThreadCount() {
#ifdef _OPENMP
  int threads = NumThreads();
  if (omp_get_max_threads() != threads) omp_set_num_threads(threads);
#endif
}

namespace {

std::mutex& CacheMutex() {
  static std::mutex mutex;
  return mutex;
}

std::map<std::string, std::shared_ptr<CachedPrimitive>>& Cache() {
  static std::map<std::string, std::shared_ptr<CachedPrimitive>> cache;
  return cache;
}

}  // namespace

std::shared_ptr<CachedPrimitive> LookupPrimitive(const std::string& key,
                                                 const std::function<std::shared_ptr<CachedPrimitive>()>& make) {
  {
    std::lock_guard<std::mutex> lock(CacheMutex());
    auto it = Cache().find(key);
    if (it != Cache().end()) return it->second;
  }
  // Built outside the lock (primitive creation compiles code); a concurrent
  // builder of the same key loses its copy.
  std::shared_ptr<CachedPrimitive> entry = make();
  std::lock_guard<std::mutex> lock(CacheMutex());
  return Cache().emplace(key, std::move(entry)).first->second;
}

void ClearCache() {
  std::lock_guard<std::mutex> lock(CacheMutex());
  Cache().clear();
}

void AllocateScratch(CachedPrimitive& entry) {
  if (entry.src_desc != entry.user_src_desc) entry.src_scratch = dnnl::memory(entry.src_desc, Engine());
  if (entry.dst_desc != entry.user_dst_desc) entry.dst_scratch = dnnl::memory(entry.dst_desc, Engine());
  if (entry.weights_desc != entry.user_weights_desc) {
    entry.weights_scratch = dnnl::memory(entry.weights_desc, Engine());
  }
}

namespace {

void Reorder(const dnnl::memory& from, const dnnl::memory& to) {
  dnnl::reorder(from, to).execute(Stream(), const_cast<dnnl::memory&>(from), const_cast<dnnl::memory&>(to));
}

}  // namespace

dnnl::memory PrepareWeights(CachedPrimitive& entry, const NDArray& weight, bool weight_is_const) {
  dnnl::memory user(entry.user_weights_desc, Engine(), weight.data());
  if (entry.weights_desc == entry.user_weights_desc) return user;
  if (!weight_is_const) {
    Reorder(user, entry.weights_scratch);
    return entry.weights_scratch;
  }
  auto it = entry.constant_weights.find(weight.data());
  if (it != entry.constant_weights.end()) return it->second.second;
  dnnl::memory reordered(entry.weights_desc, Engine());
  Reorder(user, reordered);
  entry.constant_weights.emplace(weight.data(), std::make_pair(weight, reordered));
  return reordered;
}

namespace {

// One step of an epilogue: the residual add or one eltwise algorithm.
struct EpilogueAtom {
  bool is_residual_add = false;
  dnnl::algorithm algorithm = dnnl::algorithm::eltwise_linear;
  float alpha = 0.f, beta = 0.f;
};

std::vector<EpilogueAtom> EpilogueAtoms(const std::vector<PostOp>& post_ops) {
  std::vector<EpilogueAtom> atoms;
  for (const PostOp& op : post_ops) {
    if (op.kind == PostOp::Kind::kBias) continue;
    if (op.kind == PostOp::Kind::kAdd) {
      atoms.push_back({true});
      continue;
    }
    dnnl::primitive_attr attr = MakeAttr({op});  // owns the list get_post_ops() refers to
    dnnl::post_ops eltwise_ops = attr.get_post_ops();
    for (int i = 0; i < eltwise_ops.len(); ++i) {
      EpilogueAtom atom;
      float scale = 1.f;
      eltwise_ops.get_params_eltwise(i, scale, atom.algorithm, atom.alpha, atom.beta);
      atoms.push_back(atom);
    }
  }
  return atoms;
}

// An in-place primitive for `head` with the eltwise atoms `tail` fused as
// its post-ops; nullopt where oneDNN has no jitted implementation of that
// (its reference one is slower than separate passes).
std::optional<dnnl::primitive> MakeEpiloguePrimitive(const dnnl::memory::desc& dst_md, const EpilogueAtom& head,
                                                     const std::vector<EpilogueAtom>& tail) {
  dnnl::post_ops ops;
  for (const EpilogueAtom& atom : tail) ops.append_eltwise(1.f, atom.algorithm, atom.alpha, atom.beta);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  auto fast = [&](const auto& pd) {
    return tail.empty() || std::string(pd.impl_info_str()).find("ref") == std::string::npos;
  };
  try {
    if (head.is_residual_add) {
      dnnl::binary::primitive_desc pd(dnnl::binary::desc(dnnl::algorithm::binary_add, dst_md, dst_md, dst_md), attr,
                                      Engine());
      return fast(pd) ? std::optional<dnnl::primitive>(dnnl::binary(pd)) : std::nullopt;
    }
    dnnl::eltwise_forward::desc desc(dnnl::prop_kind::forward_inference, head.algorithm, dst_md, head.alpha,
                                     head.beta);
    dnnl::eltwise_forward::primitive_desc pd(desc, attr, Engine());
    return fast(pd) ? std::optional<dnnl::primitive>(dnnl::eltwise_forward(pd)) : std::nullopt;
  } catch (const dnnl::error&) {
    if (tail.empty()) throw;
    return std::nullopt;
  }
}

}  // namespace

// Greedy: each primitive takes the eltwise atoms after it as post-ops, up to
// the next residual add (or alone, where oneDNN cannot fuse them).
std::vector<CachedPrimitive::EpilogueStep> MakeEpilogue(const dnnl::memory::desc& dst_md,
                                                        const std::vector<PostOp>& post_ops) {
  std::vector<EpilogueAtom> atoms = EpilogueAtoms(post_ops);
  std::vector<CachedPrimitive::EpilogueStep> steps;
  size_t i = 0;
  while (i < atoms.size()) {
    size_t end = i + 1;
    while (end < atoms.size() && !atoms[end].is_residual_add) ++end;
    std::vector<EpilogueAtom> tail(atoms.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                   atoms.begin() + static_cast<std::ptrdiff_t>(end));
    std::optional<dnnl::primitive> fused = MakeEpiloguePrimitive(dst_md, atoms[i], tail);
    if (!fused) {
      fused = MakeEpiloguePrimitive(dst_md, atoms[i], {});
      end = i + 1;
    }
    steps.push_back({*fused, atoms[i].is_residual_add});
    i = end;
  }
  return steps;
}

namespace {

void RunEpilogue(const CachedPrimitive& entry, const void* residual, const NDArray& out) {
  dnnl::memory dst(entry.user_dst_desc, Engine(), out.data());
  for (const CachedPrimitive::EpilogueStep& step : entry.epilogue) {
    if (step.is_residual_add) {
      dnnl::memory addend(entry.user_dst_desc, Engine(), const_cast<void*>(residual));
      step.primitive.execute(Stream(), {{DNNL_ARG_SRC_0, dst}, {DNNL_ARG_SRC_1, addend}, {DNNL_ARG_DST, dst}});
    } else {
      step.primitive.execute(Stream(), {{DNNL_ARG_SRC, dst}, {DNNL_ARG_DST, dst}});
    }
  }
  Stream().wait();
}

}  // namespace

bool PostOpsAreSlow(const std::string& impl_info) { return impl_info.find("gemm") != std::string::npos; }

void Execute(CachedPrimitive& entry, const NDArray& src, const dnnl::memory& weights, const NDArray* bias,
             const NDArray* residual, const NDArray& out) {
  dnnl::memory user_src(entry.user_src_desc, Engine(), src.data());
  dnnl::memory user_dst(entry.user_dst_desc, Engine(), out.data());
  dnnl::memory src_memory = user_src;
  if (entry.src_scratch) {
    Reorder(user_src, entry.src_scratch);
    src_memory = entry.src_scratch;
  }
  dnnl::memory dst_memory = entry.dst_scratch ? entry.dst_scratch : user_dst;
  // With an epilogue the residual is added after the primitive ran (kept
  // aside when it shares the output's buffer).
  std::vector<char> residual_copy;
  const void* residual_data = residual != nullptr ? residual->data() : nullptr;
  if (residual != nullptr && !entry.epilogue.empty() && residual->data() == out.data()) {
    const char* bytes = static_cast<const char*>(residual->data());
    residual_copy.assign(bytes, bytes + out.ByteSize());
    residual_data = residual_copy.data();
  }
  if (residual != nullptr && entry.epilogue.empty()) {
    if (entry.dst_scratch) {
      Reorder(dnnl::memory(entry.user_dst_desc, Engine(), residual->data()), entry.dst_scratch);
    } else if (residual->data() != out.data()) {
      std::memcpy(out.data(), residual->data(), out.ByteSize());
    }
  }
  std::unordered_map<int, dnnl::memory> args = {
      {DNNL_ARG_SRC, src_memory}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst_memory}};
  if (bias != nullptr) args.emplace(DNNL_ARG_BIAS, dnnl::memory(entry.bias_desc, Engine(), bias->data()));
  entry.primitive.execute(Stream(), args);
  if (entry.dst_scratch) Reorder(entry.dst_scratch, user_dst);
  Stream().wait();
  if (!entry.epilogue.empty()) RunEpilogue(entry, residual_data, out);
}

void CheckTensor(const std::string& func, const char* what, const NDArray& array, int ndim) {
  bool rank_ok = ndim < 0 ? array.ndim() >= 2 : array.ndim() == ndim;
  if (array.dtype() != DataType::Float(32) || !rank_ok || !array.IsContiguous() ||
      !array.device().is_cpu()) {
    std::string rank = ndim < 0 ? std::string("rank >= 2") : StrCat("rank ", ndim);
    throw RuntimeError(StrCat("'", func, "': ", what, " must be a contiguous float32 CPU tensor of ", rank, ", got ",
                              array.ToString()));
  }
}

std::pair<const NDArray*, const NDArray*> ConvExtraTensors(const std::string& func, const Args& args,
                                                           const std::vector<PostOp>& post_ops, int64_t out_channels,
                                                           const NDArray& out) {
  int64_t next = 5;
  const NDArray* bias = nullptr;
  const NDArray* residual = nullptr;
  if (HasBias(post_ops)) {
    bias = &args.GetNDArray(next++);
    if (bias->dtype() != DataType::Float(32) || !bias->IsContiguous() || bias->NumElements() != out_channels) {
      throw RuntimeError(StrCat("'", func, "': bias ", bias->ToString(), " must hold ", out_channels,
                                " float32 values (one per output channel)"));
    }
  }
  if (HasAdd(post_ops)) {
    residual = &args.GetNDArray(next++);
    CheckTensor(func, "residual", *residual, 4);
    if (residual->shape() != out.shape()) {
      throw RuntimeError(StrCat("'", func, "': the residual ", ShapeToString(residual->shape()),
                                " must have the output's shape ", ShapeToString(out.shape())));
    }
  }
  return {bias, residual};
}

std::string DimsToString(const dnnl::memory::dims& dims) {
  std::ostringstream out;
  for (size_t i = 0; i < dims.size(); ++i) out << (i ? "," : "") << dims[i];
  return out.str();
}

dnnl::memory::dims ToDims(const ShapeTuple& shape) { return dnnl::memory::dims(shape.begin(), shape.end()); }

}  // namespace rlx::runtime::contrib::dnnl_impl

#endif  // RLX_USE_DNNL
