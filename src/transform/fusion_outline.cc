// Outlining groups of dataflow bindings into private functions (see
// fusion_outline.h for what the result looks like).
#include "transform/fusion_outline.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "rlx/graph/block_builder.h"
#include "rlx/graph/expr_functor.h"
#include "rlx/graph/struct_info_analysis.h"
#include "rlx/ir/functor.h"
#include "rlx/support/logging.h"

namespace rlx::transform::fusion {
namespace {

using graph::Binding;
using graph::Expr;
using graph::StructInfo;
using graph::Var;
using ir::PrimExpr;

// Rebuilds a binding value with variables (and lifted constants) replaced.
Expr RemapValue(const Expr& value, const std::function<std::optional<Expr>(const Expr&)>& lookup) {
  if (std::optional<Expr> replaced = lookup(value)) return *replaced;
  if (const auto* tuple = value.as<graph::TupleNode>()) {
    std::vector<Expr> fields;
    for (const Expr& field : tuple->fields) fields.push_back(RemapValue(field, lookup));
    return make<graph::TupleNode>(std::move(fields));
  }
  if (const auto* item = value.as<graph::TupleGetItemNode>()) {
    return make<graph::TupleGetItemNode>(RemapValue(item->tuple, lookup), item->index);
  }
  if (const auto* call = value.as<graph::CallNode>()) {
    std::vector<Expr> args;
    for (const Expr& arg : call->args) args.push_back(RemapValue(arg, lookup));
    return make<graph::CallNode>(call->op, std::move(args), call->attrs, call->sinfo_args);
  }
  return value;
}

}  // namespace

void CollectUsedVars(const Expr& value, std::vector<const graph::VarNode*>* vars) {
  if (const auto* var = value.as<graph::VarNode>()) {
    vars->push_back(var);
  } else if (const auto* tuple = value.as<graph::TupleNode>()) {
    for (const Expr& field : tuple->fields) CollectUsedVars(field, vars);
  } else if (const auto* item = value.as<graph::TupleGetItemNode>()) {
    CollectUsedVars(item->tuple, vars);
  } else if (const auto* call = value.as<graph::CallNode>()) {
    for (const Expr& arg : call->args) CollectUsedVars(arg, vars);
  }
}

namespace {
// Parameters of the fused function and the arguments the caller passes.
struct FusedSignature {
  std::vector<Var> params;
  std::vector<Expr> args;
  std::unordered_map<const graph::ExprNode*, Var> param_of;  // outside value -> parameter
};

void AddSymbolicParams(FusedSignature* sig, const std::vector<Binding>& members) {
  std::unordered_set<const ir::VarNode*> defined;
  for (const Var& param : sig->params) {
    for (const ir::Var& v : graph::DefinableTIRVarsInStructInfo(param->struct_info)) defined.insert(v.get());
  }
  std::vector<ir::Var> needed;
  auto note = [&](const PrimExpr& expr) {
    ir::PostOrderVisit(expr, [&](const PrimExpr& e) {
      if (const auto* v = e.as<ir::VarNode>()) {
        if (!defined.count(v)) {
          defined.insert(v);
          needed.push_back(ir::Var(v));
        }
      }
    });
  };
  for (const Binding& binding : members) {
    const auto* vb = binding.as<graph::VarBindingNode>();
    graph::PostOrderVisit(vb->value, [&](const Expr& e) {
      if (const auto* shape = e.as<graph::ShapeExprNode>()) {
        for (const PrimExpr& value : shape->values) note(value);
      } else if (const auto* prim = e.as<graph::PrimValueNode>()) {
        note(prim->value);
      } else if (const auto* call = e.as<graph::CallNode>()) {
        for (const StructInfo& sinfo : call->sinfo_args) {
          for (const ir::Var& v : graph::TIRVarsInStructInfo(sinfo)) note(v);
        }
      }
    });
  }
  for (const ir::Var& v : needed) {
    sig->params.push_back(graph::MakeVar(v->name_hint, graph::PrimValueSInfo(v)));
    sig->args.push_back(make<graph::PrimValueNode>(v));
  }
}

FusedSignature MakeSignature(const std::vector<Binding>& members) {
  FusedSignature sig;
  std::unordered_set<const graph::VarNode*> bound_inside;
  for (const Binding& binding : members) bound_inside.insert(binding->var.get());
  int constant_count = 0;
  std::function<void(const Expr&)> visit = [&](const Expr& expr) {
    if (const auto* var = expr.as<graph::VarNode>()) {
      if (bound_inside.count(var) || sig.param_of.count(var)) return;
      Var param = graph::MakeVar(var->name_hint, var->struct_info);
      sig.param_of[var] = param;
      sig.params.push_back(param);
      sig.args.push_back(expr);
    } else if (expr.isa<graph::ConstantNode>()) {
      if (sig.param_of.count(expr.get())) return;
      Var param = graph::MakeVar("p" + std::to_string(constant_count++), expr->struct_info);
      sig.param_of[expr.get()] = param;
      sig.params.push_back(param);
      sig.args.push_back(expr);
    } else if (const auto* tuple = expr.as<graph::TupleNode>()) {
      for (const Expr& field : tuple->fields) visit(field);
    } else if (const auto* item = expr.as<graph::TupleGetItemNode>()) {
      visit(item->tuple);
    } else if (const auto* call = expr.as<graph::CallNode>()) {
      for (const Expr& arg : call->args) visit(arg);
    }
  };
  for (const Binding& binding : members) visit(binding.as<graph::VarBindingNode>()->value);
  AddSymbolicParams(&sig, members);
  return sig;
}

class Outliner {
 public:
  Outliner(const graph::BindingBlock& block, ir::IRModule* mod, std::set<std::string>* used_names)
      : block_(block), mod_(mod), used_names_(used_names) {
    for (size_t i = 0; i < block->bindings.size(); ++i) {
      std::vector<const graph::VarNode*> used;
      if (const auto* vb = block->bindings[i].as<graph::VarBindingNode>()) CollectUsedVars(vb->value, &used);
      if (const auto* mc = block->bindings[i].as<graph::MatchCastNode>()) CollectUsedVars(mc->value, &used);
      for (const graph::VarNode* var : used) users_[var].push_back(i);
    }
  }

