// ConvertLayout: rewrites convolutions to a desired data / kernel layout
// (NHWC / OHWI for oneDNN) and lets the new layout flow through the
// operators that do not care about it, like TVM's relax.transform.
// ConvertLayout({"relax.nn.conv2d": ["NHWC", "OHWI"]}).
//
// Algorithm, per dataflow block, one forward walk over its bindings:
//
//   Every tensor value v of the original program gets a *layout*: a
//   permutation P of its axes such that the rewritten program holds
//   v' = permute_dims(v, P) (new axis i is original axis P[i]; the identity
//   means "as in the original program"). Alongside, a cache keeps every
//   version of v already materialized (v in layout Q for each Q asked for),
//   so that a value converted back and forth is converted once, and a
//   request for a layout whose version exists costs nothing (back-to-back
//   inverse permutes cancel).
//
//   For each binding y = op(args...):
//     conv (an op named in the desired layouts): the data is brought to the
//         permutation that turns the op's data_layout into the desired one,
//         the kernel likewise (a constant kernel is permuted at compile
//         time); the call gets the desired data_layout / kernel_layout /
//         out_layout, and y's layout is the permutation from the original
//         out_layout to the desired one.
//     layout-following ops, when some input has a non-identity layout P:
//       unary elementwise (pattern ElemWise, one tensor argument): y gets P.
//       binary broadcast ops: the full-rank operands are brought to P; an
//         operand of smaller rank (right-aligned numpy broadcasting) is
//         padded with leading unit dims and permuted by P (a constant, or a
//         reshape / expand_dims of one, at compile time with its leading
//         unit dims dropped: a (C, 1, 1) bias becomes (C,)); y gets P.
//       reductions (sum, mean, max, ...), softmax: axes remapped through
//         P^-1; keepdims keeps P, otherwise the surviving axes keep their
//         relative order.
//       concat / split: axis remapped (split's pieces all get P); pad: the
//         (before, after) pairs permuted; pools and resize2d: their
//         `layout` (and out_layout) strings permuted; batch_norm: axis
//         remapped, item 0 gets P. Tuple results (split, batch_norm) are
//         followed only when every use is a tuple-get-item.
//       permute_dims: its axes composed with P^-1; y is back in the
//         identity layout (and a permute_dims that undoes P disappears).
//     anything else: every argument is brought back to the identity
//         layout, y has the identity layout.
//   A dataflow-block output (a Var) is always bound in the identity layout
//   (a permute_dims back after its permuted version), so everything outside
//   the block, function results included, sees the original layouts.
//
// Shapes stay exact: permute_dims and the ops' own deduction give the
// permuted symbolic dims. Dead reshapes of constants left behind are for
// dead-code-elimination; a permute whose output is never used is never
// emitted.
#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <unordered_map>

#include "op/attr_util.h"
#include "op/op_common.h"
#include "rlx/graph/block_builder.h"
#include "rlx/graph/expr_functor.h"
#include "rlx/graph/op_registry.h"
#include "rlx/op/manipulate.h"
#include "rlx/op/op.h"
#include "rlx/support/diagnostic.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::Call;
using graph::CallNode;
using graph::Expr;
using graph::Var;
using graph::VarNode;
using Perm = std::vector<int>;

constexpr const char* kPassName = "convert-layout";

// ---------------------------------------------------------------------------
// Permutations.

bool IsIdentity(const Perm& perm) {
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<int>(i)) return false;
  }
  return true;
}

Perm IdentityPerm(int rank) {
  Perm perm(static_cast<size_t>(std::max(rank, 0)));
  std::iota(perm.begin(), perm.end(), 0);
  return perm;
}

Perm Inverse(const Perm& perm) {
  Perm inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[static_cast<size_t>(perm[i])] = static_cast<int>(i);
  return inverse;
}

// The permutation taking a tensor in layout `from` to layout `to` (strings
// of the same letters): result[i] = position of to[i] in from. nullopt when
// `to` is not a permutation of `from`.
std::optional<Perm> PermBetween(const std::string& from, const std::string& to) {
  std::string a = from, b = to;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b || std::adjacent_find(a.begin(), a.end()) != a.end()) return std::nullopt;
  Perm perm;
  for (char letter : to) perm.push_back(static_cast<int>(from.find(letter)));
  return perm;
}

std::string PermuteString(const std::string& text, const Perm& perm) {
  std::string out;
  for (int p : perm) out.push_back(text[static_cast<size_t>(p)]);
  return out;
}

std::vector<int64_t> ToInt64(const Perm& perm) { return std::vector<int64_t>(perm.begin(), perm.end()); }

