/* DLPack-compatible tensor layout, written from the public DLPack spec.
 *
 * These are plain C structs so that generated kernels (LLVM IR), C test
 * kernels and other frameworks see exactly the same bytes: a DLTensor made by
 * the rlx runtime can be handed to any DLPack consumer and back.
 *
 *   DLDataType {code, bits, lanes}     e.g. float32 = {kDLFloat, 32, 1}
 *   DLDevice   {device_type, device_id} e.g. cpu:0 = {kDLCPU, 0}
 *   DLTensor   {data, device, ndim, dtype, shape, strides, byte_offset}
 *
 * Conventions of the rlx runtime (allowed by the spec):
 * - strides == NULL means compact row-major (C order); strides are counted in
 *   elements, not bytes.
 * - On the CPU the runtime folds view offsets into `data` and keeps
 *   byte_offset at 0; a kernel should still add byte_offset, since tensors
 *   from elsewhere may use it.
 * - `data` of a fresh allocation is 64-byte aligned; views may not be.
 *
 * This header is C (it is included by C kernels); the C++ wrappers are
 * rlx/runtime/data_type.h and rlx/runtime/device.h. If the real dlpack.h was
 * included first, its identical definitions are used instead of these.
 */
#ifndef RLX_RUNTIME_DLPACK_H_
#define RLX_RUNTIME_DLPACK_H_

#include <stdint.h>

#ifndef DLPACK_DLPACK_H_

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

typedef enum {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
} DLDataTypeCode;

typedef struct {
  uint8_t code;   /* a DLDataTypeCode */
  uint8_t bits;   /* bits of one lane: 8, 16, 32, 64 */
  uint16_t lanes; /* 1 for scalars, > 1 for vector types */
} DLDataType;

typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;   /* ndim entries */
  int64_t* strides; /* ndim entries in elements, or NULL for compact row-major */
  uint64_t byte_offset;
} DLTensor;

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* DLPACK_DLPACK_H_ */

#endif /* RLX_RUNTIME_DLPACK_H_ */
