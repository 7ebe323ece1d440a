// CallTE and AddPrimFuncShared (see include/rlx/op/legalize.h).
//
// Symbolic variables cross the level boundary by renaming: every graph-level
// variable met in an argument or the result gets one fresh TIR variable
// (same name and dtype), the TE function and the PrimFunc see only those,
// and the call passes the original graph-level variables where the PrimFunc
// needs them as scalar parameters (tir_vars). A variable is a scalar
// parameter when no buffer shape of the PrimFunc defines it by a bare
// appearance and the function uses it.
//
// A Prim argument whose value is known (R.prim_value(2.0), R.Prim(value=n))
// reaches the TE function as that value. One whose value is unknown (a
// parameter `scale: R.Prim("float32")`) becomes, as in TVM's call_te, a
// scalar parameter of the PrimFunc of the Prim's dtype, in the argument's
// position among the inputs, and the call_tir passes the graph-level value
// in its argument tuple (the VM hands it to the kernel as an int or float).
#include "rlx/op/legalize.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "rlx/arith/analyzer.h"
#include "rlx/graph/structural_equal.h"
#include "rlx/ir/functor.h"
#include "rlx/support/logging.h"
#include "rlx/tir/stmt_functor.h"

namespace rlx::op {

using graph::BlockBuilder;
using graph::Call;
using graph::Expr;
using graph::StructInfo;
using ir::PrimExpr;

const te::Tensor& TEArg::tensor() const {
  RLX_ICHECK(is_tensor()) << "TE argument is not a tensor";
  return std::get<te::Tensor>(value_);
}

const PrimExpr& TEArg::prim() const {
  RLX_ICHECK(is_prim()) << "TE argument is not a PrimExpr";
  return std::get<PrimExpr>(value_);
}

const std::vector<PrimExpr>& TEArg::shape() const {
  RLX_ICHECK(is_shape()) << "TE argument is not a shape";
  return std::get<std::vector<PrimExpr>>(value_);
}

const std::vector<te::Tensor>& TEArg::tensors() const {
  RLX_ICHECK(is_tensors()) << "TE argument is not a tuple of tensors";
  return std::get<std::vector<te::Tensor>>(value_);
}

namespace {

// A Tensor's dimensions and dtype when both are known.
struct KnownTensor {
  std::vector<PrimExpr> shape;
  DataType dtype;
};

std::optional<KnownTensor> AsKnownTensor(const StructInfo& sinfo) {
  const auto* tensor = sinfo.as<graph::TensorStructInfoNode>();
  if (tensor == nullptr || tensor->IsUnknownDtype()) return std::nullopt;
  std::optional<std::vector<PrimExpr>> shape = tensor->GetShape();
  if (!shape) return std::nullopt;
  return KnownTensor{*shape, tensor->dtype};
}

// The call's outputs: one known tensor per field of a tuple result (or the
// single tensor result); nullopt when anything is unknown.
std::optional<std::vector<KnownTensor>> KnownOutputs(const StructInfo& sinfo, bool multi) {
  std::vector<KnownTensor> outputs;
  if (!multi) {
    std::optional<KnownTensor> out = AsKnownTensor(sinfo);
    if (!out) return std::nullopt;
    outputs.push_back(*out);
    return outputs;
  }
  const auto* tuple = sinfo.as<graph::TupleStructInfoNode>();
  if (tuple == nullptr) return std::nullopt;
  for (const StructInfo& field : tuple->fields) {
    std::optional<KnownTensor> out = AsKnownTensor(field);
    if (!out) return std::nullopt;
    outputs.push_back(*out);
  }
  return outputs;
}

// Graph-level symbolic variables -> fresh TIR variables, in order of first
// appearance.
class SymbolicVarRenamer {
 public:
  PrimExpr Rename(const PrimExpr& expr) {
    ir::PostOrderVisit(expr, [this](const PrimExpr& sub) {
      const auto* var = sub.as<ir::VarNode>();
      if (var == nullptr || fresh_.count(var)) return;
      ir::Var original = cast<ir::VarNode>(sub);
      fresh_.emplace(var, ir::MakeVar(var->name_hint, var->dtype));
      order_.push_back(original);
    });
    return ir::Substitute(expr, [this](const ir::Var& var) -> PrimExpr {
      auto it = fresh_.find(var.get());
      return it == fresh_.end() ? PrimExpr() : PrimExpr(it->second);
    });
  }
  std::vector<PrimExpr> Rename(const std::vector<PrimExpr>& exprs) {
    std::vector<PrimExpr> renamed;
    renamed.reserve(exprs.size());
    for (const PrimExpr& expr : exprs) renamed.push_back(Rename(expr));
    return renamed;
  }
  // (original, fresh) pairs in order of first appearance.
  std::vector<std::pair<ir::Var, ir::Var>> Pairs() const {
    std::vector<std::pair<ir::Var, ir::Var>> pairs;
    for (const ir::Var& original : order_) pairs.emplace_back(original, fresh_.at(original.get()));
    return pairs;
  }

