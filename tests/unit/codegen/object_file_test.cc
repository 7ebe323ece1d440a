// Tests of ahead-of-time compilation (rlx/codegen/object_file.h): the object
// file is a relocatable ELF object; linked into a shared library with the
// system C compiler it loads through runtime::Module::LoadFromFile (which
// installs the runtime callbacks in it) and computes the same results and
// errors as the JIT; unwritable paths are reported.
#include "rlx/codegen/object_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "jit_test_util.h"
#include "rlx/tir/te.h"

namespace rlx::codegen_test {
namespace {

using runtime::NDArray;
using ::testing::EndsWith;
using ::testing::HasSubstr;

PrimFunc TeScaleAdd() {
  // C[i] = A[i] * 2 + B[i] over (n,), with a parallel loop to exercise the
  // runtime callbacks from a loaded library.
  Var n = MakeVar("n"), i = MakeVar("i");
  Buffer a = ir::MakeBuffer("A", {n}, DataType::Float32());
  Buffer b = ir::MakeBuffer("B", {n}, DataType::Float32());
  Buffer c = ir::MakeBuffer("C", {n}, DataType::Float32());
  Stmt body = Store(c, Load(a, {i}) * MakeFloat(2.0) + Load(b, {i}), {i});
  return Func({a, b, c}, Loop(i, n, body, ForKind::kParallel));
}

class ObjectFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("rlx_object_file_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
};

TEST_F(ObjectFileTest, WritesARelocatableElfObject) {
  std::string path = (dir_ / "kernels.o").string();
  codegen::EmitObjectFile({{"scale_add", TeScaleAdd()}}, path);
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 64u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4),
            "\x7f"
            "ELF");
  EXPECT_EQ(bytes[16], 1) << "e_type should be ET_REL";
}

TEST_F(ObjectFileTest, SharedLibraryLoadsAndRunsThroughTheRuntime) {
  std::string object = (dir_ / "kernels.o").string(), library = (dir_ / "kernels.so").string();
  codegen::EmitObjectFile({{"scale_add", TeScaleAdd()}}, object);
  std::string command = std::string(RLX_C_COMPILER) + " -shared -o " + library + " " + object + " -lm";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  runtime::Module module = runtime::Module::LoadFromFile(library);
  runtime::PackedFunc scale_add = module.GetRequiredFunction("scale_add");
  int64_t n = 1001;
  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(PatternValue(i, 1));
    b[i] = static_cast<float>(PatternValue(i, 2));
  }
  NDArray c = NDArray::Empty({n}, runtime::DataType::Float(32));
  scale_add(NDArray::FromVector({n}, a), NDArray::FromVector({n}, b), c);
  std::vector<float> result = c.ToVector<float>();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(result[i], a[i] * 2.0f + b[i]) << i;
  EXPECT_THAT(
      RuntimeErrorOf(scale_add, NDArray::FromVector({n}, a), NDArray::FromVector({2}, std::vector<float>{1, 2}), c),
      EndsWith("scale_add: buffer B: expected dimension 0 to be n (= 1001), got 2"));
}

TEST_F(ObjectFileTest, LLVMIRForAnExplicitCpu) {
  codegen::CodegenOptions options;
  options.cpu = "x86-64";
  options.triple = "x86_64-pc-linux-gnu";
  std::string ir = codegen::EmitLLVMIR({{"scale_add", TeScaleAdd()}}, options);
  EXPECT_THAT(ir, HasSubstr("\"target-cpu\"=\"x86-64\""));
  EXPECT_THAT(ir, HasSubstr("i32 @scale_add(ptr"));
  EXPECT_THAT(ir, HasSubstr("scale_add_compute_parallel_0"));
}

TEST_F(ObjectFileTest, UnwritablePathIsACompileError) {
  std::string path = (dir_ / "missing_dir" / "kernels.o").string();
  EXPECT_THAT(CompileErrorOf([&] {
                codegen::EmitObjectFile({{"scale_add", TeScaleAdd()}}, path);
              }),
              HasSubstr("cannot write object file " + path));
}

}  // namespace
}  // namespace rlx::codegen_test
