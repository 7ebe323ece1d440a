// Generic attribute values: lists and string-keyed dictionaries of nodes.
//
// Function attributes (`R.func_attr({...})`, `T.func_attr({...})`), module
// attributes and operator attributes (`axis=-1`) are all Dicts whose values
// are IntImm (bool/int), FloatImm, StringImm, Array, Dict or any PrimExpr /
// struct info node. Dict keeps insertion order so printing is stable.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rlx/ir/node.h"

namespace rlx::ir {

class ArrayNode : public Node {
 public:
  static constexpr NodeKind kKind = NodeKind::kArray;
  explicit ArrayNode(std::vector<ObjectRef> elements = {}) : Node(kKind), elements(std::move(elements)) {}
  std::vector<ObjectRef> elements;
};
using Array = Ref<ArrayNode>;

class DictNode : public Node {
 public:
  static constexpr NodeKind kKind = NodeKind::kDict;
  using Item = std::pair<std::string, ObjectRef>;
  explicit DictNode(std::vector<Item> items = {}) : Node(kKind), items(std::move(items)) {}

  // The value for `key`, or an undefined ref.
  ObjectRef Get(const std::string& key) const;
  bool Contains(const std::string& key) const { return Get(key).defined(); }

  std::vector<Item> items;
};
using Dict = Ref<DictNode>;

// A copy of `dict` (which may be undefined) with `key` set to `value`.
Dict DictWith(const Dict& dict, const std::string& key, ObjectRef value);

}  // namespace rlx::ir