// `data` with its axes permuted: out axis i is data axis perm[i].
graph::TensorDataPtr PermuteData(const graph::TensorData& data, const Perm& perm) {
  size_t rank = data.shape.size();
  RLX_ICHECK(perm.size() == rank) << "permutation of rank " << perm.size() << " for a constant of rank " << rank;
  auto out = std::make_shared<graph::TensorData>();
  out->dtype = data.dtype;
  for (int p : perm) out->shape.push_back(data.shape[static_cast<size_t>(p)]);
  out->bytes.resize(data.bytes.size());
  size_t element = static_cast<size_t>(data.dtype.bytes() * data.dtype.lanes());
  std::vector<int64_t> in_strides(rank, 1);
  for (size_t i = rank; i-- > 1;) in_strides[i - 1] = in_strides[i] * data.shape[i];
  int64_t count = data.NumElements();
  std::vector<int64_t> index(rank, 0);  // position in the output
  for (int64_t flat = 0; flat < count; ++flat) {
    int64_t source = 0;
    for (size_t i = 0; i < rank; ++i) source += index[i] * in_strides[static_cast<size_t>(perm[i])];
    std::memcpy(out->bytes.data() + flat * element, data.bytes.data() + source * element, element);
    for (size_t i = rank; i-- > 0;) {
      if (++index[i] < out->shape[i]) break;
      index[i] = 0;
    }
  }
  return out;
}

const graph::TensorStructInfoNode* TensorInfo(const Expr& expr) {
  return expr.defined() && expr->struct_info.defined() ? expr->struct_info.as<graph::TensorStructInfoNode>()
                                                       : nullptr;
}

int RankOf(const Expr& expr) {
  const auto* info = TensorInfo(expr);
  return info == nullptr ? -1 : info->ndim;
}

std::string OpNameOf(const CallNode* call) {
  const auto* op = call->op.as<graph::OpNode>();
  return op == nullptr ? std::string() : op->name;
}

bool IsOneOf(const std::string& name, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return name == n; });
}

// How each variable of a function is used: every occurrence, and the
// occurrences as the tuple of a tuple-get-item.
class UseCounter : public graph::ExprVisitor {
 public:
  std::unordered_map<const VarNode*, int> uses, item_uses;

 protected:
  using ExprVisitor::VisitExpr_;
  void VisitExpr_(const VarNode* op, const Expr&) override { ++uses[op]; }
  void VisitExpr_(const graph::DataflowVarNode* op, const Expr&) override { ++uses[op]; }
  void VisitExpr_(const graph::TupleGetItemNode* op, const Expr& self) override {
    if (const auto* var = op->tuple.as<VarNode>()) ++item_uses[var];
    ExprVisitor::VisitExpr_(op, self);
  }
};

// A value of the rewritten program: `expr` = permute_dims(original, perm).
struct Layouted {
  Expr expr;
  Perm perm;
  const VarNode* original = nullptr;  // the original variable, when one
};

// The rewritten value of one binding: a tensor in layout `perm`, or a tuple
// whose fields have the layouts `fields`.
struct Rewritten {
  Expr value;
  Perm perm;
  std::optional<std::vector<Perm>> fields;
};

using DesiredLayouts = std::map<std::string, std::vector<std::string>>;

class LayoutConverter : public graph::ExprMutator {
 public:
  LayoutConverter(const ir::IRModule& mod, const DesiredLayouts& desired, const UseCounter& uses)
      : ExprMutator(mod), desired_(desired), uses_(uses) {}

 protected:
  using ExprMutator::VisitBinding_;
  using ExprMutator::VisitBindingBlock_;
  using ExprMutator::VisitExpr_;

  graph::BindingBlock VisitBindingBlock_(const graph::DataflowBlockNode* block) override {
    current_.clear();
    versions_.clear();
    tuple_fields_.clear();
    permute_source_.clear();
    constant_of_.clear();
    in_dataflow_ = true;
    graph::BindingBlock result = ExprMutator::VisitBindingBlock_(block);
    in_dataflow_ = false;
    return result;
  }

  void VisitBinding_(const graph::VarBindingNode* binding) override {
    if (!in_dataflow_) {
      ExprMutator::VisitBinding_(binding);
      return;
    }
    NoteConstantReshape(binding);
    std::optional<Rewritten> rewritten;
    if (const auto* call = binding->value.as<CallNode>()) rewritten = RewriteCall(binding, call);
    if (!rewritten) rewritten = RewriteTupleGetItem(binding);
    if (rewritten) {
      Record(binding, *rewritten);
      return;
    }
    RestoreOriginalLayouts(binding->value);
    ExprMutator::VisitBinding_(binding);
    const Var& var = binding->var;
    auto it = var_remap_.find(var.get());
    Expr emitted = it == var_remap_.end() ? Expr(var) : Expr(it->second);
    if (RankOf(var) >= 0) current_[var.get()] = Layouted{emitted, IdentityPerm(RankOf(var)), var.get()};
  }

