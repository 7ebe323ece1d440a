// Loop-level statements (TensorIR).
//
// A PrimFunc body is a statement tree. Blocks are the unit of computation:
// a Block declares its iteration variables (each spatial or reduce, with a
// domain), the buffer regions it reads and writes, an optional init
// statement run before the first reduce iteration, and buffers it allocates.
// A BlockRealize binds the block's iteration variables to values computed
// from the surrounding loop variables, under a predicate.
//
// Statements are immutable nodes like PrimExprs; see ir/node.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rlx/ir/attrs.h"
#include "rlx/ir/expr.h"

namespace rlx::tir {

using ir::Buffer;
using ir::Dict;
using ir::PrimExpr;
using ir::Var;

class StmtNode : public Node {
 public:
  static bool classof(NodeKind kind) { return kind >= NodeKind::kFor && kind <= NodeKind::kDeclBuffer; }
  explicit StmtNode(NodeKind kind) : Node(kind) {}
  Span span;
};
using Stmt = Ref<StmtNode>;

// [min, min + extent)
struct Range {
  PrimExpr min;
  PrimExpr extent;
};

// kThreadIndex: a GPU thread/block index bound by a "thread_extent"
// AttrStmt (T.launch_thread / T.env_thread), named by its thread_tag.
enum class IterKind { kSpatial, kReduce, kScan, kOpaque, kThreadIndex };
// "S", "R", ... as in T.axis.remap; and the long names "spatial", "reduce".
const char* IterKindName(IterKind kind);

class IterVarNode : public Node {
 public:
  static constexpr NodeKind kKind = NodeKind::kIterVar;
  IterVarNode(Var var, Range dom, IterKind iter_kind, std::string thread_tag = "")
      : Node(kKind), var(std::move(var)), dom(std::move(dom)), iter_kind(iter_kind), thread_tag(std::move(thread_tag)) {}
  Var var;
  Range dom;  // min/extent undefined for an env_thread not launched yet
  IterKind iter_kind;
  std::string thread_tag;  // "threadIdx.x", ... for kThreadIndex; else empty
};
using IterVar = Ref<IterVarNode>;

// A rectangular region of a buffer, one Range per dimension.
class BufferRegionNode : public Node {
 public:
  static constexpr NodeKind kKind = NodeKind::kBufferRegion;
  BufferRegionNode(Buffer buffer, std::vector<Range> region) : Node(kKind), buffer(std::move(buffer)), region(std::move(region)) {}
  Buffer buffer;
  std::vector<Range> region;
};
using BufferRegion = Ref<BufferRegionNode>;

// `T.match_buffer(region, ...)` inside a block: `buffer` views `source`.
class MatchBufferRegionNode : public Node {
 public:
  static constexpr NodeKind kKind = NodeKind::kMatchBufferRegion;
  MatchBufferRegionNode(Buffer buffer, BufferRegion source) : Node(kKind), buffer(std::move(buffer)), source(std::move(source)) {}
  Buffer buffer;
  BufferRegion source;
};
using MatchBufferRegion = Ref<MatchBufferRegionNode>;

enum class ForKind { kSerial, kParallel, kVectorized, kUnrolled, kThreadBinding };
// "serial", "parallel", "vectorized", "unroll", "thread_binding".
const char* ForKindName(ForKind kind);

class ForNode : public StmtNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kFor;
  ForNode() : StmtNode(kKind) {}
  Var loop_var;
  PrimExpr min;
  PrimExpr extent;
  ForKind for_kind = ForKind::kSerial;
  Stmt body;
  std::string thread_tag;  // for kThreadBinding: "blockIdx.x", "threadIdx.x", ...
  Dict annotations;        // may be undefined
  // TVM's optional loop step: loop_var takes min, min + step, ... while it is
  // below min + extent. Undefined means 1.
  PrimExpr step;
  bool HasUnitStep() const;
};

// TVM's While: runs `body` as long as the bool scalar `condition` holds,
// evaluating it before every iteration (`while cond:` in TVMScript).
class WhileNode : public StmtNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kWhile;
  WhileNode(PrimExpr condition, Stmt body) : StmtNode(kKind), condition(std::move(condition)), body(std::move(body)) {}
  PrimExpr condition;
  Stmt body;
};

