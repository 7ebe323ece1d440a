// A deterministic structural total order on PrimExprs (private to arith).
//
// The canonical form sorts the atoms of a monomial and the terms of a sum by
// this order, and decides "same atom" by Compare(a, b) == 0, so it doubles as
// structural equality for simplified expressions. Order: node kind first
// (IntImm < ... < Var < Add < ... as in RLX_PRIM_EXPR_NODES), then dtype, then
// fields and children left to right. Variables compare by name; distinct
// variables with the same name get serial numbers in the order this object
// first sees them tied, so the order never depends on pointer values.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "rlx/ir/expr.h"

namespace rlx::arith::detail {

class ExprOrder {
 public:
  // <0, 0 or >0 as a sorts before, equal to, or after b.
  int Compare(const ir::PrimExpr& a, const ir::PrimExpr& b);
  bool Equal(const ir::PrimExpr& a, const ir::PrimExpr& b) { return Compare(a, b) == 0; }
  bool Less(const ir::PrimExpr& a, const ir::PrimExpr& b) { return Compare(a, b) < 0; }

 private:
  int CompareFields(const ir::PrimExpr& a, const ir::PrimExpr& b);
  int CompareVars(const ir::VarNode* a, const ir::VarNode* b);
  int CompareBuffers(const ir::BufferNode* a, const ir::BufferNode* b);
  int CompareLists(const std::vector<ir::PrimExpr>& a, const std::vector<ir::PrimExpr>& b);
  // The tie-break serial of a node (variables, buffers), assigned on first use.
  int64_t Serial(const Node* node);

  std::unordered_map<const Node*, std::pair<ObjectRef, int64_t>> serials_;
};

}  // namespace rlx::arith::detail
