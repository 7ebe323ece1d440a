// Test helpers for the operator library: a fixture that registers the ops
// and deduces a call's struct info through its registry rule, and
// assertions on tensor struct info that compare symbolic dims with the
// analyzer (so `4 * n` and `n * 4` are the same dim).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "rlx/arith/analyzer.h"
#include "rlx/graph/block_builder.h"
#include "rlx/graph/expr.h"
#include "rlx/graph/op_registry.h"
#include "rlx/op/op.h"
#include "rlx/support/diagnostic.h"

namespace rlx::op::testing {

using graph::Call;
using graph::StructInfo;
using ir::PrimExpr;
using Shape = std::vector<PrimExpr>;

inline const DataType kF32 = DataType::Float32();
inline const DataType kF16 = DataType::Float(16);
inline const DataType kI32 = DataType::Int32();
inline const DataType kBool = DataType::Bool();

inline PrimExpr Int(int64_t value) { return ir::MakeInt(value); }

// A graph variable with Tensor(shape, dtype) struct info.
inline graph::Var TensorVar(const std::string& name, Shape shape, DataType dtype = DataType::Float32()) {
  return graph::MakeVar(name, graph::TensorSInfo(std::move(shape), dtype));
}
// A graph variable with Tensor(dtype, ndim=ndim) struct info (no shape).
inline graph::Var TensorVar(const std::string& name, int ndim, DataType dtype = DataType::Float32()) {
  return graph::MakeVar(name, graph::TensorSInfo(dtype, ndim));
}

// `call` with a span on line `line` of a small source file.
inline Call WithSpan(const Call& call, int line) {
  auto source = std::make_shared<SourceFile>("model.py", "a\nb\nc\nd\n");
  auto* node = new graph::CallNode(call->op, call->args, call->attrs, call->sinfo_args);
  node->span = Span{source, line, 3, line, 9};
  return Call(node);
}

class OpTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { RegisterAllOps(); }

  // The struct info the registry rule deduces for `call`.
  StructInfo Infer(const Call& call) {
    const auto* op = call->op.as<graph::OpNode>();
    const graph::OpInfo* info = graph::FindOp(op->name);
    EXPECT_NE(info, nullptr) << op->name << " is not registered";
    if (info == nullptr) return nullptr;
    return info->infer(call, builder_);
  }

  // The message of the CompileError that deducing `call` throws ("" if none).
  std::string InferError(const Call& call) {
    try {
      Infer(call);
    } catch (const CompileError& error) {
      return error.diagnostic().message;
    }
    return "";
  }

  // Expects Tensor(shape, dtype) with dims provably equal to `shape`.
  void ExpectTensor(const StructInfo& sinfo, const Shape& shape, DataType dtype) {
    const auto* tensor = sinfo.as<graph::TensorStructInfoNode>();
    ASSERT_NE(tensor, nullptr) << graph::ToString(sinfo);
    EXPECT_EQ(tensor->dtype, dtype) << graph::ToString(sinfo);
    std::optional<Shape> actual = tensor->GetShape();
    ASSERT_TRUE(actual.has_value()) << "no shape: " << graph::ToString(sinfo);
    ASSERT_EQ(actual->size(), shape.size()) << graph::ToString(sinfo);
    EXPECT_EQ(tensor->ndim, static_cast<int>(shape.size()));
    for (size_t i = 0; i < shape.size(); ++i) {
      EXPECT_TRUE(checker_.CanProveEqual((*actual)[i], shape[i]))
          << "dim " << i << ": got " << ir::ToString((*actual)[i]) << ", expected " << ir::ToString(shape[i]);
    }
  }

  // Expects Tensor(dtype, ndim=ndim) without a shape.
  void ExpectTensorRank(const StructInfo& sinfo, int ndim, DataType dtype) {
    const auto* tensor = sinfo.as<graph::TensorStructInfoNode>();
    ASSERT_NE(tensor, nullptr) << graph::ToString(sinfo);
    EXPECT_FALSE(tensor->shape.defined()) << graph::ToString(sinfo);
    EXPECT_EQ(tensor->ndim, ndim) << graph::ToString(sinfo);
    EXPECT_EQ(tensor->dtype, dtype) << graph::ToString(sinfo);
  }

  graph::BlockBuilder builder_;
  arith::Analyzer checker_;
  ir::Var n = ir::MakeVar("n");
  ir::Var m = ir::MakeVar("m");
  ir::Var k = ir::MakeVar("k");
  ir::Var b = ir::MakeVar("b");
};

}  // namespace rlx::op::testing
