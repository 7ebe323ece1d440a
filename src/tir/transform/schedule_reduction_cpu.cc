// ScheduleReductionCPU: the default CPU schedule of the loop nests that
// ScheduleInjectiveCPU leaves alone (matmul, convolution, pooling, the
// reductions of softmax and layer_norm, ...): one outer spatial loop of each
// nest becomes parallel. Nothing is reordered, split or vectorized.
//
// A nest is a perfect nest of plain serial loops (no annotations) ending in
// one block realize:
//
//   for b, i, j, k:                          (serial)
//     with T.block("matmul"):
//       vb, vi, vj, vk = T.axis.remap("SSSR", [b, i, j, k])
//       with T.init(): C[vb, vi, vj] = 0
//       C[vb, vi, vj] = C[vb, vi, vj] + A[vb, vi, vk] * B[vb, vk, vj]
//
// Nests are found wherever they are: at the top of the body, inside the root
// block of a fused PrimFunc, inside a serial loop around several nests.
// Every nest is scheduled on its own; a parallel loop ends (the runtime's
// parallel_for joins its workers) before the next statement starts, so a
// nest that reads what an earlier nest wrote still sees all of it.
//
// Choosing the loop. The loops are scanned from the outermost inwards while
// each one is bound (the block's iter_value is exactly its loop variable) to
// a spatial iteration variable v; the scan stops at the first loop that is
// not (a reduce loop, or a loop used only inside some binding expression), so
// a loop inside a reduce loop is never chosen. A loop whose extent is a
// constant below 2 (batch 1) is skipped and stays serial. The first remaining
// loop is chosen when v owns the block's writes:
//
//   - every BufferStore of the block (body and init) has, at some index
//     position p, exactly v, and all stores to one buffer use the same p;
//   - every BufferLoad of a buffer the block stores to has v at that p;
//   - the block has no alloc_buffers or match_buffers, its body and init hold
//     only stores, sequences, conditions, lets and serial loops (no nested
//     blocks, allocations, evaluations or attributes), and no expression
//     names the data pointer of a stored buffer.
//
// With the loops above the chosen one fixed, distinct iterations of it bind
// distinct values of v and therefore write disjoint elements and read only
// their own, so the iterations are independent. When v does not own the
// writes the scan goes on inwards (an outer loop stays serial). Nests whose
// total iteration count is a constant below kMinParallelIterations stay
// serial: dispatching to threads would cost more than it saves.
//
// When the chosen loop's extent is symbolic (a batch that is often 1 at run
// time: the mean over H and W of an NHWC activation, a softmax over the
// rows of one sequence), the loops right inside it that are bound to
// spatial variables owning the writes as well are fused with it into one
// parallel loop over the product of their extents, each variable recovered
// by division and modulo (as in ScheduleInjectiveCPU). Distinct iterations
// of the fused loop bind distinct tuples of those variables, each of which
// alone already separates the writes, so they stay independent. A chosen
// loop of constant extent (2 or more) is parallelized alone.
//
// The chosen loop is no longer a plain serial loop, so the rewrite is
// idempotent; loops that are already parallel or vectorized (the injective
// schedule's) are left alone together with everything inside them.
#include <optional>
#include <unordered_map>

#include "rlx/ir/expr.h"
#include "rlx/tir/transform.h"
#include "tir/transform/transform_util.h"

