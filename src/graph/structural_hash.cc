// Structural hashing, consistent with structural equality.
//
// HashReducer walks one tree through the same ReduceFields descriptions as
// the equality (structural_fields.h, called with b == a) and mixes every node
// kind, scalar field and list length into one running 64-bit state, in
// traversal order. What equality ignores is not hashed:
// - variables and buffers hash as (kind, index of first appearance), with
//   their dtype / struct info / buffer fields at that first appearance only,
//   exactly where the equality compares them; names and pointers never;
// - Constants hash dtype and shape only, never their payload;
// - derived struct info of calls, tuples, ... is not hashed (the equality
//   compares it only when both sides have one);
// - an undefined Dict hashes like an empty one.
// An IRModule hashes each function with a fresh reducer and sums the
// (name, function) hashes, so the order of functions does not matter.
#include <cstdint>
#include <functional>
#include <string_view>
#include <unordered_map>

#include "graph/structural_fields.h"
#include "rlx/graph/structural_equal.h"

namespace rlx::graph {
namespace {

using structural::FloatBits;
using structural::Presence;
using structural::Step;

// A strong 64-bit finalizer (MurmurHash3's fmix64).
uint64_t Fmix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb93fe53a87fbULL;
  x ^= x >> 33;
  return x;
}

uint64_t HashOf(int64_t value) { return static_cast<uint64_t>(value); }
uint64_t HashOf(int value) { return static_cast<uint64_t>(static_cast<int64_t>(value)); }
uint64_t HashOf(bool value) { return value ? 0x51ed27 : 0x3c6ef3; }
uint64_t HashOf(const std::string& value) { return std::hash<std::string_view>()(value); }
uint64_t HashOf(DataType dtype) {
  return (static_cast<uint64_t>(dtype.code()) << 32) | (static_cast<uint64_t>(dtype.bits()) << 16) |
         static_cast<uint64_t>(dtype.lanes());
}
uint64_t HashOf(tir::IterKind kind) { return 0x1000 + static_cast<uint64_t>(kind); }
uint64_t HashOf(tir::ForKind kind) { return 0x2000 + static_cast<uint64_t>(kind); }
uint64_t HashOf(Presence presence) { return presence.known ? 0x4b6e6f776eULL : 0x556e6b6eULL; }
uint64_t HashOf(FloatBits bits) { return std::bit_cast<uint64_t>(bits.value); }

class HashReducer {
 public:
  uint64_t state() const { return state_; }

  void HashNode(const Node* node) {
    if (node == nullptr || structural::IsEmptyDict(node)) {
      Mix(kUndefined);
      return;
    }
    Mix(0x6b696e64ULL + static_cast<uint64_t>(node->kind()));
    structural::ReduceNode(*this, node, node);
  }

  // --- Reducer interface (see structural_fields.h); b is always a ---

  bool Child(const Step&, const Node* a, const Node*) {
    HashNode(a);
    return true;
  }

  template <typename T>
  bool Value(const Step&, const T& a, const T&) {
    Mix(HashOf(a));
    return true;
  }

  bool Size(const Step&, size_t a, size_t) {
    Mix(0x73697a65ULL + a);
    return true;
  }

  bool Missing(const Step&, const Node*, const Node*) {
    RLX_UNREACHABLE() << "a dict compared with itself has a missing key";
    return false;
  }

  bool PrimVar(const ir::VarNode& a, const ir::VarNode&) {
    if (FirstSight(&a)) {
      Mix(HashOf(a.dtype));
      Mix(HashOf(a.pointee));
    }
    return true;
  }

  bool GraphVar(const VarNode& a, const VarNode&) {
    if (FirstSight(&a)) HashNode(a.struct_info.get());
    return true;
  }

  bool Buffer(const ir::BufferNode& a, const ir::BufferNode&) {
    return !FirstSight(&a) || structural::ReduceBufferFields(*this, a, a);
  }

  // Only dtype and shape: hashing must not read (possibly huge) payloads.
  bool Constant(const ConstantNode& a, const ConstantNode&) {
    if (a.data == nullptr) {
      Mix(kUndefined);
      return true;
    }
    Mix(HashOf(a.data->dtype));
    Mix(a.data->shape.size());
    for (int64_t dim : a.data->shape) Mix(HashOf(dim));
    return true;
  }

  bool Module(const ir::IRModuleNode& a, const ir::IRModuleNode&) {
    uint64_t functions = 0;
    for (const auto& [name, func] : a.functions) {
      HashReducer function_hasher;
      function_hasher.HashNode(func.get());
      functions += Fmix64(HashOf(name) ^ Fmix64(function_hasher.state()));
    }
    Mix(a.functions.size());
    Mix(functions);
    HashNode(a.attrs.get());
    HashNode(a.global_infos.get());
    return true;
  }

  bool DerivedStructInfo(const Node*, const Node*) { return true; }

 private:
  static constexpr uint64_t kUndefined = 0x756e646566ULL;

  void Mix(uint64_t value) { state_ = Fmix64(state_ ^ (Fmix64(value) + 0x9e3779b97f4a7c15ULL + (state_ << 6))); }

  // Numbers variables and buffers by first appearance; true the first time.
  bool FirstSight(const Node* node) {
    auto [it, inserted] = first_seen_.emplace(node, first_seen_.size());
    Mix(0x76617269ULL + it->second);
    return inserted;
  }

  uint64_t state_ = 0x72726c78ULL;
  std::unordered_map<const Node*, uint64_t> first_seen_;
};

}  // namespace

size_t StructuralHash(const ObjectRef& node) {
  HashReducer reducer;
  reducer.HashNode(node.get());
  return static_cast<size_t>(reducer.state());
}

}  // namespace rlx::graph
