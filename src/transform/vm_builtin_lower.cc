// VMBuiltinLower: lowers the memory operators and the graph builtins that
// have no direct VM instruction into VM operators and runtime builtins
// (after TVM's relax.backend.VMBuiltinLower, now LowerRuntimeBuiltin).
//
//   R.memory.alloc_storage(size, dev, scope, dtype)
//       -> R.vm.alloc_storage(size, dev, R.dtype("uint8"), scope)
//   R.memory.alloc_tensor(storage, offset, shape, dtype)
//       -> R.vm.alloc_tensor(storage, offset, shape, dtype)
//   R.memory.kill_storage(x), R.memory.kill_tensor(x) -> R.vm.kill_object(x)
//   R.vm.call_tir_dyn(f, (a, b, shape))
//       -> R.call_packed("vm.builtin.call_tir_dyn", f, a, b, shape, sinfo_args=R.Tuple)
//   R.reshape(x, shape)  -> R.call_packed("vm.builtin.reshape", x, shape, sinfo_args=<its struct info>)
//   R.shape_of(x)        -> R.call_packed("vm.builtin.shape_of", x, sinfo_args=<its struct info>)
//   R.make_closure(f, (c...))
//       -> R.call_packed("vm.builtin.make_closure", f, c..., sinfo_args=R.Object)
//   R.invoke_closure(clo, (a...), sinfo_args=S)
//       -> R.call_builtin_with_ctx("vm.builtin.invoke_closure", (clo, a...), sinfo_args=S)
//
// (TVM types the closure invocation as Object; keeping the declared result
// keeps later deduction exact and changes nothing for codegen.)
// An R.builtin.alloc_tensor still present is an error: lower-alloc-tensor
// must run first. The rewrite is post-order, one call at a time.
#include <fmt/format.h>

#include "rlx/graph/expr_functor.h"
#include "rlx/support/diagnostic.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::Expr;
using graph::StructInfo;

constexpr const char* kPassName = "vm-builtin-lower";

Expr Extern(const char* symbol) { return Expr(new graph::ExternFuncNode(symbol)); }

Expr PackedCall(const char* symbol, std::vector<Expr> args, StructInfo result) {
  return Expr(new graph::CallNode(Extern(symbol), std::move(args), nullptr, {std::move(result)}));
}

// The callee followed by the fields of the tuple argument.
std::vector<Expr> CalleeAndFields(const graph::CallNode* call) {
  std::vector<Expr> args = {call->args.at(0)};
  const auto* tuple = call->args.at(1).as<graph::TupleNode>();
  RLX_ICHECK(tuple != nullptr) << "expected a tuple of arguments";
  args.insert(args.end(), tuple->fields.begin(), tuple->fields.end());
  return args;
}

StructInfo ResultOf(const graph::CallNode* call) {
  RLX_ICHECK(call->struct_info.defined()) << "a call without struct info";
  return call->struct_info;
}

class VMBuiltinLowerer : public graph::ExprMutator {
 public:
  explicit VMBuiltinLowerer(const ir::IRModule& mod) : ExprMutator(mod) {}

 protected:
  using ExprMutator::VisitExpr_;

  Expr VisitExpr_(const graph::CallNode* op, const Expr& self) override {
    Expr visited = ExprMutator::VisitExpr_(op, self);
    visited = builder_->Normalize(visited);
    const auto* call = visited.as<graph::CallNode>();
    const auto* callee = call ? call->op.as<graph::OpNode>() : nullptr;
    if (callee == nullptr) return visited;
    const std::string& name = callee->name;
    const std::vector<Expr>& args = call->args;
    if (name == "relax.memory.alloc_storage") {
      return graph::MakeCall("relax.vm.alloc_storage",
                             {args[0], args[1], Expr(new graph::DataTypeImmNode(DataType::UInt(8))), args[2]});
    }
    if (name == "relax.memory.alloc_tensor") return graph::MakeCall("relax.vm.alloc_tensor", args);
    if (name == "relax.memory.kill_storage" || name == "relax.memory.kill_tensor") {
      return graph::MakeCall("relax.vm.kill_object", args);
    }
    if (name == "relax.vm.call_tir_dyn") {
      return PackedCall("vm.builtin.call_tir_dyn", CalleeAndFields(call), graph::TupleSInfo({}));
    }
    if (name == "relax.reshape") return PackedCall("vm.builtin.reshape", args, ResultOf(call));
    if (name == "relax.shape_of") return PackedCall("vm.builtin.shape_of", args, ResultOf(call));
    if (name == "relax.make_closure") {
      return PackedCall("vm.builtin.make_closure", CalleeAndFields(call), graph::ObjectSInfo());
    }
    if (name == "relax.invoke_closure") {
      std::vector<Expr> fields = CalleeAndFields(call);
      return graph::MakeCall("relax.call_builtin_with_ctx",
                             {Extern("vm.builtin.invoke_closure"), Expr(new graph::TupleNode(std::move(fields)))},
                             nullptr, {ResultOf(call)});
    }
    if (name == "relax.builtin.alloc_tensor") {
      throw CompileError(call->span, fmt::format("{}: R.builtin.alloc_tensor must be lowered by lower-alloc-tensor "
                                                 "before {}",
                                                 kPassName, kPassName));
    }
    return visited;
  }
};

}  // namespace

Pass VMBuiltinLower() {
  return CreateFunctionPass(
      [](graph::Function func, ir::IRModule mod, const PassContext&) {
        VMBuiltinLowerer lowerer(mod);
        return cast<graph::FunctionNode>(lowerer.VisitExpr(func));
      },
      PassInfo{kPassName, "Lowers memory operators and graph builtins to VM operators and runtime builtins", 0, {}});
}

}  // namespace rlx::transform