  // match_cast(v, Tensor(shape)) of a permuted v checks the permuted shape
  // and keeps the layout; other match_casts see the original layouts.
  void VisitBinding_(const graph::MatchCastNode* binding) override {
    if (!in_dataflow_) {
      ExprMutator::VisitBinding_(binding);
      return;
    }
    const auto* target = binding->struct_info.as<graph::TensorStructInfoNode>();
    std::optional<std::vector<ir::PrimExpr>> dims = target ? target->GetShape() : std::nullopt;
    if (!HasLayout(binding->value) || !dims || dims->size() != current_.at(binding->value.as<VarNode>()).perm.size()) {
      RestoreOriginalLayouts(binding->value);
      ExprMutator::VisitBinding_(binding);
      return;
    }
    const Layouted& value = current_.at(binding->value.as<VarNode>());
    std::vector<ir::PrimExpr> permuted_dims;
    for (int p : value.perm) permuted_dims.push_back((*dims)[static_cast<size_t>(p)]);
    const Var& var = binding->var;
    graph::StructInfo permuted_info = graph::TensorSInfo(permuted_dims, target->dtype);
    Var permuted = builder_->EmitMatchCast(value.expr, permuted_info, var->name_hint);
    current_[var.get()] = Layouted{permuted, value.perm, var.get()};
    versions_[var.get()][value.perm] = permuted;
    if (!var.isa<graph::DataflowVarNode>()) {
      Var restored = builder_->EmitWithVar(var, op::permute_dims(permuted, ToInt64(Inverse(value.perm))));
      RemapVar(var, restored);
      versions_[var.get()][IdentityPerm(static_cast<int>(value.perm.size()))] = restored;
    }
  }

 private:
  // ---- bookkeeping --------------------------------------------------------

  // `var = reshape / expand_dims(constant)` with a static result shape: its
  // value is the constant's bytes under the new shape.
  void NoteConstantReshape(const graph::VarBindingNode* binding) {
    const auto* call = binding->value.as<CallNode>();
    if (call == nullptr || !IsOneOf(OpNameOf(call), {"relax.reshape", "relax.expand_dims"})) return;
    const auto* constant = call->args[0].as<graph::ConstantNode>();
    const auto* info = TensorInfo(binding->var);
    std::optional<std::vector<ir::PrimExpr>> shape = info ? info->GetShape() : std::nullopt;
    if (constant == nullptr || !shape) return;
    auto data = std::make_shared<graph::TensorData>(*constant->data);
    data->shape.clear();
    for (const ir::PrimExpr& dim : *shape) {
      const auto* imm = dim.as<ir::IntImmNode>();
      if (imm == nullptr) return;
      data->shape.push_back(imm->value);
    }
    if (data->NumElements() != constant->data->NumElements()) return;
    constant_of_[binding->var.get()] = data;
  }

  void Record(const graph::VarBindingNode* binding, const Rewritten& rewritten) {
    const Var& var = binding->var;
    bool is_output = !var.isa<graph::DataflowVarNode>();
    bool identity = !rewritten.fields && IsIdentity(rewritten.perm);
    if (identity && rewritten.value.isa<VarNode>() && !is_output) {
      RemapVar(var, cast<VarNode>(rewritten.value));
      current_[var.get()] = Layouted{rewritten.value, rewritten.perm, var.get()};
      return;
    }
    if (identity) {
      ReEmitBinding(binding, rewritten.value);
      auto it = var_remap_.find(var.get());
      Expr emitted = it == var_remap_.end() ? Expr(var) : Expr(it->second);
      current_[var.get()] = Layouted{emitted, rewritten.perm, var.get()};
      return;
    }
    Var permuted = builder_->Emit(rewritten.value, var->name_hint);
    if (rewritten.fields) {
      tuple_fields_[var.get()] = {permuted, *rewritten.fields};
      return;
    }
    current_[var.get()] = Layouted{permuted, rewritten.perm, var.get()};
    versions_[var.get()][rewritten.perm] = permuted;
    if (is_output) {
      Var restored = builder_->EmitWithVar(var, op::permute_dims(permuted, ToInt64(Inverse(rewritten.perm))));
      RemapVar(var, restored);
      versions_[var.get()][IdentityPerm(static_cast<int>(rewritten.perm.size()))] = restored;
    }
  }

