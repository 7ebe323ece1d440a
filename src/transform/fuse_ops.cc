// FuseOps: groups the bindings of each dataflow block into primitive Relax
// functions (after TVM's relax.transform.FuseOps).
//
// Algorithm (TVM's dominator-based operator fusion, on one dataflow block):
//
// 1. Graph. Every binding of the block is a node, in binding order (a
//    topological order: producers first). Its pattern kind comes from what
//    it computes: `R.call_tir` of a PrimFunc reads the callee's `op_pattern`
//    attribute (annotate-tir-op-pattern), a tuple-get-item is injective, a
//    tuple literal is kTuple, everything else (operators not legalized,
//    packed calls, match_cast, constants) is opaque. An edge runs from the
//    binding of each block-local variable an expression uses to the binding
//    that uses it, labelled with the consumer's pattern (a broadcast
//    consumer reading an input of its own output shape labels that edge
//    elementwise, as TVM does). A node whose variable is visible after the
//    block (a Var, not a DataflowVar) is an "external reference": it may
//    end a group but never passes its value on inside a group only.
//
// 2. Post-dominator tree, built from the last node backwards: a node's
//    parent is the least common ancestor (in the tree built so far) of all
//    its consumers, and the node's pattern is the strongest edge pattern met
//    on the way (the "path pattern" from the node to its post-dominator).
//    External references and nodes without consumers are roots.
//
//        a -> b -> d        a's post-dominator is d: every path from a
//         \-> c -/          goes through d; a's path pattern is
//                           max(pattern(b), pattern(c), pattern(d))
//
// 3. Fusion, three phases over the nodes in order, each node merging itself
//    and every node on its paths to its post-dominator into the
//    post-dominator's group (union-find) when the rules allow:
//      phase 0: out-elementwise-fusable (matmul, conv) takes its post-
//               dominator when the path is elementwise and every node on it
//               is at most broadcast (its epilogue);
//               elementwise/broadcast fuses into an injective or reduction
//               post-dominator (inner nodes injective at most, the sink also
//               reduction or out-elementwise-fusable);
//      phase 1: injective and tuple nodes fuse into injective successors;
//      phase 2: injective nodes fuse into a tuple that already sits inside
//               an injective group.
//    Opaque nodes and reductions never start a fusion; a group never grows
//    beyond `max_fuse_depth` nodes; a group whose anchor is out-elementwise-
//    fusable takes that pattern, so it cannot later fuse into a reduction.
//
// 4. Outlining. Every group of two or more nodes becomes a private function
//    `fused_<callee names>` with attribute Primitive = 1, called in place of
//    the group (fusion_outline.h: parameters are the values read from
//    outside, constants lifted, symbolic variables no parameter defines
//    passed as R.Prim(value=v); the values used outside the group are
//    returned, as a tuple when there are several).
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "rlx/arith/analyzer.h"
#include "rlx/graph/block_builder.h"
#include "rlx/graph/expr_functor.h"
#include "rlx/graph/struct_info_analysis.h"
#include "rlx/ir/functor.h"
#include "rlx/support/logging.h"
#include "rlx/tir/analysis.h"
#include "rlx/tir/function.h"
#include "rlx/transform/passes.h"
#include "transform/fusion_outline.h"

