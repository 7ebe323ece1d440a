// Values, packed functions and the registry: typed argument access with
// precise mismatch messages, error propagation as RuntimeError, registration
// rules.
#include "rlx/runtime/packed_func.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rlx::runtime {
namespace {

using ::testing::HasSubstr;

template <typename F>
std::string ErrorOf(F&& action) {
  try {
    action();
  } catch (const RuntimeError& error) {
    return error.what();
  }
  return "";
}

class Counter final : public Object {
 public:
  static constexpr std::string_view kTypeName = "Counter";
  std::string_view type_name() const override { return kTypeName; }
  int count = 0;
};

TEST(ValueTest, HoldsEveryKind) {
  EXPECT_EQ(Value().kind(), Value::Kind::kNull);
  EXPECT_EQ(Value(3).AsInt(), 3);
  EXPECT_EQ(Value(int64_t{1} << 40).AsInt(), int64_t{1} << 40);
  EXPECT_EQ(Value(2.5).AsFloat(), 2.5);
  EXPECT_TRUE(Value(true).AsBool());
  EXPECT_EQ(Value("text").AsString(), "text");
  EXPECT_EQ(Value(DataType::Float(16)).AsDtype(), DataType::Float(16));
  EXPECT_EQ(Value(Device::CUDA(2)).AsDevice(), Device::CUDA(2));
  EXPECT_EQ(Value(ShapeTuple{2, 3}).AsShape(), (ShapeTuple{2, 3}));
  NDArray array = NDArray::Empty({2}, DataType::Int(32));
  EXPECT_EQ(Value(array).AsNDArray().data(), array.data());
  Value tuple(std::vector<Value>{Value(1), Value("a"), Value(std::vector<Value>{})});
  EXPECT_EQ(tuple.AsArray().size(), 3u);
  EXPECT_EQ(tuple.ToString(), "[1, \"a\", []]");
  auto counter = std::make_shared<Counter>();
  Value object(counter);
  EXPECT_EQ(object.type_name(), "Counter");
  EXPECT_EQ(object.AsObject().get(), counter.get());
  EXPECT_EQ(Value(ShapeTuple{4}).ToString(), "shape (4,)");
  EXPECT_EQ(Value(array).ToString(), "NDArray((2,), int32, cpu:0)");
}

TEST(ValueTest, CopiesShareImmutablePayloads) {
  Value shape(ShapeTuple{1, 2, 3});
  Value copy = shape;
  EXPECT_EQ(&copy.AsShape(), &shape.AsShape());
}

TEST(ValueTest, AccessorsCheckTheKind) {
  EXPECT_EQ(ErrorOf([] { Value("x").AsInt(); }), "expected int, got string");
  EXPECT_EQ(ErrorOf([] { Value(1.5).AsInt(); }), "expected int, got float");
  EXPECT_EQ(ErrorOf([] { Value(3).AsShape(); }), "expected shape, got int");
  EXPECT_EQ(ErrorOf([] { Value().AsNDArray(); }), "expected NDArray, got null");
  // The documented conversions.
  EXPECT_EQ(Value(true).AsInt(), 1);
  EXPECT_EQ(Value(7).AsFloat(), 7.0);
  EXPECT_FALSE(Value(0).AsBool());
}

PackedFunc AllocStorage() {
  return PackedFunc("vm.builtin.alloc_storage", [](const Args& args) -> Value {
    args.CheckCount(2);
    return Value(Storage::Create(static_cast<size_t>(args.GetInt(0)), args.GetDevice(1)));
  });
}

TEST(PackedFuncTest, CallsWithConvertedArguments) {
  PackedFunc add("add", [](const Args& args) -> Value { return Value(args.GetInt(0) + args.GetInt(1)); });
  EXPECT_EQ(add(2, 40).AsInt(), 42);
  EXPECT_EQ(add(int8_t{2}, true).AsInt(), 3);
  Value storage = AllocStorage()(256, Device::CPU());
  EXPECT_EQ(storage.type_name(), "Storage");
}

TEST(PackedFuncTest, ArgumentMismatchesNameTheArgumentFunctionAndTypes) {
  PackedFunc alloc = AllocStorage();
  NDArray array = NDArray::Empty({2}, DataType::Float(32));
  EXPECT_EQ(ErrorOf([&] { alloc(array, Device::CPU()); }),
            "argument 0 of 'vm.builtin.alloc_storage': expected int, got NDArray");
  EXPECT_EQ(ErrorOf([&] { alloc(16, "cpu"); }), "argument 1 of 'vm.builtin.alloc_storage': expected device, got string");
  EXPECT_EQ(ErrorOf([&] { alloc(16); }), "'vm.builtin.alloc_storage' expects 2 arguments, got 1");
  PackedFunc second("second", [](const Args& args) -> Value { return args[1]; });
  EXPECT_EQ(ErrorOf([&] { second(1); }), "'second' was called with 1 argument, but argument 1 is needed");
}

TEST(PackedFuncTest, EveryTypedGetterChecks) {
  PackedFunc probe("probe", [](const Args& args) -> Value {
    const std::string& which = args.GetString(0);
    if (which == "float") return Value(args.GetFloat(1));
    if (which == "bool") return Value(args.GetBool(1));
    if (which == "dtype") return Value(args.GetDtype(1));
    if (which == "ndarray") return Value(args.GetNDArray(1));
    if (which == "shape") return Value(args.GetShape(1));
    if (which == "array") return Value(args.GetArray(1));
    if (which == "object") return Value(args.GetObject(1));
    if (which == "func") return Value(args.GetFunc(1));
    if (which == "counter") return Value(args.GetObjectAs<Counter>(1));
    return Value();
  });
  EXPECT_EQ(probe("float", 2).AsFloat(), 2.0);
  EXPECT_TRUE(probe("bool", 5).AsBool());
  EXPECT_EQ(probe("shape", ShapeTuple{3}).AsShape(), ShapeTuple{3});
  EXPECT_EQ(ErrorOf([&] { probe("float", "x"); }), "argument 1 of 'probe': expected float, got string");
  EXPECT_EQ(ErrorOf([&] { probe("bool", 1.0); }), "argument 1 of 'probe': expected bool, got float");
  EXPECT_EQ(ErrorOf([&] { probe("dtype", "float32"); }), "argument 1 of 'probe': expected dtype, got string");
  EXPECT_EQ(ErrorOf([&] { probe("ndarray", ShapeTuple{2}); }), "argument 1 of 'probe': expected NDArray, got shape");
  EXPECT_EQ(ErrorOf([&] { probe("shape", NDArray::Empty({2}, DataType::Int(64))); }),
            "argument 1 of 'probe': expected shape, got NDArray");
  EXPECT_EQ(ErrorOf([&] { probe("array", 1); }), "argument 1 of 'probe': expected array, got int");
  EXPECT_EQ(ErrorOf([&] { probe("object", 1); }), "argument 1 of 'probe': expected object, got int");
  EXPECT_EQ(ErrorOf([&] { probe("func", 1); }), "argument 1 of 'probe': expected function, got int");
  EXPECT_EQ(ErrorOf([&] { probe("counter", Storage::Create(8)); }),
            "argument 1 of 'probe': expected Counter, got Storage");
  EXPECT_EQ(ErrorOf([&] { probe(1); }), "argument 0 of 'probe': expected string, got int");
  auto counter = std::make_shared<Counter>();
  EXPECT_EQ(probe("counter", counter).AsObject().get(), counter.get());
}

TEST(PackedFuncTest, ErrorsInsideReachTheCallerAsRuntimeError) {
  PackedFunc throws_runtime("throws_runtime", [](const Args&) -> Value { throw RuntimeError("bad input shape"); });
  EXPECT_EQ(ErrorOf([&] { throws_runtime(); }), "bad input shape");
  PackedFunc throws_std("throws_std", [](const Args&) -> Value { throw std::out_of_range("index 9"); });
  EXPECT_EQ(ErrorOf([&] { throws_std(); }), "'throws_std' failed: index 9");
  PackedFunc throws_int("throws_int", [](const Args&) -> Value { throw 42; });
  EXPECT_EQ(ErrorOf([&] { throws_int(); }), "'throws_int' threw a non-standard exception");
  // Through a nested call: the inner error arrives unchanged.
  PackedFunc outer("outer", [&](const Args& args) -> Value { return args.GetFunc(0)(); });
  EXPECT_EQ(ErrorOf([&] { outer(throws_runtime); }), "bad input shape");
  PackedFunc null;
  EXPECT_TRUE(null == nullptr);
  EXPECT_EQ(ErrorOf([&] { null(); }), "call of a null PackedFunc");
}

TEST(RegistryTest, RegistersLooksUpAndLists) {
  Registry::Register("test.double", [](const Args& args) -> Value { return Value(args.GetInt(0) * 2); });
  Registry::Register("test.alloc_storage", AllocStorage());
  PackedFunc twice = Registry::Get("test.double");
  ASSERT_TRUE(twice);
  EXPECT_EQ(twice.name(), "test.double");
  EXPECT_EQ(twice(21).AsInt(), 42);
  EXPECT_EQ(Registry::Get("test.alloc_storage").name(), "vm.builtin.alloc_storage");
  EXPECT_TRUE(Registry::Get("test.absent") == nullptr);
  EXPECT_EQ(ErrorOf([] { Registry::GetRequired("test.absent"); }), "no function 'test.absent' is registered");
  std::vector<std::string> names = Registry::ListNames();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_NE(std::find(names.begin(), names.end(), "test.double"), names.end());
  EXPECT_TRUE(Registry::Remove("test.double"));
  EXPECT_FALSE(Registry::Remove("test.double"));
  EXPECT_TRUE(Registry::Get("test.double") == nullptr);
  EXPECT_TRUE(Registry::Remove("test.alloc_storage"));
}

TEST(RegistryTest, DuplicateNamesNeedOverride) {
  Registry::Register("test.version", [](const Args&) -> Value { return Value(1); });
  EXPECT_EQ(ErrorOf([] { Registry::Register("test.version", [](const Args&) -> Value { return Value(2); }); }),
            "a function 'test.version' is already registered");
  EXPECT_EQ(Registry::Get("test.version")().AsInt(), 1);
  Registry::Register("test.version", [](const Args&) -> Value { return Value(2); }, /*override_existing=*/true);
  EXPECT_EQ(Registry::Get("test.version")().AsInt(), 2);
  EXPECT_EQ(ErrorOf([] { Registry::Register("test.null", PackedFunc()); }),
            "cannot register a null function as 'test.null'");
  Registry::Remove("test.version");
}

}  // namespace
}  // namespace rlx::runtime
