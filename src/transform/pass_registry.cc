// The registry of passes by flag name, for `rlx opt --passes=a,b,c`, the
// text tests and Sequential's required passes.
//
// Registration is the explicit table in Registry() (no static
// initializers): adding a pass means adding one line there. Each entry is a
// factory taking the pass's options; a pass's name and summary are declared
// once, in its own source file, and read back from the built pass.
//
// Pass specs follow MLIR's textual pipelines:
//   normalize,dead-code-elimination{entry-functions=main,decode},canonicalize-bindings
// Options sit in braces after the name, separated by spaces, `key=value`;
// a list value is comma-separated (the commas inside braces do not split
// the pipeline).
#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "rlx/support/diagnostic.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

// The options given to one pass. Factories Take() what they understand; the
// registry then rejects whatever is left.
class PassOptions {
 public:
  PassOptions(std::string pass_name, std::vector<std::pair<std::string, std::string>> items)
      : pass_name_(std::move(pass_name)), items_(std::move(items)) {}

  std::optional<std::string> Take(std::string_view key) {
    for (auto it = items_.begin(); it != items_.end(); ++it) {
      if (it->first != key) continue;
      std::string value = it->second;
      items_.erase(it);
      return value;
    }
    return std::nullopt;
  }

  // A comma-separated list value (empty entries skipped).
  std::vector<std::string> TakeList(std::string_view key) {
    std::vector<std::string> values;
    std::optional<std::string> text = Take(key);
    if (!text) return values;
    size_t start = 0;
    while (start <= text->size()) {
      size_t comma = text->find(',', start);
      if (comma == std::string::npos) comma = text->size();
      if (comma > start) values.push_back(text->substr(start, comma - start));
      start = comma + 1;
    }
    return values;
  }

  void CheckAllTaken() const {
    if (items_.empty()) return;
    throw CompileError(Span{}, "pass '" + pass_name_ + "' has no option '" + items_.front().first + "'");
  }

 private:
  std::string pass_name_;
  std::vector<std::pair<std::string, std::string>> items_;
};

using PassFactory = Pass (*)(PassOptions&);

struct RegistryEntry {
  const char* name;
  PassFactory factory;
};

Pass MakeAnnotateTIROpPattern(PassOptions&) { return AnnotateTIROpPattern(); }
Pass MakeCanonicalizeBindings(PassOptions&) { return CanonicalizeBindings(); }
Pass MakeDeadCodeElimination(PassOptions& options) {
  return DeadCodeElimination(options.TakeList("entry-functions"));
}
Pass MakeLegalizeOps(PassOptions&) { return LegalizeOps(); }
Pass MakeDispatchLibrary(PassOptions&) { return DispatchLibrary(); }
Pass MakeFuseOps(PassOptions& options) {
  std::optional<std::string> depth = options.Take("max-fuse-depth");
  if (!depth) return FuseOps();
  int value = 0;
  try {
    value = std::stoi(*depth);
  } catch (const std::exception&) {
    value = 0;
  }
  if (value < 1) {
    throw CompileError(Span{}, "pass 'fuse-ops': max-fuse-depth must be a positive integer, got '" + *depth + "'");
  }
  return FuseOps(value);
}
Pass MakeFuseTIR(PassOptions&) { return FuseTIR(); }
Pass MakeFuseOpsByPattern(PassOptions& options) {
  return FuseOpsByPattern(BuiltinFusionPatterns(options.Take("patterns").value_or("matmul_epilogue")));
}
Pass MakeNormalize(PassOptions&) { return Normalize(); }
Pass MakeToNonDataflow(PassOptions&) { return ToNonDataflow(); }
Pass MakeRemovePurityChecking(PassOptions&) { return RemovePurityChecking(); }
Pass MakeCallTIRRewrite(PassOptions&) { return CallTIRRewrite(); }
Pass MakeLowerAllocTensor(PassOptions&) { return LowerAllocTensor(); }
Pass MakeKillAfterLastUse(PassOptions&) { return KillAfterLastUse(); }
Pass MakeVMBuiltinLower(PassOptions&) { return VMBuiltinLower(); }
Pass MakeVMShapeLower(PassOptions&) { return VMShapeLower(); }
Pass MakeAttachGlobalSymbol(PassOptions&) { return AttachGlobalSymbol(); }
Pass MakeFoldConstant(PassOptions&) { return FoldConstant(); }
Pass MakeEliminateCommonSubexpr(PassOptions& options) {
  std::optional<std::string> call_only = options.Take("call-only");
  if (call_only && *call_only != "true" && *call_only != "false") {
    throw CompileError(Span{}, "pass 'eliminate-common-subexpr': call-only must be true or false, found '" +
                                   *call_only + "'");
  }
  return EliminateCommonSubexpr(call_only && *call_only == "true");
}
Pass MakeLambdaLift(PassOptions&) { return LambdaLift(); }
Pass MakeLiftTransformParams(PassOptions&) { return LiftTransformParams(); }
Pass MakeTopologicalSort(PassOptions& options) {
  return TopologicalSort(options.Take("order").value_or("depth-first"),
                         options.Take("direction").value_or("from-inputs"));
}
Pass MakeStaticPlanBlockMemory(PassOptions&) { return StaticPlanBlockMemory(); }
Pass MakeRewriteDataflowReshape(PassOptions&) { return RewriteDataflowReshape(); }
// desired-layouts=nn.conv2d:NHWC:OHWI[,...]: operator, data layout, kernel layout.
Pass MakeConvertLayout(PassOptions& options) {
  std::vector<std::string> items = options.TakeList("desired-layouts");
  if (items.empty()) items.push_back("nn.conv2d:NHWC:OHWI");
  std::map<std::string, std::vector<std::string>> desired;
  for (const std::string& item : items) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t colon = item.find(':'); colon != std::string::npos; colon = item.find(':', start)) {
      parts.push_back(item.substr(start, colon - start));
      start = colon + 1;
    }
    parts.push_back(item.substr(start));
    if (parts.size() != 3) {
      throw CompileError(Span{}, "pass 'convert-layout': desired-layouts entry '" + item +
                                     "' must be <operator>:<data layout>:<kernel layout>");
    }
    std::string op = parts[0].rfind("relax.", 0) == 0 ? parts[0] : "relax." + parts[0];
    desired[op] = {parts[1], parts[2]};
  }
  return ConvertLayout(std::move(desired));
}

