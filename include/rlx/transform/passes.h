// The passes: one factory per pass, one source file per pass
// (src/transform/<pass_name>.cc, its worker class private to that file), one
// flag name each (the PassInfo name, used by `rlx opt --passes=...`), one
// folder of text tests each (tests/text/passes/<flag-name>/).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "rlx/transform/dataflow_pattern.h"
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

// "fuse-ops": like TVM's relax.transform.FuseOps. Groups the bindings of
// dataflow blocks (call_tir of PrimFuncs annotated with op_pattern,
// tuple-get-items, tuples) by TVM's post-dominator rules into private
// functions `fused_<names>` with attribute Primitive = 1, called in place of
// the group; a group holds at most `max_fuse_depth` bindings. Registry
// option: `fuse-ops{max-fuse-depth=N}`.
Pass FuseOps(int max_fuse_depth = 256);

// "fuse-tir": like TVM's relax.transform.FuseTIR. Each call of a primitive
// function whose body is call_tir / tuple / tuple-get-item bindings becomes
// one R.call_tir of a single PrimFunc merging the callees (intermediate
// tensors as T.alloc_buffer in the root block, symbolic variables unified by
// matching buffer shapes, values no buffer shape defines passed as
// tir_vars). Primitive functions and PrimFuncs left unused are removed.
Pass FuseTIR();

// "fuse-ops-by-pattern": like TVM's relax.transform.FuseOpsByPattern. In
// every dataflow block, bindings matching one of `patterns`
// (rlx/transform/dataflow_pattern.h; tried in order, matches rooted at later
// bindings first) become a private function `fused_<op names>` with
// attributes Composite = <pattern name> and Primitive = 1, called in their
// place. A match is used only when the values it computes inside are used
// by the match alone. Registry option: `patterns=<built-in table>` (default
// matmul_epilogue).
Pass FuseOpsByPattern(std::vector<FusionPattern> patterns);
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
// `rlx build --verify-memory-plan`; when unset, on in the memory debug mode
// (RLX_DEBUG_MEMORY=1).
inline constexpr const char* kVerifyMemoryPlanConfig = "relax.static_plan_block_memory.verify";
// "rewrite-dataflow-reshape": R.call_tir of a PrimFunc that only reshapes
// (a row-major copy of its input, legalized reshape / expand_dims /
// squeeze / flatten) becomes R.reshape again, a zero-copy view after
// vm-builtin-lower (TVM's RewriteDataflowReshape). Runs on dataflow blocks,
// before to-non-dataflow.
Pass RewriteDataflowReshape();

// ---------------------------------------------------------------------------
// Graph clean-ups (issue "P3 Composable dynamic-shape optimizations").
// "fold-constant": like TVM's relax.transform.FoldConstant. R.call_tir of a
// PrimFunc on constant arguments with static output shapes is evaluated (with
// the TIR interpreter) into constants; in dataflow blocks, calls of
// legalizable operators on constants are legalized on the fly and folded the
// same way. Also: variables bound to constants are replaced by them,
// indexing of known tuples, R.shape_of of known shapes, shape values the
// analyzer proves constant. Large outputs that would grow the module are not
// folded. Unused bindings are removed afterwards.
Pass FoldConstant();

// "eliminate-common-subexpr": like TVM's
// relax.transform.EliminateCommonSubexpr. A pure binding whose value
// (structurally, with the same free variables; for match_cast also the same
// target struct info) an earlier binding in scope already computed becomes a
// trivial binding of the earlier variable, whose uses then refer to it.
// Impure calls are never merged; DataflowVars stop being candidates when
// their block ends; If branches and local functions are scopes of their own.
// With `call_only` (option call-only=true) only calls are merged.
Pass EliminateCommonSubexpr(bool call_only = false);

// "topological-sort": like TVM's relax.transform.TopologicalSort. Reorders
// the bindings of every dataflow block in a topological order of the
// function's use graph: `order` is "depth-first" or "breadth-first",
// `direction` "from-inputs" or "from-outputs" (TVM's defaults: depth-first,
// from-inputs). Options order=... direction=...; other values are errors.
Pass TopologicalSort(const std::string& order = "depth-first", const std::string& direction = "from-inputs");

// "lambda-lift": like TVM's relax.transform.LambdaLift. Every local function
// becomes a private module function named "<enclosing>_<local>" (made
// unique); the variables it captures become extra trailing parameters. A
// local function without captures is called directly; one with captures is
// bound to R.make_closure(lifted, (captures)), and calls of callable
// variables become R.invoke_pure_closure / R.invoke_closure. Recursive local
// functions call their lifted self directly.
Pass LambdaLift();

// "lift-transform-params": like TVM's relax.transform.LiftTransformParams.
// For a function F with the attribute "num_input" = k (parameters from k on
// are weights), the pure dataflow bindings that depend only on weights (and
// on symbolic sizes the weights define) move into a new function
// "F_transform_params"(params: R.Tuple(weights)) with "num_input" = 0,
// returning the weight-derived values F still needs; F then takes its
// inputs followed by those values.
Pass LiftTransformParams();

// "dispatch-library": partial lowering to library calls (DESIGN.md step 3,
// before legalize-ops). A float32 R.nn.conv2d (NCHW/OIHW) or R.matmul, with
// the constant batch_norm / bias add, activations (relu, clip, sigmoid, ONNX's
// HardSigmoid and HardSwish compositions) and residual add that follow it,
// becomes one R.call_dps_packed of "rlx.dnnl.conv2d" / "rlx.dnnl.matmul"
// (rlx/runtime/contrib/dnnl.h) keeping the symbolic output struct info.
// Other calls stay for legalize-ops. In the default pipeline when the
// runtime has oneDNN; `rlx build --no-library-dispatch` leaves it out.
Pass DispatchLibrary();

// "convert-layout": like TVM's relax.transform.ConvertLayout. In every
// dataflow block, each call of an operator named in `desired_layouts`
// (relax.nn.conv2d -> {data layout, kernel layout}, e.g. {"NHWC", "OHWI"})
// gets those layouts (its data and kernel permuted with R.permute_dims,
// constant kernels at compile time) and its result stays in the new layout
// through layout-following operators (elementwise and broadcast ops,
// reductions, concat, split, pad, pools, resize2d, batch_norm, softmax);
// other operators and dataflow-block outputs get the original layout back.
// Registry option: `convert-layout{desired-layouts=nn.conv2d:NHWC:OHWI}`
// (the default).
Pass ConvertLayout(std::map<std::string, std::vector<std::string>> desired_layouts);

}  // namespace rlx::transform
