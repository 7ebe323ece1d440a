// AnalyzeOpPatternKind (see include/rlx/tir/analysis.h for the rules).
//
// One walk over the function body. Blocks are classified one at a time: the
// root block is only descended into; any other block's body is walked
// collecting its BufferStore (exactly one store position is allowed) and
// every BufferLoad of the stored value and indices (its `init` is not
// walked: the identity store says nothing about the access pattern). The
// block's kind then follows from comparing each load's indices with the
// store's, or, when that comparison fails, from its reduce iteration
// variables. Indices are compared by identity, as the block iteration
// variables are shared nodes.
#include <algorithm>
#include <optional>
#include <unordered_set>
#include <vector>

#include "rlx/ir/functor.h"
#include "rlx/tir/analysis.h"
#include "rlx/tir/stmt_functor.h"

namespace rlx::tir {
namespace {

using VarSet = std::unordered_set<const ir::VarNode*>;

bool SameIndices(const std::vector<PrimExpr>& a, const std::vector<PrimExpr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].same_as(b[i])) return false;
  }
  return true;
}

bool UsesVarIn(const PrimExpr& expr, const std::function<bool(const ir::VarNode*)>& pred) {
  bool found = false;
  ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
    if (const auto* var = sub.as<ir::VarNode>(); var && pred(var)) found = true;
  });
  return found;
}

// The store's indices as variables; nullopt when one is not a plain variable.
std::optional<VarSet> StoreIndexVars(const BufferStoreNode* store) {
  VarSet vars;
  for (const PrimExpr& index : store->indices) {
    const auto* var = index.as<ir::VarNode>();
    if (var == nullptr) return std::nullopt;
    vars.insert(var);
  }
  return vars;
}

// C[i, j] = A[i, j]
bool IsElemwise(const BufferStoreNode* store, const ir::BufferLoadNode* load) {
  return SameIndices(store->indices, load->indices);
}

// C[i, j] = A[j] or A[0, j] with a unit dimension: the load's indices occur
// among the store's, in order.
bool IsBroadcast(const BufferStoreNode* store, const ir::BufferLoadNode* load) {
  size_t j = 0;
  for (size_t i = 0; i < load->indices.size(); ++i) {
    if (ir::IsConstInt(load->buffer->shape[i], 1) && ir::IsConstInt(load->indices[i], 0)) continue;
    while (j < store->indices.size() && !store->indices[j].same_as(load->indices[i])) ++j;
    if (j == store->indices.size()) return false;
  }
  return true;
}

bool ContainsLoad(const PrimExpr& expr) {
  bool found = false;
  ir::PostOrderVisit(expr, [&found](const PrimExpr& sub) { found = found || sub.isa<ir::BufferLoadNode>(); });
  return found;
}

// C[i, j] = A[j, i], A[i - j] or A[i % n, j // 2]: the load uses no
// iteration variable the store lacks. Any expression of the store's
// variables qualifies, however far from affine; a variable that is not an
// iteration variable (a symbolic shape n) is constant during the kernel.
// An index read from memory (A[I[i]]) touches I's data and is not injective,
// as in TVM.
bool IsInjective(const BufferStoreNode* store, const ir::BufferLoadNode* load, const VarSet& iteration_vars) {
  std::optional<VarSet> vars = StoreIndexVars(store);
  if (!vars) return false;
  for (const PrimExpr& index : load->indices) {
    if (ContainsLoad(index)) return false;
    if (UsesVarIn(index, [&](const ir::VarNode* var) { return iteration_vars.count(var) && !vars->count(var); })) {
      return false;
    }
  }
  return true;
}

// Some store index variable does not occur in the load (the load is reused
// across it): C[i, j] with A[i, k].
bool AllowsReuse(const BufferStoreNode* store, const ir::BufferLoadNode* load) {
  std::optional<VarSet> vars = StoreIndexVars(store);
  if (!vars) return false;
  for (const PrimExpr& index : load->indices) {
    ir::PostOrderVisit(index, [&](const PrimExpr& sub) {
      if (const auto* var = sub.as<ir::VarNode>()) vars->erase(var);
    });
  }
  return !vars->empty();
}

PrimExpr StripCasts(PrimExpr expr) {
  while (const auto* cast = expr.as<ir::CastNode>()) expr = cast->value;
  return expr;
}

// C[i, j] = C[i, j] + A[..] * B[..] with both loads reused (matmul, conv).
bool IsMultiplyAdd(const Stmt& body) {
  const auto* store = body.as<BufferStoreNode>();
  if (store == nullptr) return false;
  const auto* add = StripCasts(store->value).as<ir::AddNode>();
  if (add == nullptr) return false;
  const auto* acc = StripCasts(add->a).as<ir::BufferLoadNode>();
  const auto* mul = StripCasts(add->b).as<ir::MulNode>();
  if (acc == nullptr || mul == nullptr || !acc->buffer.same_as(store->buffer) ||
      !SameIndices(acc->indices, store->indices)) {
    return false;
  }
  const auto* lhs = StripCasts(mul->a).as<ir::BufferLoadNode>();
  const auto* rhs = StripCasts(mul->b).as<ir::BufferLoadNode>();
  return lhs && rhs && AllowsReuse(store, lhs) && AllowsReuse(store, rhs);
}