  // The rewritten value of an argument and its layout.
  Layouted Lookup(const Expr& arg) {
    if (const auto* var = arg.as<VarNode>()) {
      auto it = current_.find(var);
      if (it != current_.end()) return it->second;
    }
    Expr visited = VisitExpr(arg);
    return Layouted{visited, IdentityPerm(RankOf(visited)), arg.as<VarNode>()};
  }

  bool HasLayout(const Expr& arg) {
    const auto* var = arg.as<VarNode>();
    auto it = var ? current_.find(var) : current_.end();
    return it != current_.end() && !IsIdentity(it->second.perm);
  }

  // `value` brought to layout `target` (relative to the original value).
  Expr ToLayout(const Layouted& value, const Perm& target) {
    if (value.perm == target) return value.expr;
    if (value.original != nullptr) {
      auto found = versions_[value.original].find(target);
      if (found != versions_[value.original].end()) return found->second;
    }
    Perm inverse = Inverse(value.perm);
    Perm step;
    for (int t : target) step.push_back(inverse[static_cast<size_t>(t)]);
    Expr result = PermuteExpr(value.expr, step);
    if (value.original != nullptr && result.isa<VarNode>()) versions_[value.original][target] = result;
    return result;
  }

  // permute_dims(expr, step): a constant permuted now, a permute that undoes
  // the one defining `expr` cancelled, else a new binding.
  Expr PermuteExpr(const Expr& expr, const Perm& step) {
    if (IsIdentity(step)) return expr;
    if (const auto* constant = expr.as<graph::ConstantNode>()) {
      return Expr(make<graph::ConstantNode>(PermuteData(*constant->data, step)));
    }
    if (const auto* var = expr.as<VarNode>()) {
      auto source = permute_source_.find(var);
      if (source != permute_source_.end()) {
        const auto& [from, first] = source->second;
        Perm composed;
        for (int s : step) composed.push_back(first[static_cast<size_t>(s)]);
        if (IsIdentity(composed)) return from;
      }
    }
    Var permuted = builder_->Emit(op::permute_dims(expr, ToInt64(step)), "");
    permute_source_[permuted.get()] = {expr, step};
    return permuted;
  }

  Expr ToIdentity(const Layouted& value) { return ToLayout(value, IdentityPerm(static_cast<int>(value.perm.size()))); }

  // Before a binding the converter does not understand: every permuted
  // variable it uses gets its identity-layout version as its replacement.
  void RestoreOriginalLayouts(const Expr& value) {
    std::vector<const VarNode*> used;
    graph::PostOrderVisit(value, [&](const Expr& e) {
      if (const auto* var = e.as<VarNode>()) used.push_back(var);
    });
    for (const VarNode* var : used) {
      auto tuple = tuple_fields_.find(var);
      RLX_ICHECK(tuple == tuple_fields_.end()) << "a permuted tuple used other than by tuple-get-item";
      if (!HasLayout(Expr(var))) continue;
      Expr restored = ToIdentity(current_.at(var));
      RemapVar(Var(var), cast<VarNode>(restored));
    }
  }

  // Is the tuple bound to `var` used only through tuple-get-item?
  bool OnlyItemsUsed(const Var& var) const {
    if (!var.isa<graph::DataflowVarNode>()) return false;
    auto all = uses_.uses.find(var.get());
    auto items = uses_.item_uses.find(var.get());
    int item_count = items == uses_.item_uses.end() ? 0 : items->second;
    return all == uses_.uses.end() || all->second == item_count;
  }

  // ---- rules --------------------------------------------------------------

  std::optional<Rewritten> RewriteTupleGetItem(const graph::VarBindingNode* binding) {
    const auto* item = binding->value.as<graph::TupleGetItemNode>();
    const auto* tuple_var = item ? item->tuple.as<VarNode>() : nullptr;
    auto it = tuple_var ? tuple_fields_.find(tuple_var) : tuple_fields_.end();
    if (it == tuple_fields_.end()) return std::nullopt;
    const auto& [tuple, fields] = it->second;
    Expr value(make<graph::TupleGetItemNode>(tuple, item->index));
    return Rewritten{value, fields.at(static_cast<size_t>(item->index)), std::nullopt};
  }

