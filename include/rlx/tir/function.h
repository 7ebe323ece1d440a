// PrimFunc: a loop-level tensor program.
//
// Parameters are scalar Vars; a handle parameter bound in `buffer_map` is a
// tensor argument whose Buffer (with possibly symbolic shape) is matched
// against the actual argument at call time: the first occurrence of a shape
// variable in a buffer_map shape defines it. Calls from the graph level pass
// inputs then outputs (destination-passing style), then scalar tir_vars.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rlx/tir/stmt.h"

namespace rlx::tir {

class PrimFuncNode : public Node {
 public:
  static constexpr NodeKind kKind = NodeKind::kPrimFunc;
  PrimFuncNode() : Node(kKind) {}

  // The buffer bound to `param`, or undefined for a scalar parameter.
  Buffer BufferFor(const Var& param) const;

  std::vector<Var> params;
  std::vector<std::pair<Var, Buffer>> buffer_map;
  Stmt body;
  DataType ret_type = DataType::Void();
  Dict attrs;  // may be undefined; "global_symbol", "tir.noalias", ...
  bool is_private = false;
  Span span;
};
using PrimFunc = Ref<PrimFuncNode>;

}  // namespace rlx::tir
