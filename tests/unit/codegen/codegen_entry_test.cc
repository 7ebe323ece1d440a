// Tests of the generated kernels' packed entry (the C ABI of
// rlx/runtime/c_abi.h): every kind of bad argument returns an error with a
// message naming the function, the argument or buffer, what was expected and
// what was found — never a crash — and a correct call afterwards still
// works. Also: strided and offset tensors, declared stride and offset
// variables, and calls through the raw C signature.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "jit_test_util.h"
#include "rlx/codegen/jit.h"
#include "rlx/tir/te.h"

namespace rlx::codegen_test {
namespace {

using runtime::NDArray;
using ::testing::EndsWith;
using ::testing::HasSubstr;

runtime::DataType F32() { return runtime::DataType::Float(32); }

// C = A + B over (n, 4), as a TE compute, compiled as "add".
class AddKernel : public ::testing::Test {
 protected:
  AddKernel() {
    Var n = MakeVar("n");
    te::Tensor a = te::Placeholder({n, MakeInt(4)}, DataType::Float32(), "A");
    te::Tensor b = te::Placeholder({n, MakeInt(4)}, DataType::Float32(), "B");
    te::Tensor c = te::Compute(
        {n, MakeInt(4)}, [&](const std::vector<Var>& i) { return a(i[0], i[1]) + b(i[0], i[1]); }, "C");
    jit_ = codegen::JitModule::Compile({{"add", te::CreatePrimFunc({a, b, c})}});
    add_ = runtime::Module(std::make_shared<Node>(jit_.get())).GetRequiredFunction("add");
  }

  static NDArray Filled(runtime::ShapeTuple shape, float value) {
    int64_t count = 1;
    for (int64_t d : shape) count *= d;
    return NDArray::FromVector(shape, std::vector<float>(count, value));
  }

  // A non-owning runtime::ModuleNode over the fixture's JIT.
  struct Node : runtime::ModuleNode {
    explicit Node(const codegen::JitModule* jit) : jit(jit) {}
    void* GetSymbol(const std::string& name) const override { return jit->GetFunction(name); }
    const std::string& name() const override { return label; }
    const codegen::JitModule* jit;
    std::string label = "jit";
  };

