#include "rlx/ir/attrs.h"

namespace rlx::ir {

ObjectRef DictNode::Get(const std::string& key) const {
  for (const Item& item : items) {
    if (item.first == key) return item.second;
  }
  return ObjectRef();
}

Dict DictWith(const Dict& dict, const std::string& key, ObjectRef value) {
  std::vector<DictNode::Item> items;
  if (dict.defined()) items = dict->items;
  for (DictNode::Item& item : items) {
    if (item.first == key) {
      item.second = std::move(value);
      return make<DictNode>(std::move(items));
    }
  }
  items.emplace_back(key, std::move(value));
  return make<DictNode>(std::move(items));
}

}  // namespace rlx::ir
