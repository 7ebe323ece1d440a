// Legalization helpers: lowering an operator call to `R.call_tir` of a
// PrimFunc built from tensor expressions (TVM's BlockBuilder.call_te).
//
//   // inside an FLegalize for "relax.add":
//   return op::CallTE(builder, call, "add", [](const op::TEArgs& args) {
//     return op::topi::Add(args[0].tensor(), args[1].tensor());
//   });
//
// CallTE
//   1. reads each argument of `call` (normalized, struct info deduced): a
//      Tensor becomes a te::Placeholder named after the argument variable,
//      with the argument's (symbolic) shape and dtype; a tuple of Tensors (a
//      Tuple expression or a Tuple-typed value) a list of placeholders, one
//      per field, each passed to call_tir on its own (a field of a
//      Tuple-typed value as `t[i]`); a PrimValue (or Prim-typed value of known value) its PrimExpr, a Prim of
//      unknown value (`s: R.Prim("float32")`) a scalar PrimFunc parameter in its place among the inputs, passed in
//      call_tir's argument tuple (TVM's call_te); a ShapeExpr (or Shape-typed value of known dims) its PrimExprs;
//   2. renames the graph-level symbolic variables to fresh TIR variables of
//      the same name, so the PrimFunc shares no variable with the graph
//      function;
//   3. calls `fcompute` with those arguments; it returns the output
//      tensor(s), which must have the dtype of the call's deduced struct info;
//   4. builds the PrimFunc with te::CreatePrimFunc (inputs: the tensor
//      arguments, in order, then the outputs). Symbolic variables that no
//      buffer shape defines by a bare appearance (an output size taken from
//      a Shape argument, an input dimension `n * 2`, a symbolic PrimValue)
//      become trailing scalar parameters, passed as
//      `tir_vars=R.shape([...])`;
//   5. adds it to the builder's context module under `name_hint`, or, when a
//      structurally equal PrimFunc is already there (from an earlier call),
//      reuses that one; a different PrimFunc with the same name hint is
//      named `name_hint1`, `name_hint2`, ... (TVM's naming);
//   6. returns the un-normalized `R.call_tir(gv, (tensor args...),
//      out_sinfo=<the call's struct info>, tir_vars=...)`.
//
// When the call cannot be lowered statically (an argument or the result has
// an unknown shape or dtype, a Prim of unknown dtype) CallTE
// returns `call` unchanged, which LegalizeOps reads as "leave it".
#pragma once

#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "rlx/graph/block_builder.h"
#include "rlx/graph/expr.h"
#include "rlx/tir/te.h"

namespace rlx::op {

// One argument of a call as the TE function sees it.
class TEArg {
 public:
  explicit TEArg(te::Tensor tensor) : value_(std::move(tensor)) {}
  explicit TEArg(ir::PrimExpr prim) : value_(std::move(prim)) {}
  explicit TEArg(std::vector<ir::PrimExpr> shape) : value_(std::move(shape)) {}
  explicit TEArg(std::vector<te::Tensor> tensors) : value_(std::move(tensors)) {}

  bool is_tensor() const { return std::holds_alternative<te::Tensor>(value_); }
  bool is_prim() const { return std::holds_alternative<ir::PrimExpr>(value_); }
  bool is_shape() const { return std::holds_alternative<std::vector<ir::PrimExpr>>(value_); }
  bool is_tensors() const { return std::holds_alternative<std::vector<te::Tensor>>(value_); }
  // Internal errors when the argument is of another kind.
  const te::Tensor& tensor() const;
  const ir::PrimExpr& prim() const;
  const std::vector<ir::PrimExpr>& shape() const;
  const std::vector<te::Tensor>& tensors() const;  // a tuple of tensors

 private:
  std::variant<te::Tensor, ir::PrimExpr, std::vector<ir::PrimExpr>, std::vector<te::Tensor>> value_;
};
using TEArgs = std::vector<TEArg>;

using FTECompute = std::function<te::Tensor(const TEArgs& args)>;
using FTEComputeMulti = std::function<std::vector<te::Tensor>(const TEArgs& args)>;

// See the header comment. The call's arguments (all of them, in order) are
// given to `fcompute`.
graph::Expr CallTE(graph::BlockBuilder& builder, const graph::Call& call, const std::string& name_hint,
                   const FTECompute& fcompute);
// The same with explicit arguments instead of the call's (e.g. zeros_like
// passes `R.shape(x's dims)` rather than x, so the PrimFunc does not take x);
// each must have struct info. The output still comes from `call`'s.
graph::Expr CallTE(graph::BlockBuilder& builder, const graph::Call& call, const std::vector<graph::Expr>& args,
                   const std::string& name_hint, const FTECompute& fcompute);
// The same for an operator with a tuple of outputs (struct info a Tuple of
// Tensors, one per returned tensor).
graph::Expr CallTEMulti(graph::BlockBuilder& builder, const graph::Call& call, const std::string& name_hint,
                        const FTEComputeMulti& fcompute);
graph::Expr CallTEMulti(graph::BlockBuilder& builder, const graph::Call& call, const std::vector<graph::Expr>& args,
                        const std::string& name_hint, const FTEComputeMulti& fcompute);

// Adds `func` to the builder's context module as `name_hint` (or
// `name_hint<k>`), sharing a structurally equal PrimFunc already added under
// such a name; returns its GlobalVar.
graph::GlobalVar AddPrimFuncShared(graph::BlockBuilder& builder, const tir::PrimFunc& func,
                                   const std::string& name_hint);

}  // namespace rlx::op
