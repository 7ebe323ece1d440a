// Simplify: every expression of a PrimFunc through arith::Analyzer, with the
// facts the statements establish (TVM's tir.Simplify, on our analyzer).
//
// Facts, recorded as the walk enters their scope:
// - each bare shape variable of a buffer_map buffer is >= 0;
// - a loop variable lies in [min, min + extent - 1], using the constant
//   bounds of min and extent (a symbolic extent still gives the lower bound);
// - a let-bound integer variable lies within the constant bounds of its
//   value.
// The analyzer's facts are not scoped, so a fact is only recorded for a
// variable bound exactly once in the function (loop and let variables
// normally are; a variable reused by two loops gets no fact, which is
// always sound).
//
// Statements are simplified along: a loop of extent 1 becomes its body with
// the loop variable replaced by min; an IfThenElse whose condition folds to
// a constant keeps only the arm taken; an AssertStmt whose condition folds
// to true disappears. Nothing else about the statement structure changes.
#include <unordered_map>

#include "rlx/arith/analyzer.h"
#include "rlx/tir/stmt_functor.h"
#include "rlx/tir/transform.h"
#include "tir/transform/transform_util.h"

namespace rlx::tir {
namespace {

using arith::ConstIntBound;

// How many statements bind each loop or let variable.
std::unordered_map<const ir::VarNode*, int> CountBindings(const Stmt& body) {
  std::unordered_map<const ir::VarNode*, int> counts;
  PostOrderVisit(body, [&](const ObjectRef& node) {
    if (const auto* loop = node.as<ForNode>()) ++counts[loop->loop_var.get()];
    if (const auto* let = node.as<LetStmtNode>()) ++counts[let->var.get()];
    if (const auto* let = node.as<ir::LetNode>()) ++counts[let->var.get()];
  });
  return counts;
}

bool IsScalarInt(DataType dtype) { return dtype.is_integer() && dtype.is_scalar(); }

// a + b - 1 on bounds, infinite when either side is.
int64_t LastOfRange(const ConstIntBound& min, const ConstIntBound& extent) {
  if (min.max_value == ConstIntBound::kPosInf || extent.max_value == ConstIntBound::kPosInf) {
    return ConstIntBound::kPosInf;
  }
  __int128 last = static_cast<__int128>(min.max_value) + extent.max_value - 1;
  return last > INT64_MAX ? ConstIntBound::kPosInf : static_cast<int64_t>(last);
}

class StmtSimplifier : public StmtMutator {
 public:
  explicit StmtSimplifier(const PrimFunc& func) : binding_counts_(CountBindings(func->body)) {
    for (const auto& [param, buffer] : func->buffer_map) {
      for (const PrimExpr& dim : buffer->shape) {
        if (const auto* var = dim.as<ir::VarNode>(); var && IsScalarInt(var->dtype)) {
          analyzer_.Bind(cast<ir::VarNode>(dim), 0, ConstIntBound::kPosInf);
        }
      }
    }
  }

  PrimExpr VisitPrimExpr(const PrimExpr& expr) override { return analyzer_.Simplify(expr); }

 protected:
  Stmt VisitStmt_(const ForNode* op, const Stmt& self) override {
    PrimExpr min = VisitPrimExpr(op->min);
    PrimExpr extent = VisitPrimExpr(op->extent);
    if (ir::IsConstInt(extent, 1) && op->for_kind != ForKind::kThreadBinding) {
      return VisitStmt(Substitute(op->body, [&](const Var& var) {
        return var.same_as(op->loop_var) ? ir::cast(var->dtype, min) : PrimExpr();
      }));
    }
    if (IsBoundOnce(op->loop_var) && IsScalarInt(op->loop_var->dtype)) {
      ConstIntBound min_bound = analyzer_.ConstBounds(min);
      ConstIntBound extent_bound = analyzer_.ConstBounds(extent);
      analyzer_.Bind(op->loop_var, min_bound.min_value, LastOfRange(min_bound, extent_bound));
    }
    Stmt body = VisitStmt(op->body);
    if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body)) return self;
    auto* node = new ForNode();
    node->span = op->span;
    node->loop_var = op->loop_var;
    node->min = std::move(min);
    node->extent = std::move(extent);
    node->for_kind = op->for_kind;
    node->body = std::move(body);
    node->thread_tag = op->thread_tag;
    node->annotations = op->annotations;
    node->step = op->step;
    return Stmt(node);
  }

  Stmt VisitStmt_(const LetStmtNode* op, const Stmt& self) override {
    if (IsBoundOnce(op->var) && IsScalarInt(op->var->dtype)) {
      ConstIntBound bound = analyzer_.ConstBounds(VisitPrimExpr(op->value));
      analyzer_.Bind(op->var, bound.min_value, bound.max_value);
    }
    return StmtMutator::VisitStmt_(op, self);
  }

  Stmt VisitStmt_(const IfThenElseNode* op, const Stmt& self) override {
    PrimExpr condition = VisitPrimExpr(op->condition);
    if (std::optional<int64_t> value = ir::AsConstInt(condition)) {
      if (*value != 0) return VisitStmt(op->then_case);
      return op->else_case.defined() ? VisitStmt(op->else_case) : MakeSeq({});
    }
    return StmtMutator::VisitStmt_(op, self);
  }

  Stmt VisitStmt_(const AssertStmtNode* op, const Stmt& self) override {
    PrimExpr condition = VisitPrimExpr(op->condition);
    if (ir::IsConstInt(condition, 1)) return op->body.defined() ? VisitStmt(op->body) : MakeSeq({});
    return StmtMutator::VisitStmt_(op, self);
  }

 private:
  bool IsBoundOnce(const Var& var) const {
    auto it = binding_counts_.find(var.get());
    return it != binding_counts_.end() && it->second == 1;
  }

  arith::Analyzer analyzer_;
  std::unordered_map<const ir::VarNode*, int> binding_counts_;
};

}  // namespace

PrimFunc Simplify(const PrimFunc& func) {
  return transform_detail::WithBody(func, StmtSimplifier(func).VisitStmt(func->body));
}

}  // namespace rlx::tir
