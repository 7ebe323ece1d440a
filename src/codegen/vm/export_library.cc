// ExportVMLibrary: kernels and bytecode in one shared library.
//
// The kernels go to one object file (EmitObjectFile), the serialized
// executable to another (EmitExecutableObjectFile); the system C compiler
// links both with -shared. Intermediate files live in a fresh temporary
// directory that is removed afterwards, also on failure.
#include <fmt/format.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

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

}  // namespace

void ExportVMLibrary(const ir::IRModule& mod, const std::string& path, const CodegenOptions& options) {
  std::shared_ptr<runtime::vm::Executable> exec = VMCodeGen(mod);
  TempDir temp;
  std::string kernels = (temp / "kernels.o").string();
  std::string bytecode = (temp / "executable.o").string();
  std::string log = (temp / "link.log").string();
  EmitObjectFile(CollectPrimFuncs(mod), kernels, options);
  EmitExecutableObjectFile(exec->SaveToBytes(), bytecode, options);
  const char* compiler = std::getenv("RLX_CC");
  std::string command = fmt::format("{} -shared -o {} {} {} -lm > {} 2>&1", compiler ? compiler : "cc",
                                    ShellQuote(path), ShellQuote(kernels), ShellQuote(bytecode), ShellQuote(log));
  int status = std::system(command.c_str());
  if (status != 0) {
    ThrowError(Span(), fmt::format("linking {} failed (exit status {}): {}\n{}", path,
                                   WIFEXITED(status) ? WEXITSTATUS(status) : status, command, ReadFile(log)));
  }
}

}  // namespace rlx::codegen
