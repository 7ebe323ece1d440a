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
// ---------------------------------------------------------------------------
// Lowering to the VM, in the order of the default pipeline
// (rlx/transform/pipeline.h). After vm-shape-lower a graph function holds
// only calls of GlobalVars (graph functions, PrimFuncs), calls of extern
// functions (builtins, kernels), R.vm.* operators, R.call_builtin_with_ctx,
// R.null_value, tuples, If, constants, shapes and prim values: what VM code
// generation maps to bytecode.
// "to-non-dataflow": dataflow blocks become binding blocks and DataflowVars
// Vars (TVM's ToNonDataflow).
Pass ToNonDataflow();
// "remove-purity-checking": pure functions get "relax.force_pure" = True;
// R.call_pure_packed / R.invoke_pure_closure become their impure forms
// (TVM's RemovePurityChecking). Lowering then introduces effects freely.
Pass RemovePurityChecking();
// "call-tir-rewrite": R.call_tir / R.call_tir_inplace / R.call_dps_packed
// allocate their outputs with R.builtin.alloc_tensor and call the callee
// directly with inputs and outputs, or through R.vm.call_tir_dyn with the
// tir_vars shape last (TVM's CallTIRRewrite).
Pass CallTIRRewrite();
// "lower-alloc-tensor": each R.builtin.alloc_tensor becomes an
// R.memory.alloc_storage of its byte size and an R.memory.alloc_tensor in it
// (TVM's LowerAllocTensor).
Pass LowerAllocTensor();
// "kill-after-last-use": R.memory.kill_tensor / kill_storage /
// R.vm.kill_object right after each VM object's last use (TVM's
// KillAfterLastUse).
Pass KillAfterLastUse();
// "vm-builtin-lower": memory operators -> R.vm.* operators; call_tir_dyn,
// reshape, shape_of, closures -> runtime builtins (TVM's VMBuiltinLower /
// LowerRuntimeBuiltin).
Pass VMBuiltinLower();
// "vm-shape-lower": symbolic shapes in a per-function shape heap, boundary
// and match_cast checks, make_shape for symbolic shapes, shape arithmetic in
// generated PrimFuncs (TVM's VMShapeLower).
Pass VMShapeLower();
// "attach-global-symbol": every function gets "global_symbol" = its name
// (PrimFuncs: the module's system_lib_prefix + name) and stops being private
// (TVM's AttachGlobalSymbol).
Pass AttachGlobalSymbol();
// "static-plan-block-memory": R.builtin.alloc_tensor -> R.memory.alloc_storage
// + R.memory.alloc_tensor with storage shared between tensors of disjoint
// lifetimes in a block (symbolic sizes shared when provably equal); sizes
// use the "tir_var_upper_bound" / "tir_non_negative_var" function
// attributes; function outputs are not planned (TVM's
// StaticPlanBlockMemory). Runs right after call-tir-rewrite.
Pass StaticPlanBlockMemory();
// PassContext config key (bool): static-plan-block-memory checks its result
// independently (every tensor fits its storage, tensors sharing bytes of a
// storage have disjoint lifetimes); a violation is a CompileError. Set by
// `rlx build --verify-memory-plan`.
inline constexpr const char* kVerifyMemoryPlanConfig = "relax.static_plan_block_memory.verify";
// "rewrite-dataflow-reshape": R.call_tir of a PrimFunc that only reshapes
// (a row-major copy of its input, legalized reshape / expand_dims /
// squeeze / flatten) becomes R.reshape again, a zero-copy view after
// vm-builtin-lower (TVM's RewriteDataflowReshape). Runs on dataflow blocks,
// before to-non-dataflow.
Pass RewriteDataflowReshape();

}  // namespace rlx::transform