  std::optional<Rewritten> RewriteCall(const graph::VarBindingNode* binding, const CallNode* call) {
    std::string name = OpNameOf(call);
    if (name.empty()) return std::nullopt;
    if (desired_.count(name) != 0) return RewriteConv(call, desired_.at(name));
    if (call->args.empty()) return std::nullopt;
    const Expr& first = call->args[0];
    if (name == "relax.concat") return RewriteConcat(call);
    if (IsOneOf(name, {"relax.add", "relax.subtract", "relax.multiply", "relax.divide", "relax.power",
                       "relax.maximum", "relax.minimum", "relax.floor_divide", "relax.floor_mod", "relax.equal",
                       "relax.not_equal", "relax.less", "relax.less_equal", "relax.greater", "relax.greater_equal",
                       "relax.logical_and", "relax.logical_or"})) {
      return RewriteBroadcast(binding, call);
    }
    if (!HasLayout(first)) return std::nullopt;
    Layouted data = Lookup(first);
    const graph::OpInfo* info = graph::FindOp(name);
    if (info != nullptr && info->pattern == graph::OpPatternKind::kElemWise && IsUnaryElementwise(binding, call)) {
      std::vector<Expr> args = {data.expr};
      for (Expr& other : IdentityArgs(call, 1)) args.push_back(other);
      return Rewritten{WithArgs(call, std::move(args)), data.perm, std::nullopt};
    }
    if (IsOneOf(name, {"relax.sum", "relax.mean", "relax.max", "relax.min", "relax.prod", "relax.variance",
                       "relax.std"})) {
      return RewriteReduce(call, data);
    }
    if (IsOneOf(name, {"relax.nn.softmax", "relax.nn.log_softmax"})) return RewriteAxisOp(call, data, "axis", -1);
    if (name == "relax.split") return RewriteSplit(binding, call, data);
    if (name == "relax.nn.pad") return RewritePad(call, data);
    if (IsOneOf(name, {"relax.nn.max_pool2d", "relax.nn.avg_pool2d", "relax.nn.adaptive_avg_pool2d",
                       "relax.image.resize2d"})) {
      return RewriteLayoutAttrOp(call, data);
    }
    if (name == "relax.nn.batch_norm") return RewriteBatchNorm(binding, call, data);
    if (name == "relax.permute_dims") return RewritePermuteDims(call, data);
    return std::nullopt;
  }

  // One tensor argument (the others prim values), a tensor result of its rank.
  static bool IsUnaryElementwise(const graph::VarBindingNode* binding, const CallNode* call) {
    for (size_t i = 1; i < call->args.size(); ++i) {
      if (!call->args[i].isa<graph::PrimValueNode>()) return false;
    }
    return RankOf(binding->var) == RankOf(call->args[0]);
  }

  Expr WithArgs(const CallNode* call, std::vector<Expr> args, ir::Dict attrs = nullptr) const {
    return Expr(make<CallNode>(call->op, std::move(args), attrs.defined() ? attrs : call->attrs, call->sinfo_args));
  }

  // The other arguments in the identity layout (prim values, shapes as they are).
  std::vector<Expr> IdentityArgs(const CallNode* call, size_t from) {
    std::vector<Expr> args;
    for (size_t i = from; i < call->args.size(); ++i) {
      const Expr& arg = call->args[i];
      args.push_back(RankOf(arg) >= 0 ? ToIdentity(Lookup(arg)) : VisitExpr(arg));
    }
    return args;
  }

  std::optional<Rewritten> RewriteConv(const CallNode* call, const std::vector<std::string>& desired) {
    Call ref(call);
    std::string data_layout = op::detail::GetStringAttr(ref, "data_layout", "NCHW");
    std::string kernel_layout = op::detail::GetStringAttr(ref, "kernel_layout", "OIHW");
    std::string out_layout = op::detail::GetOptionalStringAttr(ref, "out_layout").value_or(data_layout);
    std::optional<Perm> data_perm = PermBetween(data_layout, desired[0]);
    std::optional<Perm> kernel_perm = PermBetween(kernel_layout, desired[1]);
    std::optional<Perm> out_perm = PermBetween(out_layout, desired[0]);
    if (call->args.size() != 2 || !data_perm || !kernel_perm || !out_perm ||
        RankOf(call->args[0]) != static_cast<int>(data_perm->size()) ||
        RankOf(call->args[1]) != static_cast<int>(kernel_perm->size())) {
      return std::nullopt;
    }
    Expr data = ToLayout(Lookup(call->args[0]), *data_perm);
    Expr kernel = ToLayout(Lookup(call->args[1]), *kernel_perm);
    ir::Dict attrs = ir::DictWith(call->attrs, "data_layout", op::detail::StringAttr(desired[0]));
    attrs = ir::DictWith(attrs, "kernel_layout", op::detail::StringAttr(desired[1]));
    attrs = ir::DictWith(attrs, "out_layout", op::detail::StringAttr(desired[0]));
    return Rewritten{WithArgs(call, {data, kernel}, attrs), *out_perm, std::nullopt};
  }

