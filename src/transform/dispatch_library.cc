// DispatchLibrary: partial lowering of convolutions and matmuls, with the
// elementwise chain that follows them, to oneDNN library calls (DESIGN.md,
// pipeline step 3; the runtime side is rlx/runtime/contrib/dnnl.h).
//
// Algorithm, per dataflow block:
//
// 1. Index the block: the binding defining each variable and how many times
//    each variable is used in the whole function.
// 2. At each root, a float32 `R.nn.conv2d` (NCHW data, OIHW kernel, output
//    NCHW in float32; or NHWC data / OHWI kernel / NHWC output as
//    convert-layout makes them, the bias then one value per last axis and
//    attrs a tenth value 1), a float32 `R.nn.conv2d_transpose` (NCHW data,
//    IOHW kernel) or a float32 `R.matmul` of operands of rank >= 2, follow the
//    chain of its only user while the value flowing through is a
//    DataflowVar used nowhere else. Before the first post-op the chain is
//    still affine in the convolution's result, y' = scale[o] * y + shift[o]
//    per output channel o, and such steps are folded at compile time (as
//    ONNX Runtime does): the weight is multiplied by scale (it must then be
//    a constant; a new constant replaces it) and the bias becomes
//    scale * bias + shift:
//      conv(_transpose)              -> R.nn.batch_norm (constant parameters;
//                                       item 0 its only use)
//      multiply / add / subtract / divide of x by a float32 constant c (or
//        expand_dims/reshape of one) holding one value, or one value per
//        output channel / column     -> folded (c - x too; not c / x)
//    After a post-op only one-value constants are absorbed: the affine map
//    becomes the post-op "linear:alpha:beta" (oneDNN's eltwise_linear),
//    merged with a directly preceding "linear". The other steps:
//      relu, sigmoid                 -> "relu", "sigmoid"
//      clip(x, lo, hi)               -> "clip:lo:hi"
//      add(mul(x, a), b) |> clip(0, 1), a and b scalar constants
//                                    -> "hard_sigmoid:a:b" (ONNX HardSigmoid)
//      divide(mul(x, clip(add(x, 3), 0, 6)), 6) (x used exactly twice)
//                                    -> "hard_swish" (ONNX HardSwish)
//      mul(x, sigmoid(mul(x, a))), mul(x, sigmoid(x)) (x used exactly twice)
//                                    -> "swish:a" (Swish / SiLU)
//      add(x, r), r of x's proven shape (defined before the chain)
//                                    -> "add" (a residual; at most one)
// 3. The chain becomes one binding of its last variable (same variable, same
//    symbolic struct info) to
//      R.call_dps_packed("rlx.dnnl.conv2d",
//          (data, weight, R.shape([strides, pads, dilations, groups]),
//           R.str(post_ops), R.prim_value(weight_is_const), extra...),
//          out_sinfo=...)
//    (conv2d_transpose: "rlx.dnnl.conv2d_transpose" with the 11 values
//    strides, padding, output_padding, dilation, groups; matmul: (a, b,
//    R.str(post_ops), R.prim_value(b_is_const), extra...));
//    the chain's other bindings are dropped. The extra arguments are the bias
//    and residual tensors in post-op order.
//
// Everything else (other dtypes or layouts, unknown ranks, a chain value
// used twice) stays for legalize-ops. The pattern language of
// fuse-ops-by-pattern has no constant, attribute or use-count predicates,
// which every step above needs, so the chain is followed directly.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "op/attr_util.h"
#include "op/op_common.h"
#include "rlx/arith/analyzer.h"
#include "rlx/graph/block_builder.h"
#include "rlx/graph/expr_functor.h"
#include "rlx/transform/passes.h"
#include "transform/fusion_outline.h"

