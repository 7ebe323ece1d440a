// The passes: one factory per pass, one source file per pass
// (src/transform/<pass_name>.cc, its worker class private to that file), one
// flag name each (the PassInfo name, used by `rlx opt --passes=...`), one
// folder of text tests each (tests/text/passes/<flag-name>/).
#pragma once

#include <string>
#include <vector>

#include "rlx/transform/pass.h"

namespace rlx::transform {

// "normalize": re-normalizes every graph function through graph::BlockBuilder
// (A-normal form, struct info deduced for every expression, empty blocks
// dropped, adjacent blocks of the same kind merged), like TVM's
// relax.transform.Normalize.
Pass Normalize();

// "dead-code-elimination": like TVM's relax.transform.DeadCodeElimination.
//  1. Removes module functions unreachable from the entry functions. The
//     entries are `entry_functions` plus every externally visible function
//     (graph functions that are not private, PrimFuncs with a global_symbol
//     or not private). Nothing is removed when a reachable function refers to
//     a function missing from the module.
//  2. Removes bindings whose variable is unused, transitively (chains die),
//     including unused dataflow-block outputs. Bindings whose value contains
//     an impure call are kept outside dataflow blocks (and keep their inputs
//     alive); match_cast bindings are kept (they check at run time and may
//     define symbolic variables). Blocks left empty disappear.
//  3. Repeats 1, since removed bindings may have been the only callers.
Pass DeadCodeElimination(std::vector<std::string> entry_functions = {});

// "canonicalize-bindings": like TVM's relax.transform.CanonicalizeBindings.
//  - A trivial binding `y = x` is removed and uses of `y` become uses of `x`,
//    through chains. When `y` is a dataflow-block output (a Var) bound to a
//    DataflowVar `x` and used after the block, `x`'s binding is renamed to
//    `y` instead, so dataflow outputs remain Vars.
//  - `c = t[i]` where `t` is bound to a tuple literal is treated as
//    `c = <field i>`.
//  - A match_cast whose target struct info equals the value's is a trivial
//    binding.
//  - A variable bound to a constant is replaced by the constant at its uses.
//  - A Var defined in a dataflow block and used only inside that block
//    becomes a DataflowVar (it is dropped from R.output).
Pass CanonicalizeBindings();

// "legalize-ops": like TVM's relax.transform.LegalizeOps. Every call of an
// operator with a legalization (graph::OpInfo::legalize) is replaced by it,
// typically `R.call_tir` of a PrimFunc generated from tensor expressions
// (op/legalize.h: CallTE) and added to the module; structurally equal
// PrimFuncs are shared, names follow TVM (`add`, `add1`, ...). Calls that
// cannot be lowered statically (unknown shapes or dtypes) and operators
// without a legalization are left as they are.
Pass LegalizeOps();

// "annotate-tir-op-pattern": like TVM's relax.transform.AnnotateTIROpPattern.
// Sets every PrimFunc's `op_pattern` attribute (int32, TVM's numbering) to
// the pattern kind tir::AnalyzeOpPatternKind reads off its blocks; a nonzero
// `op_pattern` already present is kept.
Pass AnnotateTIROpPattern();

}  // namespace rlx::transform
