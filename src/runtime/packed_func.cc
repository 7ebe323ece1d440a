// Value, Args, PackedFunc and the global Registry (design in packed_func.h).
#include "rlx/runtime/packed_func.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace rlx::runtime {

// ---------------------------------------------------------------- Value

std::optional<int64_t> Value::TryInt() const {
  if (const int64_t* value = TryGet<int64_t>()) return *value;
  if (const bool* value = TryGet<bool>()) return *value ? 1 : 0;
  return std::nullopt;
}

std::optional<double> Value::TryFloat() const {
  if (const double* value = TryGet<double>()) return *value;
  if (const int64_t* value = TryGet<int64_t>()) return static_cast<double>(*value);
  return std::nullopt;
}

std::optional<bool> Value::TryBool() const {
  if (const bool* value = TryGet<bool>()) return *value;
  if (const int64_t* value = TryGet<int64_t>()) return *value != 0;
  return std::nullopt;
}

std::string Value::type_name() const {
  switch (kind()) {
    case Kind::kNull: return "null";
    case Kind::kInt: return "int";
    case Kind::kFloat: return "float";
    case Kind::kBool: return "bool";
    case Kind::kString: return "string";
    case Kind::kDtype: return "dtype";
    case Kind::kDevice: return "device";
    case Kind::kNDArray: return "NDArray";
    case Kind::kShape: return "shape";
    case Kind::kArray: return "array";
    case Kind::kObject: {
      const ObjectPtr& object = *TryGet<ObjectPtr>();
      return object ? std::string(object->type_name()) : "null object";
    }
    case Kind::kFunc: return "function";
  }
  return "unknown";
}

std::string Value::ToString() const {
  switch (kind()) {
    case Kind::kNull: return "None";
    case Kind::kInt: return std::to_string(*TryGet<int64_t>());
    case Kind::kFloat: return StrCat(*TryGet<double>());
    case Kind::kBool: return *TryGet<bool>() ? "True" : "False";
    case Kind::kString: return "\"" + AsString() + "\"";
    case Kind::kDtype: return AsDtype().ToString();
    case Kind::kDevice: return AsDevice().ToString();
    case Kind::kNDArray: return AsNDArray().ToString();
    case Kind::kShape: return "shape " + ShapeToString(AsShape());
    case Kind::kArray: {
      std::string text = "[";
      for (const Value& element : AsArray()) text += (text.size() > 1 ? ", " : "") + element.ToString();
      return text + "]";
    }
    case Kind::kObject: return type_name();
    case Kind::kFunc: return "function '" + AsFunc().name() + "'";
  }
  return "unknown";
}

namespace {

[[noreturn]] void ThrowExpected(std::string_view expected, const Value& value) {
  throw RuntimeError(StrCat("expected ", expected, ", got ", value.type_name()));
}

template <typename T>
const T& OrThrow(const T* value, std::string_view expected, const Value& self) {
  if (value == nullptr) ThrowExpected(expected, self);
  return *value;
}

template <typename T>
T OrThrow(const std::optional<T>& value, std::string_view expected, const Value& self) {
  if (!value) ThrowExpected(expected, self);
  return *value;
}

}  // namespace

int64_t Value::AsInt() const { return OrThrow(TryInt(), "int", *this); }
double Value::AsFloat() const { return OrThrow(TryFloat(), "float", *this); }
bool Value::AsBool() const { return OrThrow(TryBool(), "bool", *this); }
const std::string& Value::AsString() const { return OrThrow(TryGetShared<std::string>(), "string", *this); }
DataType Value::AsDtype() const { return OrThrow(TryGet<DataType>(), "dtype", *this); }
Device Value::AsDevice() const { return OrThrow(TryGet<Device>(), "device", *this); }
const NDArray& Value::AsNDArray() const { return OrThrow(TryGet<NDArray>(), "NDArray", *this); }
const ShapeTuple& Value::AsShape() const { return OrThrow(TryGetShared<ShapeTuple>(), "shape", *this); }
const std::vector<Value>& Value::AsArray() const {
  return OrThrow(TryGetShared<std::vector<Value>>(), "array", *this);
}
const ObjectPtr& Value::AsObject() const { return OrThrow(TryGet<ObjectPtr>(), "object", *this); }
const PackedFunc& Value::AsFunc() const { return OrThrow(TryGet<PackedFunc>(), "function", *this); }

// ---------------------------------------------------------------- Args

const Value& Args::operator[](int64_t i) const {
  if (i < 0 || i >= size()) {
    throw RuntimeError(StrCat("'", func_name_, "' was called with ", size(), " argument", size() == 1 ? "" : "s",
                              ", but argument ", i, " is needed"));
  }
  return values_[static_cast<size_t>(i)];
}

void Args::CheckCount(int64_t count) const {
  if (size() != count) {
    throw RuntimeError(StrCat("'", func_name_, "' expects ", count, " argument", count == 1 ? "" : "s", ", got ",
                              size()));
  }
}