  // The replacement bindings of `group`.
  std::vector<Binding> Outline(const BindingGroup& group);

 private:
  // Members whose value is used outside the group: by a later non-member,
  // or after the block (a Var, not a DataflowVar).
  std::vector<Binding> GroupOutputs(const BindingGroup& group) const {
    std::set<size_t> member_set(group.members.begin(), group.members.end());
    std::vector<Binding> outputs;
    for (size_t index : group.members) {
      const Binding& binding = block_->bindings[index];
      bool used_outside = !binding->var.isa<graph::DataflowVarNode>();
      auto it = users_.find(binding->var.get());
      if (it != users_.end()) {
        for (size_t user : it->second) used_outside |= member_set.count(user) == 0;
      }
      if (used_outside) outputs.push_back(binding);
    }
    return outputs;
  }

  std::string UniqueName(std::string base) {
    if (base.size() > 80) base.resize(80);
    std::string name = base;
    for (int k = 1; used_names_->count(name) || (*mod_)->Contains(name); ++k) name = base + std::to_string(k);
    used_names_->insert(name);
    return name;
  }

  graph::BindingBlock block_;
  ir::IRModule* mod_;
  std::set<std::string>* used_names_;
  std::unordered_map<const graph::VarNode*, std::vector<size_t>> users_;
};

std::vector<Binding> Outliner::Outline(const BindingGroup& group) {
  std::vector<Binding> members;
  for (size_t index : group.members) members.push_back(block_->bindings[index]);
  std::vector<Binding> outputs = GroupOutputs(group);
  RLX_ICHECK(!outputs.empty()) << "fuse-ops: a group with no output";
  FusedSignature sig = MakeSignature(members);

  // The fused function's body.
  graph::BlockBuilder builder(*mod_);
  builder.BeginScope(sig.params);
  builder.BeginDataflowBlock();
  std::unordered_map<const graph::VarNode*, Var> inner;  // member var -> new var
  auto lookup = [&](const Expr& expr) -> std::optional<Expr> {
    if (auto it = sig.param_of.find(expr.get()); it != sig.param_of.end()) return Expr(it->second);
    if (const auto* var = expr.as<graph::VarNode>()) {
      if (auto it = inner.find(var); it != inner.end()) return Expr(it->second);
    }
    return std::nullopt;
  };
  std::set<const graph::BindingNode*> output_set;
  for (const Binding& out : outputs) output_set.insert(out.get());
  for (const Binding& member : members) {
    Expr value = RemapValue(member.as<graph::VarBindingNode>()->value, lookup);
    const std::string& name = member->var->name_hint;
    bool is_output = output_set.count(member.get()) > 0 && outputs.size() == 1;
    inner[member->var.get()] = is_output ? builder.EmitOutput(value, name) : builder.Emit(value, name);
  }
  Expr result;
  if (outputs.size() == 1) {
    result = inner.at(outputs[0]->var.get());
  } else {
    std::vector<Expr> fields;
    for (const Binding& out : outputs) fields.push_back(inner.at(out->var.get()));
    result = builder.EmitOutput(make<graph::TupleNode>(std::move(fields)), "gv");
  }
  graph::BindingBlock body_block = builder.EndBlock();
  builder.EndScope();

  Expr seq = make<graph::SeqExprNode>(std::vector<graph::BindingBlock>{body_block}, result);
  Expr func = make<graph::FunctionNode>(sig.params, seq, nullptr, /*is_pure=*/true, group.attrs, /*is_private=*/true);
  graph::BlockBuilder normalizer(*mod_);
  func = normalizer.Normalize(func);
  std::string name = UniqueName(group.name);
  *mod_ = ir::WithFunction(*mod_, name, func);

  // The call in the caller's block.
  auto gv = make<graph::GlobalVarNode>(name);
  graph::UpdateStructInfo(gv, func->struct_info);
  auto call = make<graph::CallNode>(gv, sig.args);
  std::vector<Binding> replacement;
  if (outputs.size() == 1) {
    graph::UpdateStructInfo(call, outputs[0]->var->struct_info);
    replacement.push_back(make<graph::VarBindingNode>(outputs[0]->var, call));
    return replacement;
  }
  std::vector<StructInfo> fields;
  for (const Binding& out : outputs) fields.push_back(out->var->struct_info);
  StructInfo tuple_sinfo = graph::TupleSInfo(fields);
  graph::UpdateStructInfo(call, tuple_sinfo);
  Var tuple_var = graph::MakeDataflowVar("lv", tuple_sinfo);
  replacement.push_back(make<graph::VarBindingNode>(tuple_var, call));
  for (size_t k = 0; k < outputs.size(); ++k) {
    auto item = make<graph::TupleGetItemNode>(tuple_var, static_cast<int>(k));
    graph::UpdateStructInfo(item, outputs[k]->var->struct_info);
    replacement.push_back(make<graph::VarBindingNode>(outputs[k]->var, item));
  }
  return replacement;
}

// Orders `bindings` so that every variable is bound before it is used,
// keeping the given order wherever it already satisfies that.
std::vector<Binding> TopologicalSort(const std::vector<Binding>& bindings) {
  std::unordered_map<const graph::VarNode*, size_t> producer;
  for (size_t i = 0; i < bindings.size(); ++i) producer[bindings[i]->var.get()] = i;
  std::vector<std::vector<size_t>> deps(bindings.size());
  for (size_t i = 0; i < bindings.size(); ++i) {
    std::vector<const graph::VarNode*> used;
    if (const auto* vb = bindings[i].as<graph::VarBindingNode>()) CollectUsedVars(vb->value, &used);
    if (const auto* mc = bindings[i].as<graph::MatchCastNode>()) CollectUsedVars(mc->value, &used);
    for (const graph::VarNode* var : used) {
      if (auto it = producer.find(var); it != producer.end() && it->second != i) deps[i].push_back(it->second);
    }
  }
  std::vector<bool> done(bindings.size(), false);
  std::vector<Binding> sorted;
  while (sorted.size() < bindings.size()) {
    size_t before = sorted.size();
    for (size_t i = 0; i < bindings.size(); ++i) {
      if (done[i]) continue;
      bool ready = std::all_of(deps[i].begin(), deps[i].end(), [&](size_t d) { return done[d]; });
      if (!ready) continue;
      done[i] = true;
      sorted.push_back(bindings[i]);
      break;  // restart from the front: earliest ready binding first
    }
    RLX_ICHECK(sorted.size() > before) << "fuse-ops: cyclic dependences after fusion";
  }
  return sorted;
}

}  // namespace

graph::BindingBlock OutlineGroups(const graph::BindingBlock& block, const std::vector<BindingGroup>& groups,
                                  ir::IRModule* mod, std::set<std::string>* used_names) {
  if (groups.empty()) return block;
  Outliner outliner(block, mod, used_names);
  std::vector<std::vector<Binding>> emitted(block->bindings.size());  // at each binding's position
  std::vector<bool> grouped(block->bindings.size(), false);
  for (const BindingGroup& group : groups) {
    RLX_ICHECK(!group.members.empty()) << "fusion: an empty group";
    for (size_t index : group.members) grouped[index] = true;
    emitted[group.members.back()] = outliner.Outline(group);
  }
  for (size_t i = 0; i < block->bindings.size(); ++i) {
    if (!grouped[i]) emitted[i].push_back(block->bindings[i]);
  }
  std::vector<Binding> bindings;
  for (auto& list : emitted) bindings.insert(bindings.end(), list.begin(), list.end());
  return make<graph::DataflowBlockNode>(TopologicalSort(bindings));
}

}  // namespace rlx::transform::fusion
