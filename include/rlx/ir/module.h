// IRModule: the unit every pass transforms.
//
// A module holds named functions of any level side by side: graph-level
// functions (graph::Function) and tensor programs (tir::PrimFunc), in
// insertion order, plus module attributes. Functions are referred to by name
// (graph::GlobalVar carries the name). Modules are immutable values like all
// nodes: a pass builds a new module (WithFunction, WithoutFunction).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rlx/ir/attrs.h"
#include "rlx/ir/node.h"
#include "rlx/support/source.h"

namespace rlx::ir {

class IRModuleNode : public Node {
 public:
  static constexpr NodeKind kKind = NodeKind::kIRModule;
  using Entry = std::pair<std::string, ObjectRef>;
  IRModuleNode() : Node(kKind) {}
  IRModuleNode(std::vector<Entry> functions, Dict attrs)
      : Node(kKind), functions(std::move(functions)), attrs(std::move(attrs)) {}

  // The function named `name`, or undefined.
  ObjectRef Lookup(const std::string& name) const;
  bool Contains(const std::string& name) const { return Lookup(name).defined(); }

  std::vector<Entry> functions;
  Dict attrs;  // may be undefined
  // Module-level global infos (`I.module_global_infos`), kept opaque.
  Dict global_infos;
  Span span;
};
using IRModule = Ref<IRModuleNode>;

// A copy of `mod` where `name` maps to `func` (replaced in place, or appended).
IRModule WithFunction(const IRModule& mod, const std::string& name, ObjectRef func);
// A copy of `mod` without `name`.
IRModule WithoutFunction(const IRModule& mod, const std::string& name);

}  // namespace rlx::ir
