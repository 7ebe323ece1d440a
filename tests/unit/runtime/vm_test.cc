// The VM on hand-built executables: bytecode encoding, the builder, calls,
// If/Goto, recursion, closures, tuples, the shape heap, storage, builtins and
// their error messages, the binary format (round trip, text, corruption).
#include "rlx/runtime/vm/vm.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rlx/runtime/vm/exec_builder.h"

namespace rlx::runtime::vm {
namespace {

using ::testing::HasSubstr;
using Arg = Instruction::Arg;

template <typename F>
std::string ErrorOf(F&& action) {
  try {
    action();
  } catch (const RuntimeError& error) {
    return error.what();
  }
  return "";
}

Arg Code(MatchShapeCode code) { return Arg::Immediate(static_cast<int64_t>(code)); }

// The protocol values are TVM's (include/tvm/runtime/vm/builtin.h).
TEST(BytecodeTest, ShapeCodesMatchTVM) {
  EXPECT_EQ(static_cast<int>(MatchShapeCode::kAssertEqualToImm), 0);
  EXPECT_EQ(static_cast<int>(MatchShapeCode::kStoreToHeap), 1);
  EXPECT_EQ(static_cast<int>(MatchShapeCode::kNoOp), 2);
  EXPECT_EQ(static_cast<int>(MatchShapeCode::kAssertEqualToLoad), 3);
  EXPECT_EQ(static_cast<int>(MakeShapeCode::kUseImm), 0);
  EXPECT_EQ(static_cast<int>(MakeShapeCode::kLoadShape), 1);
}

void RegisterTestFunctions() {
  Registry::Register("test.vm.sub", [](const Args& a) { return Value(a.GetInt(0) - a.GetInt(1)); }, true);
  Registry::Register("test.vm.mul", [](const Args& a) { return Value(a.GetInt(0) * a.GetInt(1)); }, true);
  Registry::Register("test.vm.le", [](const Args& a) { return Value(a.GetInt(0) <= a.GetInt(1)); }, true);
  Registry::Register("test.vm.fail", [](const Args&) -> Value { throw RuntimeError("kernel exploded"); }, true);
}

class VMTest : public ::testing::Test {
 protected:
  void SetUp() override { RegisterTestFunctions(); }
};

TEST(BytecodeTest, ArgEncodingRoundTrips) {
  for (int64_t value : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{12345}, Arg::kValueMax, Arg::kValueMin}) {
    for (Arg arg : {Arg::Register(value), Arg::Immediate(value), Arg::ConstIdx(value), Arg::FuncIdx(value)}) {
      EXPECT_EQ(Arg::Decode(arg.Encode()), arg) << value;
    }
  }
  EXPECT_EQ(Arg::Decode(Arg::Register(Instruction::kVMRegister).Encode()).value(), Instruction::kVMRegister);
  EXPECT_THAT(ErrorOf([] { Arg::Immediate(Arg::kValueMax + 1).Encode(); }), HasSubstr("does not fit"));
  EXPECT_THAT(ErrorOf([] { Arg::Decode(int64_t{0x7f} << 56); }), HasSubstr("unknown kind"));
}

// select(c, a, b): c ? a : b, through If and Goto.
std::shared_ptr<Executable> BuildSelect() {
  ExecBuilder b;
  b.EmitFunction("select", 3, {"c", "a", "b"});
  b.EmitCall("vm.builtin.read_if_cond", {Arg::Register(0)}, 4);
  b.EmitIf(4, 3);
  b.EmitCall("vm.builtin.copy", {Arg::Register(1)}, 3);
  b.EmitGoto(2);
  b.EmitCall("vm.builtin.copy", {Arg::Register(2)}, 3);
  b.EmitRet(3);
  b.EndFunction("select");
  return b.Get();
}

TEST_F(VMTest, IfAndGotoSelectTheBranch) {
  VirtualMachine vm(BuildSelect());
  EXPECT_EQ(vm.Invoke("select", {Value(true), Value(10), Value(20)}).AsInt(), 10);
  EXPECT_EQ(vm.Invoke("select", {Value(0), Value(10), Value(20)}).AsInt(), 20);
  NDArray cond = NDArray::FromVector<int32_t>({}, {1});
  EXPECT_EQ(vm.Invoke("select", {Value(cond), Value(10), Value(20)}).AsInt(), 10);
  EXPECT_EQ(vm.GetFunctionNames(), std::vector<std::string>{"select"});
  EXPECT_EQ(vm.GetParamNames("select"), (std::vector<std::string>{"c", "a", "b"}));
}

TEST_F(VMTest, AsTextPrintsTheBytecode) {
  auto exec = BuildSelect();
  EXPECT_EQ(exec->AsText(),
            "@select(c, a, b) regs=5:\n"
            "  call  vm.builtin.read_if_cond in: %0 dst: %4\n"
            "  if    %4, 3\n"
            "  call  vm.builtin.copy in: %1 dst: %3\n"
            "  goto  2\n"
            "  call  vm.builtin.copy in: %2 dst: %3\n"
            "  ret   %3\n"
            "\n"
            "functions:\n"
            "  f[1] packed vm.builtin.read_if_cond\n"
            "  f[2] packed vm.builtin.copy\n");
}

// fact(n) = n <= 1 ? 1 : n * fact(n - 1): recursion through the function table.
TEST_F(VMTest, RecursiveVMFunction) {
  ExecBuilder b;
  b.DeclareFunction("fact", VMFuncInfo::FuncKind::kVMFunc);
  b.EmitFunction("fact", 1, {"n"});
  b.EmitCall("test.vm.le", {Arg::Register(0), Arg::Immediate(1)}, 1);
  b.EmitIf(1, 3);
  b.EmitCall("vm.builtin.copy", {Arg::Immediate(1)}, 2);
  b.EmitRet(2);
  b.EmitCall("test.vm.sub", {Arg::Register(0), Arg::Immediate(1)}, 3);
  b.EmitCall("fact", {Arg::Register(3)}, 4);
  b.EmitCall("test.vm.mul", {Arg::Register(0), Arg::Register(4)}, 2);
  b.EmitRet(2);
  b.EndFunction("fact");
  VirtualMachine vm(b.Get());
  EXPECT_EQ(vm.Invoke("fact", {Value(1)}).AsInt(), 1);
  EXPECT_EQ(vm.Invoke("fact", {Value(10)}).AsInt(), 3628800);
  EXPECT_EQ(vm.GetFunction("fact")(5).AsInt(), 120);
}

TEST_F(VMTest, TuplesAndConstants) {
  ExecBuilder b;
  b.EmitFunction("main", 1, {"x"});
  Arg text = b.ConvertConstant(Value("hello"));
  Arg shape = b.ConvertConstant(Value(ShapeTuple{2, 3}));
  EXPECT_EQ(b.ConvertConstant(Value("hello")), text);  // deduplicated
  b.EmitCall("vm.builtin.make_tuple", {Arg::Register(0), text, shape, Arg::Immediate(-7)}, 1);
  b.EmitCall("vm.builtin.tuple_getitem", {Arg::Register(1), Arg::Immediate(2)}, 2);
  b.EmitCall("vm.builtin.make_tuple", {Arg::Register(1), Arg::Register(2)}, 3);
  b.EmitRet(3);
  b.EndFunction("main");
  VirtualMachine vm(b.Get());
  Value result = vm.Invoke("main", {Value(4)});
  ASSERT_EQ(result.AsArray().size(), 2u);
  const auto& inner = result.AsArray()[0].AsArray();
  EXPECT_EQ(inner[0].AsInt(), 4);
  EXPECT_EQ(inner[1].AsString(), "hello");
  EXPECT_EQ(inner[3].AsInt(), -7);
  EXPECT_EQ(result.AsArray()[1].AsShape(), (ShapeTuple{2, 3}));
}

TEST_F(VMTest, ClosuresBindTrailingArguments) {
  ExecBuilder b;
  b.DeclareFunction("sub", VMFuncInfo::FuncKind::kVMFunc);
  b.EmitFunction("main", 1, {"x"});
  b.EmitCall("vm.builtin.make_closure", {Arg::FuncIdx(b.GetFunction("sub")), Arg::Register(0)}, 1);
  b.EmitCall("vm.builtin.invoke_closure", {Arg::Register(Instruction::kVMRegister), Arg::Register(1), Arg::Immediate(100)}, 2);
  b.EmitRet(2);
  b.EndFunction("main");
  b.EmitFunction("sub", 2, {"a", "b"});
  b.EmitCall("test.vm.sub", {Arg::Register(0), Arg::Register(1)}, 2);
  b.EmitRet(2);
  b.EndFunction("sub");
  VirtualMachine vm(b.Get());
  // closure(100) = sub(100, x)
  EXPECT_EQ(vm.Invoke("main", {Value(30)}).AsInt(), 70);
}

// main(x: (n, 4)) -> shape (n * ..): match x's shape into the heap, check the
// constant dimension, build (n, n).
std::shared_ptr<Executable> BuildShapeMatcher() {
  ExecBuilder b;
  b.EmitFunction("main", 1, {"x"});
  Arg ctx = b.ConvertConstant(Value("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((n, 4), dtype=\"float32\"))"));
  Arg f32 = b.ConvertConstant(Value(DataType::Float(32)));
  b.EmitCall("vm.builtin.alloc_shape_heap", {Arg::Register(Instruction::kVMRegister), Arg::Immediate(1)}, 1);
  b.EmitCall("vm.builtin.check_tensor_info", {Arg::Register(0), Arg::Immediate(2), f32, ctx}, Instruction::kVoidRegister);
  b.EmitCall("vm.builtin.match_shape",
             {Arg::Register(0), Arg::Register(1), Arg::Immediate(2), Code(MatchShapeCode::kStoreToHeap), Arg::Immediate(0),
              Code(MatchShapeCode::kAssertEqualToImm), Arg::Immediate(4), ctx},
             Instruction::kVoidRegister);
  b.EmitCall("vm.builtin.make_shape",
             {Arg::Register(1), Arg::Immediate(3), Arg::Immediate(1), Arg::Immediate(0), Arg::Immediate(0),
              Arg::Immediate(7), Arg::Immediate(1), Arg::Immediate(0)},
             2);
  b.EmitCall("vm.builtin.match_shape",
             {Arg::Register(2), Arg::Register(1), Arg::Immediate(3), Code(MatchShapeCode::kAssertEqualToLoad),
              Arg::Immediate(0), Code(MatchShapeCode::kNoOp), Arg::Immediate(0), Code(MatchShapeCode::kAssertEqualToLoad),
              Arg::Immediate(0), ctx},
             Instruction::kVoidRegister);
  b.EmitRet(2);
  b.EndFunction("main");
  return b.Get();
}

TEST_F(VMTest, ShapeHeapMatchAndMake) {
  VirtualMachine vm(BuildShapeMatcher());
  NDArray x = NDArray::Empty({5, 4}, DataType::Float(32));
  EXPECT_EQ(vm.Invoke("main", {Value(x)}).AsShape(), (ShapeTuple{5, 7, 5}));
  NDArray y = NDArray::Empty({9, 4}, DataType::Float(32));
  EXPECT_EQ(vm.Invoke("main", {Value(y)}).AsShape(), (ShapeTuple{9, 7, 9}));
}

TEST_F(VMTest, ShapeMismatchesNameTheParameterAndActualShape) {
  VirtualMachine vm(BuildShapeMatcher());
  std::string wrong_dim = ErrorOf([&] { vm.Invoke("main", {Value(NDArray::Empty({5, 3}, DataType::Float(32)))}); });
  EXPECT_THAT(wrong_dim, HasSubstr("fn=main"));
  EXPECT_THAT(wrong_dim, HasSubstr("param=x"));
  EXPECT_THAT(wrong_dim, HasSubstr("R.Tensor((n, 4), dtype=\"float32\")"));
  EXPECT_THAT(wrong_dim, HasSubstr("shape[1] mismatch to specified constant: expected 4, got shape (5, 3)"));
  std::string wrong_rank = ErrorOf([&] { vm.Invoke("main", {Value(NDArray::Empty({5}, DataType::Float(32)))}); });
  EXPECT_THAT(wrong_rank, HasSubstr("expect Tensor with ndim 2 but get 1 (shape (5,))"));
  std::string wrong_dtype = ErrorOf([&] { vm.Invoke("main", {Value(NDArray::Empty({5, 4}, DataType::Int(32)))}); });
  EXPECT_THAT(wrong_dtype, HasSubstr("expect Tensor with dtype float32 but get int32"));
  std::string not_tensor = ErrorOf([&] { vm.Invoke("main", {Value(3)}); });
  EXPECT_THAT(not_tensor, HasSubstr("expect a Tensor but get int"));
  EXPECT_THAT(ErrorOf([&] { vm.Invoke("main", {}); }), HasSubstr("'main' expects 1 arguments (x), got 0"));
  EXPECT_THAT(ErrorOf([&] { vm.Invoke("nope", {}); }), HasSubstr("no function 'nope'"));
}

TEST_F(VMTest, MatchShapeAgainstLoadedValue) {
  // (n, n): the second dimension must equal the first.
  ExecBuilder b;
  b.EmitFunction("square", 1, {"s"});
  Arg ctx = b.ConvertConstant(Value("ctx"));
  b.EmitCall("vm.builtin.alloc_shape_heap", {Arg::Register(Instruction::kVMRegister), Arg::Immediate(1)}, 1);
  b.EmitCall("vm.builtin.check_shape_info", {Arg::Register(0), Arg::Immediate(2), ctx}, Instruction::kVoidRegister);
  b.EmitCall("vm.builtin.match_shape",
             {Arg::Register(0), Arg::Register(1), Arg::Immediate(2), Code(MatchShapeCode::kStoreToHeap), Arg::Immediate(0),
              Code(MatchShapeCode::kAssertEqualToLoad), Arg::Immediate(0), ctx},
             Instruction::kVoidRegister);
  b.EmitCall("vm.builtin.make_prim_value", {Arg::Register(1), Arg::Immediate(1), Arg::Immediate(0)}, 2);
  b.EmitRet(2);
  b.EndFunction("square");
  VirtualMachine vm(b.Get());
  EXPECT_EQ(vm.Invoke("square", {Value(ShapeTuple{6, 6})}).AsInt(), 6);
  EXPECT_THAT(ErrorOf([&] { vm.Invoke("square", {Value(ShapeTuple{6, 7})}); }),
              HasSubstr("ctx match_cast error, shape[1] mismatch to a previous populated value: expected 6, got shape (6, 7)"));
  EXPECT_THAT(ErrorOf([&] { vm.Invoke("square", {Value(ShapeTuple{6})}); }), HasSubstr("expect Shape with ndim 2 but get 1"));
}

TEST_F(VMTest, StaticStorageComesFromThePoolOnceAndIsKeptByTheVM) {
  PooledAllocator pool;
  Registry::Register("test.vm.live_bytes", [&pool](const Args&) { return Value(pool.GetStats().live_bytes); }, true);
  ExecBuilder b;
  b.EmitFunction("main", 0, {});
  Arg size = b.ConvertConstant(Value(ShapeTuple{4096}));
  Arg u8 = b.ConvertConstant(Value(DataType::UInt(8)));
  Arg global = b.ConvertConstant(Value("global"));
  Arg shape = b.ConvertConstant(Value(ShapeTuple{16, 16}));
  Arg f32 = b.ConvertConstant(Value(DataType::Float(32)));
  b.EmitCall("vm.builtin.alloc_storage", {Arg::Register(Instruction::kVMRegister), size, Arg::Immediate(0), u8, global}, 0);
  b.EmitCall("vm.builtin.alloc_tensor", {Arg::Register(0), Arg::Immediate(1024), shape, f32}, 1);
  b.EmitCall("test.vm.live_bytes", {}, 2);
  b.EmitCall("vm.builtin.null_value", {}, 0);  // kill the storage ...
  b.EmitCall("test.vm.live_bytes", {}, 3);     // ... still viewed by the tensor
  b.EmitCall("vm.builtin.null_value", {}, 1);  // kill the tensor: freed
  b.EmitCall("test.vm.live_bytes", {}, 4);
  b.EmitCall("vm.builtin.make_tuple", {Arg::Register(2), Arg::Register(3), Arg::Register(4)}, 5);
  b.EmitRet(5);
  b.EndFunction("main");
  VirtualMachine vm(b.Get(), Module(), &pool);
  Value result = vm.Invoke("main", {});
  EXPECT_EQ(result.AsArray()[0].AsInt(), 4096);
  EXPECT_EQ(result.AsArray()[1].AsInt(), 4096);
  // A storage of constant size stays with the VM (its static storage cache)
  // once the tensor dies, and the second run gets it back without allocating.
  EXPECT_EQ(result.AsArray()[2].AsInt(), 4096);
  EXPECT_EQ(pool.GetStats().total_allocs, 1);
  vm.Invoke("main", {});
  EXPECT_EQ(pool.GetStats().total_allocs, 1);
  EXPECT_EQ(pool.GetStats().pool_hits, 0);
}

// A returned tensor of a static storage holds it: the next run allocates
// another, and the VM keeps up to two per instruction, reused once free.
TEST_F(VMTest, StaticStorageHeldByAnOutputIsNotReusedAndTwoAreKept) {
  PooledAllocator pool;
  ExecBuilder b;
  b.EmitFunction("main", 0, {});
  b.EmitCall("vm.builtin.alloc_storage",
             {Arg::Register(Instruction::kVMRegister), b.ConvertConstant(Value(ShapeTuple{64})), Arg::Immediate(0),
              b.ConvertConstant(Value(DataType::UInt(8))), b.ConvertConstant(Value("global"))},
             0);
  b.EmitCall("vm.builtin.alloc_tensor",
             {Arg::Register(0), Arg::Immediate(0), b.ConvertConstant(Value(ShapeTuple{16})),
              b.ConvertConstant(Value(DataType::Float(32)))},
             1);
  b.EmitRet(1);
  b.EndFunction("main");
  VirtualMachine vm(b.Get(), Module(), &pool);
  auto run = [&] { return vm.Invoke("main", {}).AsNDArray(); };
  NDArray first = run();
  NDArray second = run();  // the first is held: a second storage, kept
  EXPECT_NE(first.storage(), second.storage());
  EXPECT_EQ(pool.GetStats().total_allocs, 2);
  NDArray third = run();  // both held: a third, not kept
  EXPECT_EQ(pool.GetStats().total_allocs, 3);
  const Storage* first_storage = first.storage().get();
  first = NDArray();
  third = NDArray();
  EXPECT_EQ(run().storage().get(), first_storage);  // free again: reused
  EXPECT_EQ(pool.GetStats().total_allocs, 3);
  second = NDArray();
  NDArray a = run();
  NDArray c = run();  // the two kept storages serve two held outputs
  EXPECT_NE(a.storage(), c.storage());
  EXPECT_EQ(pool.GetStats().total_allocs, 3);
}

TEST_F(VMTest, AllocTensorOutsideStorageIsAnError) {
  ExecBuilder b;
  b.EmitFunction("main", 0, {});
  b.EmitCall("vm.builtin.alloc_storage",
             {Arg::Register(Instruction::kVMRegister), b.ConvertConstant(Value(ShapeTuple{64})), Arg::Immediate(0),
              b.ConvertConstant(Value("uint8")), b.ConvertConstant(Value("global"))},
             0);
  b.EmitCall("vm.builtin.alloc_tensor",
             {Arg::Register(0), Arg::Immediate(0), b.ConvertConstant(Value(ShapeTuple{100})), b.ConvertConstant(Value("float32"))},
             1);
  b.EmitRet(1);
  b.EndFunction("main");
  VirtualMachine vm(b.Get());
  EXPECT_NE(ErrorOf([&] { vm.Invoke("main", {}); }), "");
}

TEST_F(VMTest, BuiltinsOnTensors) {
  ExecBuilder b;
  b.EmitFunction("main", 1, {"x"});
  b.EmitCall("vm.builtin.shape_of", {Arg::Register(0)}, 1);
  b.EmitCall("vm.builtin.reshape", {Arg::Register(0), b.ConvertConstant(Value(ShapeTuple{6}))}, 2);
  b.EmitCall("vm.builtin.make_tuple", {Arg::Register(1), Arg::Register(2)}, 3);
  b.EmitRet(3);
  b.EndFunction("main");
  VirtualMachine vm(b.Get());
  NDArray x = NDArray::FromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  Value result = vm.Invoke("main", {Value(x)});
  EXPECT_EQ(result.AsArray()[0].AsShape(), (ShapeTuple{2, 3}));
  EXPECT_EQ(result.AsArray()[1].AsNDArray().shape(), (ShapeTuple{6}));
  EXPECT_EQ(result.AsArray()[1].AsNDArray().ToVector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_THAT(ErrorOf([&] { vm.Invoke("main", {Value(NDArray::FromVector<float>({4}, {1, 2, 3, 4}))}); }),
              HasSubstr("cannot reshape (4,) to (6,)"));
}

TEST_F(VMTest, CallTIRDynUnpacksTheShape) {
  Registry::Register("test.vm.sum3", [](const Args& a) { return Value(a.GetInt(0) + a.GetInt(1) * 10 + a.GetInt(2) * 100); }, true);
  ExecBuilder b;
  b.EmitFunction("main", 1, {"x"});
  b.DeclareFunction("test.vm.sum3", VMFuncInfo::FuncKind::kPackedFunc);
  b.EmitCall("vm.builtin.call_tir_dyn",
             {Arg::FuncIdx(b.GetFunction("test.vm.sum3")),
              Arg::Register(0), b.ConvertConstant(Value(ShapeTuple{2, 3}))},
             1);
  b.EmitRet(1);
  b.EndFunction("main");
  VirtualMachine vm(b.Get());
  EXPECT_EQ(vm.Invoke("main", {Value(1)}).AsInt(), 321);
}

TEST_F(VMTest, ErrorsFromCalleesReachTheCaller) {
  ExecBuilder b;
  b.EmitFunction("main", 0, {});
  b.EmitCall("test.vm.fail", {}, 0);
  b.EmitRet(0);
  b.EndFunction("main");
  b.EmitFunction("bad_index", 0, {});
  b.EmitCall("vm.builtin.make_tuple", {Arg::Immediate(1)}, 0);
  b.EmitCall("vm.builtin.tuple_getitem", {Arg::Register(0), Arg::Immediate(5)}, 0);
  b.EmitRet(0);
  b.EndFunction("bad_index");
  VirtualMachine vm(b.Get());
  EXPECT_THAT(ErrorOf([&] { vm.Invoke("main", {}); }), HasSubstr("kernel exploded"));
  EXPECT_THAT(ErrorOf([&] { vm.Invoke("bad_index", {}); }), HasSubstr("index 5 out of range"));
}

TEST_F(VMTest, MissingFunctionIsALoadTimeError) {
  ExecBuilder b;
  b.EmitFunction("main", 0, {});
  b.EmitCall("no.such.kernel", {}, 0);
  b.EmitRet(0);
  b.EndFunction("main");
  auto exec = b.Get();
  EXPECT_THAT(ErrorOf([&] { VirtualMachine vm(exec); }), HasSubstr("'no.such.kernel'"));
}

std::shared_ptr<Executable> BuildWithConstants() {
  ExecBuilder b;
  b.EmitFunction("main", 1, {"x"});
  Arg weights = b.ConvertConstant(Value(NDArray::FromVector<float>({2, 2}, {1.5f, -2, 3, 4})));
  b.EmitCall("vm.builtin.make_tuple",
             {Arg::Register(0), weights, b.ConvertConstant(Value(2.5)), b.ConvertConstant(Value(DataType::Int(8))),
              b.ConvertConstant(Value(ShapeTuple{1, -2})), b.ConvertConstant(Value("s")), Arg::Immediate(-9)},
             1);
  b.EmitRet(1);
  b.EndFunction("main");
  return b.Get();
}

TEST_F(VMTest, BinaryFormatRoundTrips) {
  auto exec = BuildWithConstants();
  std::string bytes = exec->SaveToBytes();
  auto loaded = Executable::LoadFromBytes(bytes);
  EXPECT_EQ(loaded->AsText(), exec->AsText());
  EXPECT_EQ(loaded->func_table, exec->func_table);
  EXPECT_EQ(loaded->instructions, exec->instructions);
  EXPECT_EQ(loaded->SaveToBytes(), bytes);
  VirtualMachine vm(loaded);
  Value result = vm.Invoke("main", {Value(1)});
  EXPECT_EQ(result.AsArray()[1].AsNDArray().ToVector<float>(), (std::vector<float>{1.5f, -2, 3, 4}));
  EXPECT_EQ(result.AsArray()[2].AsFloat(), 2.5);
  EXPECT_EQ(result.AsArray()[3].AsDtype(), DataType::Int(8));
  EXPECT_EQ(result.AsArray()[4].AsShape(), (ShapeTuple{1, -2}));
  EXPECT_EQ(result.AsArray()[6].AsInt(), -9);
}

TEST_F(VMTest, TruncatedBlobsAreErrors) {
  std::string bytes = BuildWithConstants()->SaveToBytes();
  for (size_t size = 0; size < bytes.size(); ++size) {
    std::string error = ErrorOf([&] { Executable::LoadFromBytes(std::string_view(bytes).substr(0, size)); });
    EXPECT_THAT(error, HasSubstr("VM executable")) << size;
  }
  EXPECT_THAT(ErrorOf([&] { Executable::LoadFromBytes(bytes + "x"); }), HasSubstr("padded"));
}

TEST_F(VMTest, CorruptBlobsAreErrors) {
  std::string bytes = BuildWithConstants()->SaveToBytes();
  for (size_t pos = 0; pos < bytes.size(); ++pos) {
    std::string corrupt = bytes;
    corrupt[pos] = static_cast<char>(corrupt[pos] ^ 0x5a);
    EXPECT_NE(ErrorOf([&] { Executable::LoadFromBytes(corrupt); }), "") << pos;
  }
  std::string bad_version = bytes;
  bad_version[8] = 9;
  EXPECT_THAT(ErrorOf([&] { Executable::LoadFromBytes(bad_version); }), HasSubstr("format version 9"));
  EXPECT_THAT(ErrorOf([&] { Executable::LoadFromBytes("not an executable"); }), HasSubstr("bad magic"));
}

TEST_F(VMTest, VerifyRejectsOutOfRangeIndices) {
  auto exec = std::make_shared<Executable>(*BuildSelect());
  exec->instructions[0].args[0] = Arg::Register(99);
  EXPECT_THAT(ErrorOf([&] { exec->Verify(); }), HasSubstr("register 99 outside [0, 5)"));
  // A blob with a valid checksum but a bad index is rejected at load.
  EXPECT_THAT(ErrorOf([&] { Executable::LoadFromBytes(exec->SaveToBytes()); }), HasSubstr("register 99"));
  exec = std::make_shared<Executable>(*BuildSelect());
  exec->instructions[1].offset = 40;
  EXPECT_THAT(ErrorOf([&] { exec->Verify(); }), HasSubstr("leaves the function"));
  exec = std::make_shared<Executable>(*BuildSelect());
  exec->instructions[2].func_idx = 7;
  EXPECT_THAT(ErrorOf([&] { exec->Verify(); }), HasSubstr("function index 7 out of range"));
}

TEST_F(VMTest, FileRoundTripAndMissingFile) {
  std::string path = ::testing::TempDir() + "/vm_test_exec.rlxvm";
  BuildSelect()->SaveToFile(path);
  EXPECT_EQ(Executable::LoadFromFile(path)->AsText(), BuildSelect()->AsText());
  EXPECT_THAT(ErrorOf([] { Executable::LoadFromFile("/nonexistent/x.rlxvm"); }), HasSubstr("cannot open"));
}

}  // namespace
}  // namespace rlx::runtime::vm
