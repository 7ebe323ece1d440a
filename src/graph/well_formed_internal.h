// Private to the well-formedness checker (well_formed.cc for graph
// functions, well_formed_tir.cc for PrimFuncs): the diagnostic sink both
// report to, a scoped identity set for variables and buffers, and the
// PrimExpr walker that checks variable uses.
#pragma once

#include <functional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "rlx/ir/functor.h"
#include "rlx/support/diagnostic.h"
#include "rlx/tir/function.h"

namespace rlx::graph::well_formed {

using ir::PrimExpr;

// Collects diagnostics, or throws the first one as a CompileError.
class DiagnosticSink {
 public:
  explicit DiagnosticSink(bool stop_at_first) : stop_at_first_(stop_at_first) {}

  void Report(const Span& span, std::string message) {
    Diagnostic diag{Severity::kError, span, std::move(message), {}};
    if (stop_at_first_) throw CompileError(std::move(diag));
    diagnostics_.push_back(std::move(diag));
  }
  std::vector<Diagnostic> Take() { return std::move(diagnostics_); }

 private:
  bool stop_at_first_;
  std::vector<Diagnostic> diagnostics_;
};

// A set of nodes (by identity) with nested scopes: Restore(Mark()) forgets
// whatever was inserted after the mark.
template <typename T>
class ScopedSet {
 public:
  bool Contains(const T* item) const { return items_.count(item) > 0; }
  // False when `item` was already present.
  bool Insert(const T* item) {
    if (!items_.insert(item).second) return false;
    order_.push_back(item);
    return true;
  }
  size_t Mark() const { return order_.size(); }
  void Restore(size_t mark) {
    while (order_.size() > mark) {
      items_.erase(order_.back());
      order_.pop_back();
    }
  }

 private:
  std::unordered_set<const T*> items_;
  std::vector<const T*> order_;
};

using VarSet = ScopedSet<ir::VarNode>;

// Walks a PrimExpr, calling `on_undefined` for each use of a variable not in
// `defined` (a Let's variable is defined in its body) and `on_load` (when
// set) for each BufferLoad.
class PrimVarUseChecker : public ir::PrimExprVisitor {
 public:
  using OnUndefined = std::function<void(const ir::VarNode* var, const PrimExpr& use)>;
  using OnLoad = std::function<void(const ir::BufferLoadNode* load, const PrimExpr& self)>;

  PrimVarUseChecker(VarSet& defined, OnUndefined on_undefined, OnLoad on_load = nullptr)
      : defined_(defined), on_undefined_(std::move(on_undefined)), on_load_(std::move(on_load)) {}

 protected:
  void VisitExpr_(const ir::VarNode* op, const PrimExpr& self) override {
    if (!defined_.Contains(op)) on_undefined_(op, self);
  }
  void VisitExpr_(const ir::LetNode* op, const PrimExpr&) override {
    VisitExpr(op->value);
    size_t mark = defined_.Mark();
    defined_.Insert(op->var.get());
    VisitExpr(op->body);
    defined_.Restore(mark);
  }
  void VisitExpr_(const ir::BufferLoadNode* op, const PrimExpr& self) override {
    if (on_load_) on_load_(op, self);
    ir::PrimExprVisitor::VisitExpr_(op, self);
  }

 private:
  VarSet& defined_;
  OnUndefined on_undefined_;
  OnLoad on_load_;
};

// Checks one PrimFunc (well_formed_tir.cc).
void CheckPrimFunc(const std::string& name, const tir::PrimFunc& func, DiagnosticSink& sink);

}  // namespace rlx::graph::well_formed