 private:
  std::unordered_map<const ir::VarNode*, ir::Var> fresh_;
  std::vector<ir::Var> order_;
};

// The name of the placeholder for argument `index`: the variable's name, as
// TVM's call_te does.
std::string PlaceholderName(const Expr& arg, size_t index) {
  if (const auto* var = arg.as<graph::VarNode>()) return var->name_hint;
  return fmt::format("A{}", index);
}

// The placeholders and scalar parameters of the call_tir inputs, with the
// expressions passed for them, in order.
struct TensorInputs {
  std::vector<te::Tensor> placeholders;
  std::vector<ir::Var> prim_params;  // for Prim arguments of unknown value
  std::vector<Expr> exprs;
  std::vector<bool> is_prim;  // per entry of `exprs`: a prim parameter, not a placeholder
};

// A placeholder for `expr` (of struct info `sinfo`), recorded as an input;
// nullopt when its shape or dtype is unknown.
std::optional<te::Tensor> AddTensorInput(const Expr& expr, const StructInfo& sinfo, const std::string& name,
                                         SymbolicVarRenamer& renamer, TensorInputs& inputs) {
  std::optional<KnownTensor> known = AsKnownTensor(sinfo);
  if (!known) return std::nullopt;
  te::Tensor tensor = te::Placeholder(renamer.Rename(known->shape), known->dtype, name);
  inputs.placeholders.push_back(tensor);
  inputs.exprs.push_back(expr);
  inputs.is_prim.push_back(false);
  return tensor;
}

// A scalar parameter for Prim argument `expr` of unknown value, recorded as
// an input.
ir::Var AddPrimInput(const Expr& expr, DataType dtype, size_t index, TensorInputs& inputs) {
  const auto* var = expr.as<graph::VarNode>();
  ir::Var param = ir::MakeVar(var != nullptr ? var->name_hint : fmt::format("a{}", index), dtype);
  inputs.prim_params.push_back(param);
  inputs.exprs.push_back(expr);
  inputs.is_prim.push_back(true);
  return param;
}

// CreatePrimFunc orders the parameters as input buffers, output buffers,
// scalars (the prim inputs first); call_tir passes its inputs in the call's
// order. Moves the prim inputs' parameters to their places among the inputs.
tir::PrimFunc WithPrimInputsInPlace(const tir::PrimFunc& func, const TensorInputs& inputs, size_t num_outputs) {
  if (inputs.prim_params.empty()) return func;
  size_t num_inputs = inputs.placeholders.size();
  size_t num_buffers = num_inputs + num_outputs;
  std::vector<ir::Var> params;
  size_t next_buffer = 0, next_prim = 0;
  for (bool is_prim : inputs.is_prim) {
    params.push_back(is_prim ? func->params[num_buffers + next_prim++] : func->params[next_buffer++]);
  }
  for (size_t i = num_inputs; i < num_buffers; ++i) params.push_back(func->params[i]);
  for (size_t i = num_buffers + inputs.prim_params.size(); i < func->params.size(); ++i) {
    params.push_back(func->params[i]);
  }
  auto* node = new tir::PrimFuncNode();
  node->params = std::move(params);
  node->buffer_map = func->buffer_map;
  node->body = func->body;
  node->ret_type = func->ret_type;
  node->attrs = func->attrs;
  node->is_private = func->is_private;
  node->span = func->span;
  return tir::PrimFunc(node);
}

// One placeholder per field of a tuple of tensors: a Tuple expression's
// fields, or `arg[i]` of a Tuple-typed value.
std::optional<std::vector<te::Tensor>> AddTupleInputs(const Expr& arg, const graph::TupleStructInfoNode* tuple,
                                                      size_t index, SymbolicVarRenamer& renamer,
                                                      TensorInputs& inputs) {
  const auto* literal = arg.as<graph::TupleNode>();
  std::vector<te::Tensor> tensors;
  for (size_t j = 0; j < tuple->fields.size(); ++j) {
    Expr field = literal != nullptr ? literal->fields[j] : Expr(make<graph::TupleGetItemNode>(arg, static_cast<int>(j)));
    std::string name = literal != nullptr ? PlaceholderName(field, index) : PlaceholderName(arg, index) + "_" + std::to_string(j);
    std::optional<te::Tensor> tensor = AddTensorInput(field, tuple->fields[j], name, renamer, inputs);
    if (!tensor) return std::nullopt;
    tensors.push_back(*tensor);
  }
  return tensors;
}

// The arguments as the TE function sees them, or nullopt when one cannot be
// lowered statically. Tensor inputs are recorded in `inputs`.
std::optional<TEArgs> ConvertArgs(const std::vector<Expr>& call_args, SymbolicVarRenamer& renamer,
                                  TensorInputs& inputs) {
  TEArgs args;
  for (size_t i = 0; i < call_args.size(); ++i) {
    const Expr& arg = call_args[i];
    StructInfo sinfo = graph::GetStructInfo(arg);
    if (sinfo.isa<graph::TensorStructInfoNode>()) {
      std::optional<te::Tensor> tensor = AddTensorInput(arg, sinfo, PlaceholderName(arg, i), renamer, inputs);
      if (!tensor) return std::nullopt;
      args.emplace_back(*tensor);
    } else if (const auto* tuple = sinfo.as<graph::TupleStructInfoNode>()) {
      std::optional<std::vector<te::Tensor>> tensors = AddTupleInputs(arg, tuple, i, renamer, inputs);
      if (!tensors) return std::nullopt;
      args.emplace_back(std::move(*tensors));
    } else if (const auto* prim = sinfo.as<graph::PrimStructInfoNode>()) {
      if (prim->value.defined()) {
        args.emplace_back(renamer.Rename(prim->value));
      } else if (!prim->dtype.is_void()) {
        args.emplace_back(PrimExpr(AddPrimInput(arg, prim->dtype, i, inputs)));
      } else {
        return std::nullopt;
      }
    } else if (const auto* shape = sinfo.as<graph::ShapeStructInfoNode>()) {
      if (!shape->values) return std::nullopt;
      args.emplace_back(renamer.Rename(*shape->values));
    } else {
      return std::nullopt;
    }
  }
  return args;
}

// Checks that `fcompute` produced what the call's struct info promises.
void CheckOutputs(const Call& call, const std::vector<te::Tensor>& outputs, const std::vector<KnownTensor>& expected,
                  SymbolicVarRenamer& renamer) {
  RLX_ICHECK(outputs.size() == expected.size())
      << "legalization of " << call->op.as<graph::OpNode>()->name << " made " << outputs.size() << " outputs, expected "
      << expected.size();
  arith::Analyzer analyzer;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const te::Tensor& out = outputs[i];
    RLX_ICHECK(out.defined() && out.dtype() == expected[i].dtype)
        << "legalization of " << call->op.as<graph::OpNode>()->name << ": output dtype "
        << (out.defined() ? out.dtype().ToString() : "undefined") << ", expected " << expected[i].dtype.ToString();
    std::vector<PrimExpr> want = renamer.Rename(expected[i].shape);
    RLX_ICHECK(static_cast<size_t>(out.ndim()) == want.size())
        << "legalization of " << call->op.as<graph::OpNode>()->name << ": output rank " << out.ndim() << ", expected "
        << want.size();
    for (size_t d = 0; d < want.size(); ++d) {
      RLX_ICHECK(analyzer.CanProveEqual(out.shape()[d], want[d]))
          << "legalization of " << call->op.as<graph::OpNode>()->name << ": output dimension " << d << " is "
          << ir::ToString(out.shape()[d]) << ", expected " << ir::ToString(want[d]);
    }
  }
}

// The fresh variables some buffer shape defines by a bare appearance.
std::unordered_set<const ir::VarNode*> BareShapeVars(const std::vector<te::Tensor>& tensors) {
  std::unordered_set<const ir::VarNode*> vars;
  for (const te::Tensor& tensor : tensors) {
    for (const PrimExpr& dim : tensor.shape()) {
      if (const auto* var = dim.as<ir::VarNode>()) vars.insert(var);
    }
  }
  return vars;
}

// The variables `func` mentions (buffer shapes and body).
std::unordered_set<const ir::VarNode*> UsedVars(const tir::PrimFunc& func) {
  std::unordered_set<const ir::VarNode*> used;
  auto note = [&used](const PrimExpr& expr) {
    ir::PostOrderVisit(expr, [&used](const PrimExpr& sub) {
      if (const auto* var = sub.as<ir::VarNode>()) used.insert(var);
    });
  };
  for (const auto& [param, buffer] : func->buffer_map) {
    for (const PrimExpr& dim : buffer->shape) note(dim);
  }
  tir::PostOrderVisit(func->body, [&used](const ObjectRef& node) {
    if (const auto* var = node.as<ir::VarNode>()) used.insert(var);
  });
  return used;
}

StructInfo OutSInfo(const std::vector<KnownTensor>& outputs, bool multi) {
  std::vector<StructInfo> fields;
  for (const KnownTensor& out : outputs) fields.push_back(graph::TensorSInfo(out.shape, out.dtype));
  return multi ? graph::TupleSInfo(std::move(fields)) : fields[0];
}

Expr CallTEImpl(BlockBuilder& builder, const Call& call, const std::vector<Expr>& call_args,
                const std::string& name_hint, const FTEComputeMulti& fcompute, bool multi) {
  std::optional<std::vector<KnownTensor>> expected = KnownOutputs(graph::GetStructInfo(call), multi);
  if (!expected) return call;
  SymbolicVarRenamer renamer;
  TensorInputs inputs;
  std::optional<TEArgs> args = ConvertArgs(call_args, renamer, inputs);
  if (!args) return call;
  std::vector<te::Tensor> outputs = fcompute(*args);
  CheckOutputs(call, outputs, *expected, renamer);

  std::vector<te::Tensor> buffers = inputs.placeholders;
  buffers.insert(buffers.end(), outputs.begin(), outputs.end());
  std::unordered_set<const ir::VarNode*> bare = BareShapeVars(buffers);
  std::vector<std::pair<ir::Var, ir::Var>> scalar_pairs;
  for (const auto& pair : renamer.Pairs()) {
    if (!bare.count(pair.second.get())) scalar_pairs.push_back(pair);
  }
  auto scalars_of = [&inputs](const std::vector<std::pair<ir::Var, ir::Var>>& pairs) {
    std::vector<ir::Var> vars = inputs.prim_params;
    for (const auto& pair : pairs) vars.push_back(pair.second);
    return vars;
  };
  tir::PrimFunc func = te::CreatePrimFunc(buffers, scalars_of(scalar_pairs));
  // Drop scalar parameters the function turned out not to use.
  std::unordered_set<const ir::VarNode*> used = UsedVars(func);
  auto unused = [&used](const std::pair<ir::Var, ir::Var>& pair) { return !used.count(pair.second.get()); };
  if (std::any_of(scalar_pairs.begin(), scalar_pairs.end(), unused)) {
    scalar_pairs.erase(std::remove_if(scalar_pairs.begin(), scalar_pairs.end(), unused), scalar_pairs.end());
    func = te::CreatePrimFunc(buffers, scalars_of(scalar_pairs));
  }
  func = WithPrimInputsInPlace(func, inputs, outputs.size());

  graph::GlobalVar gv = AddPrimFuncShared(builder, func, name_hint);
  std::vector<Expr> call_tir_args = {gv, make<graph::TupleNode>(inputs.exprs)};
  if (!scalar_pairs.empty()) {
    std::vector<PrimExpr> tir_vars;
    for (const auto& pair : scalar_pairs) tir_vars.push_back(pair.first);
    call_tir_args.push_back(make<graph::ShapeExprNode>(std::move(tir_vars)));
  }
  return graph::MakeCall("relax.call_tir", std::move(call_tir_args), nullptr, {OutSInfo(*expected, multi)});
}

// Is `name` `prefix` or `prefix` followed by decimal digits?
bool IsNameVariant(const std::string& name, const std::string& prefix) {
  if (name.rfind(prefix, 0) != 0) return false;
  return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(prefix.size()), name.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

graph::GlobalVar AddPrimFuncShared(BlockBuilder& builder, const tir::PrimFunc& func, const std::string& name_hint) {
  ir::IRModule mod = builder.GetContextModule();
  if (mod.defined()) {
    size_t hash = graph::StructuralHash(func);
    for (const auto& [name, existing] : mod->functions) {
      if (!existing.isa<tir::PrimFuncNode>() || !IsNameVariant(name, name_hint)) continue;
      if (graph::StructuralHash(existing) == hash && graph::StructuralEqual(existing, func)) {
        return make<graph::GlobalVarNode>(name);
      }
    }
  }
  std::string name = name_hint;
  for (int suffix = 1; mod.defined() && mod->Contains(name); ++suffix) name = name_hint + std::to_string(suffix);
  return builder.AddFunction(func, name);
}

Expr CallTE(BlockBuilder& builder, const Call& call, const std::vector<Expr>& args, const std::string& name_hint,
            const FTECompute& fcompute) {
  return CallTEImpl(
      builder, call, args, name_hint,
      [&fcompute](const TEArgs& te_args) { return std::vector<te::Tensor>{fcompute(te_args)}; }, false);
}

Expr CallTE(BlockBuilder& builder, const Call& call, const std::string& name_hint, const FTECompute& fcompute) {
  return CallTE(builder, call, call->args, name_hint, fcompute);
}

Expr CallTEMulti(BlockBuilder& builder, const Call& call, const std::vector<Expr>& args, const std::string& name_hint,
                 const FTEComputeMulti& fcompute) {
  return CallTEImpl(builder, call, args, name_hint, fcompute, true);
}

Expr CallTEMulti(BlockBuilder& builder, const Call& call, const std::string& name_hint,
                 const FTEComputeMulti& fcompute) {
  return CallTEMulti(builder, call, call->args, name_hint, fcompute);
}

}  // namespace rlx::op
