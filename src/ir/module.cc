#include "rlx/ir/module.h"

namespace rlx::ir {

ObjectRef IRModuleNode::Lookup(const std::string& name) const {
  for (const Entry& entry : functions) {
    if (entry.first == name) return entry.second;
  }
  return ObjectRef();
}

IRModule WithFunction(const IRModule& mod, const std::string& name, ObjectRef func) {
  auto* out = new IRModuleNode();
  if (mod.defined()) {
    out->functions = mod->functions;
    out->attrs = mod->attrs;
    out->global_infos = mod->global_infos;
    out->span = mod->span;
  }
  for (IRModuleNode::Entry& entry : out->functions) {
    if (entry.first == name) {
      entry.second = std::move(func);
      return IRModule(out);
    }
  }
  out->functions.emplace_back(name, std::move(func));
  return IRModule(out);
}

IRModule WithoutFunction(const IRModule& mod, const std::string& name) {
  auto* out = new IRModuleNode();
  out->attrs = mod->attrs;
  out->global_infos = mod->global_infos;
  out->span = mod->span;
  for (const IRModuleNode::Entry& entry : mod->functions) {
    if (entry.first != name) out->functions.push_back(entry);
  }
  return IRModule(out);
}

}  // namespace rlx::ir
