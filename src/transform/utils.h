// Helpers shared by the passes of src/transform (private to this layer).
#pragma once

#include "rlx/graph/expr.h"
#include "rlx/ir/module.h"

namespace rlx::transform {

// Removes every binding of `func` whose variable is unused, transitively,
// except bindings with impure calls and match_casts (TVM's
// relax::RemoveAllUnused). The binding half of dead-code-elimination.
graph::Function RemoveAllUnused(const graph::Function& func, const ir::IRModule& mod);

// True when evaluating `expr` may call something impure (an impure operator,
// an impure or unknown callee, a PrimFunc called directly). Local function
// definitions are not entered: defining a function calls nothing.
bool ContainsImpureCall(const graph::Expr& expr, const ir::IRModule& mod);

}  // namespace rlx::transform