namespace rlx::transform {
namespace {

using graph::Binding;
using graph::Expr;
using graph::StructInfo;
using graph::Var;
using ir::Dict;
using ir::PrimExpr;

constexpr const char* kPassName = "fuse-ops";

// TVM's numbering (tir/analysis.h has the same values).
enum Pattern : int {
  kElemWise = 0,
  kBroadcast = 1,
  kInjective = 2,
  kCommReduce = 3,
  kOutEWiseFusable = 4,
  kTuple = 7,
  kOpaque = 8,
};

int CombinePattern(int a, int b) { return std::max(a, b); }

// ---------------------------------------------------------------- graph

struct Edge {
  int node;
  int pattern;
};

struct GraphNode {
  Binding binding;
  int pattern = kOpaque;
  bool extern_ref = false;
  std::vector<int> inputs;
  std::vector<Edge> outputs;
};

// The call_tir callee's PrimFunc, if `value` is `R.call_tir(gv, ...)` of a
// module PrimFunc.
const tir::PrimFuncNode* CallTIRCallee(const Expr& value, const ir::IRModule& mod) {
  const auto* call = value.as<graph::CallNode>();
  if (call == nullptr) return nullptr;
  const auto* op = call->op.as<graph::OpNode>();
  if (op == nullptr || op->name != "relax.call_tir" || call->args.empty()) return nullptr;
  const auto* gv = call->args[0].as<graph::GlobalVarNode>();
  if (gv == nullptr) return nullptr;
  return mod->Lookup(gv->name_hint).as<tir::PrimFuncNode>();
}

int PatternOfPrimFunc(const tir::PrimFuncNode* func) {
  if (!func->attrs.defined()) return kOpaque;
  auto value = dyn_cast<ir::PrimExprNode>(func->attrs->Get("op_pattern"));
  std::optional<int64_t> pattern = value.defined() ? ir::AsConstInt(value) : std::nullopt;
  return pattern ? static_cast<int>(*pattern) : kOpaque;
}

int PatternOfBinding(const Binding& binding, const ir::IRModule& mod) {
  const auto* var_binding = binding.as<graph::VarBindingNode>();
  if (var_binding == nullptr) return kOpaque;
  const Expr& value = var_binding->value;
  if (const tir::PrimFuncNode* callee = CallTIRCallee(value, mod)) return PatternOfPrimFunc(callee);
  if (value.isa<graph::TupleGetItemNode>()) return kInjective;
  if (value.isa<graph::TupleNode>()) return kTuple;
  return kOpaque;
}

// Do two tensors provably have the same shape?
bool SameShape(const StructInfo& a, const StructInfo& b) {
  const auto* lhs = a.as<graph::TensorStructInfoNode>();
  const auto* rhs = b.as<graph::TensorStructInfoNode>();
  if (lhs == nullptr || rhs == nullptr) return false;
  std::optional<std::vector<PrimExpr>> lhs_shape = lhs->GetShape();
  std::optional<std::vector<PrimExpr>> rhs_shape = rhs->GetShape();
  if (!lhs_shape || !rhs_shape || lhs_shape->size() != rhs_shape->size()) return false;
  arith::Analyzer analyzer;
  for (size_t d = 0; d < lhs_shape->size(); ++d) {
    if (!analyzer.CanProveEqual((*lhs_shape)[d], (*rhs_shape)[d])) return false;
  }
  return true;
}

std::vector<GraphNode> BuildGraph(const graph::BindingBlockNode* block, const ir::IRModule& mod) {
  std::vector<GraphNode> nodes(block->bindings.size());
  std::unordered_map<const graph::VarNode*, int> index_of;
  for (size_t i = 0; i < block->bindings.size(); ++i) {
    GraphNode& node = nodes[i];
    node.binding = block->bindings[i];
    node.pattern = PatternOfBinding(node.binding, mod);
    node.extern_ref = !node.binding->var.isa<graph::DataflowVarNode>();
    std::vector<const graph::VarNode*> used;
    if (const auto* vb = node.binding.as<graph::VarBindingNode>()) fusion::CollectUsedVars(vb->value, &used);
    if (const auto* mc = node.binding.as<graph::MatchCastNode>()) fusion::CollectUsedVars(mc->value, &used);
    std::set<int> seen;
    for (const graph::VarNode* var : used) {
      auto it = index_of.find(var);
      if (it == index_of.end() || !seen.insert(it->second).second) continue;
      node.inputs.push_back(it->second);
      int edge_pattern = node.pattern;
      if (edge_pattern == kBroadcast && SameShape(var->struct_info, node.binding->var->struct_info)) {
        edge_pattern = kElemWise;  // this input is read point by point
      }
      nodes[it->second].outputs.push_back(Edge{static_cast<int>(i), edge_pattern});
    }
    index_of[node.binding->var.get()] = static_cast<int>(i);
  }
  return nodes;
}

// ---------------------------------------------------------------- post-dominators

struct DomNode {
  int parent = -1;
  int depth = 1;
  int pattern = kOpaque;  // the path pattern to the parent
};

int LeastCommonAncestor(const std::vector<DomNode>& tree, int lhs, int rhs, int* pattern) {
  while (lhs != rhs) {
    if (lhs < 0 || rhs < 0) return -1;
    if (tree[lhs].depth < tree[rhs].depth) {
      *pattern = CombinePattern(*pattern, tree[rhs].pattern);
      rhs = tree[rhs].parent;
    } else if (tree[lhs].depth > tree[rhs].depth) {
      *pattern = CombinePattern(*pattern, tree[lhs].pattern);
      lhs = tree[lhs].parent;
    } else {
      *pattern = CombinePattern(*pattern, tree[lhs].pattern);
      *pattern = CombinePattern(*pattern, tree[rhs].pattern);
      lhs = tree[lhs].parent;
      rhs = tree[rhs].parent;
    }
  }
  return lhs;
}

std::vector<DomNode> BuildPostDominatorTree(const std::vector<GraphNode>& nodes) {
  std::vector<DomNode> tree(nodes.size());
  for (size_t i = nodes.size(); i-- > 0;) {
    const GraphNode& node = nodes[i];
    if (node.extern_ref || node.outputs.empty()) continue;  // a root
    int pattern = kElemWise;
    int parent = node.outputs[0].node;
    pattern = CombinePattern(pattern, node.outputs[0].pattern);
    for (size_t k = 1; k < node.outputs.size(); ++k) {
      parent = LeastCommonAncestor(tree, parent, node.outputs[k].node, &pattern);
      pattern = CombinePattern(pattern, node.outputs[k].pattern);
    }
    tree[i].parent = parent;
    tree[i].depth = parent >= 0 ? tree[parent].depth + 1 : 1;
    tree[i].pattern = pattern;
  }
  return tree;
}

// ---------------------------------------------------------------- partition

struct Group {
  int parent = -1;  // union-find link
  int pattern = kOpaque;
  int num_nodes = 1;
  bool has_anchor = false;  // holds an out-elementwise-fusable node
};

class GraphPartitioner {
 public:
  GraphPartitioner(const std::vector<GraphNode>& nodes, int max_fuse_depth)
      : nodes_(nodes), max_fuse_depth_(max_fuse_depth), groups_(nodes.size()) {
    for (size_t i = 0; i < nodes.size(); ++i) {
      groups_[i].pattern = nodes[i].pattern;
      groups_[i].has_anchor = nodes[i].pattern == kOutEWiseFusable;
    }
  }

