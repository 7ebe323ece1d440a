// Private to the graph layer: registration of the cross-level builtins
// ("relax.call_tir", "relax.call_dps_packed", ...), defined in builtin_ops.cc.
// The registry (op_registry.cc) calls it exactly once, before the first
// lookup, so FindOp("relax.call_tir") works without any set-up call.
#pragma once

namespace rlx::graph {

void RegisterGraphBuiltinOps();

}  // namespace rlx::graph
