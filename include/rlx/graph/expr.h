// Graph-level (Relax) expressions, bindings and blocks.
//
// Every expression has struct info. Leaves built with an annotation (Var,
// Constant, ShapeExpr, PrimValue, StringImm) carry it from construction;
// other expressions get theirs from the BlockBuilder's normalizer, which sets
// it exactly once (UpdateStructInfo) before the node is shared. After
// normalization a function body is in A-normal form: call arguments are
// leaves (Vars, constants, shapes, prim values, tuples of leaves, global
// vars, ops, extern funcs).
//
// Variables are compared by identity. A DataflowVar is a Var that is only
// visible inside its dataflow block.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rlx/graph/struct_info.h"
#include "rlx/ir/attrs.h"
#include "rlx/ir/expr.h"

namespace rlx::graph {

using ir::Dict;

class ExprNode : public Node {
 public:
  static bool classof(NodeKind kind) { return kind >= NodeKind::kGraphVar && kind <= NodeKind::kGraphFunction; }
  explicit ExprNode(NodeKind kind) : Node(kind) {}

  // Set once by construction or the normalizer; see UpdateStructInfo.
  mutable StructInfo struct_info;
  Span span;
};

// Sets `expr`'s struct info if it has none; an internal error if it has a
// different one already.
void UpdateStructInfo(const Expr& expr, StructInfo sinfo);
// The struct info of `expr` (an internal error if it has none).
StructInfo GetStructInfo(const Expr& expr);

class VarNode : public ExprNode {
 public:
  static bool classof(NodeKind kind) { return kind == NodeKind::kGraphVar || kind == NodeKind::kGraphDataflowVar; }
  VarNode(std::string name_hint, StructInfo sinfo, bool is_dataflow = false);
  std::string name_hint;
};
using Var = Ref<VarNode>;

class DataflowVarNode : public VarNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kGraphDataflowVar;
  DataflowVarNode(std::string name_hint, StructInfo sinfo) : VarNode(std::move(name_hint), std::move(sinfo), true) {}
};
using DataflowVar = Ref<DataflowVarNode>;

// Constant tensor payload: dense row-major bytes. Never hashed or compared
// element by element by the structural hash (only by pointer / size).
struct TensorData {
  DataType dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;
  int64_t NumElements() const;
};
using TensorDataPtr = std::shared_ptr<const TensorData>;

class ConstantNode : public ExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kGraphConstant;
  explicit ConstantNode(TensorDataPtr data);  // struct info from the data
  TensorDataPtr data;
};
using Constant = Ref<ConstantNode>;

class TupleNode : public ExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kGraphTuple;
  explicit TupleNode(std::vector<Expr> fields) : ExprNode(kKind), fields(std::move(fields)) {}
  std::vector<Expr> fields;
};
using Tuple = Ref<TupleNode>;

class TupleGetItemNode : public ExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kGraphTupleGetItem;
  TupleGetItemNode(Expr tuple, int index) : ExprNode(kKind), tuple(std::move(tuple)), index(index) {}
  Expr tuple;
  int index;
};
using TupleGetItem = Ref<TupleGetItemNode>;

// `op` is an Op (operator), a GlobalVar (module function), an ExternFunc or
// a Var holding a callable. `sinfo_args` are the explicit output struct
// infos of call_tir / call_dps_packed / call_pure_packed.
class CallNode : public ExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kGraphCall;
  CallNode(Expr op, std::vector<Expr> args, Dict attrs = nullptr, std::vector<StructInfo> sinfo_args = {})
      : ExprNode(kKind), op(std::move(op)), args(std::move(args)), attrs(std::move(attrs)), sinfo_args(std::move(sinfo_args)) {}
  Expr op;
  std::vector<Expr> args;
  Dict attrs;  // may be undefined
  std::vector<StructInfo> sinfo_args;
};
using Call = Ref<CallNode>;

class SeqExprNode;
using SeqExpr = Ref<SeqExprNode>;

class IfNode : public ExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kGraphIf;
  IfNode(Expr cond, Expr true_branch, Expr false_branch)
      : ExprNode(kKind), cond(std::move(cond)), true_branch(std::move(true_branch)), false_branch(std::move(false_branch)) {}
  Expr cond;
  Expr true_branch;   // a SeqExpr after normalization
  Expr false_branch;  // a SeqExpr after normalization
};
using If = Ref<IfNode>;

class ShapeExprNode : public ExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kGraphShapeExpr;
  explicit ShapeExprNode(std::vector<PrimExpr> values);  // struct info Shape(values)
  std::vector<PrimExpr> values;
};
using ShapeExpr = Ref<ShapeExprNode>;

class PrimValueNode : public ExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kGraphPrimValue;
  explicit PrimValueNode(PrimExpr value);  // struct info Prim(value=value)
  PrimExpr value;
};
using PrimValue = Ref<PrimValueNode>;