namespace rlx::transform {
namespace {

using graph::Binding;
using graph::Call;
using graph::CallNode;
using graph::Expr;
using ir::PrimExpr;

constexpr const char* kPassName = "dispatch-library";

// `call` when it calls the operator `op_name` (null-safe).
const CallNode* IsOpCall(const CallNode* call, const char* op_name) {
  const auto* op = call ? call->op.as<graph::OpNode>() : nullptr;
  return op != nullptr && op->name == op_name ? call : nullptr;
}

const graph::TensorStructInfoNode* TensorInfo(const Expr& expr) {
  return expr->struct_info.defined() ? expr->struct_info.as<graph::TensorStructInfoNode>() : nullptr;
}

bool IsFloat32Tensor(const Expr& expr, int ndim) {
  const auto* info = TensorInfo(expr);
  if (info == nullptr || info->dtype != DataType::Float32() || info->IsUnknownNdim()) return false;
  return ndim < 0 ? info->ndim >= 2 : info->ndim == ndim;
}

std::vector<float> FloatValues(const graph::TensorData& data) {
  std::vector<float> values(static_cast<size_t>(data.NumElements()));
  std::memcpy(values.data(), data.bytes.data(), values.size() * sizeof(float));
  return values;
}

graph::TensorDataPtr MakeFloatData(std::vector<int64_t> shape, const std::vector<float>& values) {
  auto data = std::make_shared<graph::TensorData>();
  data->dtype = DataType::Float32();
  data->shape = std::move(shape);
  data->bytes.resize(values.size() * sizeof(float));
  std::memcpy(data->bytes.data(), values.data(), data->bytes.size());
  return data;
}

// The growing fused call: its root, post-op steps and extra tensors.
struct Chain {
  bool is_conv = true;
  bool is_transpose = false;  // conv2d_transpose (is_conv too: channels on axis 1)
  Expr data, weight;
  bool weight_is_const = false;
  std::vector<int64_t> conv_attrs;  // conv: 9 values, conv2d_transpose: 11
  std::vector<std::string> steps;
  std::vector<Expr> extras;
  std::optional<std::vector<float>> bias;  // folded bias, emitted as a constant
  std::vector<size_t> members;             // binding indices, root first
  bool has_add = false;
  // The index in `steps` of the last "linear" step and its coefficients,
  // so that a directly following one is merged into it.
  std::optional<size_t> linear_step;
  double linear_alpha = 1.0, linear_beta = 0.0;
  bool nhwc = false;  // conv: NHWC data / OHWI kernel / NHWC output (convert-layout's)
};

// The conv2d layouts the oneDNN call takes: NCHW / OIHW / NCHW (false) or
// NHWC / OHWI / NHWC (true, passed as a tenth attrs value 1).
std::optional<bool> DnnlConvLayoutIsNHWC(const Call& conv) {
  std::string data = op::detail::GetStringAttr(conv, "data_layout", "NCHW");
  std::string kernel = op::detail::GetStringAttr(conv, "kernel_layout", "OIHW");
  std::string out = op::detail::GetOptionalStringAttr(conv, "out_layout").value_or(data);
  if (data == "NCHW" && kernel == "OIHW" && out == "NCHW") return false;
  if (data == "NHWC" && kernel == "OHWI" && out == "NHWC") return true;
  return std::nullopt;
}

class BlockRewriter {
 public:
  BlockRewriter(const graph::BindingBlock& block, const std::unordered_map<const graph::VarNode*, int>& uses)
      : block_(block), uses_(uses) {
    for (size_t i = 0; i < block->bindings.size(); ++i) binding_of_[block->bindings[i]->var.get()] = i;
  }

  graph::BindingBlock Rewrite() {
    std::vector<std::optional<Expr>> replaced(block_->bindings.size());
    std::vector<bool> dropped(block_->bindings.size(), false);
    bool changed = false;
    for (size_t i = 0; i < block_->bindings.size(); ++i) {
      if (dropped[i]) continue;
      std::optional<Chain> chain = StartChain(i);
      if (!chain) continue;
      Extend(*chain);
      for (size_t k = 0; k + 1 < chain->members.size(); ++k) dropped[chain->members[k]] = true;
      replaced[chain->members.back()] = MakeLibraryCall(*chain, block_->bindings[chain->members.back()]->var);
      changed = true;
    }
    if (!changed) return block_;
    std::vector<Binding> bindings;
    for (size_t i = 0; i < block_->bindings.size(); ++i) {
      if (dropped[i]) continue;
      if (!replaced[i]) {
        bindings.push_back(block_->bindings[i]);
        continue;
      }
      bindings.push_back(Binding(make<graph::VarBindingNode>(block_->bindings[i]->var, *replaced[i])));
    }
    return graph::BindingBlock(make<graph::DataflowBlockNode>(std::move(bindings)));
  }

 private:
  const CallNode* ValueCall(size_t index) const {
    const auto* vb = block_->bindings[index].as<graph::VarBindingNode>();
    return vb ? vb->value.as<CallNode>() : nullptr;
  }

  // The constant behind `expr`: a Constant, or a block variable bound to
  // expand_dims / reshape of one (the ONNX importer's bias).
  const graph::ConstantNode* ConstantOf(const Expr& expr) const {
    if (const auto* constant = expr.as<graph::ConstantNode>()) return constant;
    const auto* var = expr.as<graph::VarNode>();
    auto it = var ? binding_of_.find(var) : binding_of_.end();
    if (it == binding_of_.end()) return nullptr;
    const CallNode* call = ValueCall(it->second);
    if (call == nullptr || !(IsOpCall(call, "relax.expand_dims") || IsOpCall(call, "relax.reshape"))) {
      return nullptr;
    }
    return call->args[0].as<graph::ConstantNode>();
  }

  std::optional<float> ScalarOf(const Expr& expr) const {
    const auto* constant = expr.as<graph::ConstantNode>();
    if (constant == nullptr || constant->data->dtype != DataType::Float32() || constant->data->NumElements() != 1) {
      return std::nullopt;
    }
    return FloatValues(*constant->data)[0];
  }

