// Loading rlx modules from shared libraries and calling their kernels
// (design in module.h, ABI in c_abi.h).
#include "rlx/runtime/module.h"

#include "library_check.h"

#include <dlfcn.h>

#include <filesystem>
#include <fstream>
#include <vector>

namespace rlx::runtime {

namespace {

[[noreturn]] void LoadFailure(const std::string& path, const std::string& what) {
  throw RuntimeError(StrCat("cannot load module '", path, "': ", what));
}

// A dlopen handle, closed when the last Module or PackedFunc using it goes.
class LibraryModuleNode final : public ModuleNode {
 public:
  LibraryModuleNode(void* handle, std::string path) : handle_(handle), path_(std::move(path)) {}
  ~LibraryModuleNode() override { dlclose(handle_); }
  LibraryModuleNode(const LibraryModuleNode&) = delete;
  LibraryModuleNode& operator=(const LibraryModuleNode&) = delete;

  void* GetSymbol(const std::string& name) const override { return dlsym(handle_, name.c_str()); }
  const std::string& name() const override { return path_; }

 private:
  void* handle_;
  std::string path_;
};

// Rejects what dlopen would reject with a cryptic message: a missing file, a
// directory, a file that is not an ELF object.
void CheckLoadableFile(const std::string& path) {
  std::error_code error;
  std::filesystem::file_status status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status)) LoadFailure(path, "file not found");
  if (!std::filesystem::is_regular_file(status)) LoadFailure(path, "not a regular file");
#ifdef __ELF__
  char magic[4] = {};
  std::ifstream file(path, std::ios::binary);
  file.read(magic, sizeof(magic));
  if (!file || std::string_view(magic, 4) != "\x7f" "ELF") {
    LoadFailure(path, "not a shared library (the file does not start with an ELF header)");
  }
#endif
}

// Checks the module's ABI version and installs the runtime callbacks.
void BindRuntime(const ModuleNode& node) {
  const std::string& path = node.name();
  auto* version = static_cast<const int32_t*>(node.GetSymbol(RLX_MODULE_ABI_VERSION_SYMBOL));
  if (version == nullptr) {
    LoadFailure(path, StrCat("not an rlx module: it lacks the symbol '", RLX_MODULE_ABI_VERSION_SYMBOL,
                             "' (define it with RLX_DEFINE_MODULE() from rlx/runtime/c_abi.h)"));
  }
  if (*version != RLX_C_ABI_VERSION) {
    LoadFailure(path, StrCat("built for rlx C ABI version ", *version, ", but this runtime has version ",
                             RLX_C_ABI_VERSION));
  }
  auto* callbacks = static_cast<const RLXRuntimeCallbacks**>(node.GetSymbol(RLX_RUNTIME_CALLBACKS_SYMBOL));
  if (callbacks == nullptr) {
    LoadFailure(path, StrCat("not an rlx module: it lacks the symbol '", RLX_RUNTIME_CALLBACKS_SYMBOL, "'"));
  }
  *callbacks = rlx_get_runtime_callbacks();
}

// One argument in the C ABI's representation.
std::pair<RLXValue, int> ToCValue(const Value& value, size_t index, const std::string& name) {
  RLXValue out{};
  switch (value.kind()) {
    case Value::Kind::kNull: out.v_handle = nullptr; return {out, RLX_ARG_NULL};
    case Value::Kind::kInt:
    case Value::Kind::kBool: out.v_int64 = value.AsInt(); return {out, RLX_ARG_INT};
    case Value::Kind::kFloat: out.v_float64 = value.AsFloat(); return {out, RLX_ARG_FLOAT};
    case Value::Kind::kString: out.v_str = value.AsString().c_str(); return {out, RLX_ARG_STRING};
    case Value::Kind::kNDArray: {
      const NDArray& array = value.AsNDArray();
      if (!array) throw RuntimeError(StrCat("argument ", index, " of kernel '", name, "' is a null NDArray"));
      out.v_handle = array.dl_tensor();
      return {out, RLX_ARG_TENSOR};
    }
    default:
      throw RuntimeError(StrCat("argument ", index, " of kernel '", name, "': a ", value.type_name(),
                                " cannot be passed to a compiled kernel (expected NDArray, int, float, "
                                "string or null)"));
  }
}

Value FromCValue(const RLXValue& value, int code, const std::string& name) {
  switch (code) {
    case RLX_ARG_NULL: return Value();
    case RLX_ARG_INT: return Value(value.v_int64);
    case RLX_ARG_FLOAT: return Value(value.v_float64);
    case RLX_ARG_STRING: return Value(std::string(value.v_str != nullptr ? value.v_str : ""));
    default: throw RuntimeError(StrCat("kernel '", name, "' returned a value of unsupported type code ", code));
  }
}

}  // namespace

Value CallPackedCFunc(RLXPackedCFunc func, std::span<const Value> args, const std::string& name) {
  std::vector<RLXValue> values(args.size());
  std::vector<int> codes(args.size());
  for (size_t i = 0; i < args.size(); ++i) std::tie(values[i], codes[i]) = ToCValue(args[i], i, name);
  RLXValue ret{};
  int ret_code = RLX_ARG_NULL;
  rlx_set_last_error("");
  int status = func(values.data(), codes.data(), static_cast<int>(args.size()), &ret, &ret_code);
  if (status != 0) {
    std::string message = rlx_get_last_error();
    if (message.empty()) message = StrCat("it returned error code ", status, " without a message");
    throw RuntimeError(StrCat("kernel '", name, "' failed: ", message));
  }
  return FromCValue(ret, ret_code, name);
}

Module Module::LoadFromFile(const std::string& path) {
  CheckLoadableFile(path);
  CheckSharedLibraryComplete(path);  // dlopen of a truncated file can die of SIGBUS
  // An absolute path: dlopen would search the library path for a bare name.
  std::string absolute = std::filesystem::absolute(path).string();
  void* handle = dlopen(absolute.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* reason = dlerror();
    LoadFailure(path, reason != nullptr ? reason : "dlopen failed");
  }
  auto node = std::make_shared<LibraryModuleNode>(handle, path);
  BindRuntime(*node);
  return Module(std::move(node));
}

const ModuleNode& Module::node() const {
  if (node_ == nullptr) throw RuntimeError("use of a null Module");
  return *node_;
}

const std::string& Module::name() const { return node().name(); }

void* Module::GetSymbol(const std::string& name) const { return node().GetSymbol(name); }

void* Module::GetRequiredSymbol(const std::string& name) const {
  void* symbol = GetSymbol(name);
  if (symbol == nullptr) throw RuntimeError(StrCat("module '", this->name(), "' has no symbol '", name, "'"));
  return symbol;
}

PackedFunc Module::GetFunction(const std::string& name) const {
  auto func = reinterpret_cast<RLXPackedCFunc>(GetSymbol(name));
  if (func == nullptr) return PackedFunc();
  return PackedFunc(name, [func, keep_loaded = node_, name](const Args& args) {
    return CallPackedCFunc(func, args.values(), name);
  });
}

PackedFunc Module::GetRequiredFunction(const std::string& name) const {
  PackedFunc func = GetFunction(name);
  if (!func) throw RuntimeError(StrCat("module '", this->name(), "' has no function '", name, "'"));
  return func;
}

}  // namespace rlx::runtime
