// TopologicalSort: reorders the bindings of dataflow blocks (after TVM's
// relax.transform.TopologicalSort, with its options and its orders).
//
// For each function (local functions included) a dependency graph is built
// over its variables plus two sentinels, INPUT and OUTPUT:
//
//     INPUT -> parameter              (every parameter)
//     x -> v                          (binding of v uses x)
//     x -> OUTPUT                     (x used outside any binding: the
//                                      function's result, ...)
//     INPUT -> v                      (v's value uses no variable, e.g. a
//                                      constant; appended after the others)
//     v -> OUTPUT                     (v unused; put first among OUTPUT's
//                                      requirements, in definition order)
//
// Each node keeps its users ("downstream") and its requirements
// ("upstream") in the order the uses were met. Then, per dataflow block, a
// search emits the block's bindings:
//
//     from-inputs:  start at INPUT, walk downstream edges; a node may be
//                   pushed once all its requirements were visited
//     from-outputs: start at OUTPUT, walk upstream edges; a node may be
//                   pushed once all its users were visited; the emitted
//                   order is reversed at the end
//     depth-first:  the pending nodes form a stack, and every downstream
//                   list is reversed first (so the first user is explored
//                   first)
//     breadth-first: the pending nodes form a queue
//
// Bindings of the block are emitted in the order the search reaches their
// variables; the graph spans the whole function, so the paths between
// bindings of one block through other blocks are respected. The result is
// then re-emitted through the graph::ExprMutator.
#include <algorithm>
#include <deque>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "rlx/graph/expr_functor.h"
#include "rlx/support/diagnostic.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::Binding;
using graph::Expr;
using ir::PrimExpr;
using graph::Var;

constexpr const char* kPassName = "topological-sort";
constexpr int kInputNode = 0;
constexpr int kOutputNode = 1;

struct DependencyGraph {
  std::vector<std::deque<int>> downstream{2};  // node -> its users
  std::vector<std::deque<int>> upstream{2};    // node -> its requirements
  std::unordered_map<const graph::VarNode*, int> node_of_var;
  std::vector<int> definition_order;  // binding variables, as defined

  int NodeOf(const graph::VarNode* var) {
    auto [it, inserted] = node_of_var.emplace(var, static_cast<int>(downstream.size()));
    if (inserted) {
      downstream.emplace_back();
      upstream.emplace_back();
    }
    return it->second;
  }
  void AddEdge(int from, int to) {
    downstream[from].push_back(to);
    upstream[to].push_back(from);
  }
};

class DependencyCollector : public graph::ExprVisitor {
 public:
  static DependencyGraph Collect(const graph::FunctionNode* func) {
    DependencyCollector collector;
    collector.AddParams(func);
    collector.VisitExpr(func->body);
    collector.ConnectSentinels();
    return std::move(collector.graph_);
  }

  void VisitBinding(const Binding& binding) override {
    int saved = current_;
    current_ = graph_.NodeOf(binding->var.get());
    graph_.definition_order.push_back(current_);
    ExprVisitor::VisitBinding(binding);
    current_ = saved;
  }

 protected:
  using ExprVisitor::VisitExpr_;
  void VisitExpr_(const graph::FunctionNode* op, const Expr&) override {
    AddParams(op);
    VisitExpr(op->body);
  }
  void VisitExpr_(const graph::VarNode* op, const Expr&) override { Use(op); }
  void VisitExpr_(const graph::DataflowVarNode* op, const Expr&) override { Use(op); }

 private:
  void AddParams(const graph::FunctionNode* func) {
    for (const Var& param : func->params) graph_.AddEdge(kInputNode, graph_.NodeOf(param.get()));
  }
  void Use(const graph::VarNode* var) { graph_.AddEdge(graph_.NodeOf(var), current_); }

  void ConnectSentinels() {
    std::vector<int> unused;
    for (int node : graph_.definition_order) {
      if (graph_.upstream[node].empty()) graph_.AddEdge(kInputNode, node);
      if (graph_.downstream[node].empty()) unused.push_back(node);
    }
    for (auto it = unused.rbegin(); it != unused.rend(); ++it) {
      graph_.upstream[kOutputNode].push_front(*it);
      graph_.downstream[*it].push_front(kOutputNode);
    }
  }

