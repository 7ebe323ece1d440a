// TIR-to-TIR lowering passes that prepare a PrimFunc for machine-code
// generation (after TVM's LowerInitBlock, ConvertBlocksToOpaque +
// LowerOpaqueBlock, FlattenBuffer and Simplify).
//
// Each pass is one free function, implemented in its own file under
// src/tir/transform/ with its algorithm described at the top. They take and
// return PrimFuncs (immutable: the input is never modified; a pass that
// changes nothing returns the very same function).
//
// The codegen pipeline, LowerForCodegen, runs them in this order:
//
//   LowerInitBlock        block `init` -> `if (reduce vars at their min) init`
//   ConvertBlocksToLoops  blocks -> plain loop bodies: iteration variables
//                         substituted, predicates as IfThenElse, block
//                         allocations as Allocate + DeclBuffer, match_buffers
//                         as offset accesses to their source
//   FlattenBuffer         N-d accesses -> 1-d accesses (row-major or explicit
//                         strides, plus elem_offset)
//   Simplify              every expression through arith::Analyzer, with the
//                         loop bounds and shape facts known
//
// After LowerForCodegen a function has no Block/BlockRealize, every
// BufferLoad/BufferStore has exactly one index, and every buffer in the body
// is one-dimensional and shares its data variable with the buffer it came
// from (the buffer_map keeps the original N-d buffers, which describe the
// arguments' shapes for the generated entry code).
#pragma once

#include "rlx/tir/function.h"

namespace rlx::tir {

// Moves each block's `init` into its body as
// `if (all reduce iteration vars == their domain min) init` before the body.
// A block without reduce iteration variables runs its init unconditionally.
PrimFunc LowerInitBlock(const PrimFunc& func);

// Removes every Block and BlockRealize (see the file comment). Expects
// LowerInitBlock to have run: a block that still has an init is a
// CompileError.
PrimFunc ConvertBlocksToLoops(const PrimFunc& func);

// Rewrites every multi-dimensional buffer access into a one-dimensional one.
// Expects no blocks (ConvertBlocksToLoops).
PrimFunc FlattenBuffer(const PrimFunc& func);

// Simplifies every expression with arith::Analyzer. Shape variables of the
// buffer_map are known to be non-negative; loop variables are bound to
// their loop range (when the range has constant bounds) and let-bound
// variables to their values.
PrimFunc Simplify(const PrimFunc& func);

// The default CPU schedule of elementwise loop nests (run before
// LowerForCodegen, on functions that still have blocks): a nest of serial
// loops around a block that only writes its own point from other buffers
// gets a parallel outer loop and an innermost loop split into a vectorized
// main part and a serial tail (valid for every value of a symbolic extent).
// Other nests are left as they are. Idempotent.
PrimFunc ScheduleInjectiveCPU(const PrimFunc& func);

// The default CPU schedule of the other nests (run right after
// ScheduleInjectiveCPU): in each perfect nest of serial loops around one
// block (reductions with init included), the outermost loop bound to a
// spatial iteration variable that provably owns the block's writes (every
// store has exactly that variable at one index position, and reads of the
// stored buffers too), skipping loops of constant extent < 2, becomes
// parallel. Loops below a reduce loop are never chosen; nests with a small
// constant iteration count and anything unproven are left alone. Idempotent.
PrimFunc ScheduleReductionCPU(const PrimFunc& func);

// LowerInitBlock, ConvertBlocksToLoops, FlattenBuffer, Simplify.
PrimFunc LowerForCodegen(const PrimFunc& func);

}  // namespace rlx::tir
