// A small pattern language over dataflow graphs, for fuse-ops-by-pattern
// (after TVM's relax.dpl):
//
//   Wildcard()                          any expression
//   IsOp("relax.matmul", {a, b})        a call of that operator whose
//                                       arguments match a and b
//   a | b                               a, or else b (tried in that order)
//
//   DFPattern matmul = IsOp("relax.matmul", {Wildcard(), Wildcard()});
//   DFPattern bias = IsOp("relax.add", {matmul, Wildcard()});
//   DFPattern epilogue = IsOp("relax.nn.relu", {bias}) | bias;  // optional relu
//
// Matching runs on the bindings of one dataflow block and looks through
// them: an operator pattern matched against a variable bound in the block
// is matched against the variable's value, and that binding joins the
// match. A wildcard matches a variable as it is (the value stays outside).
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace rlx::transform {

class DFPattern {
 public:
  enum class Kind { kWildcard, kOp, kOr };
  struct Node {
    Kind kind;
    std::string op_name;         // kOp: the operator's registry name
    std::vector<DFPattern> args;  // kOp: argument patterns; kOr: the two alternatives
  };

  explicit DFPattern(std::shared_ptr<const Node> node) : node_(std::move(node)) {}
  const Node& node() const { return *node_; }

 private:
  std::shared_ptr<const Node> node_;
};

DFPattern Wildcard();
DFPattern IsOp(std::string op_name, std::vector<DFPattern> args);
DFPattern operator|(DFPattern lhs, DFPattern rhs);

// A pattern and the name its matches carry (the "Composite" attribute of
// the function fuse-ops-by-pattern makes of each match).
struct FusionPattern {
  std::string name;
  DFPattern pattern;
};

// The built-in pattern tables, by name, for the command line
// (`fuse-ops-by-pattern{patterns=<table>}`):
//   "matmul_epilogue": matmul + bias add, optionally followed by relu or
//   gelu, as one "matmul_epilogue" pattern.
// A CompileError for an unknown table (the message lists the known ones).
std::vector<FusionPattern> BuiltinFusionPatterns(const std::string& table);

}  // namespace rlx::transform