  // add / multiply / ...: numpy broadcasting, operands aligned at the right.
  std::optional<Rewritten> RewriteBroadcast(const graph::VarBindingNode* binding, const CallNode* call) {
    int rank = RankOf(binding->var);
    if (call->args.size() != 2 || rank < 1) return std::nullopt;
    std::optional<Perm> perm;
    for (const Expr& arg : call->args) {
      if (RankOf(arg) == rank && HasLayout(arg) && !perm) perm = current_.at(arg.as<VarNode>()).perm;
    }
    if (!perm) return std::nullopt;
    std::vector<Expr> args;
    for (const Expr& arg : call->args) {
      int arg_rank = RankOf(arg);
      if (arg_rank < 0) return std::nullopt;
      if (arg_rank == rank) {
        args.push_back(ToLayout(Lookup(arg), *perm));
      } else if (arg_rank == 0) {
        args.push_back(ToIdentity(Lookup(arg)));
      } else {
        args.push_back(BroadcastOperand(arg, rank, *perm));
      }
    }
    return Rewritten{WithArgs(call, std::move(args)), *perm, std::nullopt};
  }

  // An operand of rank < `rank` for a broadcast in layout `perm`: padded
  // with leading unit dims, then permuted (constants at compile time, with
  // the leading unit dims of the result dropped).
  Expr BroadcastOperand(const Expr& arg, int rank, const Perm& perm) {
    graph::TensorDataPtr data;
    if (const auto* constant = arg.as<graph::ConstantNode>()) data = constant->data;
    const auto* var = arg.as<VarNode>();
    if (var != nullptr && constant_of_.count(var) != 0) data = constant_of_.at(var);
    if (data != nullptr) {
      auto padded = std::make_shared<graph::TensorData>(*data);
      padded->shape.insert(padded->shape.begin(), static_cast<size_t>(rank) - data->shape.size(), 1);
      auto permuted = std::make_shared<graph::TensorData>(*PermuteData(*padded, perm));
      size_t leading = 0;
      while (leading + 1 < permuted->shape.size() && permuted->shape[leading] == 1) ++leading;
      permuted->shape.erase(permuted->shape.begin(), permuted->shape.begin() + static_cast<std::ptrdiff_t>(leading));
      return Expr(make<graph::ConstantNode>(permuted));
    }
    Expr identity = ToIdentity(Lookup(arg));
    std::vector<int64_t> new_axes(static_cast<size_t>(rank - RankOf(arg)));
    std::iota(new_axes.begin(), new_axes.end(), 0);
    Var expanded = builder_->Emit(op::expand_dims(identity, new_axes), "");
    return PermuteExpr(expanded, perm);
  }

  std::optional<Rewritten> RewriteConcat(const CallNode* call) {
    const auto* tuple = call->args[0].as<graph::TupleNode>();
    std::optional<int64_t> axis = op::detail::GetOptionalIntAttr(Call(call), "axis");
    if (tuple == nullptr || !axis || call->args.size() != 1) return std::nullopt;
    std::optional<Perm> perm;
    for (const Expr& field : tuple->fields) {
      if (HasLayout(field) && !perm) perm = current_.at(field.as<VarNode>()).perm;
    }
    if (!perm) return std::nullopt;
    int rank = static_cast<int>(perm->size());
    std::vector<Expr> fields;
    for (const Expr& field : tuple->fields) {
      if (RankOf(field) != rank) return std::nullopt;
    }
    for (const Expr& field : tuple->fields) fields.push_back(ToLayout(Lookup(field), *perm));
    int64_t new_axis = NewAxis(*axis, *perm);
    ir::Dict attrs = ir::DictWith(call->attrs, "axis", op::detail::IntAttr(new_axis));
    Expr value = WithArgs(call, {Expr(make<graph::TupleNode>(std::move(fields)))}, attrs);
    return Rewritten{value, *perm, std::nullopt};
  }

  // Where original axis `axis` (negative counts from the end) sits now.
  static int64_t NewAxis(int64_t axis, const Perm& perm) {
    int64_t rank = static_cast<int64_t>(perm.size());
    int64_t normalized = axis < 0 ? axis + rank : axis;
    return Inverse(perm)[static_cast<size_t>(normalized)];
  }

  static bool AxisInRange(int64_t axis, const Perm& perm) {
    int64_t rank = static_cast<int64_t>(perm.size());
    return axis >= -rank && axis < rank;
  }

