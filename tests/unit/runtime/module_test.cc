// Loading compiled modules: the test kernels library (data/test_kernels.c,
// built by CMake) is loaded, its kernels are called through PackedFunc with
// tensors and scalars, and kernels call back into the runtime (parallel_for,
// errors, workspace). Missing files, non-libraries and libraries that are not
// rlx modules are clear errors.
#include "rlx/runtime/module.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "rlx/runtime/threading.h"

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

Module TestKernels() { return Module::LoadFromFile(RLX_TEST_KERNELS); }

TEST(ModuleTest, LoadsAndCallsATensorKernel) {
  Module module = TestKernels();
  EXPECT_EQ(module.name(), RLX_TEST_KERNELS);
  PackedFunc add_one = module.GetFunction("add_one");
  ASSERT_TRUE(add_one);
  NDArray x = NDArray::FromVector<float>({2, 2}, {1, 2, 3, 4});
  NDArray y = NDArray::Empty({2, 2}, DataType::Float(32));
  EXPECT_TRUE(add_one(x, y).is_null());
  EXPECT_EQ(y.ToVector<float>(), (std::vector<float>{2, 3, 4, 5}));
}

TEST(ModuleTest, PassesScalarsAndReturnsValues) {
  Module module = TestKernels();
  EXPECT_EQ(module.GetFunction("sum_scalars")(2, true, 0.5).AsFloat(), 3.5);
  EXPECT_EQ(module.GetFunction("greeting")().AsString(), "hello from C");
}

TEST(ModuleTest, KernelErrorsBecomeRuntimeErrors) {
  Module module = TestKernels();
  EXPECT_EQ(ErrorOf([&] { module.GetFunction("always_fails")(); }), "kernel 'always_fails' failed: the kernel always fails");
  EXPECT_EQ(ErrorOf([&] { module.GetFunction("fails_silently")(); }),
            "kernel 'fails_silently' failed: it returned error code 7 without a message");
  EXPECT_EQ(ErrorOf([&] { module.GetFunction("add_one")(1, 2); }), "kernel 'add_one' failed: add_one expects two tensors");
  EXPECT_EQ(ErrorOf([&] { module.GetFunction("add_one")(ShapeTuple{2}, 2); }),
            "argument 0 of kernel 'add_one': a shape cannot be passed to a compiled kernel (expected NDArray, int, "
            "float, string or null)");
}

class ModuleCallbackTest : public ::testing::TestWithParam<ThreadingBackend> {
 protected:
  void SetUp() override { SetThreadingBackend(GetParam()); }
  void TearDown() override {
    SetThreadingBackend(HasOpenMP() ? ThreadingBackend::kOpenMP : ThreadingBackend::kThreadPool);
  }
};

TEST_P(ModuleCallbackTest, KernelsCallBackIntoTheRuntime) {
  SetNumThreads(2);
  Module module = TestKernels();
  PackedFunc scale = module.GetFunction("parallel_scale");
  std::vector<float> values(1000, 2.0f);
  NDArray x = NDArray::FromVector<float>({1000}, values);
  scale(x, 1.5);
  EXPECT_EQ(x.ToVector<float>(), std::vector<float>(1000, 3.0f));
  // A body's failure on a worker thread comes back with its message.
  values[900] = -1.0f;
  NDArray bad = NDArray::FromVector<float>({1000}, values);
  EXPECT_EQ(ErrorOf([&] { scale(bad, 2.0); }), "kernel 'parallel_scale' failed: parallel_scale: negative element");
  // Workspace memory from the pool, 64-byte aligned.
  EXPECT_EQ(module.GetFunction("workspace_roundtrip")(1000).AsInt(), 1);
  EXPECT_EQ(ErrorOf([&] { module.GetFunction("workspace_roundtrip")(-5); }),
            "kernel 'workspace_roundtrip' failed: negative workspace size -5");
  SetNumThreads(0);
}

std::vector<ThreadingBackend> AvailableBackends() {
  std::vector<ThreadingBackend> backends = {ThreadingBackend::kThreadPool};
  if (HasOpenMP()) backends.push_back(ThreadingBackend::kOpenMP);
  return backends;
}

