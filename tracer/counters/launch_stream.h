#pragma once
#include <cuda.h>
#include <cupti_callbacks.h>

namespace warpsim::tracer {

/// The stream a kernel launch goes to, read from the launch call's parameters as CUPTI hands them to a driver API
/// callback (cuLaunchKernel, cuLaunchKernelEx, cuLaunchCooperativeKernel and their _ptsz forms); nullptr for the
/// default stream or another call.
CUstream launch_stream(CUpti_CallbackId id, const void* params);

}  // namespace warpsim::tracer
