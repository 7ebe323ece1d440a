// LowerInitBlock: a block's `init` statement becomes part of its body.
//
// TensorIR runs `init` before the first iteration of a reduction: when every
// reduce iteration variable of the block is at the minimum of its domain.
// This pass makes that explicit:
//
//   with T.block("C"):                      with T.block("C"):
//     vi, vk = T.axis.remap("SR", [i, k])     vi, vk = T.axis.remap("SR", [i, k])
//     with T.init():                    =>    if vk == 0:
//       C[vi] = 0                               C[vi] = 0
//     C[vi] = C[vi] + A[vi, vk]               C[vi] = C[vi] + A[vi, vk]
//
// The condition is over the block's own iteration variables, so it stays
// correct whatever loops bind them; ConvertBlocksToLoops later substitutes
// the bound values. A block with an init but no reduce iteration variable
// runs its init every time, before the body (the condition is empty).
#include "rlx/tir/stmt_functor.h"
#include "rlx/tir/transform.h"
#include "tir/transform/transform_util.h"

namespace rlx::tir {
namespace {

// `iv == min` for every reduce iteration variable, joined by `and`; an
// undefined expression when there is none.
PrimExpr InitCondition(const std::vector<IterVar>& iter_vars) {
  PrimExpr condition;
  for (const IterVar& iv : iter_vars) {
    if (iv->iter_kind != IterKind::kReduce) continue;
    PrimExpr at_min = ir::eq(iv->var, ir::cast(iv->var->dtype, iv->dom.min));
    condition = condition.defined() ? ir::logical_and(condition, at_min) : at_min;
  }
  return condition;
}

class InitBlockLowerer : public StmtMutator {
 protected:
  Stmt VisitStmt_(const BlockNode* op, const Stmt& self) override {
    Stmt visited = StmtMutator::VisitStmt_(op, self);
    const auto* block = visited.as<BlockNode>();
    if (!block->init.defined()) return visited;
    PrimExpr condition = InitCondition(block->iter_vars);
    Stmt init = condition.defined() ? Stmt(make<IfThenElseNode>(condition, block->init, Stmt())) : block->init;
    auto* node = new BlockNode();
    node->span = block->span;
    node->name = block->name;
    node->iter_vars = block->iter_vars;
    node->reads = block->reads;
    node->writes = block->writes;
    node->body = MakeSeq({init, block->body});
    node->alloc_buffers = block->alloc_buffers;
    node->match_buffers = block->match_buffers;
    node->annotations = block->annotations;
    return Stmt(node);
  }
};

}  // namespace

PrimFunc LowerInitBlock(const PrimFunc& func) {
  return transform_detail::WithBody(func, InitBlockLowerer().VisitStmt(func->body));
}

}  // namespace rlx::tir
