// Visitor and mutator for TIR statements.
//
// StmtFunctor<R(const Stmt&, Args...)> dispatches on the statement kind with
// a switch generated from RLX_STMT_NODES (ir/node.h); every VisitStmt_ is
// pure virtual there, so a statement kind that a functor does not handle is a
// compile error, never a silent fallthrough.
//
// StmtVisitor walks every child statement and every PrimExpr inside a
// statement (loop bounds, block iteration domains and values, predicates,
// buffer indices and regions, stored values). Expressions go through one
// hook, VisitPrimExpr, which by default walks the expression tree so that the
// BufferLoads nested in it are reached. Buffers go through two hooks:
// VisitBufferDef where a statement introduces a buffer (alloc_buffers,
// match_buffers, DeclBuffer) and VisitBufferUse where it reads or writes one
// (BufferStore, BufferLoad, read/write regions, match_buffer sources).
//
// StmtMutator rebuilds a statement only when one of its children changed and
// returns the very same node otherwise, so a mutator that changes nothing
// costs no allocation and preserves identity. Expressions are mutated through
// VisitPrimExpr, buffers through VisitBuffer (both identity by default, the
// former still descending into BufferLoads so that VisitBuffer reaches them).
//
// Helpers: PostOrderVisit (every statement and every PrimExpr, children
// first) and Substitute (variables in expression positions: loop bounds,
// block iteration domains and values, buffer indices and regions, stored
// values, conditions; binding positions such as a loop variable are kept).
#pragma once

#include <functional>
#include <vector>

#include "rlx/ir/functor.h"
#include "rlx/tir/stmt.h"

namespace rlx::tir {

template <typename FType>
class StmtFunctor;

template <typename R, typename... Args>
class StmtFunctor<R(const Stmt&, Args...)> {
 public:
  virtual ~StmtFunctor() = default;

  virtual R VisitStmt(const Stmt& stmt, Args... args) {
    switch (stmt->kind()) {
#define RLX_DISPATCH(Name) \
  case NodeKind::k##Name:  \
    return VisitStmt_(static_cast<const Name##Node*>(stmt.get()), stmt, args...);
      RLX_STMT_NODES(RLX_DISPATCH)
#undef RLX_DISPATCH
      default:
        RLX_UNREACHABLE() << "not a statement: " << NodeKindName(stmt->kind());
        __builtin_unreachable();  // the fatal message aborts
    }
  }

 protected:
#define RLX_DECLARE_VISIT(Name) \
  virtual R VisitStmt_(const Name##Node* op, const Stmt& self, Args... args) = 0;
  RLX_STMT_NODES(RLX_DECLARE_VISIT)
#undef RLX_DECLARE_VISIT
};

// Walks every statement and expression; see the file comment.
class StmtVisitor : public StmtFunctor<void(const Stmt&)> {
 public:
  // Every PrimExpr inside a statement passes here. The default walks the
  // tree and reports each BufferLoad's buffer to VisitBufferUse.
  virtual void VisitPrimExpr(const PrimExpr& expr);
  // A buffer introduced by a statement. The default visits its shape,
  // strides and element offset with VisitPrimExpr.
  virtual void VisitBufferDef(const Buffer& buffer);
  // A buffer read or written. The default does nothing.
  virtual void VisitBufferUse(const Buffer& buffer);

 protected:
#define RLX_DECLARE_VISIT(Name) void VisitStmt_(const Name##Node* op, const Stmt& self) override;
  RLX_STMT_NODES(RLX_DECLARE_VISIT)
#undef RLX_DECLARE_VISIT

  // A buffer region: VisitBufferUse on the buffer, VisitPrimExpr on each range.
  void VisitBufferRegion(const BufferRegion& region);
  void VisitRange(const Range& range);
};

// Rebuilds statements bottom-up; see the file comment.
class StmtMutator : public StmtFunctor<Stmt(const Stmt&)> {
 public:
  // Every PrimExpr inside a statement passes here. The default returns the
  // expression unchanged unless VisitBuffer replaces the buffer of a
  // BufferLoad inside it.
  virtual PrimExpr VisitPrimExpr(const PrimExpr& expr);
  // Every buffer reference (stores, loads, regions, allocations, matches,
  // declarations) passes here. The default returns it unchanged.
  virtual Buffer VisitBuffer(const Buffer& buffer);

 protected:
#define RLX_DECLARE_VISIT(Name) Stmt VisitStmt_(const Name##Node* op, const Stmt& self) override;
  RLX_STMT_NODES(RLX_DECLARE_VISIT)
#undef RLX_DECLARE_VISIT

  // Mutates each element; `changed` is set when any element changed.
  std::vector<PrimExpr> MutatePrimExprs(const std::vector<PrimExpr>& exprs, bool* changed);
  std::vector<Buffer> MutateBuffers(const std::vector<Buffer>& buffers, bool* changed);
  Range MutateRange(const Range& range, bool* changed);
  BufferRegion MutateBufferRegion(const BufferRegion& region, bool* changed);
  std::vector<BufferRegion> MutateBufferRegions(const std::vector<BufferRegion>& regions, bool* changed);
  // An undefined expression or statement stays undefined.
  PrimExpr MutateOptional(const PrimExpr& expr, bool* changed);
  Stmt MutateOptional(const Stmt& stmt, bool* changed);
};

// Calls `fvisit` on every statement and every PrimExpr sub-expression of
// `stmt`, children before parents.
void PostOrderVisit(const Stmt& stmt, const std::function<void(const ObjectRef&)>& fvisit);

// Replaces the variables for which `vmap` returns a defined expression, in
// every expression position of `stmt` (see the file comment). Returns `stmt`
// itself when nothing was replaced.
Stmt Substitute(const Stmt& stmt, const std::function<PrimExpr(const Var&)>& vmap);

}  // namespace rlx::tir
