// ScheduleInjectiveCPU: the default CPU schedule of elementwise (injective)
// loop nests: a parallel outer loop and a vectorized innermost loop (in the
// spirit of TVM's default CPU schedule for injective ops).
//
// Legalized operators come out as serial loop nests, one per block:
//
//   for i0, i1, ..., ik:                     (serial, perfectly nested)
//     with T.block("T_add"):
//       v0, ..., vk = T.axis.remap("SS..S", [i0, ..., ik])
//       C[v0, ..., vk] = f(A[...], B[...])
//
// A nest qualifies when every loop is serial and unannotated, the block is
// bound to exactly the loop variables (in order, predicate true), every
// iteration variable is spatial, the block has no init, allocations or
// match_buffers, and its body is one BufferStore at exactly [v0, ..., vk]
// whose value does not read the stored buffer. Then distinct iterations
// write distinct elements and read nothing written by another iteration, so
// the iterations may run in any order: in parallel and in vector lanes.
//
// The innermost loop `for i in [m, m + e)` is split by the vector factor F
// (one 64-byte cache line of the stored element type) into a main part and
// a tail, correct for every value of e (negative extents run nothing):
//
//   for i_o in [0, q):                       q = floordiv(max(e, 0), F)
//     for i_v in T.vectorized(F): body[i := m + i_o * F + i_v]
//   for i_t in [0, floormod(max(e, 0), F)): body[i := m + q * F + i_t]
//
// (no tail when e is a constant multiple of F; no split when e is a
// constant below F). Parallelism: with two loops the outer loop becomes
// parallel; with three or more, the loops around the innermost one are
// fused into one parallel loop over the product of their extents, each
// variable recovered by division and modulo:
//
//   for f in T.parallel(e0 * e1 * e2):      i0 = f // (e1 * e2),
//     <innermost split as above>            i1 = f // e2 % e1, i2 = f % e2
//
// so that a leading dimension of extent 1 at run time (the batch of an
// inference, N of an NHWC activation) does not leave every iteration to one
// thread; with one loop the main part's i_o loop is parallel (the runtime
// hands contiguous chunks of it to the threads; the tail stays serial).
// Nests with a constant total of fewer than kMinParallelElements elements
// stay serial: a parallel dispatch would cost more than it saves.
//
// The block itself is kept (its binding now uses the new loop variables), so
// the result is an ordinary TensorIR function that LowerForCodegen lowers.
// The rewrite is idempotent: a scheduled nest no longer binds the block to
// plain loop variables, so it does not qualify again.
#include <fmt/format.h>

#include <algorithm>

#include "rlx/tir/transform.h"
#include "tir/transform/transform_util.h"

