// The PrimFunc interpreter's compiler: TIR to closures over flat slot tables
// (private to the tir layer; the public face is rlx/tir/interpreter.h).
//
// Every Var used as a scalar gets a slot in Frame::vars, every data pointer
// variable (a buffer's `data`, an Allocate's buffer_var) a slot in
// Frame::storages, and every Buffer a slot in Frame::buffers holding its
// concrete layout once declared. Compilation resolves all names to slots,
// checks scoping (a variable used where nothing defines it is an error
// before anything runs), and picks element load/store functions and
// operator implementations by dtype, so the closures only index tables.
//
// Buffers are declared where the IR introduces them (buffer_map, a block's
// alloc_buffers and match_buffers, DeclBuffer); a buffer used without a
// declaration in scope (TIR that reuses an Allocate's data through another
// Buffer object) is declared on every access from its data variable's
// storage — slower, still checked.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "rlx/support/diagnostic.h"
#include "rlx/tir/stmt.h"
#include "tir/interpreter_value.h"

namespace rlx::tir::interp {

struct Storage {
  uint8_t* base = nullptr;
  int64_t bytes = 0;
};

// The concrete layout of a declared buffer.
struct BufferState {
  uint8_t* base = nullptr;  // element 0 of the underlying storage
  int64_t capacity = 0;     // elements available from base
  int64_t elem_offset = 0;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
};

struct Frame {
  std::vector<Value> vars;
  std::vector<Storage> storages;
  std::vector<BufferState> buffers;
};

using ExprFn = std::function<Value(Frame&)>;
using StmtFn = std::function<void(Frame&)>;

// How to lay out a buffer at run time.
struct BufferDecl {
  std::string name;
  DataType dtype;
  int slot = -1;
  int storage_slot = -1;
  std::vector<ExprFn> shape;
  std::vector<ExprFn> strides;  // empty: compact row-major
  ExprFn elem_offset;           // empty: 0
  Span span;
};

// Computes the layout of `decl` over its storage into Frame::buffers and
// checks that every element fits in the storage.
void DeclareBuffer(Frame& frame, const BufferDecl& decl);

// The number of elements of `shape`; a negative dimension is an error.
int64_t NumElements(const std::vector<int64_t>& shape, const std::string& what, const Span& span);

// Renders (3, 4).
std::string ShapeText(const std::vector<int64_t>& shape);

class Compiler {
 public:
  explicit Compiler(Span func_span) : current_span_(std::move(func_span)) {}

  // Slots (created on first request).
  int VarSlot(const ir::VarNode* var);
  int StorageSlot(const ir::VarNode* data);
  int BufferSlot(const ir::BufferNode* buffer);
  int num_vars() const { return static_cast<int>(var_slots_.size()); }
  int num_storages() const { return static_cast<int>(storage_slots_.size()); }
  int num_buffers() const { return static_cast<int>(buffer_slots_.size()); }

  // Scopes: a definition lasts until the matching Undefine.
  void DefineVar(const ir::VarNode* var);
  void UndefineVar(const ir::VarNode* var);
  bool IsVarDefined(const ir::VarNode* var) const;
  void DefineStorage(const ir::VarNode* data);
  void UndefineStorage(const ir::VarNode* data);
  bool IsStorageDefined(const ir::VarNode* data) const;
  void DeclareBufferInScope(const ir::BufferNode* buffer);
  void UndeclareBufferInScope(const ir::BufferNode* buffer);

  ExprFn CompileExpr(const PrimExpr& expr);
  StmtFn CompileStmt(const Stmt& stmt);
  // The run-time declaration of `buffer` (its shape, strides and offset are
  // compiled in the current scope).
  BufferDecl CompileBufferDecl(const Buffer& buffer);

  const Span& current_span() const { return current_span_; }
  [[noreturn]] void Fail(const std::string& message) const;

 private:
  // Expressions (interpreter_expr.cc).
  ExprFn CompileVar(const ir::VarNode* var);
  ExprFn CompileBinary(const ir::BinaryNode* node);
  ExprFn CompileCall(const ir::CallNode* call);
  ExprFn CompileIntrinsic(const std::string& name, const ir::CallNode* call);
  ExprFn CompileLet(const ir::LetNode* let);
  ExprFn CompileLoad(const ir::BufferLoadNode* load);
  std::vector<ExprFn> CompileExprs(const std::vector<PrimExpr>& exprs);

  // Statements (interpreter_stmt.cc).
  StmtFn CompileFor(const ForNode* loop);
  StmtFn CompileBlockRealize(const BlockRealizeNode* realize);
  StmtFn CompileStore(const BufferStoreNode* store);
  StmtFn CompileIf(const IfThenElseNode* node);
  StmtFn CompileWhile(const WhileNode* node);
  StmtFn CompileLetStmt(const LetStmtNode* let);
  StmtFn CompileAttrStmt(const AttrStmtNode* attr);
  StmtFn CompileAssert(const AssertStmtNode* node);
  StmtFn CompileAllocate(const AllocateNode* alloc);
  StmtFn CompileDeclBuffer(const DeclBufferNode* decl);
  StmtFn CompileOptional(const Stmt& stmt);

  // The address of the element of `buffer` at `indices`, bounds-checked;
  // shared by loads and stores.
  std::function<uint8_t*(Frame&)> CompileAddress(const Buffer& buffer, const std::vector<PrimExpr>& indices);
  // Binds a block's match_buffer as a view of its source region; the bare
  // variables it defines are appended to `defined` (the block undefines
  // them after its body).
  StmtFn CompileMatchBuffer(const MatchBufferRegion& match, std::vector<const ir::VarNode*>* defined);

  std::unordered_map<const ir::VarNode*, int> var_slots_;
  std::unordered_map<const ir::VarNode*, int> storage_slots_;
  std::unordered_map<const ir::BufferNode*, int> buffer_slots_;
  std::vector<int> var_depth_;      // active definitions per var slot
  std::vector<int> storage_depth_;  // per storage slot
  std::vector<int> buffer_depth_;   // per buffer slot
  Span current_span_;
};

}  // namespace rlx::tir::interp