  std::optional<Chain> StartChain(size_t index) const {
    const CallNode* call = ValueCall(index);
    if (call == nullptr) return std::nullopt;
    Call ref(call);
    Chain chain;
    chain.members = {index};
    if (IsOpCall(call, "relax.nn.conv2d")) {
      if (!IsFloat32Tensor(call->args[0], 4) || !IsFloat32Tensor(call->args[1], 4)) return std::nullopt;
      std::optional<bool> nhwc = DnnlConvLayoutIsNHWC(ref);
      if (!nhwc) return std::nullopt;
      chain.nhwc = *nhwc;
      std::vector<int64_t> strides = op::detail::ExpandToRank(ref, "strides", op::detail::GetIntListAttr(ref, "strides", {1}), 2);
      std::vector<int64_t> dilation = op::detail::ExpandToRank(ref, "dilation", op::detail::GetIntListAttr(ref, "dilation", {1}), 2);
      std::vector<int64_t> padding = op::detail::CompletePadding(ref, op::detail::GetIntListAttr(ref, "padding", {0}), 2);
      chain.conv_attrs = {strides[0], strides[1], padding[0], padding[1], padding[2], padding[3],
                          dilation[0], dilation[1], op::detail::GetIntAttr(ref, "groups", 1)};
      if (chain.nhwc) chain.conv_attrs.push_back(1);
    } else if (IsOpCall(call, "relax.nn.conv2d_transpose")) {
      if (!ReadConvTransposeAttrs(call, chain)) return std::nullopt;
    } else if (IsOpCall(call, "relax.matmul")) {
      if (!IsFloat32Tensor(call->args[0], -1) || !IsFloat32Tensor(call->args[1], -1)) return std::nullopt;
      chain.is_conv = false;
    } else {
      return std::nullopt;
    }
    if (!IsFloat32Tensor(block_->bindings[index]->var, -1)) return std::nullopt;  // out_dtype other than float32
    chain.data = call->args[0];
    chain.weight = call->args[1];
    chain.weight_is_const = call->args[1].isa<graph::ConstantNode>();
    return chain;
  }

  // A float32 NCHW / IOHW conv2d_transpose: its 11 attribute values
  // (strides, padding, output_padding, dilation, groups) into `chain`.
  static bool ReadConvTransposeAttrs(const CallNode* call, Chain& chain) {
    Call ref(call);
    if (!IsFloat32Tensor(call->args[0], 4) || !IsFloat32Tensor(call->args[1], 4)) return false;
    if (op::detail::GetStringAttr(ref, "data_layout", "NCHW") != "NCHW" ||
        op::detail::GetStringAttr(ref, "kernel_layout", "IOHW") != "IOHW" ||
        op::detail::GetStringAttr(ref, "out_layout", "NCHW") != "NCHW") {
      return false;
    }
    auto pair_attr = [&](const char* name) {
      return op::detail::ExpandToRank(ref, name, op::detail::GetIntListAttr(ref, name, {name[0] == 'o' ? 0 : 1}), 2);
    };
    std::vector<int64_t> strides = pair_attr("strides");
    std::vector<int64_t> output_padding = pair_attr("output_padding");
    std::vector<int64_t> dilation = pair_attr("dilation");
    std::vector<int64_t> padding = op::detail::CompletePadding(ref, op::detail::GetIntListAttr(ref, "padding", {0}), 2);
    chain.is_transpose = true;
    int64_t groups = op::detail::GetIntAttr(ref, "groups", 1);
    chain.conv_attrs = {strides[0],        strides[1],        padding[0],  padding[1],  padding[2], padding[3],
                        output_padding[0], output_padding[1], dilation[0], dilation[1], groups};
    return true;
  }

  // The only binding using the chain's current value, when that value is a
  // DataflowVar of this block used exactly `expected_uses` times.
  std::optional<size_t> SoleUser(const graph::Var& var, int expected_uses = 1) const {
    if (!var.isa<graph::DataflowVarNode>()) return std::nullopt;
    auto it = uses_.find(var.get());
    if (it == uses_.end() || it->second != expected_uses) return std::nullopt;
    size_t from = binding_of_.at(var.get()) + 1;
    for (size_t j = from; j < block_->bindings.size(); ++j) {
      std::vector<const graph::VarNode*> used;
      if (const auto* vb = block_->bindings[j].as<graph::VarBindingNode>()) fusion::CollectUsedVars(vb->value, &used);
      for (const graph::VarNode* u : used) {
        if (u == var.get()) return j;
      }
    }
    return std::nullopt;
  }

  const graph::Var& VarAt(size_t index) const { return block_->bindings[index]->var; }

  // The other operand of a binary call whose one operand is `var`.
  static std::optional<Expr> OtherOperand(const CallNode* call, const graph::Var& var) {
    if (call->args.size() != 2) return std::nullopt;
    if (call->args[0].same_as(var)) return call->args[1];
    if (call->args[1].same_as(var)) return call->args[0];
    return std::nullopt;
  }

