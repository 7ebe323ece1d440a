// FuseOpsByPattern: outlines the bindings that match user-given dataflow
// patterns into composite functions (after TVM's
// relax.transform.FuseOpsByPattern), and the pattern language itself
// (rlx/transform/dataflow_pattern.h).
//
// Algorithm, per dataflow block:
//
// 1. Index the block: which binding defines each variable, and which
//    bindings use it.
// 2. Walk the bindings from last to first; at each binding not yet claimed,
//    try the patterns in order against its value. Matching is recursive:
//    a wildcard matches anything; an operator pattern matches a call of
//    that operator whose arguments match, looking through a variable bound
//    in this block to its value (the binding joins the match); `a | b`
//    tries a, then b, on a copy of the match state. The first pattern that
//    matches gives a candidate group: the root binding and every binding
//    looked through.
// 3. The candidate is accepted when none of its bindings is claimed yet and
//    every value it computes, except the root's, is used only inside it (a
//    DataflowVar with no user outside the group). Then the group has one
//    output and its inputs cannot depend on it, so outlining it cannot
//    create a cycle.
// 4. The accepted groups are outlined together (fusion_outline.h) as
//    private functions `fused_<op names>` (dots as underscores, TVM's
//    naming) with attributes Composite = <pattern name> and Primitive = 1.
//
// Running legalize-ops afterwards lowers the operators inside the composite
// functions, and fuse-tir then merges each one into a single PrimFunc.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "rlx/graph/block_builder.h"
#include "rlx/graph/expr_functor.h"
#include "rlx/support/diagnostic.h"
#include "rlx/transform/dataflow_pattern.h"
#include "rlx/transform/passes.h"
#include "transform/fusion_outline.h"

namespace rlx::transform {

DFPattern Wildcard() {
  return DFPattern(std::make_shared<DFPattern::Node>(DFPattern::Node{DFPattern::Kind::kWildcard, "", {}}));
}

DFPattern IsOp(std::string op_name, std::vector<DFPattern> args) {
  return DFPattern(std::make_shared<DFPattern::Node>(
      DFPattern::Node{DFPattern::Kind::kOp, std::move(op_name), std::move(args)}));
}

DFPattern operator|(DFPattern lhs, DFPattern rhs) {
  return DFPattern(std::make_shared<DFPattern::Node>(
      DFPattern::Node{DFPattern::Kind::kOr, "", {std::move(lhs), std::move(rhs)}}));
}

std::vector<FusionPattern> BuiltinFusionPatterns(const std::string& table) {
  if (table == "matmul_epilogue") {
    DFPattern matmul = IsOp("relax.matmul", {Wildcard(), Wildcard()});
    DFPattern bias = IsOp("relax.add", {matmul, Wildcard()});
    DFPattern activation = IsOp("relax.nn.relu", {bias}) | IsOp("relax.nn.gelu", {bias});
    return {FusionPattern{"matmul_epilogue", activation | bias}};
  }
  throw CompileError(Span{}, "fuse-ops-by-pattern: unknown pattern table '" + table +
                                 "'; known tables: matmul_epilogue");
}

namespace {

using graph::Binding;
using graph::Expr;

constexpr const char* kPassName = "fuse-ops-by-pattern";

class BlockMatcher {
 public:
  explicit BlockMatcher(const graph::BindingBlock& block) : block_(block) {
    for (size_t i = 0; i < block->bindings.size(); ++i) {
      const Binding& binding = block->bindings[i];
      binding_of_[binding->var.get()] = i;
      std::vector<const graph::VarNode*> used;
      if (const auto* vb = binding.as<graph::VarBindingNode>()) fusion::CollectUsedVars(vb->value, &used);
      if (const auto* mc = binding.as<graph::MatchCastNode>()) fusion::CollectUsedVars(mc->value, &used);
      for (const graph::VarNode* var : used) users_[var].insert(i);
    }
  }

  // The groups of the first pattern matching at each binding, last first.
  std::vector<std::pair<std::vector<size_t>, std::string>> FindGroups(const std::vector<FusionPattern>& patterns) {
    std::vector<std::pair<std::vector<size_t>, std::string>> groups;
    std::set<size_t> claimed;
    for (size_t i = block_->bindings.size(); i-- > 0;) {
      const auto* root = block_->bindings[i].as<graph::VarBindingNode>();
      if (root == nullptr || claimed.count(i)) continue;
      for (const FusionPattern& pattern : patterns) {
        std::set<size_t> members = {i};
        if (!Match(pattern.pattern, root->value, &members) || !Acceptable(members, i, claimed)) continue;
        claimed.insert(members.begin(), members.end());
        groups.emplace_back(std::vector<size_t>(members.begin(), members.end()), pattern.name);
        break;
      }
    }
    return groups;
  }

 private:
  bool Match(const DFPattern& pattern, const Expr& expr, std::set<size_t>* members) const {
    const DFPattern::Node& node = pattern.node();
    switch (node.kind) {
      case DFPattern::Kind::kWildcard:
        return true;
      case DFPattern::Kind::kOr: {
        std::set<size_t> attempt = *members;
        if (Match(node.args[0], expr, &attempt)) {
          *members = std::move(attempt);
          return true;
        }
        return Match(node.args[1], expr, members);
      }
      case DFPattern::Kind::kOp:
        return MatchOp(node, expr, members);
    }
    return false;
  }

