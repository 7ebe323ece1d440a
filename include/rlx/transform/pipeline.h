// The default compilation pipeline of `rlx build`: graph clean-ups, then
// lowering to what VM code generation consumes. A plain function, testable
// like any pass.
#pragma once

#include <string>
#include <vector>

#include "rlx/transform/pass.h"

namespace rlx::transform {

// The flag names of the default pipeline, in order:
//   normalize, canonicalize-bindings, dead-code-elimination,
//   (with oneDNN: convert-layout (conv2d -> NHWC / OHWI),
//   dead-code-elimination, dispatch-library),
//   legalize-ops (only when registered: it lives on another branch until it
//   lands), then at opt level 1 the graph clean-ups and fusion:
//   fold-constant, eliminate-common-subexpr, annotate-tir-op-pattern,
//   fuse-ops, fuse-tir, dead-code-elimination (constants folded right after
//   legalization and the dead PrimFuncs dropped after fusion, as in TVM);
//   then the lowering: rewrite-dataflow-reshape, to-non-dataflow,
//   remove-purity-checking, call-tir-rewrite, static-plan-block-memory,
//   lower-alloc-tensor, kill-after-last-use, vm-builtin-lower,
//   vm-shape-lower, attach-global-symbol.
std::vector<std::string> DefaultPipelinePassNames();

// The default pipeline as one Sequential pass named "default-pipeline".
// Passes are gated by the context's opt_level as usual; the lowering passes
// have opt level 0 and always run.
Pass DefaultPipeline();

}  // namespace rlx::transform