  void Extend(Chain& chain) {
    while (TryStep(chain)) {
    }
  }

  bool TryStep(Chain& chain) {
    const graph::Var& tail = VarAt(chain.members.back());
    if (chain.is_conv && chain.steps.empty() && TryBatchNorm(chain, tail)) return true;
    if (TryHardSwish(chain, tail) || TrySwish(chain, tail)) return true;
    std::optional<size_t> user = SoleUser(tail);
    if (!user) return false;
    const CallNode* call = ValueCall(*user);
    if (call == nullptr) return false;
    if (IsOpCall(call, "relax.nn.relu") || IsOpCall(call, "relax.sigmoid")) {
      chain.steps.push_back(IsOpCall(call, "relax.nn.relu") ? "relu" : "sigmoid");
    } else if (IsOpCall(call, "relax.clip")) {
      std::optional<std::pair<double, double>> bounds = ClipBounds(call);
      if (!bounds) return false;
      chain.steps.push_back("clip:" + FloatText(bounds->first) + ":" + FloatText(bounds->second));
    } else if (IsOpCall(call, "relax.multiply")) {
      return TryHardSigmoid(chain, tail, *user) || TryAffine(chain, tail, *user, call);
    } else if (IsOpCall(call, "relax.add")) {
      return TryAffine(chain, tail, *user, call) || TryAdd(chain, tail, *user, call);
    } else if (IsOpCall(call, "relax.subtract") || IsOpCall(call, "relax.divide")) {
      return TryAffine(chain, tail, *user, call);
    } else {
      return false;
    }
    chain.members.push_back(*user);
    return true;
  }

  static std::string FloatText(double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%.9g", value);
    return buffer;
  }

  static std::optional<std::pair<double, double>> ClipBounds(const CallNode* call) {
    auto bound = [](const Expr& expr) -> std::optional<double> {
      const auto* prim = expr.as<graph::PrimValueNode>();
      if (prim == nullptr) return std::nullopt;
      if (const auto* f = prim->value.as<ir::FloatImmNode>()) return f->value;
      if (const auto* i = prim->value.as<ir::IntImmNode>()) return static_cast<double>(i->value);
      return std::nullopt;
    };
    std::optional<double> lo = bound(call->args[1]), hi = bound(call->args[2]);
    if (!lo || !hi) return std::nullopt;
    return std::make_pair(*lo, *hi);
  }

  // The number of output channels (conv) / columns (matmul), if constant.
  std::optional<int64_t> OutputChannels(const graph::Var& tail, const Chain& chain) const {
    std::optional<std::vector<PrimExpr>> shape = TensorInfo(tail)->GetShape();
    if (!shape) return std::nullopt;
    const PrimExpr& dim = chain.is_conv && !chain.nhwc ? (*shape)[1] : shape->back();
    const auto* imm = dim.as<ir::IntImmNode>();
    return imm ? std::optional<int64_t>(imm->value) : std::nullopt;
  }

  // A constant operand holding one value per output channel, shaped to
  // broadcast against the output: (C,1,1) / (1,C,1,1) for conv, (N,) /
  // (1,..,N) for matmul (the operand's shape: the constant may sit behind an
  // expand_dims or reshape).
  bool IsPerChannel(const Expr& operand, const graph::TensorData& data, int64_t channels, const Chain& chain) const {
    const auto* info = TensorInfo(operand);
    std::optional<std::vector<PrimExpr>> shape = info ? info->GetShape() : std::nullopt;
    if (!shape || data.dtype != DataType::Float32() || data.NumElements() != channels) return false;
    std::vector<int64_t> s;
    for (const PrimExpr& dim : *shape) {
      const auto* imm = dim.as<ir::IntImmNode>();
      if (imm == nullptr) return false;
      s.push_back(imm->value);
    }
    if (chain.is_conv && chain.nhwc) return IsPerLastAxis(s, channels);
    if (chain.is_conv) {
      return (s.size() == 3 && s[0] == channels) || (s.size() == 4 && s[0] == 1 && s[1] == channels);
    }
    return !s.empty() && s.back() == channels;
  }

  // (C,), (1, C), ..., (1, 1, 1, C): one value per channel of an NHWC output.
  static bool IsPerLastAxis(const std::vector<int64_t>& shape, int64_t channels) {
    if (shape.empty() || shape.size() > 4 || shape.back() != channels) return false;
    return std::all_of(shape.begin(), shape.end() - 1, [](int64_t d) { return d == 1; });
  }

  bool TryAdd(Chain& chain, const graph::Var& tail, size_t user, const CallNode* call) {
    std::optional<Expr> other = OtherOperand(call, tail);
    if (!other) return false;
    if (chain.steps.empty() && !chain.bias) {
      const graph::ConstantNode* constant = ConstantOf(*other);
      std::optional<int64_t> channels = OutputChannels(tail, chain);
      if (constant && channels && IsPerChannel(*other, *constant->data, *channels, chain)) {
        chain.bias = FloatValues(*constant->data);
        chain.members.push_back(user);
        return true;
      }
    }
    if (chain.has_add || !SameShape(*other, tail) || DefinedInChain(*other, chain)) return false;
    chain.steps.push_back("add");
    chain.extras.push_back(*other);
    chain.has_add = true;
    chain.members.push_back(user);
    return true;
  }