namespace rlx::tir {
namespace {

constexpr int64_t kVectorBytes = 64;
constexpr int64_t kMinParallelElements = 1 << 14;

// A perfect nest of loops around one block realize.
struct LoopNest {
  std::vector<const ForNode*> loops;  // outermost first
  Stmt realize_stmt;
  const BlockRealizeNode* realize = nullptr;
};

bool IsPlainSerialLoop(const ForNode* loop) {
  return loop->for_kind == ForKind::kSerial && loop->thread_tag.empty() && loop->HasUnitStep() &&
         (!loop->annotations.defined() || loop->annotations->items.empty());
}

// The nest starting at `outer`, or nothing when the loops do not end in a
// block realize.
std::optional<LoopNest> CollectNest(const Stmt& outer) {
  LoopNest nest;
  Stmt stmt = outer;
  while (const auto* loop = stmt.as<ForNode>()) {
    if (!IsPlainSerialLoop(loop)) return std::nullopt;
    nest.loops.push_back(loop);
    stmt = loop->body;
  }
  nest.realize_stmt = stmt;
  nest.realize = stmt.as<BlockRealizeNode>();
  if (!nest.realize) return std::nullopt;
  return nest;
}

bool ReadsBuffer(const PrimExpr& value, const Buffer& buffer) {
  bool reads = false;
  ir::PostOrderVisit(value, [&](const PrimExpr& e) {
    if (const auto* load = e.as<ir::BufferLoadNode>()) reads |= load->buffer->data.get() == buffer->data.get();
  });
  return reads;
}

// See the file comment for the conditions.
bool IsInjectiveNest(const LoopNest& nest) {
  const BlockRealizeNode* realize = nest.realize;
  const BlockNode* block = realize->block.get();
  size_t depth = nest.loops.size();
  if (!ir::IsConstInt(realize->predicate, 1) || realize->iter_values.size() != depth) return false;
  if (block->iter_vars.size() != depth || block->init.defined() || !block->alloc_buffers.empty() ||
      !block->match_buffers.empty()) {
    return false;
  }
  const auto* store = block->body.as<BufferStoreNode>();
  if (!store || store->indices.size() != depth || store->value->dtype.lanes() != 1) return false;
  for (size_t j = 0; j < depth; ++j) {
    if (realize->iter_values[j].get() != nest.loops[j]->loop_var.get()) return false;
    if (block->iter_vars[j]->iter_kind != IterKind::kSpatial) return false;
    if (store->indices[j].get() != block->iter_vars[j]->var.get()) return false;
  }
  return !ReadsBuffer(store->value, store->buffer);
}

int64_t VectorFactor(const LoopNest& nest) {
  const auto* store = nest.realize->block->body.as<BufferStoreNode>();
  int64_t bytes = std::max<int64_t>(1, (store->value->dtype.bits() + 7) / 8);
  return std::max<int64_t>(1, kVectorBytes / bytes);
}

// Whether the nest's total iteration count might reach kMinParallelElements.
bool WorthParallel(const LoopNest& nest) {
  int64_t total = 1;
  for (const ForNode* loop : nest.loops) {
    std::optional<int64_t> extent = ir::AsConstInt(loop->extent);
    if (!extent) return true;
    total *= std::max<int64_t>(*extent, 0);
    if (total >= kMinParallelElements) return true;
  }
  return false;
}

Stmt MakeLoop(Var loop_var, PrimExpr min, PrimExpr extent, ForKind kind, Stmt body) {
  auto* loop = new ForNode();
  loop->loop_var = std::move(loop_var);
  loop->min = std::move(min);
  loop->extent = std::move(extent);
  loop->for_kind = kind;
  loop->body = std::move(body);
  return Stmt(loop);
}

Stmt WithKind(const ForNode* op, ForKind kind, Stmt body) {
  return MakeLoop(op->loop_var, op->min, op->extent, kind, std::move(body));
}

Stmt Rebind(const Stmt& body, const Var& var, const PrimExpr& value) {
  return Substitute(body, [&](const Var& v) { return v.get() == var.get() ? value : PrimExpr(); });
}

// The innermost loop split into a vectorized main part and a serial tail;
// the main part's outer loop gets `outer_kind`.
Stmt SplitVectorize(const ForNode* loop, const Stmt& body, int64_t factor, ForKind outer_kind) {
  const Var& var = loop->loop_var;
  DataType dtype = var->dtype;
  std::optional<int64_t> const_extent = ir::AsConstInt(loop->extent);
  if (factor <= 1 || (const_extent && *const_extent < factor)) return WithKind(loop, ForKind::kSerial, body);
  PrimExpr extent = const_extent ? loop->extent : ir::max(loop->extent, ir::MakeInt(0, loop->extent->dtype));
  if (extent->dtype != dtype) extent = ir::cast(dtype, extent);
  PrimExpr f = ir::MakeInt(factor, dtype);
  PrimExpr chunks = const_extent ? ir::MakeInt(*const_extent / factor, dtype) : ir::floordiv(extent, f);
  PrimExpr min = loop->min->dtype == dtype ? loop->min : ir::cast(dtype, loop->min);
  auto offset = [&](PrimExpr value) { return ir::IsConstInt(min, 0) ? value : min + value; };

  Var outer = ir::MakeVar(var->name_hint + "_o", dtype);
  Var lane = ir::MakeVar(var->name_hint + "_v", dtype);
  Stmt vector_loop = MakeLoop(lane, ir::MakeInt(0, dtype), f, ForKind::kVectorized,
                              Rebind(body, var, offset(outer * f + lane)));
  Stmt main = MakeLoop(outer, ir::MakeInt(0, dtype), chunks, outer_kind, vector_loop);
  if (const_extent && *const_extent % factor == 0) return main;

  Var tail_var = ir::MakeVar(var->name_hint + "_t", dtype);
  PrimExpr tail_extent = const_extent ? ir::MakeInt(*const_extent % factor, dtype) : ir::floormod(extent, f);
  Stmt tail = MakeLoop(tail_var, ir::MakeInt(0, dtype), tail_extent, ForKind::kSerial,
                       Rebind(body, var, offset(chunks * f + tail_var)));
  return MakeSeq({main, tail});
}

Stmt ScheduleNest(const LoopNest& nest) {
  bool parallel = WorthParallel(nest);
  int64_t factor = VectorFactor(nest);
  Stmt body = nest.realize_stmt;
  size_t depth = nest.loops.size();
  ForKind inner_outer_kind = depth == 1 && parallel ? ForKind::kParallel : ForKind::kSerial;
  body = SplitVectorize(nest.loops[depth - 1], body, factor, inner_outer_kind);
  if (parallel && depth >= 3) return transform_detail::FuseIntoParallelLoop(nest.loops, 0, depth - 2, body);
  for (size_t j = depth - 1; j-- > 0;) {
    ForKind kind = j == 0 && parallel ? ForKind::kParallel : ForKind::kSerial;
    body = WithKind(nest.loops[j], kind, body);
  }
  return body;
}

class InjectiveScheduler : public StmtMutator {
 protected:
  using StmtMutator::VisitStmt_;
  Stmt VisitStmt_(const ForNode* op, const Stmt& self) override {
    std::optional<LoopNest> nest = CollectNest(self);
    if (nest && IsInjectiveNest(*nest)) return ScheduleNest(*nest);
    return StmtMutator::VisitStmt_(op, self);
  }
};

}  // namespace

PrimFunc ScheduleInjectiveCPU(const PrimFunc& func) {
  InjectiveScheduler scheduler;
  return transform_detail::WithBody(func, scheduler.VisitStmt(func->body));
}

}  // namespace rlx::tir