  DependencyGraph graph_;
  int current_ = kOutputNode;  // the binding whose value is being visited
};

class TopologicalSorter : public graph::ExprMutator {
 public:
  TopologicalSorter(bool depth_first, bool from_outputs) : depth_first_(depth_first), from_outputs_(from_outputs) {}

 protected:
  using ExprMutator::VisitExpr_;

  Expr VisitExpr_(const graph::FunctionNode* op, const Expr& self) override {
    DependencyGraph saved = std::move(graph_);
    graph_ = DependencyCollector::Collect(op);
    if (depth_first_) {
      for (std::deque<int>& users : graph_.downstream) std::reverse(users.begin(), users.end());
    }
    Expr result = ExprMutator::VisitExpr_(op, self);
    graph_ = std::move(saved);
    return result;
  }

  graph::BindingBlock VisitBindingBlock_(const graph::DataflowBlockNode* block) override {
    auto* sorted = new graph::DataflowBlockNode(SortedBindings(block));
    sorted->span = block->span;
    graph::BindingBlock owned(sorted);
    return ExprMutator::VisitBindingBlock_(sorted);
  }

 private:
  std::vector<Binding> SortedBindings(const graph::DataflowBlockNode* block) {
    std::unordered_map<int, Binding> to_emit;
    for (const Binding& binding : block->bindings) to_emit[graph_.NodeOf(binding->var.get())] = binding;
    const auto& forward = from_outputs_ ? graph_.upstream : graph_.downstream;
    const auto& backward = from_outputs_ ? graph_.downstream : graph_.upstream;
    std::deque<int> pending = {from_outputs_ ? kOutputNode : kInputNode};
    std::unordered_set<int> visited;
    std::vector<Binding> sorted;
    while (!pending.empty()) {
      int node = depth_first_ ? pending.back() : pending.front();
      depth_first_ ? pending.pop_back() : pending.pop_front();
      if (auto it = to_emit.find(node); it != to_emit.end()) {
        sorted.push_back(it->second);
        to_emit.erase(it);
      }
      visited.insert(node);
      for (int next : forward[node]) {
        bool ready = !visited.count(next) && std::all_of(backward[next].begin(), backward[next].end(),
                                                         [&](int prerequisite) { return visited.count(prerequisite); });
        if (ready) pending.push_back(next);
      }
    }
    RLX_ICHECK(to_emit.empty()) << kPassName << ": " << to_emit.size() << " bindings were not reached";
    if (from_outputs_) std::reverse(sorted.begin(), sorted.end());
    return sorted;
  }

  bool depth_first_;
  bool from_outputs_;
  DependencyGraph graph_;
};

}  // namespace

Pass TopologicalSort(const std::string& order, const std::string& direction) {
  if (order != "depth-first" && order != "breadth-first") {
    throw CompileError(Span{}, std::string(kPassName) + ": order must be \"depth-first\" or \"breadth-first\", found \"" +
                                   order + "\"");
  }
  if (direction != "from-inputs" && direction != "from-outputs") {
    throw CompileError(Span{}, std::string(kPassName) +
                                   ": direction must be \"from-inputs\" or \"from-outputs\", found \"" + direction +
                                   "\"");
  }
  bool depth_first = order == "depth-first";
  bool from_outputs = direction == "from-outputs";
  auto run = [depth_first, from_outputs](ir::IRModule mod, const PassContext&) {
    ir::IRModule result = mod;
    for (const auto& [name, func] : mod->functions) {
      if (!func.isa<graph::FunctionNode>()) continue;
      TopologicalSorter sorter(depth_first, from_outputs);
      Expr updated = sorter.VisitExpr(cast<graph::FunctionNode>(func));
      if (!updated.same_as(func)) result = ir::WithFunction(result, name, updated);
    }
    return result;
  };
  return CreateModulePass(run, PassInfo{kPassName,
                                        "Reorders the bindings of dataflow blocks in a topological order "
                                        "(options: order=depth-first|breadth-first, "
                                        "direction=from-inputs|from-outputs)",
                                        0, {}});
}

}  // namespace rlx::transform