  // The group root of every node.
  std::vector<int> Partition() {
    std::vector<DomNode> tree = BuildPostDominatorTree(nodes_);
    for (int phase = 0; phase < 3; ++phase) RunFuse(tree, phase);
    std::vector<int> roots(nodes_.size());
    for (size_t i = 0; i < nodes_.size(); ++i) roots[i] = FindRoot(static_cast<int>(i));
    return roots;
  }

  int NumNodesOfGroup(int root) const { return groups_[root].num_nodes; }

 private:
  int FindRoot(int g) {
    while (groups_[g].parent >= 0) g = groups_[g].parent;
    return g;
  }

  void MergeFromTo(int child, int parent) {
    child = FindRoot(child);
    parent = FindRoot(parent);
    if (child == parent) return;
    groups_[parent].num_nodes += groups_[child].num_nodes;
    groups_[child].parent = parent;
    if (groups_[child].has_anchor) {
      groups_[parent].has_anchor = true;
      groups_[parent].pattern = CombinePattern(groups_[child].pattern, groups_[parent].pattern);
    }
  }

  // Does every node on the paths from `src` (excluded) to `sink` satisfy
  // `cond(root pattern, is_sink)`?
  bool CheckPath(int src, int sink, const std::function<bool(int, bool)>& cond) {
    visited_.clear();
    for (const Edge& edge : nodes_[src].outputs) {
      if (!CheckPathFrom(edge.node, sink, cond)) return false;
    }
    return true;
  }