  bool SameShape(const Expr& a, const Expr& b) const {
    const auto* ia = TensorInfo(a);
    const auto* ib = TensorInfo(b);
    if (ia == nullptr || ib == nullptr || ia->dtype != DataType::Float32()) return false;
    std::optional<std::vector<PrimExpr>> sa = ia->GetShape(), sb = ib->GetShape();
    if (!sa || !sb || sa->size() != sb->size()) return false;
    arith::Analyzer analyzer;
    for (size_t i = 0; i < sa->size(); ++i) {
      if (!analyzer.CanProveEqual((*sa)[i], (*sb)[i])) return false;
    }
    return true;
  }

  bool DefinedInChain(const Expr& expr, const Chain& chain) const {
    const auto* var = expr.as<graph::VarNode>();
    auto it = var ? binding_of_.find(var) : binding_of_.end();
    if (it == binding_of_.end()) return false;
    return it->second >= chain.members.front();
  }

  // multiply(x, a) |> add(., b) |> clip(., 0, 1)
  bool TryHardSigmoid(Chain& chain, const graph::Var& tail, size_t mul_index) {
    std::optional<Expr> a_expr = OtherOperand(ValueCall(mul_index), tail);
    std::optional<float> alpha = a_expr ? ScalarOf(*a_expr) : std::nullopt;
    std::optional<size_t> add_index = alpha ? SoleUser(VarAt(mul_index)) : std::nullopt;
    const CallNode* add = add_index ? IsOpCall(ValueCall(*add_index), "relax.add") : nullptr;
    std::optional<Expr> b_expr = add ? OtherOperand(add, VarAt(mul_index)) : std::nullopt;
    std::optional<float> beta = b_expr ? ScalarOf(*b_expr) : std::nullopt;
    std::optional<size_t> clip_index = beta ? SoleUser(VarAt(*add_index)) : std::nullopt;
    const CallNode* clip = clip_index ? IsOpCall(ValueCall(*clip_index), "relax.clip") : nullptr;
    std::optional<std::pair<double, double>> bounds = clip ? ClipBounds(clip) : std::nullopt;
    if (!bounds || bounds->first != 0.0 || bounds->second != 1.0) return false;
    chain.steps.push_back("hard_sigmoid:" + FloatText(*alpha) + ":" + FloatText(*beta));
    chain.members.insert(chain.members.end(), {mul_index, *add_index, *clip_index});
    return true;
  }

  // x used twice: add(x, 3) |> clip(., 0, 6) |> multiply(x, .) |> divide(., 6)
  bool TryHardSwish(Chain& chain, const graph::Var& tail) {
    std::optional<size_t> add_index = SoleUser(tail, 2);
    if (!add_index) return false;
    const CallNode* add = IsOpCall(ValueCall(*add_index), "relax.add");
    std::optional<Expr> three = add ? OtherOperand(add, tail) : std::nullopt;
    if (!three || ScalarOf(*three) != 3.f) return false;
    std::optional<size_t> clip_index = SoleUser(VarAt(*add_index));
    const CallNode* clip = clip_index ? IsOpCall(ValueCall(*clip_index), "relax.clip") : nullptr;
    std::optional<std::pair<double, double>> bounds = clip ? ClipBounds(clip) : std::nullopt;
    if (!bounds || bounds->first != 0.0 || bounds->second != 6.0) return false;
    std::optional<size_t> mul_index = SoleUser(VarAt(*clip_index));
    const CallNode* mul = mul_index ? IsOpCall(ValueCall(*mul_index), "relax.multiply") : nullptr;
    std::optional<Expr> x = mul ? OtherOperand(mul, VarAt(*clip_index)) : std::nullopt;
    if (!x || !x->same_as(tail)) return false;
    std::optional<size_t> div_index = SoleUser(VarAt(*mul_index));
    const CallNode* div = div_index ? IsOpCall(ValueCall(*div_index), "relax.divide") : nullptr;
    if (div == nullptr || !div->args[0].same_as(VarAt(*mul_index)) || ScalarOf(div->args[1]) != 6.f) return false;
    chain.steps.push_back("hard_swish");
    chain.members.insert(chain.members.end(), {*add_index, *clip_index, *mul_index, *div_index});
    return true;
  }

