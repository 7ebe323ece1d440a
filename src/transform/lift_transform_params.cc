// LiftTransformParams: computations on weights move into a function run once
// (after TVM's relax.transform.LiftTransformParams).
//
// A graph function F with the attribute "num_input" = k takes its run-time
// inputs first (params[0, k)) and its weights after (params[k, n)). For such
// a function:
//
// 1. Classify. A binding of a dataflow block at F's top level is liftable
//    when its value is pure, is not a function, uses at least one variable,
//    uses only weights and liftable variables, and mentions only symbolic
//    variables the weights' struct info defines (a size known only from the
//    inputs is not known when the transform runs). Bindings outside dataflow
//    blocks (If, impure code) stay, as in TVM.
//
// 2. Outputs. The weight-derived values F still needs: weights used by a
//    binding that stays or by the result (in parameter order), then
//    liftable variables used there (in binding order).
//
// 3. Build `F_transform_params(params: R.Tuple(weights))` with
//    "num_input" = 0: one dataflow block unpacks params[i], re-emits the
//    liftable bindings (variables substituted) and returns the tuple of the
//    outputs.
//
// 4. Rewrite F: its parameters become the inputs followed by one parameter
//    per output (named like the value it stands for, same struct info, so a
//    weight's symbolic sizes are now defined by the transformed weight); the
//    lifted bindings are dropped and uses of the outputs refer to the new
//    parameters. "num_input" stays k.
//
//     F(x, w1, w2)  [num_input=1]          F_transform_params((w1, w2))
//       wt = permute_dims(w1)        ==>     -> (w2, permute_dims(w1))
//       y = matmul(x, wt)                  F(x, w2, wt)  [num_input=1]
//       z = add(y, w2)                       y = matmul(x, wt); z = add(y, w2)
//
// A function with "num_input" gets a transform function even when nothing
// is lifted (it then passes the weights through), as TVM does.
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "rlx/graph/block_builder.h"
#include "rlx/graph/expr_functor.h"
#include "rlx/ir/functor.h"
#include "rlx/support/diagnostic.h"
#include "rlx/transform/passes.h"
#include "utils.h"

namespace rlx::transform {
namespace {

using graph::Binding;
using graph::Expr;
using ir::PrimExpr;
using graph::Var;

constexpr const char* kPassName = "lift-transform-params";

using VarSet = std::unordered_set<const graph::VarNode*>;
using SymVarSet = std::unordered_set<const ir::VarNode*>;

std::optional<size_t> NumInput(const graph::FunctionNode* func) {
  ObjectRef value = func->attrs.defined() ? func->attrs->Get("num_input") : ObjectRef();
  const auto* count = value.as<ir::IntImmNode>();
  if (count == nullptr) return std::nullopt;
  if (count->value < 0 || static_cast<size_t>(count->value) > func->params.size()) {
    throw CompileError(func->span, std::string(kPassName) + ": num_input = " + std::to_string(count->value) +
                                       " but the function has " + std::to_string(func->params.size()) +
                                       " parameters");
  }
  return static_cast<size_t>(count->value);
}

// The graph variables and symbolic variables an expression (or struct info)
// mentions.
struct UsedVars {
  std::vector<const graph::VarNode*> vars;
  SymVarSet sym_vars;
};

class UsedVarCollector : public graph::ExprVisitor {
 public:
  UsedVars used;
  void VisitPrimExpr(const PrimExpr& expr) override {
    ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
      if (const auto* var = sub.as<ir::VarNode>()) used.sym_vars.insert(var);
    });
  }

 protected:
  using ExprVisitor::VisitExpr_;
  void VisitExpr_(const graph::VarNode* op, const Expr&) override { used.vars.push_back(op); }
  void VisitExpr_(const graph::DataflowVarNode* op, const Expr&) override { used.vars.push_back(op); }
};

UsedVars VarsOf(const Expr& expr) {
  UsedVarCollector collector;
  collector.VisitExpr(expr);
  collector.VisitStructInfo(graph::GetStructInfo(expr));
  return collector.used;
}

SymVarSet SymVarsOf(const std::vector<Var>& vars) {
  UsedVarCollector collector;
  for (const Var& var : vars) collector.VisitStructInfo(graph::GetStructInfo(var));
  return collector.used.sym_vars;
}

