// Small helpers shared by the TIR lowering passes (src/tir/transform/).
//
// - WithBody: a PrimFunc with a new body (identity when unchanged).
// - FuseIntoParallelLoop: a perfect nest of loops as one parallel loop.
// - BufferAccessRewriter: a StmtMutator that offers every BufferLoad and
//   BufferStore (children first) to one hook that may replace the buffer and
//   the indices; ConvertBlocksToLoops uses it for match_buffers and
//   FlattenBuffer for the flattening itself.
// - Index arithmetic that keeps vector indices in Ramp/Broadcast form
//   (`Ramp(b, s, n) * c` -> `Ramp(b * c, s * c, n)`), so that a flattened
//   vector access stays recognisable as contiguous for codegen.
#pragma once

#include <utility>
#include <vector>

#include "rlx/tir/function.h"
#include "rlx/tir/stmt_functor.h"

namespace rlx::tir::transform_detail {

// `func` with its body replaced; `func` itself when the body is unchanged.
PrimFunc WithBody(const PrimFunc& func, Stmt body);

// loops[first .. last] (perfectly nested, outermost first, around `body`)
// as one parallel loop `fused` over the product of their extents (each
// clamped at 0), every loop variable recovered by division and modulo:
// i_first = fused // (e_{first+1} * ...), ..., i_last = fused % e_last.
// The schedules use it so that a leading extent of 1 at run time does not
// leave the iterations to one thread.
Stmt FuseIntoParallelLoop(const std::vector<const ForNode*>& loops, size_t first, size_t last, Stmt body);

class BufferAccessRewriter : public StmtMutator {
 public:
  PrimExpr VisitPrimExpr(const PrimExpr& expr) override;

  // Called for every access after its indices were visited. Returns true
  // and sets `buffer`/`indices` to replace the access; false keeps it.
  virtual bool RewriteAccess(Buffer* buffer, std::vector<PrimExpr>* indices) = 0;

 protected:
  using StmtMutator::VisitStmt_;
  Stmt VisitStmt_(const BufferStoreNode* op, const Stmt& self) override;
};

// Index arithmetic on scalars and vectors: the result has the wider integer
// dtype of the two and the lanes of the vector operand (if any); Ramp and
// Broadcast operands are combined structurally where the result is again a
// Ramp or Broadcast.
PrimExpr IndexAdd(PrimExpr a, PrimExpr b);
PrimExpr IndexMul(PrimExpr a, PrimExpr b);

}  // namespace rlx::tir::transform_detail
