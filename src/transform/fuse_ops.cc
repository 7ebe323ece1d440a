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
//    elementwise, as TVM does). A node whose
//    variable is visible after the block (a Var, not a DataflowVar) is an
//    "external reference": it may end a group but never passes its value on
//    inside a group only.
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
//    `fused_<callee names>` with attribute Primitive = 1. Its parameters are
//    the values the group reads from outside (variables keep their names,
//    tensor constants become parameters `p0`, `p1`, ...), plus a
//    `R.Prim(value=v)` parameter for each symbolic variable the group uses
//    that no parameter's shape defines; its body is one dataflow block with
//    the group's bindings and returns the values used outside the group (a
//    tuple when there are several). The block then calls it in place of the
//    group's last binding (unpacking a tuple result with tuple-get-items
//    bound to the original variables) and is re-sorted topologically,
//    keeping the original order where dependences allow, because a value of
//    the group may be consumed by a binding that came before the group's
//    last one.
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

// The variables `value` reads directly (call_tir's argument tuple included).
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
    if (const auto* vb = node.binding.as<graph::VarBindingNode>()) CollectUsedVars(vb->value, &used);
    if (const auto* mc = node.binding.as<graph::MatchCastNode>()) CollectUsedVars(mc->value, &used);
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

// The short name of a group member for the fused function's name.
std::optional<std::string> MemberName(const Binding& binding) {
  const auto* vb = binding.as<graph::VarBindingNode>();
  const auto* call = vb ? vb->value.as<graph::CallNode>() : nullptr;
  if (call == nullptr || call->args.empty()) return std::nullopt;
  if (const auto* gv = call->args[0].as<graph::GlobalVarNode>()) return gv->name_hint;
  return std::nullopt;
}

class BlockFuser {
 public:
  BlockFuser(ir::IRModule* mod, std::set<std::string>* used_names) : mod_(mod), used_names_(used_names) {}

  graph::BindingBlock Fuse(const graph::BindingBlock& block, int max_fuse_depth) {
    std::vector<GraphNode> nodes = BuildGraph(block.get(), *mod_);
    GraphPartitioner partitioner(nodes, max_fuse_depth);
    std::vector<int> roots = partitioner.Partition();
    std::map<int, std::vector<int>> members;  // root -> member node indices, in order
    for (size_t i = 0; i < nodes.size(); ++i) members[roots[i]].push_back(static_cast<int>(i));

    std::vector<std::vector<Binding>> emitted(nodes.size());  // at each node's position
    bool changed = false;
    for (const auto& [root, indices] : members) {
      if (indices.size() < 2) {
        emitted[indices[0]].push_back(nodes[indices[0]].binding);
        continue;
      }
      changed = true;
      emitted[indices.back()] = OutlineGroup(block, nodes, indices);
    }
    if (!changed) return block;
    std::vector<Binding> bindings;
    for (auto& list : emitted) bindings.insert(bindings.end(), list.begin(), list.end());
    return make<graph::DataflowBlockNode>(TopologicalSort(bindings));
  }

 private:
  // Values of the group used outside it: later in the block by a
  // non-member, or after the block.
  std::vector<Binding> GroupOutputs(const graph::BindingBlock& block, const std::vector<GraphNode>& nodes,
                                    const std::vector<int>& indices) {
    std::set<int> member_set(indices.begin(), indices.end());
    std::vector<Binding> outputs;
    for (int index : indices) {
      const GraphNode& node = nodes[index];
      bool used_outside = node.extern_ref;
      for (const Edge& edge : node.outputs) used_outside |= member_set.count(edge.node) == 0;
      if (used_outside) outputs.push_back(node.binding);
    }
    (void)block;
    return outputs;
  }

  std::string UniqueName(const std::vector<GraphNode>& nodes, const std::vector<int>& indices) {
    std::string base = "fused";
    for (int index : indices) {
      if (std::optional<std::string> name = MemberName(nodes[index].binding)) base += "_" + *name;
    }
    if (base.size() > 80) base.resize(80);
    std::string name = base;
    for (int k = 1; used_names_->count(name) || (*mod_)->Contains(name); ++k) name = base + std::to_string(k);
    used_names_->insert(name);
    return name;
  }

  std::vector<Binding> OutlineGroup(const graph::BindingBlock& block, const std::vector<GraphNode>& nodes,
                                    const std::vector<int>& indices);

  static std::vector<Binding> TopologicalSort(const std::vector<Binding>& bindings);

  ir::IRModule* mod_;
  std::set<std::string>* used_names_;
};

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

std::vector<Binding> BlockFuser::OutlineGroup(const graph::BindingBlock& block, const std::vector<GraphNode>& nodes,
                                              const std::vector<int>& indices) {
  std::vector<Binding> members;
  for (int index : indices) members.push_back(nodes[index].binding);
  std::vector<Binding> outputs = GroupOutputs(block, nodes, indices);
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

  Dict attrs = make<ir::DictNode>(std::vector<ir::DictNode::Item>{{"Primitive", ir::MakeInt(1, DataType::Int64())}});
  Expr seq = make<graph::SeqExprNode>(std::vector<graph::BindingBlock>{body_block}, result);
  Expr func = make<graph::FunctionNode>(sig.params, seq, nullptr, /*is_pure=*/true, attrs, /*is_private=*/true);
  graph::BlockBuilder normalizer(*mod_);
  func = normalizer.Normalize(func);
  std::string name = UniqueName(nodes, indices);
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
std::vector<Binding> BlockFuser::TopologicalSort(const std::vector<Binding>& bindings) {
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

// ---------------------------------------------------------------- the pass

bool IsPrimitive(const graph::FunctionNode* func) {
  return func->attrs.defined() && func->attrs->Get("Primitive").defined();
}

class FunctionFuser : public graph::ExprMutatorBase {
 public:
  FunctionFuser(ir::IRModule* mod, std::set<std::string>* used_names, int max_fuse_depth)
      : block_fuser_(mod, used_names), max_fuse_depth_(max_fuse_depth) {}

  graph::BindingBlock VisitBindingBlock(const graph::BindingBlock& block) override {
    graph::BindingBlock visited = ExprMutatorBase::VisitBindingBlock(block);
    if (!visited->is_dataflow()) return visited;
    return block_fuser_.Fuse(visited, max_fuse_depth_);
  }

 private:
  BlockFuser block_fuser_;
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