class StringImmNode : public ExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kGraphStringImm;
  explicit StringImmNode(std::string value);  // struct info Object
  std::string value;
};
using StringImm = Ref<StringImmNode>;

// A data type as a value (TVM's relax.DataTypeImm, `R.dtype("float32")`),
// an argument of the memory and VM allocation operators.
class DataTypeImmNode : public ExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kGraphDataTypeImm;
  explicit DataTypeImmNode(DataType value);  // struct info Object
  DataType value;
};
using DataTypeImm = Ref<DataTypeImmNode>;

// A library function named by its symbol ("my_lib.rms_norm").
class ExternFuncNode : public ExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kGraphExternFunc;
  explicit ExternFuncNode(std::string global_symbol);  // struct info opaque Callable
  std::string global_symbol;
};
using ExternFunc = Ref<ExternFuncNode>;

// A reference to a module function by name.
class GlobalVarNode : public ExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kGraphGlobalVar;
  explicit GlobalVarNode(std::string name_hint) : ExprNode(kKind), name_hint(std::move(name_hint)) {}
  std::string name_hint;
};
using GlobalVar = Ref<GlobalVarNode>;

// A reference to an operator by registry name ("relax.add").
class OpNode : public ExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kGraphOp;
  explicit OpNode(std::string name) : ExprNode(kKind), name(std::move(name)) {}
  std::string name;
};
using Op = Ref<OpNode>;
// The shared Op node for `name` (one node per name).
Op GetOp(const std::string& name);

// ---------------------------------------------------------------------------
// Bindings and blocks.

class BindingNode : public Node {
 public:
  static bool classof(NodeKind kind) { return kind == NodeKind::kVarBinding || kind == NodeKind::kMatchCast; }
  BindingNode(NodeKind kind, Var var) : Node(kind), var(std::move(var)) {}
  Var var;
  Span span;
};
using Binding = Ref<BindingNode>;

// var = value
class VarBindingNode : public BindingNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kVarBinding;
  VarBindingNode(Var var, Expr value) : BindingNode(kKind, std::move(var)), value(std::move(value)) {}
  Expr value;
};
using VarBinding = Ref<VarBindingNode>;

// var = match_cast(value, struct_info): checked at run time; symbolic
// variables that first appear in `struct_info` are defined here.
class MatchCastNode : public BindingNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kMatchCast;
  MatchCastNode(Var var, Expr value, StructInfo struct_info)
      : BindingNode(kKind, std::move(var)), value(std::move(value)), struct_info(std::move(struct_info)) {}
  Expr value;
  StructInfo struct_info;
};
using MatchCast = Ref<MatchCastNode>;

class BindingBlockNode : public Node {
 public:
  static bool classof(NodeKind kind) { return kind == NodeKind::kBindingBlock || kind == NodeKind::kDataflowBlock; }
  explicit BindingBlockNode(std::vector<Binding> bindings, bool is_dataflow = false)
      : Node(is_dataflow ? NodeKind::kDataflowBlock : NodeKind::kBindingBlock), bindings(std::move(bindings)) {}
  bool is_dataflow() const { return kind() == NodeKind::kDataflowBlock; }
  std::vector<Binding> bindings;
  Span span;
};
using BindingBlock = Ref<BindingBlockNode>;

class DataflowBlockNode : public BindingBlockNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kDataflowBlock;
  explicit DataflowBlockNode(std::vector<Binding> bindings) : BindingBlockNode(std::move(bindings), true) {}
};

class SeqExprNode : public ExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kGraphSeqExpr;
  SeqExprNode(std::vector<BindingBlock> blocks, Expr body)
      : ExprNode(kKind), blocks(std::move(blocks)), body(std::move(body)) {}
  std::vector<BindingBlock> blocks;
  Expr body;
};

class FunctionNode : public ExprNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kGraphFunction;
  // Struct info is derived: Callable(param sinfos, ret_struct_info, is_pure).
  FunctionNode(std::vector<Var> params, Expr body, StructInfo ret_struct_info, bool is_pure = true,
               Dict attrs = nullptr, bool is_private = false);
  std::vector<Var> params;
  Expr body;  // a SeqExpr after normalization
  StructInfo ret_struct_info;
  bool is_pure;
  Dict attrs;  // may be undefined
  bool is_private;
};
using Function = Ref<FunctionNode>;

// Short constructors.
Var MakeVar(std::string name, StructInfo sinfo);
Var MakeDataflowVar(std::string name, StructInfo sinfo);
Call MakeCall(const std::string& op_name, std::vector<Expr> args, Dict attrs = nullptr,
              std::vector<StructInfo> sinfo_args = {});

}  // namespace rlx::graph