// Every index that mentions a reduce variable is exactly that variable
// (B[i] = sum(A[i, k]), not pooling's A[i + k]).
bool IsPureReduce(const std::vector<Var>& reduce_vars, const std::vector<PrimExpr>& indices) {
  for (const PrimExpr& index : indices) {
    const ir::VarNode* used = nullptr;
    UsesVarIn(index, [&](const ir::VarNode* var) {
      bool is_reduce = std::any_of(reduce_vars.begin(), reduce_vars.end(),
                                   [var](const Var& reduce) { return reduce.get() == var; });
      if (is_reduce && used == nullptr) used = var;
      return is_reduce;
    });
    if (used != nullptr && index.get() != used) return false;
  }
  return true;
}

class PatternKindAnalyzer : public StmtVisitor {
 public:
  explicit PatternKindAnalyzer(const PrimFunc& func) {
    for (const auto& [param, buffer] : func->buffer_map) param_buffers_.insert(buffer.get());
  }

  OpPatternKind result() const { return kind_; }

 protected:
  void VisitStmt_(const BufferStoreNode* op, const Stmt& self) override {
    if (store_ != nullptr && !SameIndices(op->indices, store_->indices)) {
      kind_ = OpPatternKind::kOpaque;
      return;
    }
    store_ = op;
    StmtVisitor::VisitStmt_(op, self);
  }

  void VisitPrimExpr(const PrimExpr& expr) override {
    ir::PostOrderVisit(expr, [this](const PrimExpr& sub) {
      if (const auto* load = sub.as<ir::BufferLoadNode>()) loads_.push_back(load);
    });
  }

  void VisitStmt_(const ForNode* op, const Stmt& self) override {
    iteration_vars_.insert(op->loop_var.get());
    StmtVisitor::VisitStmt_(op, self);
  }

  void VisitStmt_(const BlockNode* op, const Stmt&) override {
    for (const IterVar& iter : op->iter_vars) iteration_vars_.insert(iter->var.get());
    if (op->name == "root") {
      VisitStmt(op->body);
      return;
    }
    loads_.clear();
    store_ = nullptr;
    VisitStmt(op->body);
    if (store_ == nullptr) {
      kind_ = OpPatternKind::kOpaque;
      return;
    }
    std::optional<OpPatternKind> index_kind = IndexPatternKind();
    if (index_kind) {
      // softmax-like: a reduction followed by an elementwise-like output block.
      kind_ = IsOutputBlock(op) && kind_ == OpPatternKind::kCommReduce ? OpPatternKind::kOutEWiseFusable
                                                                        : std::max(kind_, *index_kind);
      return;
    }
    kind_ = ReducePatternKind(op);
  }

 private:
  // The kind implied by comparing every load with the store; nullopt when
  // some load fits none of elemwise / broadcast / injective.
  std::optional<OpPatternKind> IndexPatternKind() const {
    OpPatternKind kind = OpPatternKind::kElemWise;
    bool has_elemwise = false;
    for (const ir::BufferLoadNode* load : loads_) {
      if (IsElemwise(store_, load)) {
        has_elemwise = true;
      } else if (IsBroadcast(store_, load)) {
        kind = std::max(kind, OpPatternKind::kBroadcast);
      } else if (IsInjective(store_, load, iteration_vars_)) {
        kind = std::max(kind, OpPatternKind::kInjective);
      } else {
        return std::nullopt;
      }
    }
    if (kind == OpPatternKind::kBroadcast && has_elemwise) kind = OpPatternKind::kElemWise;
    return kind;
  }

  OpPatternKind ReducePatternKind(const BlockNode* block) const {
    std::vector<Var> reduce_vars;
    for (const IterVar& iter : block->iter_vars) {
      if (iter->iter_kind == IterKind::kReduce) reduce_vars.push_back(iter->var);
    }
    if (reduce_vars.empty()) return OpPatternKind::kOpaque;
    if (IsMultiplyAdd(block->body)) return std::max(kind_, OpPatternKind::kOutEWiseFusable);
    for (const ir::BufferLoadNode* load : loads_) {
      if (!IsPureReduce(reduce_vars, load->indices)) return std::max(kind_, OpPatternKind::kOutEWiseFusable);
    }
    return std::max(kind_, OpPatternKind::kCommReduce);
  }

  bool IsOutputBlock(const BlockNode* block) const {
    return std::any_of(block->writes.begin(), block->writes.end(),
                       [this](const BufferRegion& region) { return param_buffers_.count(region->buffer.get()) > 0; });
  }

  std::unordered_set<const ir::BufferNode*> param_buffers_;
  VarSet iteration_vars_;  // loop and block iteration variables met so far
  const BufferStoreNode* store_ = nullptr;
  std::vector<const ir::BufferLoadNode*> loads_;
  OpPatternKind kind_ = OpPatternKind::kElemWise;
};

}  // namespace

const char* OpPatternKindName(OpPatternKind kind) {
  switch (kind) {
    case OpPatternKind::kElemWise: return "elemwise";
    case OpPatternKind::kBroadcast: return "broadcast";
    case OpPatternKind::kInjective: return "injective";
    case OpPatternKind::kCommReduce: return "comm_reduce";
    case OpPatternKind::kOutEWiseFusable: return "out_ewise_fusable";
    case OpPatternKind::kTuple: return "tuple";
    case OpPatternKind::kOpaque: return "opaque";
  }
  return "opaque";
}

OpPatternKind AnalyzeOpPatternKind(const PrimFunc& func) {
  PatternKindAnalyzer analyzer(func);
  analyzer.VisitStmt(func->body);
  return analyzer.result();
}

}  // namespace rlx::tir