  // x used twice: [multiply(x, a) |>] sigmoid |> multiply(x, .), a a scalar
  // constant (1 without the multiply): "swish:a" (x * sigmoid(a * x)).
  bool TrySwish(Chain& chain, const graph::Var& tail) {
    std::optional<size_t> index = SoleUser(tail, 2);
    const CallNode* call = index ? ValueCall(*index) : nullptr;
    std::vector<size_t> members;
    double alpha = 1.0;
    if (IsOpCall(call, "relax.multiply")) {
      std::optional<Expr> a_expr = OtherOperand(call, tail);
      std::optional<float> a = a_expr ? ScalarOf(*a_expr) : std::nullopt;
      if (!a) return false;
      alpha = *a;
      members.push_back(*index);
      index = SoleUser(VarAt(*index));
      call = index ? ValueCall(*index) : nullptr;
    }
    if (IsOpCall(call, "relax.sigmoid") == nullptr) return false;
    members.push_back(*index);
    std::optional<size_t> mul_index = SoleUser(VarAt(*index));
    const CallNode* mul = mul_index ? IsOpCall(ValueCall(*mul_index), "relax.multiply") : nullptr;
    std::optional<Expr> x = mul ? OtherOperand(mul, VarAt(*index)) : std::nullopt;
    if (!x || !x->same_as(tail)) return false;
    members.push_back(*mul_index);
    chain.steps.push_back("swish:" + FloatText(alpha));
    chain.members.insert(chain.members.end(), members.begin(), members.end());
    return true;
  }

  // batch_norm(x, gamma, beta, mean, var) |> [0], all constant: folded.
  bool TryBatchNorm(Chain& chain, const graph::Var& tail) {
    std::optional<size_t> bn_index = SoleUser(tail);
    if (!bn_index || !chain.weight_is_const) return false;
    const CallNode* bn = IsOpCall(ValueCall(*bn_index), "relax.nn.batch_norm");
    int64_t channel_axis = chain.nhwc ? 3 : 1;
    if (bn == nullptr || !bn->args[0].same_as(tail) || op::detail::GetIntAttr(Call(bn), "axis", 1) != channel_axis) {
      return false;
    }
    std::vector<std::vector<float>> params;
    for (size_t k = 1; k <= 4; ++k) {
      const auto* constant = bn->args[k].as<graph::ConstantNode>();
      if (constant == nullptr || constant->data->dtype != DataType::Float32()) return false;
      params.push_back(FloatValues(*constant->data));
    }
    std::optional<size_t> item_index = SoleUser(VarAt(*bn_index));
    const auto* vb = item_index ? block_->bindings[*item_index].as<graph::VarBindingNode>() : nullptr;
    const auto* item = vb ? vb->value.as<graph::TupleGetItemNode>() : nullptr;
    if (item == nullptr || item->index != 0) return false;
    std::optional<int64_t> channels = OutputChannels(tail, chain);
    for (const std::vector<float>& param : params) {
      if (!channels || param.size() != static_cast<size_t>(*channels)) return false;
    }
    double epsilon = op::detail::GetFloatAttr(Call(bn), "epsilon", 1e-5);
    bool scale = op::detail::GetBoolAttr(Call(bn), "scale", true);
    bool center = op::detail::GetBoolAttr(Call(bn), "center", true);
    std::vector<double> scales(params[0].size()), shifts(params[0].size());
    for (size_t o = 0; o < scales.size(); ++o) {
      scales[o] = (scale ? params[0][o] : 1.0) / std::sqrt(static_cast<double>(params[3][o]) + epsilon);
      shifts[o] = (center ? params[1][o] : 0.0) - params[2][o] * scales[o];
    }
    if (!FoldChannelAffine(chain, scales, shifts)) return false;
    chain.members.insert(chain.members.end(), {*bn_index, *item_index});
    return true;
  }

  // Folds y' = scale[o] * y + shift[o] (o the output channel / column) into
  // the chain before any post-op: the weight is scaled (it must then be a
  // constant) and the bias becomes scale * bias + shift (shift if none).
  static bool FoldChannelAffine(Chain& chain, const std::vector<double>& scales, const std::vector<double>& shifts) {
    RLX_ICHECK(chain.steps.empty() && scales.size() == shifts.size()) << "folding after a post-op";
    if (chain.bias && chain.bias->size() != scales.size()) return false;
    bool scaled = std::any_of(scales.begin(), scales.end(), [](double s) { return s != 1.0; });
    if (scaled) {
      const auto* constant = chain.weight.as<graph::ConstantNode>();
      if (constant == nullptr) return false;
      std::optional<std::vector<float>> weight = ScaledWeight(chain, *constant->data, scales);
      if (!weight) return false;
      chain.weight = Expr(make<graph::ConstantNode>(MakeFloatData(constant->data->shape, *weight)));
    }
    std::vector<float> bias(scales.size());
    for (size_t o = 0; o < scales.size(); ++o) {
      double old = chain.bias ? (*chain.bias)[o] : 0.0;
      bias[o] = static_cast<float>(scales[o] * old + shifts[o]);
    }
    bool any_bias = chain.bias || std::any_of(shifts.begin(), shifts.end(), [](double s) { return s != 0.0; });
    if (any_bias) chain.bias = std::move(bias);
    return true;
  }