INSTANTIATE_TEST_SUITE_P(Backends, ModuleCallbackTest, ::testing::ValuesIn(AvailableBackends()),
                         [](const ::testing::TestParamInfo<ThreadingBackend>& info) {
                           return info.param == ThreadingBackend::kOpenMP ? "OpenMP" : "ThreadPool";
                         });

TEST(ModuleTest, SymbolLookup) {
  Module module = TestKernels();
  EXPECT_NE(module.GetSymbol("add_one"), nullptr);
  EXPECT_EQ(module.GetSymbol("no_such_kernel"), nullptr);
  EXPECT_TRUE(module.GetFunction("no_such_kernel") == nullptr);
  EXPECT_EQ(ErrorOf([&] { module.GetRequiredSymbol("no_such_kernel"); }),
            std::string("module '") + RLX_TEST_KERNELS + "' has no symbol 'no_such_kernel'");
  EXPECT_EQ(ErrorOf([&] { module.GetRequiredFunction("no_such_kernel"); }),
            std::string("module '") + RLX_TEST_KERNELS + "' has no function 'no_such_kernel'");
  auto* version = static_cast<const int32_t*>(module.GetRequiredSymbol(RLX_MODULE_ABI_VERSION_SYMBOL));
  EXPECT_EQ(*version, RLX_C_ABI_VERSION);
  auto* callbacks = static_cast<const RLXRuntimeCallbacks**>(module.GetRequiredSymbol(RLX_RUNTIME_CALLBACKS_SYMBOL));
  EXPECT_EQ(*callbacks, rlx_get_runtime_callbacks());
}

TEST(ModuleTest, FunctionsKeepTheLibraryLoaded) {
  PackedFunc greeting = TestKernels().GetFunction("greeting");
  // The Module handle is gone; the function still works.
  EXPECT_EQ(greeting().AsString(), "hello from C");
}

TEST(ModuleTest, MissingFileIsAnError) {
  EXPECT_EQ(ErrorOf([] { Module::LoadFromFile("/nonexistent/model.so"); }),
            "cannot load module '/nonexistent/model.so': file not found");
}

TEST(ModuleTest, NonLibraryFilesAreErrors) {
  std::string text_file = ::testing::TempDir() + "rlx_module_test_not_a_library.so";
  std::ofstream(text_file) << "this is not a shared library\n";
  EXPECT_EQ(ErrorOf([&] { Module::LoadFromFile(text_file); }),
            "cannot load module '" + text_file +
                "': not a shared library (the file does not start with an ELF header)");
  std::filesystem::remove(text_file);
  EXPECT_EQ(ErrorOf([] { Module::LoadFromFile(::testing::TempDir()); }),
            "cannot load module '" + ::testing::TempDir() + "': not a regular file");
}

TEST(ModuleTest, ElfFileThatIsNotALibraryIsAnError) {
  // An ELF header followed by garbage: dlopen's own message is passed on.
  std::string path = ::testing::TempDir() + "rlx_module_test_truncated.so";
  std::ofstream(path, std::ios::binary) << "\x7f" "ELF garbage";
  EXPECT_THAT(ErrorOf([&] { Module::LoadFromFile(path); }), HasSubstr("cannot load module '" + path + "': "));
  std::filesystem::remove(path);
}

TEST(ModuleTest, LibraryWithoutModuleSymbolsIsRejected) {
  EXPECT_EQ(ErrorOf([] { Module::LoadFromFile(RLX_TEST_NOT_A_MODULE); }),
            std::string("cannot load module '") + RLX_TEST_NOT_A_MODULE +
                "': not an rlx module: it lacks the symbol 'rlx_module_abi_version' (define it with "
                "RLX_DEFINE_MODULE() from rlx/runtime/c_abi.h)");
}

TEST(ModuleTest, NullModuleIsAnError) {
  Module module;
  EXPECT_FALSE(module.defined());
  EXPECT_EQ(ErrorOf([&] { module.GetSymbol("x"); }), "use of a null Module");
}

}  // namespace
}  // namespace rlx::runtime