  bool MatchOp(const DFPattern::Node& node, const Expr& expr, std::set<size_t>* members) const {
    Expr value = expr;
    std::optional<size_t> looked_through;
    if (const auto* var = expr.as<graph::VarNode>()) {
      auto it = binding_of_.find(var);
      const auto* binding = it == binding_of_.end() ? nullptr : block_->bindings[it->second].as<graph::VarBindingNode>();
      if (binding == nullptr) return false;
      value = binding->value;
      looked_through = it->second;
    }
    const auto* call = value.as<graph::CallNode>();
    const auto* op = call ? call->op.as<graph::OpNode>() : nullptr;
    if (op == nullptr || op->name != node.op_name || call->args.size() != node.args.size()) return false;
    std::set<size_t> attempt = *members;
    if (looked_through) attempt.insert(*looked_through);
    for (size_t k = 0; k < node.args.size(); ++k) {
      if (!Match(node.args[k], call->args[k], &attempt)) return false;
    }
    *members = std::move(attempt);
    return true;
  }

  // See the file comment, step 3.
  bool Acceptable(const std::set<size_t>& members, size_t root, const std::set<size_t>& claimed) const {
    for (size_t index : members) {
      if (claimed.count(index)) return false;
      if (index == root) continue;
      const graph::Var& var = block_->bindings[index]->var;
      if (!var.isa<graph::DataflowVarNode>()) return false;
      auto it = users_.find(var.get());
      if (it == users_.end()) continue;
      for (size_t user : it->second) {
        if (!members.count(user)) return false;
      }
    }
    return true;
  }

  graph::BindingBlock block_;
  std::unordered_map<const graph::VarNode*, size_t> binding_of_;
  std::unordered_map<const graph::VarNode*, std::set<size_t>> users_;
};

// "fused_relax_matmul_relax_add" for a group of matmul and add calls.
std::string GroupName(const graph::BindingBlock& block, const std::vector<size_t>& members) {
  std::string name = "fused";
  for (size_t index : members) {
    const auto* vb = block->bindings[index].as<graph::VarBindingNode>();
    const auto* call = vb ? vb->value.as<graph::CallNode>() : nullptr;
    const auto* op = call ? call->op.as<graph::OpNode>() : nullptr;
    if (op == nullptr) continue;
    std::string op_name = op->name;
    std::replace(op_name.begin(), op_name.end(), '.', '_');
    name += "_" + op_name;
  }
  return name;
}

class PatternFuser : public graph::ExprMutatorBase {
 public:
  PatternFuser(const std::vector<FusionPattern>& patterns, ir::IRModule* mod, std::set<std::string>* used_names)
      : patterns_(patterns), mod_(mod), used_names_(used_names) {}

  graph::BindingBlock VisitBindingBlock(const graph::BindingBlock& block) override {
    graph::BindingBlock visited = ExprMutatorBase::VisitBindingBlock(block);
    if (!visited->is_dataflow()) return visited;
    std::vector<fusion::BindingGroup> groups;
    for (auto& [members, pattern_name] : BlockMatcher(visited).FindGroups(patterns_)) {
      ir::Dict attrs = make<ir::DictNode>(std::vector<ir::DictNode::Item>{
          {"Composite", ir::MakeString(pattern_name)}, {"Primitive", ir::MakeInt(1, DataType::Int64())}});
      std::string name = GroupName(visited, members);
      groups.push_back(fusion::BindingGroup{std::move(members), std::move(name), attrs});
    }
    std::sort(groups.begin(), groups.end(),
              [](const auto& a, const auto& b) { return a.members.front() < b.members.front(); });
    return fusion::OutlineGroups(visited, groups, mod_, used_names_);
  }

 private:
  const std::vector<FusionPattern>& patterns_;
  ir::IRModule* mod_;
  std::set<std::string>* used_names_;
};

bool IsOutlined(const graph::FunctionNode* func) {
  return func->attrs.defined() && (func->attrs->Get("Primitive").defined() || func->attrs->Get("Composite").defined());
}

ir::IRModule FuseByPatterns(const ir::IRModule& mod, const std::vector<FusionPattern>& patterns) {
  ir::IRModule result = mod;
  std::set<std::string> used_names;
  for (const auto& [name, func] : mod->functions) {
    const auto* graph_func = func.as<graph::FunctionNode>();
    if (graph_func == nullptr || IsOutlined(graph_func)) continue;
    PatternFuser fuser(patterns, &result, &used_names);
    Expr updated = fuser.VisitExpr(Expr(graph_func));
    if (updated.same_as(func)) continue;
    graph::BlockBuilder normalizer(result);
    result = ir::WithFunction(result, name, normalizer.Normalize(updated));
  }
  return result;
}

}  // namespace

Pass FuseOpsByPattern(std::vector<FusionPattern> patterns) {
  return CreateModulePass(
      [patterns = std::move(patterns)](ir::IRModule mod, const PassContext&) { return FuseByPatterns(mod, patterns); },
      PassInfo{kPassName,
               "Outlines the bindings matching dataflow patterns (e.g. matmul + bias + activation) into composite "
               "functions",
               0, {}});
}

}  // namespace rlx::transform