  bool CheckPathFrom(int node, int sink, const std::function<bool(int, bool)>& cond) {
    if (!visited_.insert(node).second) return true;
    if (!cond(groups_[FindRoot(node)].pattern, node == sink)) return false;
    if (node == sink) return true;
    for (const Edge& edge : nodes_[node].outputs) {
      if (!CheckPathFrom(edge.node, sink, cond)) return false;
    }
    return true;
  }

  // Merges `src` and everything on its paths to `sink` into sink's group.
  void CommitFuse(int src, int sink) {
    visited_.clear();
    CommitFuseFrom(src, sink, sink);
  }

  void CommitFuseFrom(int node, int sink, int target) {
    if (node == sink || !visited_.insert(node).second) return;
    MergeFromTo(node, target);
    for (const Edge& edge : nodes_[node].outputs) CommitFuseFrom(edge.node, sink, target);
  }

  int CountNodesUpToSink(int node, int sink) {
    if (node == sink || !visited_.insert(node).second) return 0;
    int sum = groups_[node].num_nodes;
    for (const Edge& edge : nodes_[node].outputs) sum += CountNodesUpToSink(edge.node, sink);
    return sum;
  }

  int CountFusedNodesWithNewChild(int child, int dom_parent) {
    visited_.clear();
    return groups_[FindRoot(dom_parent)].num_nodes + CountNodesUpToSink(child, dom_parent);
  }

  void RunFuse(const std::vector<DomNode>& tree, int phase) {
    for (size_t i = 0; i < nodes_.size(); ++i) {
      int node = static_cast<int>(i);
      const Group& group = groups_[node];
      const DomNode& dom = tree[node];
      if (group.pattern == kOpaque || dom.parent < 0) continue;
      int sink = dom.parent;
      if (CountFusedNodesWithNewChild(node, sink) > max_fuse_depth_) continue;
      if (phase == 2) {
        FuseIntoIntermediateTuple(node, sink);
        continue;
      }
      if (FindRoot(node) == FindRoot(sink)) continue;
      if (groups_[sink].pattern == kTuple) continue;
      TryFuse(node, dom, phase);
    }
  }

  void TryFuse(int node, const DomNode& dom, int phase) {
    int pattern = groups_[node].pattern;
    int sink = dom.parent;
    if (pattern == kOutEWiseFusable) {
      if (phase != 0 || dom.pattern != kElemWise) return;
      if (CheckPath(node, sink, [](int kind, bool) { return kind <= kBroadcast; })) CommitFuse(node, sink);
    } else if (pattern <= kBroadcast) {
      if (dom.pattern > kInjective && dom.pattern != kCommReduce) return;
      auto cond = [](int kind, bool is_sink) {
        if (!is_sink) return kind <= kInjective;
        return kind <= kInjective || kind == kCommReduce || kind == kOutEWiseFusable;
      };
      if (CheckPath(node, sink, cond)) CommitFuse(node, sink);
    } else if (pattern == kInjective || pattern == kTuple) {
      if (phase != 1 || dom.pattern > kInjective) return;
      if (CheckPath(node, sink, [](int kind, bool) { return kind <= kInjective; })) CommitFuse(node, sink);
    }
    // Reductions start no fusion.
  }

  void FuseIntoIntermediateTuple(int node, int sink) {
    if (groups_[node].pattern > kInjective) return;
    int sink_root = FindRoot(sink);
    if (groups_[sink_root].pattern == kTuple) return;
    if (groups_[sink].pattern != kTuple || groups_[sink_root].pattern > kInjective) return;
    if (CheckPath(node, sink, [](int kind, bool) { return kind <= kInjective; })) CommitFuse(node, sink);
  }