  std::optional<Rewritten> RewriteAxisOp(const CallNode* call, const Layouted& data, const char* key,
                                         int64_t default_axis) {
    int64_t axis = op::detail::GetIntAttr(Call(call), key, default_axis);
    if (!AxisInRange(axis, data.perm)) return std::nullopt;
    ir::Dict attrs = ir::DictWith(call->attrs, key, op::detail::IntAttr(NewAxis(axis, data.perm)));
    std::vector<Expr> args = {data.expr};
    for (Expr& other : IdentityArgs(call, 1)) args.push_back(other);
    return Rewritten{WithArgs(call, std::move(args), attrs), data.perm, std::nullopt};
  }

  std::optional<Rewritten> RewriteReduce(const CallNode* call, const Layouted& data) {
    Call ref(call);
    bool keepdims = op::detail::GetBoolAttr(ref, "keepdims", false);
    std::optional<std::vector<int64_t>> axes = op::detail::GetOptionalIntListAttr(ref, "axis");
    int rank = static_cast<int>(data.perm.size());
    if (!axes) {  // over every axis: the layout does not matter
      return Rewritten{WithArgs(call, {data.expr}), keepdims ? data.perm : Perm{}, std::nullopt};
    }
    std::set<int64_t> reduced;  // new positions
    for (int64_t axis : *axes) {
      if (!AxisInRange(axis, data.perm)) return std::nullopt;
      reduced.insert(NewAxis(axis, data.perm));
    }
    ir::Dict attrs = ir::DictWith(call->attrs, "axis", op::detail::IntListAttr({reduced.begin(), reduced.end()}));
    Expr value = WithArgs(call, {data.expr}, attrs);
    if (keepdims) return Rewritten{value, data.perm, std::nullopt};
    // The surviving original axes, renumbered in order, seen in the new order.
    std::vector<int> kept_original;
    for (int i = 0; i < rank; ++i) {
      if (reduced.count(i) == 0) kept_original.push_back(data.perm[static_cast<size_t>(i)]);
    }
    std::vector<int> sorted = kept_original;
    std::sort(sorted.begin(), sorted.end());
    Perm perm;
    for (int original : kept_original) {
      perm.push_back(static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), original) - sorted.begin()));
    }
    return Rewritten{value, perm, std::nullopt};
  }

  std::optional<Rewritten> RewriteSplit(const graph::VarBindingNode* binding, const CallNode* call,
                                        const Layouted& data) {
    const auto* tuple_info = binding->var->struct_info.as<graph::TupleStructInfoNode>();
    if (tuple_info == nullptr || !OnlyItemsUsed(binding->var)) return std::nullopt;
    int64_t axis = op::detail::GetIntAttr(Call(call), "axis", 0);
    if (!AxisInRange(axis, data.perm)) return std::nullopt;
    ir::Dict attrs = ir::DictWith(call->attrs, "axis", op::detail::IntAttr(NewAxis(axis, data.perm)));
    std::vector<Perm> fields(tuple_info->fields.size(), data.perm);
    return Rewritten{WithArgs(call, {data.expr}, attrs), data.perm, fields};
  }

  std::optional<Rewritten> RewritePad(const CallNode* call, const Layouted& data) {
    std::vector<int64_t> widths = op::detail::GetIntListAttr(Call(call), "pad_width");
    if (widths.size() != 2 * data.perm.size()) return std::nullopt;
    std::vector<int64_t> permuted;
    for (int p : data.perm) {
      permuted.push_back(widths[2 * static_cast<size_t>(p)]);
      permuted.push_back(widths[2 * static_cast<size_t>(p) + 1]);
    }
    ir::Dict attrs = ir::DictWith(call->attrs, "pad_width", op::detail::IntListAttr(permuted));
    return Rewritten{WithArgs(call, {data.expr}, attrs), data.perm, std::nullopt};
  }

  // Pools and resize2d: the `layout` / `out_layout` strings follow the data.
  std::optional<Rewritten> RewriteLayoutAttrOp(const CallNode* call, const Layouted& data) {
    Call ref(call);
    std::string layout = op::detail::GetStringAttr(ref, "layout", "NCHW");
    if (layout.size() != data.perm.size()) return std::nullopt;
    ir::Dict attrs = ir::DictWith(call->attrs, "layout", op::detail::StringAttr(PermuteString(layout, data.perm)));
    if (std::optional<std::string> out = op::detail::GetOptionalStringAttr(ref, "out_layout")) {
      if (out->size() != data.perm.size()) return std::nullopt;
      attrs = ir::DictWith(attrs, "out_layout", op::detail::StringAttr(PermuteString(*out, data.perm)));
    }
    std::vector<Expr> args = {data.expr};
    for (Expr& other : IdentityArgs(call, 1)) args.push_back(other);
    return Rewritten{WithArgs(call, std::move(args), attrs), data.perm, std::nullopt};
  }

  std::optional<Rewritten> RewriteBatchNorm(const graph::VarBindingNode* binding, const CallNode* call,
                                            const Layouted& data) {
    if (!OnlyItemsUsed(binding->var)) return std::nullopt;
    std::optional<Rewritten> rewritten = RewriteAxisOp(call, data, "axis", 1);
    if (!rewritten) return std::nullopt;
    rewritten->fields = std::vector<Perm>{data.perm, IdentityPerm(1), IdentityPerm(1)};
    return rewritten;
  }

  std::optional<Rewritten> RewritePermuteDims(const CallNode* call, const Layouted& data) {
    std::optional<std::vector<int64_t>> axes = op::detail::GetOptionalIntListAttr(Call(call), "axes");
    int rank = static_cast<int>(data.perm.size());
    std::vector<int64_t> wanted = axes.value_or(std::vector<int64_t>{});
    if (!axes) {
      for (int i = rank - 1; i >= 0; --i) wanted.push_back(i);
    }
    if (static_cast<int>(wanted.size()) != rank) return std::nullopt;
    Perm inverse = Inverse(data.perm);
    Perm step;
    for (int64_t axis : wanted) {
      if (!AxisInRange(axis, data.perm)) return std::nullopt;
      step.push_back(inverse[static_cast<size_t>(axis < 0 ? axis + rank : axis)]);
    }
    Expr value = IsIdentity(step) ? data.expr : Expr(op::permute_dims(data.expr, ToInt64(step)));
    return Rewritten{value, IdentityPerm(rank), std::nullopt};
  }

  const DesiredLayouts& desired_;
  const UseCounter& uses_;
  bool in_dataflow_ = false;
  // Per dataflow block: each original variable's rewritten value.
  std::unordered_map<const VarNode*, Layouted> current_;
  // Every materialized version of an original variable, by layout.
  std::unordered_map<const VarNode*, std::map<Perm, Expr>> versions_;
  // Tuple variables whose fields were rewritten: the new tuple and layouts.
  std::unordered_map<const VarNode*, std::pair<Expr, std::vector<Perm>>> tuple_fields_;
  // Variables this pass bound to permute_dims(source, step).
  std::unordered_map<const VarNode*, std::pair<Expr, Perm>> permute_source_;
  // Variables bound to a reshape / expand_dims of a constant.
  std::unordered_map<const VarNode*, graph::TensorDataPtr> constant_of_;
};

