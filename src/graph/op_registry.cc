// Operator registry storage (see include/rlx/graph/op_registry.h).
//
// One process-wide table, created on first use (a function-local static), is
// keyed by registry name; a second index maps TVMScript spellings ("R.add")
// to the same entries. Entries are heap-allocated and never removed, so the
// `const OpInfo*` handed out stay valid for the life of the process. A mutex
// guards both maps. The graph layer's own builtins are registered lazily by
// the first lookup (std::call_once); RegisterOp itself does not trigger that,
// so the builtins' registration can call it without re-entering call_once.
#include "rlx/graph/op_registry.h"

#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "graph/builtin_ops.h"

namespace rlx::graph {
namespace {

struct OpTable {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<OpInfo>, std::less<>> by_name;
  std::unordered_map<std::string, const OpInfo*> by_script_name;
};

OpTable& Table() {
  static OpTable table;
  return table;
}

void EnsureBuiltinsRegistered() {
  static std::once_flag once;
  std::call_once(once, [] { RegisterGraphBuiltinOps(); });
}

}  // namespace

void RegisterOp(OpInfo info) {
  OpTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  RLX_ICHECK(!info.name.empty()) << "registering an operator without a name";
  RLX_ICHECK(table.by_name.count(info.name) == 0) << "operator '" << info.name << "' registered twice";
  auto entry = std::make_unique<OpInfo>(std::move(info));
  if (!entry->script_name.empty()) {
    auto [it, inserted] = table.by_script_name.emplace(entry->script_name, entry.get());
    RLX_ICHECK(inserted) << "script name '" << entry->script_name << "' of '" << entry->name
                         << "' is already used by '" << it->second->name << "'";
  }
  std::string name = entry->name;
  table.by_name.emplace(std::move(name), std::move(entry));
}

void SetOpLegalize(std::string_view name, FLegalize legalize) {
  OpTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  auto it = table.by_name.find(name);
  RLX_ICHECK(it != table.by_name.end()) << "legalization for unregistered operator '" << name << "'";
  RLX_ICHECK(!it->second->legalize) << "operator '" << name << "' has two legalizations";
  RLX_ICHECK(legalize) << "empty legalization for '" << name << "'";
  it->second->legalize = std::move(legalize);
}

const OpInfo* FindOp(std::string_view name) {
  EnsureBuiltinsRegistered();
  OpTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  auto it = table.by_name.find(name);
  return it == table.by_name.end() ? nullptr : it->second.get();
}

const OpInfo* FindOpByScriptName(std::string_view script_name) {
  EnsureBuiltinsRegistered();
  OpTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  auto it = table.by_script_name.find(std::string(script_name));
  return it == table.by_script_name.end() ? nullptr : it->second;
}

std::vector<const OpInfo*> ListOps() {
  EnsureBuiltinsRegistered();
  OpTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  std::vector<const OpInfo*> ops;
  ops.reserve(table.by_name.size());
  for (const auto& [name, info] : table.by_name) ops.push_back(info.get());
  return ops;
}

}  // namespace rlx::graph
