// Per-variable facts (see facts.h).
#include "arith/facts.h"
#include "arith/int_math.h"

namespace rlx::arith::detail {

VarFact& Facts::Get(const ir::Var& var) {
  auto it = vars_.find(var.get());
  if (it != vars_.end()) return it->second;
  VarFact fact;
  fact.var = var;
  return vars_.emplace(var.get(), std::move(fact)).first->second;
}

ConstIntBound Facts::VarBound(const ir::VarNode* var) const {
  ConstIntBound bound = DtypeRange(var->dtype);
  const VarFact* fact = Find(var);
  if (fact == nullptr) return bound;
  bound = Intersect(bound, fact->bound);
  const ModularSet& m = fact->modular;
  if (m.coeff == 0) return Intersect(bound, MakeBound(m.base, m.base));
  if (m.coeff > 1) {
    // Move each finite end inward to the nearest value congruent to base.
    if (!IsInf(bound.min_value)) {
      bound.min_value = Saturate(static_cast<int128>(bound.min_value) +
                                 FloorMod128(static_cast<int128>(m.base) - bound.min_value, m.coeff));
    }
    if (!IsInf(bound.max_value)) {
      bound.max_value = Saturate(static_cast<int128>(bound.max_value) -
                                 FloorMod128(static_cast<int128>(bound.max_value) - m.base, m.coeff));
    }
  }
  return bound;
}

bool IsCachedInAnalysis(const ir::PrimExpr& e) {
  switch (e->kind()) {
    case NodeKind::kPrimIntImm:
    case NodeKind::kPrimVar: return false;
    case NodeKind::kPrimAdd:
    case NodeKind::kPrimSub:
    case NodeKind::kPrimMul: return e->use_count() > 1;  // shared in a DAG
    default: return true;
  }
}

ModularSet Facts::VarModular(const ir::VarNode* var) const {
  ConstIntBound bound = VarBound(var);
  if (bound.is_const() && !IsInf(bound.min_value)) return ModularConst(bound.min_value);
  const VarFact* fact = Find(var);
  return fact ? fact->modular : ModularSet{1, 0};
}

}  // namespace rlx::arith::detail
