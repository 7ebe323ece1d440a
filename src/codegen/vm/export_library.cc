// ExportVMLibrary: kernels and bytecode in one shared library.
//
// The kernels go to object files (EmitObjectFile), the serialized
// executable to another (EmitExecutableObjectFile); the system C compiler
// links them with -shared. Intermediate files live in a fresh temporary
// directory that is removed afterwards, also on failure.
//
// LLVM's optimization of the kernels is most of a model's compile time and
// runs on one thread per LLVM module, so the kernels are dealt round-robin
// into one shard per hardware thread (at most one per kKernelsPerShard
// kernels; CodegenOptions::compile_threads overrides), each compiled to its own object file on its own thread with its
// own LLVMContext. The objects link into one library: the kernels are
// distinct symbols, their helpers have internal linkage and the module
// globals (rlx_module_abi_version, rlx_runtime_callbacks) are weak.
#include <fmt/format.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "rlx/codegen/object_file.h"
#include "rlx/codegen/vm_codegen.h"
#include "rlx/support/diagnostic.h"

namespace rlx::codegen {
namespace {

namespace fs = std::filesystem;

// A temporary directory removed when this goes out of scope.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "rlx-build-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) ThrowError(Span(), "cannot create a temporary directory");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

constexpr size_t kKernelsPerShard = 4;

std::vector<NamedPrimFuncs> ShardKernels(const NamedPrimFuncs& funcs, int compile_threads) {
  size_t count = compile_threads > 0 ? static_cast<size_t>(compile_threads)
                                     : std::min<size_t>(std::max(1U, std::thread::hardware_concurrency()),
                                                        funcs.size() / kKernelsPerShard);
  count = std::max<size_t>(1, std::min(count, funcs.size()));
  std::vector<NamedPrimFuncs> shards(count);
  for (size_t i = 0; i < funcs.size(); ++i) shards[i % count].push_back(funcs[i]);
  return shards;
}

// Compiles the shards in parallel to kernels<i>.o in `temp`; returns the
// paths. The first error (a CompileError of any shard) is rethrown.
std::vector<std::string> EmitKernelObjects(const NamedPrimFuncs& funcs, const TempDir& temp,
                                           const CodegenOptions& options) {
  std::vector<NamedPrimFuncs> shards = ShardKernels(funcs, options.compile_threads);
  std::vector<std::string> paths;
  for (size_t i = 0; i < shards.size(); ++i) paths.push_back((temp / fmt::format("kernels{}.o", i)).string());
  std::vector<std::exception_ptr> errors(shards.size());
  std::vector<std::thread> workers;
  for (size_t i = 1; i < shards.size(); ++i) {
    workers.emplace_back([&, i] {
      try {
        EmitObjectFile(shards[i], paths[i], options);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  }
  try {
    EmitObjectFile(shards[0], paths[0], options);
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (auto& worker : workers) worker.join();
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  return paths;
}

}  // namespace

void ExportVMLibrary(const ir::IRModule& mod, const std::string& path, const CodegenOptions& options) {
  std::shared_ptr<runtime::vm::Executable> exec = VMCodeGen(mod);
  TempDir temp;
  std::string bytecode = (temp / "executable.o").string();
  std::string log = (temp / "link.log").string();
  std::string kernels;
  for (const std::string& object : EmitKernelObjects(CollectPrimFuncs(mod), temp, options)) {
    kernels += ShellQuote(object) + " ";
  }
  EmitExecutableObjectFile(exec->SaveToBytes(), bytecode, options);
  const char* compiler = std::getenv("RLX_CC");
  std::string command = fmt::format("{} -shared -o {} {}{} -lm > {} 2>&1", compiler ? compiler : "cc",
                                    ShellQuote(path), kernels, ShellQuote(bytecode), ShellQuote(log));
  int status = std::system(command.c_str());
  if (status != 0) {
    ThrowError(Span(), fmt::format("linking {} failed (exit status {}): {}\n{}", path,
                                   WIFEXITED(status) ? WEXITSTATUS(status) : status, command, ReadFile(log)));
  }
}

}  // namespace rlx::codegen
