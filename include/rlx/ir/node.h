// The node base of every IR object.
//
// Design (after TVM's Object and Halide's IntrusivePtr):
// - Nodes are immutable once shared and intrusively reference counted. A
//   handle `Ref<T>` owns a `const T*`; copying a handle bumps the count.
// - No C++ RTTI: every node has a NodeKind from one X-macro list below. Each
//   node class declares `static constexpr NodeKind kKind` (or, for abstract
//   categories, `static bool classof(NodeKind)`), which `isa<T>`, `as<T>()`,
//   `cast<T>` and `dyn_cast<T>` use.
// - Because the node list is one macro, functors (ir/functor.h,
//   tir/stmt_functor.h, graph/expr_functor.h) are generated from it: adding a
//   node and not handling it is a compile error, not a silent fallthrough.
// - Construction: `make<T>(...)` for nodes with a constructor, or fill a
//   fresh `T` and wrap it with `Ref<T>(ptr)` before anyone else sees it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

#include "rlx/support/logging.h"

namespace rlx {

// Scalar (PrimExpr) nodes: ir/expr.h. Keep the list contiguous: the range
// check in PrimExprNode::classof depends on it.
#define RLX_PRIM_EXPR_NODES(X) \
  X(IntImm)                    \
  X(FloatImm)                  \
  X(StringImm)                 \
  X(Var)                       \
  X(Add)                       \
  X(Sub)                       \
  X(Mul)                       \
  X(Div)                       \
  X(Mod)                       \
  X(FloorDiv)                  \
  X(FloorMod)                  \
  X(Min)                       \
  X(Max)                       \
  X(EQ)                        \
  X(NE)                        \
  X(LT)                        \
  X(LE)                        \
  X(GT)                        \
  X(GE)                        \
  X(And)                       \
  X(Or)                        \
  X(Not)                       \
  X(Select)                    \
  X(Cast)                      \
  X(Let)                       \
  X(Call)                      \
  X(BufferLoad)                \
  X(Ramp)                      \
  X(Broadcast)

// Loop-level statements: tir/stmt.h.
#define RLX_STMT_NODES(X) \
  X(For)                  \
  X(While)                \
  X(Block)                \
  X(BlockRealize)         \
  X(BufferStore)          \
  X(SeqStmt)              \
  X(IfThenElse)           \
  X(LetStmt)              \
  X(AttrStmt)             \
  X(Evaluate)             \
  X(AssertStmt)           \
  X(Allocate)             \
  X(DeclBuffer)

// Graph-level (Relax) expressions: graph/expr.h.
#define RLX_GRAPH_EXPR_NODES(X) \
  X(Var)                        \
  X(DataflowVar)                \
  X(Constant)                   \
  X(Tuple)                      \
  X(TupleGetItem)               \
  X(Call)                       \
  X(If)                         \
  X(SeqExpr)                    \
  X(ShapeExpr)                  \
  X(PrimValue)                  \
  X(StringImm)                  \
  X(DataTypeImm)                \
  X(ExternFunc)                 \
  X(GlobalVar)                  \
  X(Op)                         \
  X(Function)

// Struct info (graph/struct_info.h).
#define RLX_STRUCT_INFO_NODES(X) \
  X(ObjectStructInfo)            \
  X(PrimStructInfo)              \
  X(ShapeStructInfo)             \
  X(TensorStructInfo)            \
  X(TupleStructInfo)             \
  X(FuncStructInfo)

enum class NodeKind : uint16_t {
#define RLX_KIND_PRIM(name) kPrim##name,
  RLX_PRIM_EXPR_NODES(RLX_KIND_PRIM)
#undef RLX_KIND_PRIM
#define RLX_KIND_STMT(name) k##name,
  RLX_STMT_NODES(RLX_KIND_STMT)
#undef RLX_KIND_STMT
#define RLX_KIND_GRAPH(name) kGraph##name,
  RLX_GRAPH_EXPR_NODES(RLX_KIND_GRAPH)
#undef RLX_KIND_GRAPH
#define RLX_KIND_SINFO(name) k##name,
  RLX_STRUCT_INFO_NODES(RLX_KIND_SINFO)
#undef RLX_KIND_SINFO
  // Other nodes.
  kArray,          // ir/attrs.h: a list of nodes (attribute values)
  kDict,           // ir/attrs.h: string-keyed map of nodes (attribute values)
  kBuffer,         // ir/expr.h
  kIterVar,        // tir/stmt.h
  kBufferRegion,   // tir/stmt.h
  kMatchBufferRegion,
  kPrimFunc,       // tir/function.h
  kVarBinding,     // graph/expr.h
  kMatchCast,      // graph/expr.h
  kBindingBlock,   // graph/expr.h
  kDataflowBlock,  // graph/expr.h
  kIRModule,       // ir/module.h
  kCount,
};

// The printable name of a kind ("Add", "For", "TensorStructInfo", ...).
const char* NodeKindName(NodeKind kind);

class Node {
 public:
  explicit Node(NodeKind kind) : kind_(kind) {}
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  virtual ~Node() = default;

