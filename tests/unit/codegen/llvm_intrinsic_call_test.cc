// T.call_llvm_pure_intrin / T.call_llvm_intrin (TVM's direct LLVM intrinsic
// calls) through the LLVM JIT: an overloaded integer intrinsic (ctpop on
// uint8, named with its mangled suffix as TVM's tests do) and a float one
// (fma on float32), against C++ references; and the CompileErrors for an
// unknown intrinsic, a numeric id and a signature LLVM does not have.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <vector>

#include "jit_test_util.h"
#include "rlx/op/op.h"
#include "rlx/support/diagnostic.h"
#include "rlx/text/parser.h"

namespace rlx::codegen_test {
namespace {

using ::testing::HasSubstr;

const char* const kModule = R"(
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def ctpop(A: T.Buffer((16,), "uint8"), B: T.Buffer((16,), "uint8")):
        for i in range(16):
            B[i] = T.call_llvm_pure_intrin(T.llvm_lookup_intrinsic_id("llvm.ctpop.i8"), A[i], dtype="uint8")

    @T.prim_func
    def fma(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
        for i in range(8):
            C[i] = T.call_llvm_pure_intrin("float32", T.llvm_lookup_intrinsic_id("llvm.fma"), A[i], B[i], C[i])

    @T.prim_func
    def unknown(A: T.Buffer((4,), "float32")):
        for i in range(4):
            A[i] = T.call_llvm_pure_intrin("float32", T.llvm_lookup_intrinsic_id("llvm.no.such.thing"), A[i])

    @T.prim_func
    def numeric_id(A: T.Buffer((4,), "float32")):
        for i in range(4):
            A[i] = T.call_llvm_pure_intrin("float32", T.uint32(12), A[i])

    @T.prim_func
    def wrong_signature(A: T.Buffer((4,), "float32")):
        for i in range(4):
            A[i] = T.call_llvm_pure_intrin("float32", T.llvm_lookup_intrinsic_id("llvm.fma"), A[i])
)";

tir::PrimFunc ParseFunc(const std::string& name) {
  op::RegisterAllOps();
  ir::IRModule mod = text::ParseModuleText(kModule);
  return cast<tir::PrimFuncNode>(mod->Lookup(name));
}

std::string CompileErrorOf(const tir::PrimFunc& func) {
  try {
    Compile(func);
  } catch (const CompileError& error) {
    return error.what();
  }
  return "<no error>";
}

TEST(LLVMIntrinsicCallTest, CtpopOnUint8) {
  std::vector<double> values;
  for (int k = 0; k < 16; ++k) values.push_back((k * 37 + 11) % 256);
  tir::HostTensor a = tir::HostTensor::FromDoubles(DataType::UInt(8), {16}, values);
  runtime::NDArray b = ToNDArray(tir::HostTensor(DataType::UInt(8), {16}));
  Compile(ParseFunc("ctpop")).GetRequiredFunction("kernel")(ToNDArray(a), b);
  tir::HostTensor result = ToHostTensor(b, DataType::UInt(8));
  for (int64_t k = 0; k < 16; ++k) {
    EXPECT_EQ(result.GetInt(k), std::popcount(static_cast<uint8_t>(values[k]))) << "element " << k;
  }
}

TEST(LLVMIntrinsicCallTest, FmaOnFloat32) {
  tir::HostTensor a = Pattern(DataType::Float32(), {8}, 1);
  tir::HostTensor b = Pattern(DataType::Float32(), {8}, 2);
  tir::HostTensor c = Pattern(DataType::Float32(), {8}, 3);
  runtime::NDArray c_jit = ToNDArray(c);
  Compile(ParseFunc("fma")).GetRequiredFunction("kernel")(ToNDArray(a), ToNDArray(b), c_jit);
  tir::HostTensor result = ToHostTensor(c_jit, DataType::Float32());
  for (int64_t k = 0; k < 8; ++k) {
    float expected = std::fma(static_cast<float>(a.GetFloat(k)), static_cast<float>(b.GetFloat(k)),
                              static_cast<float>(c.GetFloat(k)));
    EXPECT_EQ(static_cast<float>(result.GetFloat(k)), expected) << "element " << k;
  }
}

TEST(LLVMIntrinsicCallTest, BadIntrinsicsAreCompileErrors) {
  EXPECT_THAT(CompileErrorOf(ParseFunc("unknown")), HasSubstr("LLVM has no intrinsic named llvm.no.such.thing"));
  EXPECT_THAT(CompileErrorOf(ParseFunc("numeric_id")),
              HasSubstr("must name its LLVM intrinsic with T.llvm_lookup_intrinsic_id"));
  EXPECT_THAT(CompileErrorOf(ParseFunc("wrong_signature")),
              HasSubstr("llvm.fma does not take (float32) returning float32"));
}

}  // namespace
}  // namespace rlx::codegen_test