// Every registered pass, sorted by name.
const std::vector<RegistryEntry>& Registry() {
  static const std::vector<RegistryEntry> entries = {
      {"annotate-tir-op-pattern", &MakeAnnotateTIROpPattern},
      {"attach-global-symbol", &MakeAttachGlobalSymbol},
      {"call-tir-rewrite", &MakeCallTIRRewrite},
      {"canonicalize-bindings", &MakeCanonicalizeBindings},
      {"convert-layout", &MakeConvertLayout},
      {"dead-code-elimination", &MakeDeadCodeElimination},
      {"dispatch-library", &MakeDispatchLibrary},
      {"eliminate-common-subexpr", &MakeEliminateCommonSubexpr},
      {"fold-constant", &MakeFoldConstant},
      {"fuse-ops", &MakeFuseOps},
      {"fuse-ops-by-pattern", &MakeFuseOpsByPattern},
      {"fuse-tir", &MakeFuseTIR},
      {"kill-after-last-use", &MakeKillAfterLastUse},
      {"lambda-lift", &MakeLambdaLift},
      {"legalize-ops", &MakeLegalizeOps},
      {"lift-transform-params", &MakeLiftTransformParams},
      {"lower-alloc-tensor", &MakeLowerAllocTensor},
      {"normalize", &MakeNormalize},
      {"remove-purity-checking", &MakeRemovePurityChecking},
      {"rewrite-dataflow-reshape", &MakeRewriteDataflowReshape},
      {"static-plan-block-memory", &MakeStaticPlanBlockMemory},
      {"to-non-dataflow", &MakeToNonDataflow},
      {"topological-sort", &MakeTopologicalSort},
      {"vm-builtin-lower", &MakeVMBuiltinLower},
      {"vm-shape-lower", &MakeVMShapeLower},
  };
  return entries;
}

std::string KnownPassNames() {
  std::string names;
  for (const RegistryEntry& entry : Registry()) {
    if (!names.empty()) names += ", ";
    names += entry.name;
  }
  return names;
}

std::string_view Trim(std::string_view text) {
  size_t first = text.find_first_not_of(" \t\n");
  if (first == std::string_view::npos) return {};
  size_t last = text.find_last_not_of(" \t\n");
  return text.substr(first, last - first + 1);
}

// "key=value key2=value2" -> pairs.
std::vector<std::pair<std::string, std::string>> ParseOptionList(std::string_view pass_name, std::string_view text) {
  std::vector<std::pair<std::string, std::string>> items;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find_first_of(" \t", pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    size_t equal = item.find('=');
    if (equal == std::string_view::npos || equal == 0) {
      throw CompileError(Span{}, "pass '" + std::string(pass_name) + "': expected an option 'key=value', found '" +
                                     std::string(item) + "'");
    }
    items.emplace_back(std::string(item.substr(0, equal)), std::string(item.substr(equal + 1)));
  }
  return items;
}

}  // namespace

Pass LookupPass(std::string_view spec) {
  spec = Trim(spec);
  std::string_view name = spec;
  std::string_view option_text;
  if (size_t brace = spec.find('{'); brace != std::string_view::npos) {
    name = Trim(spec.substr(0, brace));
    if (spec.back() != '}') {
      throw CompileError(Span{}, "pass '" + std::string(name) + "': expected '}' at the end of '" +
                                     std::string(spec) + "'");
    }
    option_text = spec.substr(brace + 1, spec.size() - brace - 2);
  }
  for (const RegistryEntry& entry : Registry()) {
    if (entry.name != name) continue;
    PassOptions options(entry.name, ParseOptionList(name, option_text));
    Pass pass = entry.factory(options);
    options.CheckAllTaken();
    RLX_ICHECK(pass.info().name == entry.name) << "registry entry " << entry.name << " builds " << pass.info().name;
    return pass;
  }
  throw CompileError(Span{}, "unknown pass '" + std::string(name) + "'; known passes: " + KnownPassNames());
}

std::vector<Pass> ParsePassPipeline(std::string_view text) {
  std::vector<Pass> passes;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ',';
    if (c == '{') ++depth;
    if (c == '}') --depth;
    if (c != ',' || (depth > 0 && i < text.size())) continue;  // an unclosed brace ends at the end
    std::string_view item = Trim(text.substr(start, i - start));
    if (!item.empty()) passes.push_back(LookupPass(item));
    start = i + 1;
  }
  return passes;
}

std::vector<PassInfo> ListPasses() {
  std::vector<PassInfo> infos;
  for (const RegistryEntry& entry : Registry()) {
    PassOptions none(entry.name, {});
    infos.push_back(entry.factory(none).info());
  }
  return infos;
}

}  // namespace rlx::transform