  NodeKind kind() const { return kind_; }

  void IncRef() const { ref_count_.fetch_add(1, std::memory_order_relaxed); }
  void DecRef() const {
    if (ref_count_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  int32_t use_count() const { return ref_count_.load(std::memory_order_relaxed); }

 private:
  mutable std::atomic<int32_t> ref_count_{0};
  const NodeKind kind_;
};

template <typename T>
bool NodeIsA(const Node* node) {
  if (node == nullptr) return false;
  if constexpr (std::is_same_v<T, Node>) {
    return true;
  } else if constexpr (requires { T::kKind; }) {
    return node->kind() == T::kKind;
  } else {
    return T::classof(node->kind());
  }
}

// An owning handle to an immutable node. Null is a valid value ("undefined").
template <typename T>
class Ref {
 public:
  using NodeType = T;

  Ref() = default;
  Ref(std::nullptr_t) {}  // NOLINT: implicit null
  explicit Ref(const T* ptr) : ptr_(ptr) {
    if (ptr_) ptr_->IncRef();
  }
  Ref(const Ref& other) : Ref(other.ptr_) {}
  Ref(Ref&& other) noexcept : ptr_(other.ptr_) { other.ptr_ = nullptr; }
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  Ref(const Ref<U>& other) : Ref(static_cast<const T*>(other.get())) {}  // NOLINT: upcast
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  Ref(Ref<U>&& other) noexcept : ptr_(other.release()) {}  // NOLINT: upcast
  ~Ref() {
    if (ptr_) ptr_->DecRef();
  }
  Ref& operator=(Ref other) noexcept {
    std::swap(ptr_, other.ptr_);
    return *this;
  }

  const T* get() const { return ptr_; }
  const T* operator->() const {
    RLX_ICHECK(ptr_ != nullptr) << "dereferencing an undefined node";
    return ptr_;
  }
  const T& operator*() const { return *operator->(); }
  bool defined() const { return ptr_ != nullptr; }
  explicit operator bool() const { return ptr_ != nullptr; }

  // Identity comparison; structural comparison lives in ir/structural_equal.h.
  bool same_as(const Ref<Node>& other) const {
    return static_cast<const Node*>(ptr_) == other.get();
  }

  // The node as U, or nullptr when it is not a U (or undefined).
  template <typename U>
  const U* as() const {
    return NodeIsA<U>(ptr_) ? static_cast<const U*>(static_cast<const Node*>(ptr_)) : nullptr;
  }
  template <typename U>
  bool isa() const {
    return NodeIsA<U>(ptr_);
  }

  // Gives up ownership without decrementing (used by moves between types).
  const T* release() {
    const T* p = ptr_;
    ptr_ = nullptr;
    return p;
  }

 private:
  const T* ptr_ = nullptr;
};

using ObjectRef = Ref<Node>;

template <typename T, typename... Args>
Ref<T> make(Args&&... args) {
  return Ref<T>(new T(std::forward<Args>(args)...));
}

// A handle to U if `ref` holds a U; an internal error otherwise.
template <typename U, typename T>
Ref<U> cast(const Ref<T>& ref) {
  RLX_ICHECK(!ref.defined() || NodeIsA<U>(ref.get()))
      << "cannot cast " << NodeKindName(ref->kind()) << " to the requested node type";
  return Ref<U>(static_cast<const U*>(static_cast<const Node*>(ref.get())));
}

// A handle to U if `ref` holds a U, else an undefined handle.
template <typename U, typename T>
Ref<U> dyn_cast(const Ref<T>& ref) {
  if (!NodeIsA<U>(ref.get())) return Ref<U>();
  return Ref<U>(static_cast<const U*>(static_cast<const Node*>(ref.get())));
}

template <typename U, typename T>
bool isa(const Ref<T>& ref) {
  return NodeIsA<U>(ref.get());
}

// Identity hashing and equality, for maps keyed by node (e.g. variables).
struct RefHash {
  template <typename T>
  size_t operator()(const Ref<T>& ref) const {
    return std::hash<const void*>()(static_cast<const void*>(ref.get()));
  }
};
struct RefEqual {
  template <typename T, typename U>
  bool operator()(const Ref<T>& a, const Ref<U>& b) const {
    return static_cast<const void*>(a.get()) == static_cast<const void*>(b.get());
  }
};

}  // namespace rlx
