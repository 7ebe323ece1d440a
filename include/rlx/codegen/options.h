// Options of the CPU code generator (LLVM backend), shared by the JIT
// (codegen/jit.h) and object-file emission (codegen/object_file.h).
#pragma once

#include <cstdint>
#include <string>

namespace rlx::codegen {

struct CodegenOptions {
  // LLVM optimization level, 0..3 (the new pass manager's O0..O2 pipeline,
  // level 3 running O2's; machine code generation uses the matching
  // CodeGenOptLevel).
  int opt_level = 3;
  // Target triple; empty means the host's (the JIT always uses the host).
  std::string triple;
  // CPU name ("znver4", "skylake-avx512", ...); empty means the host CPU
  // (llvm::sys::getHostCPUName()), "generic" means the baseline ISA.
  std::string cpu;
  // Feature string ("+avx2,+fma,-avx512f"); empty means the host's features
  // when `cpu` is empty too, otherwise the CPU's defaults.
  std::string features;
  // Run tir::LowerForCodegen on each function first (needed for functions
  // with blocks or multi-dimensional accesses; harmless on lowered ones).
  bool lower = true;
  // Before lowering, give elementwise loop nests the default CPU schedule
  // (tir::ScheduleInjectiveCPU: parallel outer loop, vectorized inner loop)
  // and the other nests a parallel outer spatial loop
  // (tir::ScheduleReductionCPU).
  // Only with `lower` and opt_level >= 1.
  bool schedule = true;
  // Run LLVM's verifier on the generated module (a failure is an internal
  // error: it means a codegen bug).
  bool verify = true;
  // An Allocate of at most this many bytes with a constant size lives on the
  // stack; larger or symbolic ones come from the runtime's workspace pool.
  int64_t max_stack_alloca_bytes = 64 * 1024;
  // Ahead-of-time library export (ExportVMLibrary): the kernels are split
  // into this many LLVM modules compiled on as many threads (0: one per
  // hardware thread, and at most one per 4 kernels).
  int compile_threads = 0;
};

// The host the JIT targets, for logs and benchmarks: triple, CPU name and the
// vector ISA extensions LLVM detected ("avx2 fma avx512f ...").
struct HostTargetInfo {
  std::string triple;
  std::string cpu;
  std::string vector_features;
};
HostTargetInfo DescribeHostTarget();

}  // namespace rlx::codegen