// Replaces graph variables by expressions, without normalizing.
class VarSubstituter : public graph::ExprMutatorBase {
 public:
  explicit VarSubstituter(const std::unordered_map<const graph::VarNode*, Expr>& map) : map_(map) {}

 protected:
  using ExprMutatorBase::VisitExpr_;
  Expr VisitExpr_(const graph::VarNode* op, const Expr& self) override { return Lookup(op, self); }
  Expr VisitExpr_(const graph::DataflowVarNode* op, const Expr& self) override { return Lookup(op, self); }

 private:
  Expr Lookup(const graph::VarNode* var, const Expr& self) const {
    auto it = map_.find(var);
    return it == map_.end() ? self : it->second;
  }
  const std::unordered_map<const graph::VarNode*, Expr>& map_;
};

struct LiftPlan {
  std::vector<Var> weights;
  std::vector<const graph::VarBindingNode*> lifted;  // in binding order
  std::vector<Var> outputs;                          // weight-derived values F still needs
};

class LiftPlanner {
 public:
  LiftPlanner(const graph::FunctionNode* func, size_t num_input, const ir::IRModule& mod) : func_(func), mod_(mod) {
    plan_.weights.assign(func->params.begin() + static_cast<std::ptrdiff_t>(num_input), func->params.end());
    for (const Var& weight : plan_.weights) derived_.insert(weight.get());
    weight_sym_vars_ = SymVarsOf(plan_.weights);
  }

  LiftPlan Plan() {
    const auto* body = func_->body.as<graph::SeqExprNode>();
    RLX_ICHECK(body != nullptr) << kPassName << ": function body is not normalized";
    for (const graph::BindingBlock& block : body->blocks) {
      for (const Binding& binding : block->bindings) Classify(binding, block->is_dataflow());
    }
    for (const graph::VarNode* var : VarsOf(body->body).vars) Need(var);
    for (const Var& weight : plan_.weights) {
      if (needed_.count(weight.get())) plan_.outputs.push_back(weight);
    }
    for (const graph::VarBindingNode* binding : plan_.lifted) {
      if (needed_.count(binding->var.get())) plan_.outputs.push_back(binding->var);
    }
    return plan_;
  }

 private:
  void Classify(const Binding& binding, bool in_dataflow) {
    const auto* var_binding = binding.as<graph::VarBindingNode>();
    if (in_dataflow && var_binding != nullptr && Liftable(var_binding)) {
      plan_.lifted.push_back(var_binding);
      derived_.insert(binding->var.get());
      return;
    }
    Expr value = var_binding ? var_binding->value : binding.as<graph::MatchCastNode>()->value;
    for (const graph::VarNode* var : VarsOf(value).vars) Need(var);
  }

  bool Liftable(const graph::VarBindingNode* binding) const {
    if (binding->value.isa<graph::FunctionNode>() || ContainsImpureCall(binding->value, mod_)) return false;
    UsedVars used = VarsOf(binding->value);
    if (used.vars.empty()) return false;
    for (const graph::VarNode* var : used.vars) {
      if (!derived_.count(var)) return false;
    }
    for (const ir::VarNode* sym_var : used.sym_vars) {
      if (!weight_sym_vars_.count(sym_var)) return false;
    }
    return true;
  }

  void Need(const graph::VarNode* var) {
    if (derived_.count(var)) needed_.insert(var);
  }

  const graph::FunctionNode* func_;
  const ir::IRModule& mod_;
  LiftPlan plan_;
  VarSet derived_;  // weights and liftable variables
  VarSet needed_;   // derived values used by what stays in F
  SymVarSet weight_sym_vars_;
};

