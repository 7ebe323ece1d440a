// The definition behind a te::Tensor, shared by te.cc (building tensors) and
// te_create_prim_func.cc (lowering them to a PrimFunc). Private to the tir
// layer.
#pragma once

#include <string>
#include <vector>

#include "rlx/tir/te.h"

namespace rlx::te {

enum class ReduceKind { kNone, kSum, kMax, kMin, kProd };

struct TensorDef {
  std::string name;
  Buffer buffer;  // holds the shape and dtype
  bool is_placeholder = true;

  // Computes only. `axes` are the index variables handed to fcompute, one per
  // dimension, with domain [0, shape[d]).
  std::vector<IterVar> axes;
  // The element value, or for a reduction the value being reduced.
  PrimExpr body;
  ReduceKind reduce_kind = ReduceKind::kNone;
  std::vector<IterVar> reduce_axes;
  PrimExpr reduce_where;  // bool; constant true when unrestricted
  std::vector<Tensor> inputs;
  // Extern tensors only (te::Extern): the statement writing `buffer`; the
  // compute fields above stay empty.
  tir::Stmt extern_body;
};

// The identity element of `kind` for `dtype` (0, 1, lowest, highest).
PrimExpr ReduceIdentity(ReduceKind kind, DataType dtype);
// The combination of the accumulator with one more value (`acc + value`, ...).
PrimExpr ReduceCombine(ReduceKind kind, PrimExpr acc, PrimExpr value);

}  // namespace rlx::te
