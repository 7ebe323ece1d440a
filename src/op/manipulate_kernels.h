// The TE kernels of the data-movement operators, per call (private to
// src/op): given a normalized call and its operands as op::CallTE hands
// them over (KernelArgs: one te::Tensor per tensor the call reads, in
// argument order with a tuple argument's fields flattened; the deduced
// result shapes; the symbolic scalars the kernel needs, e.g.
// strided_slice's begins), the result tensors. Every symbolic variable in
// KernelArgs is already the PrimFunc's own (CallTE renamed it), which is why
// result shapes and scalars travel as arguments rather than being read from
// the call. Legalization (manipulate_legalize.cc) turns the kernels into a
// shared PrimFunc and an R.call_tir.
//
// Legalization builds a kernel only when every shape involved is known;
// otherwise the call stays as it is (as in TVM) until a match_cast makes the
// shapes known.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rlx/graph/block_builder.h"
#include "rlx/graph/expr.h"
#include "rlx/tir/te.h"

namespace rlx::op::detail {

struct KernelArgs {
  std::vector<te::Tensor> inputs;
  std::vector<std::vector<ir::PrimExpr>> out_shapes;
  std::vector<ir::PrimExpr> scalars;
};

using KernelFn = std::function<std::vector<te::Tensor>(const graph::Call& call, const KernelArgs& args)>;

// The kernel of the operator `name` ("relax.concat"), or nullptr.
const KernelFn* FindManipulateKernel(const std::string& name);

// The operators that have a kernel, by registry name.
std::vector<std::string> ManipulateKernelOps();

// The tensors a call reads, in kernel-input order: each Tensor argument,
// and each field of a tuple-of-tensors argument (concat): the fields of a
// Tuple expression, or `t[i]` bound to fresh variables in `builder` when the
// tuple is a variable. Arguments that are not tensors (shapes, tuples of
// PrimValues) are skipped.
std::vector<graph::Expr> KernelTensorArgs(graph::BlockBuilder& builder, const graph::Call& call);

// The scalars the kernel of `call` reads (strided_slice's begins), as
// graph-level PrimExprs.
std::vector<ir::PrimExpr> KernelScalars(const graph::Call& call);

}  // namespace rlx::op::detail
