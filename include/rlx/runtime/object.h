// The base of opaque runtime objects that travel inside a Value (a storage
// block, later a KV cache or a VM closure).
//
// Objects are shared with std::shared_ptr and identified for error messages by
// type_name(). Value::AsObject<T>() checks the dynamic type, so a builtin that
// receives the wrong kind of object raises "expected Storage, got KVCache"
// instead of misreading memory. Each object class declares
//   static constexpr std::string_view kTypeName = "Storage";
// and returns it from type_name().
#pragma once

#include <memory>
#include <string_view>

namespace rlx::runtime {

class Object {
 public:
  virtual ~Object() = default;
  // A short name for messages: "Storage".
  virtual std::string_view type_name() const = 0;
};

using ObjectPtr = std::shared_ptr<Object>;

}  // namespace rlx::runtime