class BlockNode : public StmtNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kBlock;
  BlockNode() : StmtNode(kKind) {}
  std::string name;
  std::vector<IterVar> iter_vars;
  std::vector<BufferRegion> reads;
  std::vector<BufferRegion> writes;
  Stmt init;  // may be undefined
  Stmt body;
  std::vector<Buffer> alloc_buffers;
  std::vector<MatchBufferRegion> match_buffers;
  Dict annotations;  // may be undefined
};
using Block = Ref<BlockNode>;

class BlockRealizeNode : public StmtNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kBlockRealize;
  BlockRealizeNode() : StmtNode(kKind) {}
  std::vector<PrimExpr> iter_values;
  PrimExpr predicate;  // bool; true when always executed
  Block block;
};

class BufferStoreNode : public StmtNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kBufferStore;
  BufferStoreNode(Buffer buffer, PrimExpr value, std::vector<PrimExpr> indices)
      : StmtNode(kKind), buffer(std::move(buffer)), value(std::move(value)), indices(std::move(indices)) {}
  Buffer buffer;
  PrimExpr value;
  std::vector<PrimExpr> indices;
};

class SeqStmtNode : public StmtNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kSeqStmt;
  explicit SeqStmtNode(std::vector<Stmt> seq) : StmtNode(kKind), seq(std::move(seq)) {}
  std::vector<Stmt> seq;
};

class IfThenElseNode : public StmtNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kIfThenElse;
  IfThenElseNode(PrimExpr condition, Stmt then_case, Stmt else_case)
      : StmtNode(kKind), condition(std::move(condition)), then_case(std::move(then_case)), else_case(std::move(else_case)) {}
  PrimExpr condition;
  Stmt then_case;
  Stmt else_case;  // may be undefined
};

class LetStmtNode : public StmtNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kLetStmt;
  LetStmtNode(Var var, PrimExpr value, Stmt body) : StmtNode(kKind), var(std::move(var)), value(std::move(value)), body(std::move(body)) {}
  Var var;
  PrimExpr value;
  Stmt body;
};

// TVM's AttrStmt: attaches (attr_key, value) to `node` for the extent of
// `body`. `node` is any IR node: an IterVar for "thread_extent" /
// "virtual_thread" (the binding defines the IterVar's var in `body` unless
// an enclosing one already did), a Var or Buffer for "storage_alignment",
// "pragma_*", ..., or a StringImm. Keys other than thread bindings do not
// change what the body computes.
class AttrStmtNode : public StmtNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kAttrStmt;
  AttrStmtNode(ObjectRef node, std::string attr_key, PrimExpr value, Stmt body)
      : StmtNode(kKind), node(std::move(node)), attr_key(std::move(attr_key)), value(std::move(value)), body(std::move(body)) {}
  ObjectRef node;
  std::string attr_key;
  PrimExpr value;
  Stmt body;
};

// True for the keys whose node is an IterVar bound to a GPU thread.
bool IsThreadBindingAttr(const std::string& attr_key);

class EvaluateNode : public StmtNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kEvaluate;
  explicit EvaluateNode(PrimExpr value) : StmtNode(kKind), value(std::move(value)) {}
  PrimExpr value;
};

class AssertStmtNode : public StmtNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kAssertStmt;
  AssertStmtNode(PrimExpr condition, PrimExpr message, Stmt body)
      : StmtNode(kKind), condition(std::move(condition)), message(std::move(message)), body(std::move(body)) {}
  PrimExpr condition;
  PrimExpr message;  // a StringImm
  Stmt body;         // may be undefined (the assert is the last statement)
};

// Allocates `buffer` (its data var is bound here) for the extent of `body`.
class AllocateNode : public StmtNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kAllocate;
  AllocateNode() : StmtNode(kKind) {}
  Var buffer_var;
  DataType dtype;
  std::vector<PrimExpr> extents;
  PrimExpr condition;
  Stmt body;
  Dict annotations;
};

// Declares `buffer` (over existing data) for the extent of `body`; also used
// for `T.alloc_buffer` outside blocks when `allocates` is set.
class DeclBufferNode : public StmtNode {
 public:
  static constexpr NodeKind kKind = NodeKind::kDeclBuffer;
  DeclBufferNode(Buffer buffer, Stmt body) : StmtNode(kKind), buffer(std::move(buffer)), body(std::move(body)) {}
  Buffer buffer;
  Stmt body;
};

// A SeqStmt of `stmts` with nested SeqStmts flattened; a single statement is
// returned as is; an empty list gives Evaluate(0).
Stmt MakeSeq(std::vector<Stmt> stmts);

}  // namespace rlx::tir