  // The constant weight with every element of output channel o multiplied
  // by scales[o]: OIHW conv (O = axis 0), IOHW conv2d_transpose (O = group
  // * O/groups + axis 1), matmul (..., K, N) (N = last axis). Nullopt when
  // the weight's shape does not match the channel count.
  static std::optional<std::vector<float>> ScaledWeight(const Chain& chain, const graph::TensorData& weight,
                                                        const std::vector<double>& scales) {
    const std::vector<int64_t>& shape = weight.shape;
    int64_t channels = static_cast<int64_t>(scales.size());
    std::vector<float> values = FloatValues(weight);
    if (values.empty() || shape.empty()) return std::nullopt;
    std::function<int64_t(size_t)> channel_of;
    if (!chain.is_conv) {
      if (shape.back() != channels) return std::nullopt;
      channel_of = [&](size_t i) { return static_cast<int64_t>(i) % channels; };
    } else if (!chain.is_transpose) {
      if (shape.size() != 4 || shape[0] != channels) return std::nullopt;
      int64_t per_channel = shape[1] * shape[2] * shape[3];
      channel_of = [=](size_t i) { return static_cast<int64_t>(i) / per_channel; };
    } else {
      int64_t groups = chain.conv_attrs.back();
      if (shape.size() != 4 || shape[1] * groups != channels || shape[0] % groups != 0) return std::nullopt;
      int64_t in_per_group = shape[0] / groups, out_per_group = shape[1], kernel = shape[2] * shape[3];
      channel_of = [=](size_t i) {
        int64_t flat = static_cast<int64_t>(i) / kernel;
        int64_t in_channel = flat / out_per_group;
        return in_channel / in_per_group * out_per_group + flat % out_per_group;
      };
    }
    for (size_t i = 0; i < values.size(); ++i) {
      values[i] = static_cast<float>(values[i] * scales[static_cast<size_t>(channel_of(i))]);
    }
    return values;
  }

  // The affine map y -> alpha * y + beta of a multiply / add / subtract /
  // divide of `tail` by the constant `value` (tail the first operand or not).
  static std::optional<std::pair<double, double>> AffineOf(const CallNode* call, bool tail_first, double value) {
    if (IsOpCall(call, "relax.multiply")) return std::make_pair(value, 0.0);
    if (IsOpCall(call, "relax.add")) return std::make_pair(1.0, value);
    if (IsOpCall(call, "relax.subtract")) return tail_first ? std::make_pair(1.0, -value) : std::make_pair(-1.0, value);
    if (IsOpCall(call, "relax.divide") && tail_first && value != 0.0) return std::make_pair(1.0 / value, 0.0);
    return std::nullopt;
  }

  // multiply / add / subtract / divide of the chain value by a float32
  // constant: a scalar (any shape of one element that does not raise the
  // rank) anywhere, folded into weight and bias before the first post-op and
  // an eltwise_linear post-op after one; one value per output channel only
  // before the first post-op (folded).
  bool TryAffine(Chain& chain, const graph::Var& tail, size_t user, const CallNode* call) {
    std::optional<Expr> other = OtherOperand(call, tail);
    const graph::ConstantNode* constant = other ? ConstantOf(*other) : nullptr;
    const auto* other_info = other ? TensorInfo(*other) : nullptr;
    const auto* tail_info = TensorInfo(tail);
    if (constant == nullptr || constant->data->dtype != DataType::Float32() || other_info == nullptr ||
        tail_info == nullptr || other_info->IsUnknownNdim() || other_info->ndim > tail_info->ndim) {
      return false;
    }
    bool tail_first = call->args[0].same_as(tail);
    std::vector<float> values = FloatValues(*constant->data);
    std::optional<int64_t> channels = OutputChannels(tail, chain);
    if (values.size() == 1) {
      std::optional<std::pair<double, double>> affine = AffineOf(call, tail_first, values[0]);
      if (!affine) return false;
      if (!(chain.steps.empty() && channels &&
            FoldChannelAffine(chain, std::vector<double>(static_cast<size_t>(*channels), affine->first),
                              std::vector<double>(static_cast<size_t>(*channels), affine->second)))) {
        AppendLinear(chain, affine->first, affine->second);
      }
    } else {
      if (!chain.steps.empty() || !channels || !IsPerChannel(*other, *constant->data, *channels, chain)) return false;
      std::vector<double> scales(values.size()), shifts(values.size());
      for (size_t o = 0; o < values.size(); ++o) {
        std::optional<std::pair<double, double>> affine = AffineOf(call, tail_first, values[o]);
        if (!affine) return false;
        std::tie(scales[o], shifts[o]) = *affine;
      }
      if (!FoldChannelAffine(chain, scales, shifts)) return false;
    }
    chain.members.push_back(user);
    return true;
  }

