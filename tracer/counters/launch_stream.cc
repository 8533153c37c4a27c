// generated_cuda_meta.h (the parameter structs of every driver call) names the old _v1 types that cuda.h declares
// only for the driver's own build: this file alone asks for them, and reads nothing but the launch's stream.
#define __CUDA_API_VERSION_INTERNAL 1
#include "counters/launch_stream.h"

#include <cupti_driver_cbid.h>
#include <generated_cuda_meta.h>

namespace warpsim::tracer {

CUstream launch_stream(CUpti_CallbackId id, const void* params) {
  switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: return static_cast<const cuLaunchKernel_params*>(params)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      return static_cast<const cuLaunchKernel_ptsz_params*>(params)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      return static_cast<const cuLaunchKernelEx_params*>(params)->config->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
      return static_cast<const cuLaunchKernelEx_ptsz_params*>(params)->config->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      return static_cast<const cuLaunchCooperativeKernel_params*>(params)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      return static_cast<const cuLaunchCooperativeKernel_ptsz_params*>(params)->hStream;
    default: return nullptr;
  }
}

}  // namespace warpsim::tracer
