// Visitors and mutators for graph-level (Relax) expressions.
//
// Modelled on TVM's relax ExprFunctor / ExprVisitor / ExprMutatorBase /
// ExprMutator:
//
// - ExprFunctor<R(const Expr&, Args...)> dispatches on the expression kind
//   with a switch generated from RLX_GRAPH_EXPR_NODES (ir/node.h); every
//   VisitExpr_ is pure virtual there, so an unhandled kind fails to compile.
//
// - ExprVisitor walks everything: Tuple fields, Call op / args / sinfo_args,
//   If condition and branches, SeqExpr blocks and body, Function parameters
//   (as definitions) and body. Bindings go through VisitBindingBlock ->
//   VisitBinding -> VisitBinding_(VarBinding | MatchCast); variables at their
//   definition through VisitVarDef, at their uses through VisitExpr_(Var).
//   Struct info that may depend on values in scope (a Call's sinfo_args and
//   deduced struct info, a variable's struct info at its use, match_cast
//   patterns, ...) goes through VisitStructInfo, which hands every PrimExpr
//   to VisitPrimExpr (a no-op by default) and a tensor's shape expression to
//   VisitExpr. As in TVM, Callable struct info is not entered: its symbolic
//   variables are bound by its own parameters, not by the enclosing scope.
//
// - ExprMutatorBase rebuilds bottom-up without a BlockBuilder and returns the
//   very same node when nothing below changed. Rebuilt Tuples and
//   TupleGetItems get struct info from their parts; rebuilt Calls, Ifs and
//   SeqExprs have none (normalize them afterwards).
//
// - ExprMutator owns a BlockBuilder and re-emits every binding through it,
//   so struct info is re-deduced where values changed:
//     * VisitExpr normalizes what the node visitors return (a node that
//       comes back unchanged with struct info is already normalized);
//     * a binding whose value and variable are unchanged is re-emitted as
//       is (EmitNormalized); otherwise its value is bound to a fresh
//       variable of the same name and kind (EmitWithVar), recorded in
//       var_remap_ so that later uses refer to it;
//     * a changed match_cast binds a fresh variable annotated with the
//       (possibly mutated) pattern, re-emitted with EmitNormalized;
//     * VisitExpr_(Var) looks uses up in var_remap_;
//     * function bodies and If branches are visited in a new builder scope
//       (VisitWithNewScope): the body's own bindings live in an inner scope
//       that is closed before the body is normalized into a SeqExpr, so its
//       struct info only mentions what the parameters define;
//     * a rebuilt function keeps its return annotation unless the new body
//       provably contradicts it (then the body's struct info is taken);
//     * a binding block is rebuilt through the builder but the original
//       block is returned when every binding came back unchanged, so an
//       ExprMutator that changes nothing returns the same function.
//
// PostOrderVisit calls a function on every sub-expression, children first.
#pragma once

#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "rlx/graph/block_builder.h"
#include "rlx/graph/expr.h"

namespace rlx::graph {

template <typename FType>
class ExprFunctor;

template <typename R, typename... Args>
class ExprFunctor<R(const Expr&, Args...)> {
 public:
  virtual ~ExprFunctor() = default;