  // Appends the post-op "linear:alpha:beta", merged into a directly
  // preceding one; the identity (x * 1, x + 0) adds nothing.
  static void AppendLinear(Chain& chain, double alpha, double beta) {
    if (alpha == 1.0 && beta == 0.0) return;
    if (chain.linear_step && *chain.linear_step + 1 == chain.steps.size()) {
      chain.linear_beta = alpha * chain.linear_beta + beta;
      chain.linear_alpha = alpha * chain.linear_alpha;
      chain.steps.back() = "linear:" + FloatText(chain.linear_alpha) + ":" + FloatText(chain.linear_beta);
      return;
    }
    chain.linear_step = chain.steps.size();
    chain.linear_alpha = alpha;
    chain.linear_beta = beta;
    chain.steps.push_back("linear:" + FloatText(alpha) + ":" + FloatText(beta));
  }

  Expr MakeLibraryCall(const Chain& chain, const graph::Var& out) const {
    std::vector<Expr> args = {chain.data, chain.weight};
    if (chain.is_conv) {
      std::vector<PrimExpr> attrs;
      for (int64_t v : chain.conv_attrs) attrs.push_back(ir::MakeInt(v));
      args.push_back(Expr(make<graph::ShapeExprNode>(std::move(attrs))));
    }
    std::string post_ops = chain.bias ? "bias" : "";
    for (const std::string& step : chain.steps) post_ops += (post_ops.empty() ? "" : ";") + step;
    args.push_back(Expr(make<graph::StringImmNode>(post_ops)));
    args.push_back(Expr(make<graph::PrimValueNode>(ir::MakeInt(chain.weight_is_const ? 1 : 0))));
    if (chain.bias) {
      int64_t n = static_cast<int64_t>(chain.bias->size());
      args.push_back(Expr(make<graph::ConstantNode>(MakeFloatData({n}, *chain.bias))));
    }
    args.insert(args.end(), chain.extras.begin(), chain.extras.end());
    std::string func = chain.is_transpose ? "rlx.dnnl.conv2d_transpose"
                       : chain.is_conv    ? "rlx.dnnl.conv2d"
                                          : "rlx.dnnl.matmul";
    Expr call = graph::MakeCall("relax.call_dps_packed",
                                {Expr(make<graph::ExternFuncNode>(func)), Expr(make<graph::TupleNode>(std::move(args)))},
                                nullptr, {out->struct_info});
    graph::BlockBuilder normalizer;
    return normalizer.Normalize(call);
  }

  graph::BindingBlock block_;
  const std::unordered_map<const graph::VarNode*, int>& uses_;
  std::unordered_map<const graph::VarNode*, size_t> binding_of_;
};

// How many times each variable is used in `func` (every occurrence).
class UseCounter : public graph::ExprVisitor {
 public:
  std::unordered_map<const graph::VarNode*, int> uses;

 protected:
  using ExprVisitor::VisitExpr_;
  void VisitExpr_(const graph::VarNode* op, const Expr&) override { ++uses[op]; }
  void VisitExpr_(const graph::DataflowVarNode* op, const Expr&) override { ++uses[op]; }
};

class DispatchRewriter : public graph::ExprMutatorBase {
 public:
  explicit DispatchRewriter(const std::unordered_map<const graph::VarNode*, int>& uses) : uses_(uses) {}

  graph::BindingBlock VisitBindingBlock(const graph::BindingBlock& block) override {
    graph::BindingBlock visited = ExprMutatorBase::VisitBindingBlock(block);
    if (!visited->is_dataflow()) return visited;
    return BlockRewriter(visited, uses_).Rewrite();
  }

 private:
  const std::unordered_map<const graph::VarNode*, int>& uses_;
};

ir::IRModule DispatchModule(const ir::IRModule& mod) {
  ir::IRModule result = mod;
  for (const auto& [name, func] : mod->functions) {
    const auto* graph_func = func.as<graph::FunctionNode>();
    // Outlined groups (fuse-ops-by-pattern's composites) are lowered as a whole.
    if (graph_func == nullptr || (graph_func->attrs.defined() && (graph_func->attrs->Get("Primitive").defined() ||
                                                                  graph_func->attrs->Get("Composite").defined()))) {
      continue;
    }
    UseCounter counter;
    counter.VisitExpr(Expr(graph_func));
    DispatchRewriter rewriter(counter.uses);
    Expr updated = rewriter.VisitExpr(Expr(graph_func));
    if (updated.same_as(func)) continue;
    graph::BlockBuilder normalizer(result);
    result = ir::WithFunction(result, name, normalizer.Normalize(updated));
  }
  return result;
}

}  // namespace

Pass DispatchLibrary() {
  return CreateModulePass([](ir::IRModule mod, const PassContext&) { return DispatchModule(mod); },
                          PassInfo{kPassName,
                                   "Rewrites float32 conv2d / matmul calls and their bias, batch_norm, activation and "
                                   "residual epilogues into call_dps_packed of the oneDNN library functions",
                                   0, {}});
}

}  // namespace rlx::transform
