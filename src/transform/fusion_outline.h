// Outlining groups of dataflow bindings into private functions: the step
// that fuse-ops and fuse-ops-by-pattern share (private to src/transform).
//
// A group is a set of bindings of one dataflow block (values: calls,
// tuples, tuple-get-items). OutlineGroups turns each group into a private
// function and a call of it:
//   - parameters: the values the group reads from outside (variables keep
//     their names, tensor constants become parameters `p0`, `p1`, ...), then
//     an `R.Prim(value=v)` parameter for each symbolic variable the group
//     uses that no parameter's shape defines;
//   - body: one dataflow block with the group's bindings, returning the
//     values used outside the group (later in the block by a non-member, or
//     after the block): one value, or a tuple of them;
//   - the block calls the function in place of the group's last binding
//     (a tuple result is unpacked into the original variables) and is then
//     sorted topologically, keeping the original order where dependences
//     allow (a group's value may be consumed by a binding that came before
//     the group's last one).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "rlx/graph/expr.h"
#include "rlx/ir/module.h"

namespace rlx::transform::fusion {

struct BindingGroup {
  std::vector<size_t> members;  // binding indices in the block, increasing; at least one
  std::string name;             // the function's name (made unique in the module)
  ir::Dict attrs;               // the function's attributes
};

// `block` with every group outlined; the new functions are added to `*mod`
// under names not in `*used_names` or the module (recorded there).
graph::BindingBlock OutlineGroups(const graph::BindingBlock& block, const std::vector<BindingGroup>& groups,
                                  ir::IRModule* mod, std::set<std::string>* used_names);

// The variables `value` reads directly (a call's arguments, tuple fields,
// a tuple-get-item's tuple), in order.
void CollectUsedVars(const graph::Expr& value, std::vector<const graph::VarNode*>* vars);

}  // namespace rlx::transform::fusion
