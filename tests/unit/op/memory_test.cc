// The memory and VM operators: struct info, purity and argument checks
// (TVM's relax.memory.*, relax.vm.*, relax.builtin.alloc_tensor,
// relax.call_builtin_with_ctx).
#include <gtest/gtest.h>

#include "op_test_util.h"

namespace rlx::op::testing {
namespace {

using graph::Expr;

Expr Shape(std::vector<PrimExpr> dims) { return Expr(new graph::ShapeExprNode(std::move(dims))); }
Expr DType(DataType dtype) { return Expr(new graph::DataTypeImmNode(dtype)); }
Expr Index(int64_t value) { return Expr(new graph::PrimValueNode(ir::MakeInt(value))); }
Expr Scope() { return Expr(new graph::StringImmNode("global")); }
Call OpCall(const std::string& name, std::vector<Expr> args, std::vector<StructInfo> sinfo_args = {}) {
  return graph::MakeCall(name, std::move(args), nullptr, std::move(sinfo_args));
}

class MemoryOpTest : public OpTest {};

TEST_F(MemoryOpTest, BuiltinAllocTensorHasTheShapeAndDtypeGiven) {
  ExpectTensor(Infer(OpCall("relax.builtin.alloc_tensor", {Shape({n, Int(4)}), DType(kF16), Index(0), Scope()})),
               {n, Int(4)}, kF16);
}

TEST_F(MemoryOpTest, StorageIsAnObject) {
  StructInfo memory =
      Infer(OpCall("relax.memory.alloc_storage", {Shape({n * 4}), Index(0), Scope(), DType(DataType::UInt(8))}));
  EXPECT_TRUE(memory.isa<graph::ObjectStructInfoNode>());
  StructInfo vm =
      Infer(OpCall("relax.vm.alloc_storage", {Shape({Int(16)}), Index(0), DType(DataType::UInt(8)), Scope()}));
  EXPECT_TRUE(vm.isa<graph::ObjectStructInfoNode>());
}

TEST_F(MemoryOpTest, TensorInStorageFromAShapeVariable) {
  graph::Var storage = graph::MakeVar("s", graph::ObjectSInfo());
  graph::Var shape = graph::MakeVar("shape", graph::ShapeSInfo({m, k}));
  ExpectTensor(Infer(OpCall("relax.memory.alloc_tensor", {storage, Index(0), shape, DType(kF32)})), {m, k}, kF32);
  graph::Var rank_only = graph::MakeVar("shape", graph::ShapeSInfo(3));
  ExpectTensorRank(Infer(OpCall("relax.vm.alloc_tensor", {storage, Index(0), rank_only, DType(kI32)})), 3, kI32);
}

TEST_F(MemoryOpTest, KillsAndCallTIRDynReturnVoidAndAreImpure) {
  graph::Var x = TensorVar("x", {Int(4)});
  for (const char* name : {"relax.memory.kill_storage", "relax.memory.kill_tensor", "relax.vm.kill_object"}) {
    StructInfo sinfo = Infer(OpCall(name, {x}));
    const auto* tuple = sinfo.as<graph::TupleStructInfoNode>();
    ASSERT_NE(tuple, nullptr) << name;
    EXPECT_TRUE(tuple->fields.empty()) << name;
    EXPECT_FALSE(graph::FindOp(name)->pure) << name;
  }
  Expr args(new graph::TupleNode({x, Shape({n})}));
  Expr callee(new graph::GlobalVarNode("copy"));
  EXPECT_TRUE(Infer(OpCall("relax.vm.call_tir_dyn", {callee, args})).isa<graph::TupleStructInfoNode>());
  EXPECT_FALSE(graph::FindOp("relax.vm.call_tir_dyn")->pure);
  EXPECT_TRUE(graph::FindOp("relax.memory.alloc_storage")->pure);
  EXPECT_TRUE(graph::FindOp("relax.builtin.alloc_tensor")->pure);
}

TEST_F(MemoryOpTest, CallBuiltinWithCtxReturnsItsDeclaredStructInfo) {
  Expr builtin(new graph::ExternFuncNode("vm.builtin.alloc_shape_heap"));
  Expr args(new graph::TupleNode({Index(3)}));
  StructInfo heap = graph::TensorSInfo(DataType::Int64(), 1);
  ExpectTensorRank(Infer(OpCall("relax.call_builtin_with_ctx", {builtin, args}, {heap})), 1, DataType::Int64());
  EXPECT_TRUE(Infer(OpCall("relax.call_builtin_with_ctx", {builtin, args})).isa<graph::ObjectStructInfoNode>());
}

TEST_F(MemoryOpTest, ArgumentsOfTheWrongKindAreErrors) {
  // A string where the dtype goes.
  EXPECT_NE(InferError(OpCall("relax.builtin.alloc_tensor", {Shape({Int(2)}), Scope(), Index(0), Scope()}))
                .find("builtin.alloc_tensor: argument 1 must be a dtype"),
            std::string::npos);
  // A tensor where the shape goes.
  graph::Var x = TensorVar("x", {Int(4)});
  EXPECT_NE(InferError(OpCall("relax.memory.alloc_tensor", {x, Index(0), x, DType(kF32)}))
                .find("argument 2 must be a shape, got Tensor((4,), float32)"),
            std::string::npos);
  // Arity.
  EXPECT_NE(InferError(OpCall("relax.vm.kill_object", {})).find("expected 1 arguments, got 0"), std::string::npos);
  // vm.alloc_storage takes (size, device, dtype, scope): a scope in the dtype position.
  EXPECT_NE(InferError(OpCall("relax.vm.alloc_storage", {Shape({Int(8)}), Index(0), Scope(), Scope()}))
                .find("argument 2 must be a dtype"),
            std::string::npos);
}

}  // namespace
}  // namespace rlx::op::testing