void Args::ThrowTypeMismatch(int64_t i, std::string_view expected) const {
  throw RuntimeError(StrCat("argument ", i, " of '", func_name_, "': expected ", expected, ", got ",
                            (*this)[i].type_name()));
}

namespace {

template <typename T>
const T& Checked(const Args& args, int64_t i, const T* value, std::string_view expected) {
  if (value == nullptr) args.ThrowTypeMismatch(i, expected);
  return *value;
}

template <typename T>
T Checked(const Args& args, int64_t i, const std::optional<T>& value, std::string_view expected) {
  if (!value) args.ThrowTypeMismatch(i, expected);
  return *value;
}

}  // namespace

int64_t Args::GetInt(int64_t i) const { return Checked(*this, i, (*this)[i].TryInt(), "int"); }
double Args::GetFloat(int64_t i) const { return Checked(*this, i, (*this)[i].TryFloat(), "float"); }
bool Args::GetBool(int64_t i) const { return Checked(*this, i, (*this)[i].TryBool(), "bool"); }
const std::string& Args::GetString(int64_t i) const {
  return Checked(*this, i, (*this)[i].TryGetShared<std::string>(), "string");
}
DataType Args::GetDtype(int64_t i) const { return Checked(*this, i, (*this)[i].TryGet<DataType>(), "dtype"); }
Device Args::GetDevice(int64_t i) const { return Checked(*this, i, (*this)[i].TryGet<Device>(), "device"); }
const NDArray& Args::GetNDArray(int64_t i) const {
  return Checked(*this, i, (*this)[i].TryGet<NDArray>(), "NDArray");
}
const ShapeTuple& Args::GetShape(int64_t i) const {
  return Checked(*this, i, (*this)[i].TryGetShared<ShapeTuple>(), "shape");
}
const std::vector<Value>& Args::GetArray(int64_t i) const {
  return Checked(*this, i, (*this)[i].TryGetShared<std::vector<Value>>(), "array");
}
const ObjectPtr& Args::GetObject(int64_t i) const {
  return Checked(*this, i, (*this)[i].TryGet<ObjectPtr>(), "object");
}
const PackedFunc& Args::GetFunc(int64_t i) const {
  return Checked(*this, i, (*this)[i].TryGet<PackedFunc>(), "function");
}

// ---------------------------------------------------------------- PackedFunc

PackedFunc::PackedFunc(std::string name, Body body)
    : impl_(std::make_shared<const Impl>(Impl{std::move(name), std::move(body)})) {
  if (!impl_->body) throw RuntimeError(StrCat("PackedFunc '", impl_->name, "' has an empty body"));
}

const std::string& PackedFunc::name() const {
  static const std::string kNull = "<null>";
  return impl_ ? impl_->name : kNull;
}

Value PackedFunc::CallPacked(std::span<const Value> args) const {
  if (impl_ == nullptr) throw RuntimeError("call of a null PackedFunc");
  try {
    return impl_->body(Args(args, impl_->name));
  } catch (const RuntimeError&) {
    throw;
  } catch (const std::exception& error) {
    throw RuntimeError(StrCat("'", impl_->name, "' failed: ", error.what()));
  } catch (...) {
    throw RuntimeError(StrCat("'", impl_->name, "' threw a non-standard exception"));
  }
}

// ---------------------------------------------------------------- Registry

namespace {

struct RegistryTable {
  std::mutex mutex;
  std::map<std::string, PackedFunc, std::less<>> functions;
};

RegistryTable& Table() {
  static RegistryTable* table = new RegistryTable();  // never destroyed, like the allocator
  return *table;
}

}  // namespace

void Registry::Register(const std::string& name, PackedFunc func, bool override_existing) {
  if (!func) throw RuntimeError(StrCat("cannot register a null function as '", name, "'"));
  RegistryTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  auto [it, inserted] = table.functions.try_emplace(name, func);
  if (inserted) return;
  if (!override_existing) throw RuntimeError(StrCat("a function '", name, "' is already registered"));
  it->second = std::move(func);
}

void Registry::Register(const std::string& name, PackedFunc::Body body, bool override_existing) {
  Register(name, PackedFunc(name, std::move(body)), override_existing);
}

PackedFunc Registry::Get(const std::string& name) {
  RegistryTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  auto it = table.functions.find(name);
  return it == table.functions.end() ? PackedFunc() : it->second;
}

PackedFunc Registry::GetRequired(const std::string& name) {
  PackedFunc func = Get(name);
  if (!func) throw RuntimeError(StrCat("no function '", name, "' is registered"));
  return func;
}

bool Registry::Remove(const std::string& name) {
  RegistryTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  return table.functions.erase(name) > 0;
}

std::vector<std::string> Registry::ListNames() {
  RegistryTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  std::vector<std::string> names;
  names.reserve(table.functions.size());
  for (const auto& [name, func] : table.functions) names.push_back(name);
  return names;
}

}  // namespace rlx::runtime