  virtual R VisitExpr(const Expr& expr, Args... args) {
    switch (expr->kind()) {
#define RLX_DISPATCH(Name)     \
  case NodeKind::kGraph##Name: \
    return VisitExpr_(static_cast<const Name##Node*>(expr.get()), expr, args...);
      RLX_GRAPH_EXPR_NODES(RLX_DISPATCH)
#undef RLX_DISPATCH
      default:
        RLX_UNREACHABLE() << "not a graph expression: " << NodeKindName(expr->kind());
        __builtin_unreachable();  // the fatal message aborts
    }
  }

 protected:
#define RLX_DECLARE_VISIT(Name) \
  virtual R VisitExpr_(const Name##Node* op, const Expr& self, Args... args) = 0;
  RLX_GRAPH_EXPR_NODES(RLX_DECLARE_VISIT)
#undef RLX_DECLARE_VISIT
};

// ---------------------------------------------------------------------------

class ExprVisitor : public ExprFunctor<void(const Expr&)> {
 public:
  void VisitExpr(const Expr& expr) override;

  virtual void VisitBindingBlock(const BindingBlock& block);
  virtual void VisitBinding(const Binding& binding);
  // A variable at its definition (function parameter or binding variable).
  virtual void VisitVarDef(const Var& var);
  // Walks struct info; see the file comment.
  virtual void VisitStructInfo(const StructInfo& sinfo);
  // Every symbolic expression met in shapes, prim values and struct info.
  virtual void VisitPrimExpr(const PrimExpr& expr);

 protected:
#define RLX_DECLARE_VISIT(Name) void VisitExpr_(const Name##Node* op, const Expr& self) override;
  RLX_GRAPH_EXPR_NODES(RLX_DECLARE_VISIT)
#undef RLX_DECLARE_VISIT

  virtual void VisitBindingBlock_(const BindingBlockNode* block);
  virtual void VisitBindingBlock_(const DataflowBlockNode* block);
  virtual void VisitBinding_(const VarBindingNode* binding);
  virtual void VisitBinding_(const MatchCastNode* binding);
  virtual void VisitVarDef_(const VarNode* var);
  virtual void VisitVarDef_(const DataflowVarNode* var);

  // Visits `expr`'s struct info when it has one.
  void VisitStructInfoOf(const ExprNode* expr);
};

// ---------------------------------------------------------------------------

class ExprMutatorBase : public ExprFunctor<Expr(const Expr&)> {
 public:
  Expr VisitExpr(const Expr& expr) override;

  virtual BindingBlock VisitBindingBlock(const BindingBlock& block);
  // Rebuilds struct info whose PrimExprs (through VisitPrimExpr) or tensor
  // shape expression (through VisitExpr) changed; Callable struct info is
  // returned as is.
  virtual StructInfo VisitStructInfo(const StructInfo& sinfo);
  // Every symbolic expression met in shapes, prim values and struct info.
  // The default returns it unchanged.
  virtual PrimExpr VisitPrimExpr(const PrimExpr& expr);

 protected:
#define RLX_DECLARE_VISIT(Name) Expr VisitExpr_(const Name##Node* op, const Expr& self) override;
  RLX_GRAPH_EXPR_NODES(RLX_DECLARE_VISIT)
#undef RLX_DECLARE_VISIT

  // True when `sinfo` is undefined or VisitStructInfo leaves it unchanged.
  bool VisitAndCheckStructInfoFieldUnchanged(const StructInfo& sinfo);
  // Mutates each element; `changed` is set when any element changed.
  std::vector<Expr> MutateExprs(const std::vector<Expr>& exprs, bool* changed);
  std::vector<PrimExpr> MutatePrimExprs(const std::vector<PrimExpr>& exprs, bool* changed);
};

// ---------------------------------------------------------------------------

class ExprMutator : public ExprMutatorBase {
 public:
  // `context_module` resolves calls to module functions while re-deducing.
  explicit ExprMutator(ir::IRModule context_module = nullptr);
  ~ExprMutator() override;

  // Visits and then normalizes through the builder.
  Expr VisitExpr(const Expr& expr) override;
  BindingBlock VisitBindingBlock(const BindingBlock& block) override;
  virtual void VisitBinding(const Binding& binding);
  // A variable at its definition; returns it, or a copy with mutated struct
  // info (same name and kind) when VisitStructInfo changed it.
  virtual Var VisitVarDef(const Var& var);

  // Visits `expr` (a function body or an If branch) in a new builder scope
  // where `params` are defined, and normalizes the result into a SeqExpr
  // whose struct info is erased to what `params` define.
  Expr VisitWithNewScope(const Expr& expr, const std::vector<Var>& params = {});

  BlockBuilder& builder() { return *builder_; }

 protected:
  using ExprMutatorBase::VisitExpr_;
  Expr VisitExpr_(const VarNode* op, const Expr& self) override;
  Expr VisitExpr_(const DataflowVarNode* op, const Expr& self) override;
  Expr VisitExpr_(const FunctionNode* op, const Expr& self) override;
  Expr VisitExpr_(const IfNode* op, const Expr& self) override;
  Expr VisitExpr_(const SeqExprNode* op, const Expr& self) override;

  virtual BindingBlock VisitBindingBlock_(const BindingBlockNode* block);
  virtual BindingBlock VisitBindingBlock_(const DataflowBlockNode* block);
  virtual void VisitBinding_(const VarBindingNode* binding);
  virtual void VisitBinding_(const MatchCastNode* binding);
  virtual Var VisitVarDef_(const VarNode* var);
  virtual Var VisitVarDef_(const DataflowVarNode* var);

  // Emits `binding->var = new_value`: the original binding when nothing
  // changed, else a binding of a fresh variable recorded in var_remap_.
  void ReEmitBinding(const VarBindingNode* binding, const Expr& new_value);
  // Records that uses of `from` now refer to `to`.
  void RemapVar(const Var& from, const Var& to);

  std::unique_ptr<BlockBuilder> builder_;
  // Original variable -> its replacement (keyed by identity).
  std::unordered_map<const VarNode*, Var> var_remap_;
};

// Calls `fvisit` on every sub-expression of `expr`, children before parents
// (bound values before the SeqExpr that binds them).
void PostOrderVisit(const Expr& expr, const std::function<void(const Expr&)>& fvisit);

}  // namespace rlx::graph