  std::unique_ptr<codegen::JitModule> jit_;
  runtime::PackedFunc add_;
};

TEST_F(AddKernel, CorrectCallSucceeds) {
  NDArray c = NDArray::Empty({3, 4}, F32());
  EXPECT_EQ(RuntimeErrorOf(add_, Filled({3, 4}, 1), Filled({3, 4}, 2), c), "<no error>");
  for (float v : c.ToVector<float>()) EXPECT_EQ(v, 3.0f);
}

TEST_F(AddKernel, ConstantDimensionMismatch) {
  EXPECT_THAT(RuntimeErrorOf(add_, Filled({3, 5}, 1), Filled({3, 4}, 2), NDArray::Empty({3, 4}, F32())),
              EndsWith("add: buffer A: expected dimension 1 to be 4, got 5"));
}

TEST_F(AddKernel, SymbolicDimensionMismatchNamesTheVariableAndItsValue) {
  EXPECT_THAT(RuntimeErrorOf(add_, Filled({3, 4}, 1), Filled({4, 4}, 2), NDArray::Empty({3, 4}, F32())),
              EndsWith("add: buffer B: expected dimension 0 to be n (= 3), got 4"));
  EXPECT_THAT(RuntimeErrorOf(add_, Filled({3, 4}, 1), Filled({3, 4}, 2), NDArray::Empty({2, 4}, F32())),
              EndsWith("add: buffer C: expected dimension 0 to be n (= 3), got 2"));
}

TEST_F(AddKernel, RankDtypeCountAndTypeCodeMismatches) {
  NDArray c = NDArray::Empty({3, 4}, F32());
  EXPECT_THAT(RuntimeErrorOf(add_, Filled({12}, 1), Filled({3, 4}, 2), c),
              EndsWith("add: buffer A: expected 2 dimensions, got 1"));
  EXPECT_THAT(RuntimeErrorOf(add_, Filled({3, 4}, 1), NDArray::Empty({3, 4}, runtime::DataType::Float(64)), c),
              EndsWith("add: buffer B: expected dtype float32, got DLDataType(code=2, bits=64, lanes=1)"));
  EXPECT_THAT(RuntimeErrorOf(add_, Filled({3, 4}, 1), Filled({3, 4}, 2)), EndsWith("add: expected 3 arguments, got 2"));
  EXPECT_THAT(RuntimeErrorOf(add_, Filled({3, 4}, 1), int64_t{7}, c),
              EndsWith("add: argument 1 (B) expects a tensor, got an int"));
  EXPECT_THAT(RuntimeErrorOf(add_, Filled({3, 4}, 1), runtime::Value(), c),
              EndsWith("add: argument 1 (B) expects a tensor, got null"));
}

TEST_F(AddKernel, NonCompactTensorIsRejected) {
  NDArray base = Filled({3, 8}, 1);
  NDArray every_other_column = base.CreateStridedView({3, 4}, {8, 2});
  EXPECT_THAT(
      RuntimeErrorOf(add_, every_other_column, Filled({3, 4}, 2), NDArray::Empty({3, 4}, F32())),
      EndsWith("add: buffer A: expected a compact row-major tensor, but dimension 1 has stride 2 (compact: 1)"));
}

TEST_F(AddKernel, ErrorsDoNotLeakIntoTheNextCall) {
  NDArray c = NDArray::Empty({2, 4}, F32());
  EXPECT_NE(RuntimeErrorOf(add_, Filled({2, 5}, 1), Filled({2, 4}, 2), c), "<no error>");
  EXPECT_EQ(RuntimeErrorOf(add_, Filled({2, 4}, 1), Filled({2, 4}, 2), c), "<no error>");
  for (float v : c.ToVector<float>()) EXPECT_EQ(v, 3.0f);
}

TEST_F(AddKernel, RawPackedCallWithByteOffsetAndNullPointer) {
  RLXPackedCFunc add = jit_->GetPackedCFunc("add");
  ASSERT_NE(add, nullptr);
  // A is the last 2 x 4 floats of a 3 x 4 array: data + byte_offset.
  std::vector<float> storage(12), b(8, 10.0f), c(8, 0.0f);
  for (int i = 0; i < 12; ++i) storage[i] = static_cast<float>(i);
  int64_t shape[2] = {2, 4};
  auto tensor = [&](float* data, uint64_t byte_offset) {
    return DLTensor{data, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, shape, nullptr, byte_offset};
  };
  DLTensor ta = tensor(storage.data(), 4 * sizeof(float)), tb = tensor(b.data(), 0), tc = tensor(c.data(), 0);
  RLXValue args[3];
  args[0].v_handle = &ta;
  args[1].v_handle = &tb;
  args[2].v_handle = &tc;
  int codes[3] = {RLX_ARG_TENSOR, RLX_ARG_TENSOR, RLX_ARG_TENSOR};
  RLXValue ret;
  int ret_code = RLX_ARG_NULL;
  ASSERT_EQ(add(args, codes, 3, &ret, &ret_code), 0) << rlx_get_last_error();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(c[i], static_cast<float>(i + 4) + 10.0f) << i;
  EXPECT_EQ(ret_code, RLX_ARG_NULL);

  args[1].v_handle = nullptr;
  EXPECT_NE(add(args, codes, 3, &ret, &ret_code), 0);
  EXPECT_STREQ(rlx_get_last_error(), "add: argument 1 (B) is a null DLTensor pointer");
  args[1].v_handle = &tb;
  tb.device.device_type = kDLCUDA;
  EXPECT_NE(add(args, codes, 3, &ret, &ret_code), 0);
  EXPECT_STREQ(rlx_get_last_error(), "add: buffer B: expected a CPU tensor, got device type 2");
}

TEST(CodegenEntryTest, DimensionExpressionsAreEvaluated) {
  // Y (2 * n) = concat(X, X) with X (n,): Y's dimension is checked as an expression.
  Var n = MakeVar("n"), i = MakeVar("i");
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {n * 2}, DataType::Float32());
  Stmt body = Loop(i, n * 2, Store(y, Load(x, {ir::floormod(i, n)}), {i}));
  runtime::PackedFunc kernel = Compile(Func({x, y}, body), "twice").GetRequiredFunction("twice");
  NDArray out = NDArray::Empty({6}, F32());
  EXPECT_EQ(RuntimeErrorOf(kernel, NDArray::FromVector({3}, std::vector<float>{1, 2, 3}), out), "<no error>");
  EXPECT_EQ(out.ToVector<float>(), (std::vector<float>{1, 2, 3, 1, 2, 3}));
  EXPECT_THAT(RuntimeErrorOf(kernel, NDArray::FromVector({3}, std::vector<float>{1, 2, 3}), NDArray::Empty({7}, F32())),
              EndsWith("twice: buffer Y: expected dimension 0 to be n * 2 (= 6), got 7"));
}

TEST(CodegenEntryTest, ScalarParameterTypeCodes) {
  Var n = MakeVar("n"), i = MakeVar("i"), alpha = MakeVar("alpha", DataType::Float32());
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float32());
  PrimFunc func = Func({x}, Loop(i, n, Store(x, Load(x, {i}) * alpha, {i})), {alpha});
  runtime::PackedFunc scale = Compile(func, "scale").GetRequiredFunction("scale");
  NDArray data = NDArray::FromVector({2}, std::vector<float>{1, 2});
  EXPECT_EQ(RuntimeErrorOf(scale, data, 2.0), "<no error>");
  EXPECT_EQ(RuntimeErrorOf(scale, data, int64_t{3}), "<no error>");  // an int is accepted for a float
  EXPECT_EQ(data.ToVector<float>(), (std::vector<float>{6, 12}));
  EXPECT_THAT(RuntimeErrorOf(scale, data, data), EndsWith("scale: argument 1 (alpha) expects a float, got a tensor"));
}

