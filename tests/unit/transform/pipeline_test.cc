// The default pipeline: its pass order, and what it makes of a module with
// symbolic shapes, call_tir, match_cast and If (only constructs VM code
// generation accepts are left).
#include "rlx/transform/pipeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "rlx/graph/expr_functor.h"
#include "rlx/graph/structural_equal.h"
#include "rlx/graph/well_formed.h"
#include "rlx/op/op.h"
#include "rlx/text/parser.h"
#include "rlx/text/printer.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

class PipelineTest : public testing::Test {
 protected:
  static void SetUpTestSuite() { op::RegisterAllOps(); }
};

size_t IndexOf(const std::vector<std::string>& names, const std::string& name) {
  auto it = std::find(names.begin(), names.end(), name);
  EXPECT_NE(it, names.end()) << name << " is not in the pipeline";
  return static_cast<size_t>(it - names.begin());
}

TEST_F(PipelineTest, PassOrderFollowsTVM) {
  std::vector<std::string> names = DefaultPipelinePassNames();
  EXPECT_EQ(names.front(), "normalize");
  EXPECT_EQ(names.back(), "attach-global-symbol");
  EXPECT_LT(IndexOf(names, "dead-code-elimination"), IndexOf(names, "to-non-dataflow"));
  EXPECT_LT(IndexOf(names, "legalize-ops"), IndexOf(names, "fold-constant"));
  EXPECT_LT(IndexOf(names, "fold-constant"), IndexOf(names, "eliminate-common-subexpr"));
  EXPECT_LT(IndexOf(names, "eliminate-common-subexpr"), IndexOf(names, "annotate-tir-op-pattern"));
  EXPECT_LT(IndexOf(names, "annotate-tir-op-pattern"), IndexOf(names, "fuse-ops"));
  EXPECT_LT(IndexOf(names, "fuse-ops"), IndexOf(names, "fuse-tir"));
  EXPECT_LT(IndexOf(names, "fuse-tir"), IndexOf(names, "to-non-dataflow"));
  EXPECT_LT(IndexOf(names, "to-non-dataflow"), IndexOf(names, "remove-purity-checking"));
  EXPECT_LT(IndexOf(names, "remove-purity-checking"), IndexOf(names, "call-tir-rewrite"));
  EXPECT_LT(IndexOf(names, "call-tir-rewrite"), IndexOf(names, "lower-alloc-tensor"));
  EXPECT_LT(IndexOf(names, "lower-alloc-tensor"), IndexOf(names, "kill-after-last-use"));
  EXPECT_LT(IndexOf(names, "kill-after-last-use"), IndexOf(names, "vm-builtin-lower"));
  EXPECT_LT(IndexOf(names, "vm-builtin-lower"), IndexOf(names, "vm-shape-lower"));
  EXPECT_LT(IndexOf(names, "vm-shape-lower"), IndexOf(names, "attach-global-symbol"));
  EXPECT_LT(IndexOf(names, "legalize-ops"), IndexOf(names, "rewrite-dataflow-reshape"));
  EXPECT_EQ(IndexOf(names, "rewrite-dataflow-reshape") + 1, IndexOf(names, "to-non-dataflow"));
  EXPECT_EQ(IndexOf(names, "call-tir-rewrite") + 1, IndexOf(names, "static-plan-block-memory"));
  EXPECT_EQ(IndexOf(names, "static-plan-block-memory") + 1, IndexOf(names, "lower-alloc-tensor"));
  // Every name resolves to a registered pass.
  for (const std::string& name : names) EXPECT_EQ(LookupPass(name).info().name, name);
}

constexpr const char* kModel = R"(
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n,), "float32")
        y = T.match_buffer(var_y, (n,), "float32")
        for i in range(n):
            with T.block("add"):
                vi = T.axis.spatial(n, i)
                y[vi] = x[vi] + T.float32(1)

    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(dtype="float32", ndim=1):
        n = T.int64()
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((n,), dtype="float32"))
            gv = R.call_tir(cls.add_one, (lv,), out_sinfo=R.Tensor((n,), dtype="float32"))
            R.output(gv)
        if c:
            m = T.int64()
            y = R.match_cast(gv, R.Tensor((m,), dtype="float32"))
            z = R.call_tir(cls.add_one, (y,), out_sinfo=R.Tensor((m,), dtype="float32"))
            r = z
        else:
            r = gv
        return r
)";

// The operators VM code generation maps to bytecode.
bool IsLoweredOp(const std::string& name) {
  return name.rfind("relax.vm.", 0) == 0 || name == "relax.call_builtin_with_ctx" || name == "relax.null_value";
}

TEST_F(PipelineTest, LowersToWhatVMCodegenAccepts) {
  ir::IRModule mod = text::ParseModule(std::make_shared<SourceFile>("model.py", kModel));
  ir::IRModule lowered = DefaultPipeline()(mod);
  graph::CheckWellFormed(lowered);
  std::string printed = text::PrintModule(lowered);
  const auto* main = lowered->Lookup("main").as<graph::FunctionNode>();
  ASSERT_NE(main, nullptr);
  std::vector<std::string> leftover;
  graph::PostOrderVisit(graph::Expr(main), [&](const graph::Expr& expr) {
    const auto* call = expr.as<graph::CallNode>();
    if (call == nullptr) return;
    if (const auto* op = call->op.as<graph::OpNode>()) {
      if (!IsLoweredOp(op->name)) leftover.push_back(op->name);
    } else {
      EXPECT_TRUE(call->op.isa<graph::GlobalVarNode>() || call->op.isa<graph::ExternFuncNode>()) << printed;
    }
  });
  EXPECT_TRUE(leftover.empty()) << "not lowered: " << leftover.front() << "\n" << printed;
  // No dataflow block is left, and the functions carry their symbols.
  for (const graph::BindingBlock& block : main->body.as<graph::SeqExprNode>()->blocks) {
    EXPECT_FALSE(block->is_dataflow()) << printed;
  }
  EXPECT_TRUE(main->attrs.defined() && main->attrs->Contains("global_symbol")) << printed;
  // The symbolic values went through the shape heap and the checks.
  for (const char* builtin : {"vm.builtin.alloc_shape_heap", "vm.builtin.check_tensor_info", "vm.builtin.match_shape",
                              "vm.builtin.make_shape", "R.vm.alloc_storage", "R.vm.alloc_tensor", "R.vm.kill_object",
                              "ErrorContext(fn=main, loc=param[1], param=x"}) {
    EXPECT_NE(printed.find(builtin), std::string::npos) << builtin << " missing in\n" << printed;
  }
  // The printed result parses back to the same module.
  ir::IRModule reparsed = text::ParseModule(std::make_shared<SourceFile>("lowered.py", printed));
  EXPECT_FALSE(graph::StructuralMismatch(lowered, reparsed).has_value()) << printed;
}

TEST_F(PipelineTest, RunsUnderTheContextOptLevel) {
  ir::IRModule mod = text::ParseModule(std::make_shared<SourceFile>("model.py", kModel));
  PassContext ctx;
  ctx.opt_level = 0;  // graph clean-ups off, lowering still on
  ir::IRModule lowered = DefaultPipeline()(mod, ctx);
  EXPECT_NE(text::PrintModule(lowered).find("vm.builtin.match_shape"), std::string::npos);
}

}  // namespace
}  // namespace rlx::transform