graph::Function BuildTransformParams(const LiftPlan& plan, const std::string& name, const ir::IRModule& mod) {
  std::vector<graph::StructInfo> weight_sinfos;
  for (const Var& weight : plan.weights) weight_sinfos.push_back(graph::GetStructInfo(weight));
  Var params = graph::MakeVar("params", make<graph::TupleStructInfoNode>(weight_sinfos));
  graph::BlockBuilder builder(mod);
  builder.BeginScope({params});
  builder.BeginDataflowBlock();
  std::unordered_map<const graph::VarNode*, Expr> value_of;
  for (size_t i = 0; i < plan.weights.size(); ++i) {
    value_of[plan.weights[i].get()] = builder.Emit(make<graph::TupleGetItemNode>(params, static_cast<int>(i)));
  }
  VarSubstituter substituter(value_of);
  for (const graph::VarBindingNode* binding : plan.lifted) {
    value_of[binding->var.get()] = builder.Emit(substituter.VisitExpr(binding->value), binding->var->name_hint);
  }
  std::vector<Expr> outputs;
  for (const Var& output : plan.outputs) outputs.push_back(value_of.at(output.get()));
  Var result = builder.EmitOutput(make<graph::TupleNode>(std::move(outputs)), "gv");
  graph::BindingBlock block = builder.EndBlock();
  builder.EndScope();
  Expr body = make<graph::SeqExprNode>(std::vector<graph::BindingBlock>{block}, result);
  body = builder.Normalize(body);
  ir::Dict attrs = ir::DictWith(nullptr, "num_input", make<ir::IntImmNode>(DataType::Int(64), 0));
  attrs = ir::DictWith(attrs, "global_symbol", ir::MakeString(name));
  return make<graph::FunctionNode>(std::vector<Var>{params}, body, graph::GetStructInfo(result), true, attrs);
}

// F without the lifted bindings, taking the outputs as parameters.
class LiftedBindingRemover : public graph::ExprMutator {
 public:
  LiftedBindingRemover(const ir::IRModule& mod, const LiftPlan& plan, const std::vector<Var>& new_params)
      : ExprMutator(mod) {
    for (const graph::VarBindingNode* binding : plan.lifted) lifted_.insert(binding);
    for (size_t i = 0; i < plan.outputs.size(); ++i) RemapVar(plan.outputs[i], new_params[i]);
  }

  void VisitBinding(const Binding& binding) override {
    if (lifted_.count(binding.get())) return;
    ExprMutator::VisitBinding(binding);
  }

 private:
  std::unordered_set<const graph::BindingNode*> lifted_;
};

graph::Function RewriteMain(const graph::FunctionNode* func, size_t num_input, const LiftPlan& plan,
                            const ir::IRModule& mod) {
  std::vector<Var> params(func->params.begin(), func->params.begin() + static_cast<std::ptrdiff_t>(num_input));
  std::vector<Var> output_params;
  for (const Var& output : plan.outputs) {
    output_params.push_back(graph::MakeVar(output->name_hint, graph::GetStructInfo(output)));
  }
  params.insert(params.end(), output_params.begin(), output_params.end());
  LiftedBindingRemover remover(mod, plan, output_params);
  Expr body = remover.VisitWithNewScope(func->body, params);
  return make<graph::FunctionNode>(params, body, func->ret_struct_info, func->is_pure, func->attrs,
                                   func->is_private);
}

ir::IRModule LiftModule(const ir::IRModule& mod) {
  ir::IRModule result = mod;
  for (const auto& [name, func] : mod->functions) {
    const auto* graph_func = func.as<graph::FunctionNode>();
    if (graph_func == nullptr) continue;
    std::optional<size_t> num_input = NumInput(graph_func);
    if (!num_input) continue;
    LiftPlan plan = LiftPlanner(graph_func, *num_input, mod).Plan();
    std::string transform_name = name + "_transform_params";
    if (mod->Contains(transform_name)) {
      throw CompileError(graph_func->span, std::string(kPassName) + ": the module already has a function '" +
                                               transform_name + "'");
    }
    result = ir::WithFunction(result, transform_name, BuildTransformParams(plan, transform_name, mod));
    result = ir::WithFunction(result, name, RewriteMain(graph_func, *num_input, plan, mod));
  }
  return result;
}

}  // namespace

Pass LiftTransformParams() {
  return CreateModulePass([](ir::IRModule mod, const PassContext&) { return LiftModule(mod); },
                          PassInfo{kPassName,
                                   "Moves computations that depend only on weights (parameters from num_input "
                                   "on) into <function>_transform_params, run once; the function then takes the "
                                   "transformed weights",
                                   0, {}});
}

}  // namespace rlx::transform
