// Memory and VM operators: the graph ops that lowering to the VM introduces
// (after TVM's src/relax/op/op.cc, same names, argument order and purity).
//
//   R.builtin.alloc_tensor(shape, dtype, runtime_device_index, storage_scope)
//       -> Tensor(shape, dtype)                          pure (allocation)
//   R.memory.alloc_storage(size, virtual_device_index, storage_scope, dtype)
//       -> Object                                        pure
//   R.memory.alloc_tensor(storage, offset, shape, dtype) -> Tensor(shape, dtype)
//   R.memory.kill_storage(storage), R.memory.kill_tensor(tensor)
//       -> R.Tuple() (void)                              impure
//   R.vm.alloc_storage(size, runtime_device_index, dtype, storage_scope)
//       -> Object                                        pure
//   R.vm.alloc_tensor(storage, offset, shape, dtype)     -> Tensor(shape, dtype)
//   R.vm.kill_object(obj)                                -> void, impure
//   R.vm.call_tir_dyn(func, (args..., shape))            -> void, impure
//   R.call_builtin_with_ctx(func, (args...), sinfo_args=S) -> S, impure
//
// `dtype` is a DataTypeImm (`R.dtype("float32")`), the device indices
// PrimValues, the scopes StringImms, as in TVM. Allocation counts as pure
// ("not a visible effect", as TVM says); kills and in-place calls do not, so
// dead-code elimination keeps them.
#include <fmt/format.h>

#include "op_common.h"
#include "rlx/graph/op_registry.h"
#include "rlx/support/diagnostic.h"

namespace rlx::op::detail {
namespace {

using graph::StructInfo;

StructInfo VoidSInfo() { return graph::TupleSInfo({}); }

[[noreturn]] void Fail(const Call& call, const std::string& message) {
  ThrowOpError(call, message);
}

void CheckArity(const Call& call, size_t expected) {
  if (call->args.size() == expected) return;
  Fail(call, fmt::format("expected {} arguments, got {}", expected, call->args.size()));
}

// The dtype argument at `index`: a DataTypeImm.
DataType DTypeArg(const Call& call, size_t index) {
  const auto* imm = call->args[index].as<graph::DataTypeImmNode>();
  if (imm == nullptr) Fail(call, fmt::format("argument {} must be a dtype such as R.dtype(\"float32\")", index));
  return imm->value;
}

void CheckKind(const Call& call, size_t index, NodeKind kind, const char* what) {
  if (call->args[index]->kind() != kind) Fail(call, fmt::format("argument {} must be {}", index, what));
}

// A tensor of the shape held by argument `index` (a shape expression or a
// value of Shape struct info).
StructInfo TensorOfShapeArg(const Call& call, size_t index, DataType dtype) {
  const graph::Expr& shape = call->args[index];
  StructInfo sinfo = graph::GetStructInfo(shape);
  const auto* shape_sinfo = sinfo.as<graph::ShapeStructInfoNode>();
  if (shape_sinfo == nullptr) {
    Fail(call, fmt::format("argument {} must be a shape, got {}", index, graph::ToString(sinfo)));
  }
  if (shape.isa<graph::ShapeExprNode>()) return make<graph::TensorStructInfoNode>(shape, dtype);
  if (shape_sinfo->values) return graph::TensorSInfo(*shape_sinfo->values, dtype);
  return graph::TensorSInfo(dtype, shape_sinfo->ndim);
}

StructInfo InferBuiltinAllocTensor(const Call& call, BlockBuilder&) {
  CheckArity(call, 4);
  CheckKind(call, 2, NodeKind::kGraphPrimValue, "a device index R.prim_value(i)");
  CheckKind(call, 3, NodeKind::kGraphStringImm, "a storage scope R.str(s)");
  return TensorOfShapeArg(call, 0, DTypeArg(call, 1));
}

StructInfo InferMemoryAllocStorage(const Call& call, BlockBuilder&) {
  CheckArity(call, 4);
  CheckKind(call, 1, NodeKind::kGraphPrimValue, "a device index R.prim_value(i)");
  CheckKind(call, 2, NodeKind::kGraphStringImm, "a storage scope R.str(s)");
  DTypeArg(call, 3);
  return graph::ObjectSInfo();
}

StructInfo InferVMAllocStorage(const Call& call, BlockBuilder&) {
  CheckArity(call, 4);
  CheckKind(call, 1, NodeKind::kGraphPrimValue, "a device index R.prim_value(i)");
  DTypeArg(call, 2);
  CheckKind(call, 3, NodeKind::kGraphStringImm, "a storage scope R.str(s)");
  return graph::ObjectSInfo();
}

// memory.alloc_tensor and vm.alloc_tensor: (storage, offset, shape, dtype).
StructInfo InferAllocTensorInStorage(const Call& call, BlockBuilder&) {
  CheckArity(call, 4);
  CheckKind(call, 1, NodeKind::kGraphPrimValue, "an offset R.prim_value(i)");
  return TensorOfShapeArg(call, 2, DTypeArg(call, 3));
}

StructInfo InferKill(const Call& call, BlockBuilder&) {
  CheckArity(call, 1);
  return VoidSInfo();
}

StructInfo InferCallTIRDyn(const Call& call, BlockBuilder&) {
  CheckArity(call, 2);
  if (!call->args[1].isa<graph::TupleNode>()) Fail(call, "the arguments must be a tuple");
  return VoidSInfo();
}

StructInfo InferCallBuiltinWithCtx(const Call& call, BlockBuilder&) {
  CheckArity(call, 2);
  if (call->sinfo_args.empty()) return graph::ObjectSInfo();
  if (call->sinfo_args.size() == 1) return call->sinfo_args[0];
  return graph::TupleSInfo(call->sinfo_args);
}

graph::OpInfo MemoryOp(const std::string& name, std::vector<std::string> args, graph::FInferStructInfo infer,
                       bool pure) {
  graph::OpInfo info = MakeOpInfo(name, std::move(args), std::move(infer), graph::OpPatternKind::kOpaque);
  info.pure = pure;
  return info;
}

}  // namespace

void RegisterMemoryOps() {
  graph::RegisterOp(MemoryOp("builtin.alloc_tensor", {"shape", "dtype", "runtime_device_index", "storage_scope"},
                             InferBuiltinAllocTensor, true));
  graph::RegisterOp(MemoryOp("memory.alloc_storage", {"size", "virtual_device_index", "storage_scope", "dtype"},
                             InferMemoryAllocStorage, true));
  graph::RegisterOp(
      MemoryOp("memory.alloc_tensor", {"storage", "offset", "shape", "dtype"}, InferAllocTensorInStorage, true));
  graph::RegisterOp(MemoryOp("memory.kill_storage", {"storage"}, InferKill, false));
  graph::RegisterOp(MemoryOp("memory.kill_tensor", {"tensor"}, InferKill, false));
  graph::RegisterOp(MemoryOp("vm.alloc_storage", {"size", "runtime_device_index", "dtype", "storage_scope"},
                             InferVMAllocStorage, true));
  graph::RegisterOp(
      MemoryOp("vm.alloc_tensor", {"storage", "offset", "shape", "dtype"}, InferAllocTensorInStorage, true));
  graph::RegisterOp(MemoryOp("vm.kill_object", {"obj"}, InferKill, false));
  graph::RegisterOp(MemoryOp("vm.call_tir_dyn", {"func", "args"}, InferCallTIRDyn, false));
  graph::RegisterOp(MemoryOp("call_builtin_with_ctx", {"func", "args"}, InferCallBuiltinWithCtx, false));
}

}  // namespace rlx::op::detail