TEST(CodegenEntryTest, SizeNoArgumentDefinesIsACompileError) {
  Var n = MakeVar("n"), m = MakeVar("m");
  Buffer x = ir::MakeBuffer("X", {n * m}, DataType::Float32());
  PrimFunc func = Func({x}, Store(x, MakeFloat(0.0), {MakeInt(0)}));
  EXPECT_THAT(CompileErrorOf([&] {
                codegen::JitModule::Compile({{"f", func}});
              }),
              HasSubstr("buffer X: dimension 0 is n * m, but n is not defined by any argument"));
}

// B[i, j] = A[i, j] over (3, 4), A with the given strides and elem_offset.
PrimFunc StridedCopy(std::vector<PrimExpr> strides, PrimExpr elem_offset) {
  Var i = MakeVar("i"), j = MakeVar("j");
  auto* node = new ir::BufferNode();
  node->data = MakeVar("A", DataType::Handle());
  node->dtype = DataType::Float32();
  node->shape = {MakeInt(3), MakeInt(4)};
  node->strides = std::move(strides);
  node->elem_offset = std::move(elem_offset);
  node->name = "A";
  Buffer a(node);
  Buffer b = ir::MakeBuffer("B", {MakeInt(3), MakeInt(4)}, DataType::Float32());
  return Func({a, b}, Loop(i, MakeInt(3), Loop(j, MakeInt(4), Store(b, Load(a, {i, j}), {i, j}))));
}

TEST(CodegenEntryTest, DeclaredStridesAndElemOffsetAreBound) {
  runtime::PackedFunc copy =
      Compile(StridedCopy({MakeVar("s0"), MakeInt(1)}, MakeVar("off")), "copy").GetRequiredFunction("copy");
  std::vector<float> values(3 * 8);
  for (size_t k = 0; k < values.size(); ++k) values[k] = static_cast<float>(k);
  NDArray base = NDArray::FromVector({3, 8}, values);
  NDArray out = NDArray::Empty({3, 4}, F32());
  // Columns 2..5 of each row: strides (8, 1), starting 2 elements in.
  ASSERT_EQ(RuntimeErrorOf(copy, base.CreateStridedView({3, 4}, {8, 1}, 2 * sizeof(float)), out), "<no error>");
  std::vector<float> result = out.ToVector<float>();
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 4; ++c) EXPECT_EQ(result[r * 4 + c], values[r * 8 + c + 2]) << r << ", " << c;
  }
  // A compact tensor (NULL strides) binds s0 to the compact stride.
  std::vector<float> compact(values.begin(), values.begin() + 12);
  ASSERT_EQ(RuntimeErrorOf(copy, NDArray::FromVector({3, 4}, compact), out), "<no error>");
  EXPECT_EQ(out.ToVector<float>(), compact);
  // A stride declared constant is checked: (4, 1) expected, (8, 2) given.
  runtime::PackedFunc fixed =
      Compile(StridedCopy({MakeInt(4), MakeInt(1)}, PrimExpr()), "fixed").GetRequiredFunction("fixed");
  EXPECT_THAT(RuntimeErrorOf(fixed, base.CreateStridedView({3, 4}, {8, 2}), out),
              EndsWith("fixed: buffer A: expected stride 0 to be 4, got 8"));
}

TEST(CodegenEntryTest, AssertStatementFailsWithItsMessage) {
  Var n = MakeVar("n");
  Buffer x = ir::MakeBuffer("X", {n}, DataType::Float32());
  Stmt body = make<tir::AssertStmtNode>(ir::ge(n, MakeInt(2)), ir::MakeString("need at least 2 elements"),
                                        Store(x, MakeFloat(1.0), {MakeInt(1)}));
  runtime::PackedFunc kernel = Compile(Func({x}, body)).GetRequiredFunction("kernel");
  EXPECT_THAT(RuntimeErrorOf(kernel, NDArray::Empty({1}, F32())), EndsWith("need at least 2 elements"));
  EXPECT_EQ(RuntimeErrorOf(kernel, NDArray::Empty({2}, F32())), "<no error>");
}

}  // namespace
}  // namespace rlx::codegen_test
