// Tensor-expression building blocks of the legalizations (after TVM's topi),
// private to src/op. Each returns a te::Tensor computed from its inputs;
// output tensors are named as TVM's topi names them ("T_add", "compute").
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "rlx/tir/te.h"

namespace rlx::op::topi {

using ir::PrimExpr;
using te::Tensor;

using FUnaryElem = std::function<PrimExpr(const PrimExpr&)>;
using FBinaryElem = std::function<PrimExpr(const PrimExpr&, const PrimExpr&)>;

// out[i...] = f(x[i...]), same shape.
Tensor Elementwise(const Tensor& x, const FUnaryElem& f, const std::string& name = "compute");

// numpy broadcasting of two tensors: out[i...] = f(a[ia...], b[ib...]),
// where an operand's dimension of constant size 1 is indexed at 0. The
// shapes must broadcast provably (the struct-info rule has checked it).
Tensor Broadcast(const Tensor& a, const Tensor& b, const FBinaryElem& f, const std::string& name);

// The broadcast shape of `shapes` (each aligned at the right); an internal
// error when it cannot be proven.
std::vector<PrimExpr> BroadcastShape(const std::vector<std::vector<PrimExpr>>& shapes);

// The indices into a tensor of `shape` for the element at `out_index` of a
// broadcast result (aligned at the right; dimensions of constant size 1 at 0).
std::vector<PrimExpr> BroadcastIndex(const std::vector<PrimExpr>& shape, const std::vector<ir::Var>& out_index);

}  // namespace rlx::op::topi