namespace rlx::tir {
namespace {

constexpr int64_t kMinParallelIterations = 1 << 14;

struct LoopNest {
  std::vector<const ForNode*> loops;  // outermost first
  const BlockRealizeNode* realize = nullptr;
};

bool IsPlainSerialLoop(const ForNode* loop) {
  return loop->for_kind == ForKind::kSerial && loop->thread_tag.empty() && loop->HasUnitStep() &&
         (!loop->annotations.defined() || loop->annotations->items.empty());
}

// What the perfect nest of plain serial loops starting at `outer` ends in.
enum class NestEnd { kBlock, kNotSerial, kOther };

NestEnd CollectNest(const Stmt& outer, LoopNest* nest) {
  Stmt stmt = outer;
  while (const auto* loop = stmt.as<ForNode>()) {
    if (!IsPlainSerialLoop(loop)) return NestEnd::kNotSerial;
    nest->loops.push_back(loop);
    stmt = loop->body;
  }
  nest->realize = stmt.as<BlockRealizeNode>();
  return nest->realize ? NestEnd::kBlock : NestEnd::kOther;
}

// The stores and loads of a block, or nothing when it does something the
// proof does not cover (see the file comment).
struct BlockAccesses {
  std::vector<const BufferStoreNode*> stores;
  std::vector<const ir::BufferLoadNode*> loads;
};

bool IsCoveredStmt(const ObjectRef& node) {
  if (const auto* loop = node.as<ForNode>()) return IsPlainSerialLoop(loop);
  return node.isa<BufferStoreNode>() || node.isa<SeqStmtNode>() || node.isa<IfThenElseNode>() ||
         node.isa<LetStmtNode>();
}

bool IsStmtNode(const ObjectRef& node) {
  switch (node->kind()) {
#define RLX_IS_STMT(Name) case NodeKind::k##Name:
    RLX_STMT_NODES(RLX_IS_STMT)
#undef RLX_IS_STMT
    return true;
    default:
      return false;
  }
}

std::optional<BlockAccesses> CollectAccesses(const BlockNode* block) {
  if (!block->alloc_buffers.empty() || !block->match_buffers.empty()) return std::nullopt;
  BlockAccesses accesses;
  std::vector<const ir::VarNode*> vars;
  bool covered = true;
  auto visit = [&](const ObjectRef& node) {
    if (IsStmtNode(node)) {
      covered &= IsCoveredStmt(node);
      if (const auto* store = node.as<BufferStoreNode>()) accesses.stores.push_back(store);
    } else if (const auto* load = node.as<ir::BufferLoadNode>()) {
      accesses.loads.push_back(load);
    } else if (const auto* var = node.as<ir::VarNode>()) {
      vars.push_back(var);
    }
  };
  if (block->init.defined()) PostOrderVisit(block->init, visit);
  PostOrderVisit(block->body, visit);
  if (!covered || accesses.stores.empty()) return std::nullopt;
  for (const BufferStoreNode* store : accesses.stores) {
    for (const ir::VarNode* var : vars) {
      if (var == store->buffer->data.get()) return std::nullopt;
    }
  }
  return accesses;
}

// The position of exactly `var` among `indices`, if any (the first).
std::optional<size_t> PositionOf(const std::vector<PrimExpr>& indices, const ir::VarNode* var) {
  for (size_t p = 0; p < indices.size(); ++p) {
    if (indices[p].get() == var) return p;
  }
  return std::nullopt;
}

// Whether distinct values of `var` write disjoint elements and read only
// their own (see the file comment).
bool OwnsWrites(const BlockAccesses& accesses, const ir::VarNode* var) {
  std::unordered_map<const ir::VarNode*, size_t> position;  // by buffer data
  for (const BufferStoreNode* store : accesses.stores) {
    std::optional<size_t> p = PositionOf(store->indices, var);
    if (!p) return false;
    auto [it, inserted] = position.emplace(store->buffer->data.get(), *p);
    if (!inserted && it->second != *p) return false;
  }
  for (const ir::BufferLoadNode* load : accesses.loads) {
    auto it = position.find(load->buffer->data.get());
    if (it == position.end()) continue;
    if (it->second >= load->indices.size() || load->indices[it->second].get() != var) return false;
  }
  return true;
}

// The block iteration variable bound to exactly `loop`'s variable.
const IterVarNode* BoundIterVar(const BlockRealizeNode* realize, const ForNode* loop) {
  const auto& values = realize->iter_values;
  for (size_t b = 0; b < values.size() && b < realize->block->iter_vars.size(); ++b) {
    if (values[b].get() == loop->loop_var.get()) return realize->block->iter_vars[b].get();
  }
  return nullptr;
}

bool ExtentBelowTwo(const ForNode* loop) {
  std::optional<int64_t> extent = ir::AsConstInt(loop->extent);
  return extent && *extent < 2;
}

bool WorthParallel(const LoopNest& nest) {
  int64_t total = 1;
  for (const ForNode* loop : nest.loops) {
    std::optional<int64_t> extent = ir::AsConstInt(loop->extent);
    if (!extent) return true;
    total *= std::max<int64_t>(*extent, 0);
    if (total >= kMinParallelIterations) return true;
  }
  return false;
}

// The loops to parallelize, [first, last] (see the file comment).
struct ParallelLoops {
  size_t first;
  size_t last;
};

// Whether loop j is bound to a spatial variable that owns the writes.
bool OwnsWritesAt(const LoopNest& nest, const BlockAccesses& accesses, size_t j) {
  const IterVarNode* iter_var = BoundIterVar(nest.realize, nest.loops[j]);
  return iter_var && iter_var->iter_kind == IterKind::kSpatial && OwnsWrites(accesses, iter_var->var.get());
}

std::optional<ParallelLoops> ChooseParallelLoops(const LoopNest& nest) {
  if (!WorthParallel(nest)) return std::nullopt;
  std::optional<BlockAccesses> accesses = CollectAccesses(nest.realize->block.get());
  if (!accesses) return std::nullopt;
  for (size_t j = 0; j < nest.loops.size(); ++j) {
    const IterVarNode* iter_var = BoundIterVar(nest.realize, nest.loops[j]);
    if (!iter_var || iter_var->iter_kind != IterKind::kSpatial) return std::nullopt;
    if (ExtentBelowTwo(nest.loops[j])) continue;
    if (!OwnsWrites(*accesses, iter_var->var.get())) continue;
    ParallelLoops chosen{j, j};
    if (ir::AsConstInt(nest.loops[j]->extent)) return chosen;
    while (chosen.last + 1 < nest.loops.size() && OwnsWritesAt(nest, *accesses, chosen.last + 1)) ++chosen.last;
    return chosen;
  }
  return std::nullopt;
}

Stmt WithKind(const ForNode* op, ForKind kind, Stmt body) {
  auto* loop = new ForNode();
  loop->loop_var = op->loop_var;
  loop->min = op->min;
  loop->extent = op->extent;
  loop->for_kind = kind;
  loop->body = std::move(body);
  return Stmt(loop);
}

Stmt ParallelizeLoops(const LoopNest& nest, const ParallelLoops& chosen) {
  Stmt body = nest.loops[chosen.last]->body;
  body = chosen.first == chosen.last ? WithKind(nest.loops[chosen.first], ForKind::kParallel, body)
                                     : transform_detail::FuseIntoParallelLoop(nest.loops, chosen.first, chosen.last, body);
  for (size_t j = chosen.first; j-- > 0;) body = WithKind(nest.loops[j], ForKind::kSerial, body);
  return body;
}

class ReductionScheduler : public StmtMutator {
 protected:
  using StmtMutator::VisitStmt_;
  Stmt VisitStmt_(const ForNode* op, const Stmt& self) override {
    LoopNest nest;
    switch (CollectNest(self, &nest)) {
      case NestEnd::kNotSerial:
        return self;  // scheduled already, or someone else's loop: leave it and its body alone
      case NestEnd::kBlock: {
        std::optional<ParallelLoops> chosen = ChooseParallelLoops(nest);
        return chosen ? ParallelizeLoops(nest, *chosen) : self;
      }
      case NestEnd::kOther:
        break;
    }
    return StmtMutator::VisitStmt_(op, self);
  }
};

}  // namespace

PrimFunc ScheduleReductionCPU(const PrimFunc& func) {
  ReductionScheduler scheduler;
  return transform_detail::WithBody(func, scheduler.VisitStmt(func->body));
}

}  // namespace rlx::tir
