// Analyses of PrimFuncs.
//
// AnalyzeOpPatternKind reads a PrimFunc's blocks (not whatever produced it)
// and classifies the computation for operator fusion, as TVM's
// relax.analysis.get_op_pattern_kind / AnnotateTIROpPattern do. Per
// non-root block, with S its single BufferStore and L its BufferLoads:
//
//   every L indexes exactly like S          C[i, j] = A[i, j]       elemwise
//   every L's indices appear in S's, in     C[i, j] = A[j]          broadcast
//     order (unit dims indexed 0 skipped)
//   every L's index variables are among     C[i, j] = A[j, i]       injective
//     S's (S's indices plain variables;      C[i] = A[i % n]
//     variables that are not iteration
//     variables, like a shape n, are free)
//   otherwise, with reduce iteration vars:
//     S = S + L1 * L2, both reusable        C[i, j] += A[i, k] * B[k, j]
//                                                        out-elemwise-fusable
//     some L indexes a reduce var inside    pooling      out-elemwise-fusable
//       an expression
//     else                                  B[i] += A[i, k]   comm-reduce
//   otherwise (no store, several stores to different indices, no reduce
//   var): opaque.
//
// Block kinds combine by maximum, except that an elementwise-like block
// writing a parameter after a reduction makes the whole out-elemwise-fusable
// (softmax: reduce then injective). A mix of elementwise and broadcast loads
// in one block counts as elementwise (C[i, j] = A[i, j] + B[j]), as in TVM.
#pragma once

#include "rlx/tir/function.h"

namespace rlx::tir {

// Operator pattern kinds, TVM's numbering, ordered as fusion uses them.
enum class OpPatternKind {
  kElemWise = 0,
  kBroadcast = 1,
  kInjective = 2,
  kCommReduce = 3,
  kOutEWiseFusable = 4,
  kTuple = 7,
  kOpaque = 8,
};

// "elemwise", "broadcast", "injective", "comm_reduce", "out_ewise_fusable",
// "tuple", "opaque".
const char* OpPatternKindName(OpPatternKind kind);

OpPatternKind AnalyzeOpPatternKind(const PrimFunc& func);

// TVM's tir::IsPureFunction: true when calling `func` has no effect the
// caller can observe: it stores only into buffers it allocates itself and
// calls no builtin that updates state (packed calls, tvm_struct_set,
// call_extern, ...). A graph-level call of a pure PrimFunc is pure.
bool IsPureFunction(const PrimFunc& func);

}  // namespace rlx::tir
