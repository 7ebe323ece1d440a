// Structural equality and hashing of IR, up to renaming of variables.
//
// Two IR trees are structurally equal when they have the same shape, the
// same node kinds and the same field values, where variables are compared by
// correspondence rather than by identity or name:
//
// - Variables (graph Var / DataflowVar, symbolic and TIR ir::Vars, buffer
//   data vars) and Buffers are matched the first time they are seen on both
//   sides: they must then be of the same kind and dtype (a graph Var's struct
//   info, a Buffer's dtype/shape/strides/scope are compared at that first
//   sight); later occurrences must agree with the match in both directions
//   (a bijection). Names never matter. For well-formed IR, where every
//   variable is defined before use, this is alpha-equivalence.
// - GlobalVars and Ops compare by name, ExternFuncs by symbol, Constants by
//   dtype, shape and payload bytes.
// - IRModules compare their functions by name in any order (each function
//   with a fresh variable correspondence); attribute Dicts compare as maps
//   (key order is irrelevant; an undefined Dict equals an empty one).
// - Spans and name hints (variables, buffers, blocks) are ignored. The
//   derived struct info of non-variable expressions (calls, tuples, ...) is
//   compared only when both sides have one.
//
// StructuralHash is consistent with StructuralEqual (equal => same hash):
// variables hash by the order in which the traversal first meets them;
// Constants hash only their dtype and shape, never their payload, so large
// weights cost nothing; a module's hash does not depend on function order.
//
// Both walk bindings, statements and list elements iteratively: recursion
// depth follows expression nesting, not the length of a function.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "rlx/ir/node.h"

namespace rlx::graph {

// True when `lhs` and `rhs` are structurally equal (see above). Either may be
// undefined; two undefined refs are equal.
bool StructuralEqual(const ObjectRef& lhs, const ObjectRef& rhs);

// nullopt when equal; otherwise the path to the first difference and both
// sides there, e.g.
//   functions["main"].body.blocks[0].bindings[2].value.args[1].values[0]: lhs n * 4, rhs n * 5
// PrimExprs are shown whole (the path stops at the outermost PrimExpr, with a
// note naming the inner difference when the renderings alone do not show it).
std::optional<std::string> StructuralMismatch(const ObjectRef& lhs, const ObjectRef& rhs);

// A hash consistent with StructuralEqual.
size_t StructuralHash(const ObjectRef& node);

// Function objects for hash containers keyed by structure (e.g. CSE).
struct StructuralHasher {
  size_t operator()(const ObjectRef& node) const { return StructuralHash(node); }
};
struct StructuralEqualTo {
  bool operator()(const ObjectRef& lhs, const ObjectRef& rhs) const { return StructuralEqual(lhs, rhs); }
};

}  // namespace rlx::graph