  const std::vector<GraphNode>& nodes_;
  int max_fuse_depth_;
  std::vector<Group> groups_;
  std::unordered_set<int> visited_;
};

// ---------------------------------------------------------------- outlining

// The short name of a group member for the fused function's name.
std::optional<std::string> MemberName(const Binding& binding) {
  const auto* vb = binding.as<graph::VarBindingNode>();
  const auto* call = vb ? vb->value.as<graph::CallNode>() : nullptr;
  if (call == nullptr || call->args.empty()) return std::nullopt;
  if (const auto* gv = call->args[0].as<graph::GlobalVarNode>()) return gv->name_hint;
  return std::nullopt;
}

// Partitions `block` and outlines every group of two or more bindings.
graph::BindingBlock FuseBlock(const graph::BindingBlock& block, int max_fuse_depth, ir::IRModule* mod,
                              std::set<std::string>* used_names) {
  std::vector<GraphNode> nodes = BuildGraph(block.get(), *mod);
  std::vector<int> roots = GraphPartitioner(nodes, max_fuse_depth).Partition();
  std::map<int, std::vector<size_t>> members;  // root -> member indices, in order
  for (size_t i = 0; i < nodes.size(); ++i) members[roots[i]].push_back(i);
  Dict attrs = make<ir::DictNode>(std::vector<ir::DictNode::Item>{{"Primitive", ir::MakeInt(1, DataType::Int64())}});
  std::vector<fusion::BindingGroup> groups;
  for (const auto& [root, indices] : members) {
    if (indices.size() < 2) continue;
    std::string name = "fused";
    for (size_t index : indices) {
      if (std::optional<std::string> member = MemberName(nodes[index].binding)) name += "_" + *member;
    }
    groups.push_back(fusion::BindingGroup{indices, name, attrs});
  }
  return fusion::OutlineGroups(block, groups, mod, used_names);
}

// ---------------------------------------------------------------- the pass

bool IsPrimitive(const graph::FunctionNode* func) {
  return func->attrs.defined() && func->attrs->Get("Primitive").defined();
}

class FunctionFuser : public graph::ExprMutatorBase {
 public:
  FunctionFuser(ir::IRModule* mod, std::set<std::string>* used_names, int max_fuse_depth)
      : mod_(mod), used_names_(used_names), max_fuse_depth_(max_fuse_depth) {}

  graph::BindingBlock VisitBindingBlock(const graph::BindingBlock& block) override {
    graph::BindingBlock visited = ExprMutatorBase::VisitBindingBlock(block);
    if (!visited->is_dataflow()) return visited;
    return FuseBlock(visited, max_fuse_depth_, mod_, used_names_);
  }

 private:
  ir::IRModule* mod_;
  std::set<std::string>* used_names_;
  int max_fuse_depth_;
};

ir::IRModule FuseModule(const ir::IRModule& mod, int max_fuse_depth) {
  ir::IRModule result = mod;
  std::set<std::string> used_names;
  for (const auto& [name, func] : mod->functions) {
    const auto* graph_func = func.as<graph::FunctionNode>();
    if (graph_func == nullptr || IsPrimitive(graph_func)) continue;
    FunctionFuser fuser(&result, &used_names, max_fuse_depth);
    Expr updated = fuser.VisitExpr(Expr(graph_func));
    if (updated.same_as(func)) continue;
    graph::BlockBuilder normalizer(result);
    result = ir::WithFunction(result, name, normalizer.Normalize(updated));
  }
  return result;
}

}  // namespace

Pass FuseOps(int max_fuse_depth) {
  RLX_ICHECK(max_fuse_depth >= 1) << "fuse-ops: max_fuse_depth must be positive";
  return CreateModulePass(
      [max_fuse_depth](ir::IRModule mod, const PassContext&) { return FuseModule(mod, max_fuse_depth); },
      PassInfo{kPassName,
               "Groups call_tir bindings of dataflow blocks into primitive functions by the pattern kinds of "
               "their PrimFuncs (post-dominator based)",
               0, {}});
}

}  // namespace rlx::transform