// Does `func` call one of the operators given a desired layout?
bool CallsDesiredOp(const graph::Function& func, const DesiredLayouts& desired) {
  bool found = false;
  graph::PostOrderVisit(Expr(func), [&](const Expr& e) {
    const auto* call = e.as<CallNode>();
    if (call != nullptr && desired.count(OpNameOf(call)) != 0) found = true;
  });
  return found;
}

}  // namespace

Pass ConvertLayout(std::map<std::string, std::vector<std::string>> desired_layouts) {
  for (const auto& [name, layouts] : desired_layouts) {
    if (name != "relax.nn.conv2d") {
      throw CompileError(Span{}, "pass 'convert-layout': unsupported operator '" + name +
                                     "' (desired layouts are supported for relax.nn.conv2d)");
    }
    if (layouts.size() != 2 || !PermBetween("NCHW", layouts[0]) || !PermBetween("OIHW", layouts[1])) {
      throw CompileError(Span{}, "pass 'convert-layout': " + name +
                                     " needs a data layout (a permutation of NCHW) and a kernel layout (a "
                                     "permutation of OIHW)");
    }
  }
  return CreateFunctionPass(
      [desired_layouts](graph::Function func, ir::IRModule mod, const PassContext&) {
        if (!CallsDesiredOp(func, desired_layouts)) return func;
        UseCounter uses;
        uses.VisitExpr(Expr(func));
        LayoutConverter converter(mod, desired_layouts, uses);
        return cast<graph::FunctionNode>(converter.VisitExpr(Expr(func)));
      },
      PassInfo{kPassName,
               "Rewrites convolutions to the desired data / kernel layouts (e.g. NHWC / OHWI) and carries the new "
               "layout through layout-agnostic operators, converting back only where needed",
               0, {}});
}

}  // namespace rlx::transform
