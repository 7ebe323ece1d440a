// What the analyzer knows, and the two analyses that read it (private to
// arith).
//
// Facts are per variable: an inclusive range (Bind(v, lo, hi), v >= c, ...),
// a modular set (v % c == r), and an equal expression (Bind(v, e)), already
// simplified when it was recorded. Facts only accumulate: a new range is
// intersected with the old one.
//
// ComputeConstIntBound and ComputeModularSet are plain recursive analyses of
// an expression tree (interval arithmetic; modular arithmetic); they do not
// simplify. The analyzer runs them on simplified expressions, where like
// terms are already combined, which is what makes interval arithmetic tight.
#pragma once

#include <unordered_map>

#include "rlx/arith/analyzer.h"

namespace rlx::arith::detail {

struct VarFact {
  ir::Var var;
  ConstIntBound bound;  // everything unless bound
  ModularSet modular;   // (1, 0): nothing known
  ir::PrimExpr value;   // undefined unless Bind(var, expr)
};

class Facts {
 public:
  const VarFact* Find(const ir::VarNode* var) const {
    auto it = vars_.find(var);
    return it == vars_.end() ? nullptr : &it->second;
  }
  VarFact& Get(const ir::Var& var);
  // The var's range: its facts, its dtype's range, ends moved inward to the
  // nearest members of its modular set.
  ConstIntBound VarBound(const ir::VarNode* var) const;
  ModularSet VarModular(const ir::VarNode* var) const;

 private:
  std::unordered_map<const ir::VarNode*, VarFact> vars_;
};

// Results of the two analyses for atom-like nodes (div, mod, min, max,
// select, ...), by node identity (holding the node). A simplifier shares one
// across a call so that nested atoms are analyzed once, not once per level.
struct AnalysisCache {
  std::unordered_map<const ir::PrimExprNode*, std::pair<ir::PrimExpr, ConstIntBound>> bounds;
  std::unordered_map<const ir::PrimExprNode*, std::pair<ir::PrimExpr, ModularSet>> modular;
};
// Whether the analyses cache `e`: atom-like nodes, and sums shared in a DAG
// (a tree walk of a DAG is exponential). Leaves are cheap to redo.
bool IsCachedInAnalysis(const ir::PrimExpr& e);

ConstIntBound ComputeConstIntBound(const ir::PrimExpr& expr, const Facts& facts, AnalysisCache* cache = nullptr);
// Interval arithmetic used by the analysis (saturating, see int_math.h).
ConstIntBound BoundsAdd(const ConstIntBound& a, const ConstIntBound& b);
ConstIntBound BoundsMul(const ConstIntBound& a, const ConstIntBound& b);
ConstIntBound BoundsNegate(const ConstIntBound& a);
// a^power for power >= 1 (even powers are >= 0).
ConstIntBound BoundsPower(const ConstIntBound& a, int power);
ModularSet ComputeModularSet(const ir::PrimExpr& expr, const Facts& facts, AnalysisCache* cache = nullptr);

// Modular-set arithmetic (exact; falls back to "everything" = (1, 0) when a
// value would overflow int64). Results are normalized: coeff >= 0 and, when
// coeff > 0, 0 <= base < coeff.
ModularSet ModularConst(int64_t value);
ModularSet ModularAdd(const ModularSet& a, const ModularSet& b);
ModularSet ModularMul(const ModularSet& a, const ModularSet& b);
ModularSet ModularUnion(const ModularSet& a, const ModularSet& b);
ModularSet ModularFloorDiv(const ModularSet& a, int64_t divisor);
ModularSet ModularFloorMod(const ModularSet& a, int64_t divisor);
// Whether every member of `a` is a multiple of `divisor` (divisor != 0).
bool ModularIsMultipleOf(const ModularSet& a, int64_t divisor);

}  // namespace rlx::arith::detail
