// CallTIRRewrite: makes the outputs of destination-passing calls explicit
// (after TVM's relax.transform.CallTIRRewrite).
//
//   y = R.call_tir(cls.f, (a, b), out_sinfo=R.Tensor((n, 4), "float32"))
// becomes
//   alloc = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
//   _ = cls.f(a, b, alloc)
//   y = alloc
// and with tir_vars=R.shape([m]) the call becomes
//   _ = R.vm.call_tir_dyn(cls.f, (a, b, alloc, R.shape([m])))
// (the shape's values are passed to the PrimFunc as scalars at run time).
//
// For each output tensor of `out_sinfo` (one, or the fields of a tuple) an
// R.builtin.alloc_tensor of its shape and dtype is emitted (the shape must
// be known: a ShapeExpr, or a variable of known Shape); the callee is then
// called directly with the inputs and the outputs appended (through
// R.vm.call_tir_dyn when there are tir_vars), and the call's value becomes
// the output (a tuple of them for several; an argument tuple held in a
// variable is unpacked with TupleGetItem). R.call_tir_inplace reuses the inputs its inplace_indices
// name instead of allocating; R.call_dps_packed calls its extern function
// the same way. A direct call of a PrimFunc or a packed function writes its
// arguments, so it is impure: the pass expects to run after to-non-dataflow
// and remove-purity-checking, as in TVM's pipeline.
#include <fmt/format.h>

#include "rlx/graph/expr_functor.h"
#include "rlx/support/diagnostic.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::Expr;
using graph::StructInfo;

constexpr const char* kPassName = "call-tir-rewrite";

// The shape of an output tensor, as an expression for alloc_tensor.
Expr OutputShape(const graph::TensorStructInfoNode* tensor, const graph::CallNode* call) {
  if (tensor->shape.defined()) return tensor->shape;
  throw CompileError(call->span, fmt::format("{}: the output {} of the call has no known shape to allocate", kPassName,
                                             graph::ToString(StructInfo(tensor))));
}

std::vector<StructInfo> OutputSInfos(const StructInfo& out) {
  if (const auto* tuple = out.as<graph::TupleStructInfoNode>()) return tuple->fields;
  return {out};
}

std::vector<int64_t> InplaceIndices(const graph::CallNode* call, size_t num_outputs) {
  std::vector<int64_t> indices(num_outputs, -1);
  ObjectRef value = call->attrs.defined() ? call->attrs->Get("inplace_indices") : ObjectRef();
  if (const auto* array = value.as<ir::ArrayNode>()) {
    for (size_t i = 0; i < array->elements.size() && i < num_outputs; ++i) {
      indices[i] = cast<ir::IntImmNode>(array->elements[i])->value;
    }
  } else if (const auto* single = value.as<ir::IntImmNode>()) {
    indices[0] = single->value;
  }
  return indices;
}

class DestinationPassingRewriter : public graph::ExprMutator {
 public:
  explicit DestinationPassingRewriter(const ir::IRModule& mod) : ExprMutator(mod) {}

 protected:
  using ExprMutator::VisitExpr_;

  Expr VisitExpr_(const graph::CallNode* op, const Expr& self) override {
    Expr visited = ExprMutator::VisitExpr_(op, self);
    const auto* call = visited.as<graph::CallNode>();
    const auto* callee = call ? call->op.as<graph::OpNode>() : nullptr;
    if (callee == nullptr) return visited;
    const std::string& name = callee->name;
    if (name != "relax.call_tir" && name != "relax.call_tir_inplace" && name != "relax.call_dps_packed") {
      return visited;
    }
    return Rewrite(call, name == "relax.call_tir_inplace");
  }

 private:
  std::vector<Expr> Inputs(const Expr& args) {
    if (const auto* tuple = args.as<graph::TupleNode>()) return tuple->fields;
    std::vector<Expr> inputs;
    const auto* sinfo = args->struct_info.as<graph::TupleStructInfoNode>();
    RLX_ICHECK(sinfo != nullptr) << "destination-passing arguments are not a tuple";
    for (size_t i = 0; i < sinfo->fields.size(); ++i) {
      inputs.push_back(builder_->Emit(Expr(new graph::TupleGetItemNode(args, static_cast<int>(i)))));
    }
    return inputs;
  }

  Expr Allocate(const StructInfo& sinfo, const graph::CallNode* call) {
    const auto* tensor = sinfo.as<graph::TensorStructInfoNode>();
    RLX_ICHECK(tensor != nullptr) << "out_sinfo field is not a tensor";
    std::vector<Expr> args = {OutputShape(tensor, call), Expr(new graph::DataTypeImmNode(tensor->dtype)),
                              Expr(new graph::PrimValueNode(ir::MakeInt(0))), Expr(new graph::StringImmNode("global"))};
    return builder_->Emit(graph::MakeCall("relax.builtin.alloc_tensor", std::move(args)), "alloc");
  }

  Expr Rewrite(const graph::CallNode* call, bool inplace) {
    std::vector<Expr> args = Inputs(call->args[1]);
    std::vector<StructInfo> out_sinfos = OutputSInfos(call->sinfo_args.at(0));
    std::vector<int64_t> indices = InplaceIndices(call, out_sinfos.size());
    std::vector<Expr> outputs;
    for (size_t i = 0; i < out_sinfos.size(); ++i) {
      bool reused = inplace && indices[i] >= 0;
      outputs.push_back(reused ? args.at(static_cast<size_t>(indices[i])) : Allocate(out_sinfos[i], call));
      if (!reused) args.push_back(outputs.back());
    }
    Expr callee = call->args[0];
    graph::CallNode* lowered = nullptr;
    if (call->args.size() == 3) {
      // With tir_vars the shape is unpacked into scalar arguments at run time.
      args.push_back(call->args[2]);
      lowered = new graph::CallNode(graph::GetOp("relax.vm.call_tir_dyn"),
                                    {callee, Expr(new graph::TupleNode(std::move(args)))});
    } else {
      lowered = new graph::CallNode(callee, std::move(args));
    }
    lowered->span = call->span;
    builder_->Emit(Expr(lowered), "_");
    if (!call->sinfo_args[0].isa<graph::TupleStructInfoNode>()) return outputs[0];
    return Expr(new graph::TupleNode(std::move(outputs)));
  }
};

}  // namespace

Pass CallTIRRewrite() {
  return CreateFunctionPass(
      [](graph::Function func, ir::IRModule mod, const PassContext&) {
        DestinationPassingRewriter rewriter(mod);
        return cast<graph::FunctionNode>(rewriter.VisitExpr(func));
      },
      PassInfo{kPassName,
               "Allocates the outputs of call_tir / call_tir_inplace / call_dps_packed and calls the callee with "
               "them",
               0, {}});
}

}  // namespace rlx::transform
