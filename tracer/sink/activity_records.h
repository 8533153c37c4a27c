#pragma once
/// @file
/// @brief What the tracer takes from CUPTI, as plain structs without CUDA types.
///
/// activity_buffers.cc copies each CUPTI activity record into one of these (CUPTI's numbering of enums kept), and the
/// rest of the tracer (record_builder, topology, marker_pairs, trace_sink) works on them: that logic builds and is
/// tested on machines without CUDA.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpsim::tracer {

using Uuid = std::array<std::uint8_t, 16>;

/// CUpti_ActivityKernel10 (CONCURRENT_KERNEL).
struct KernelActivity {
  std::uint32_t device_id = 0;
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t correlation_id = 0;
  std::string name;
  std::array<std::int32_t, 3> grid{};
  std::array<std::int32_t, 3> block{};
  std::array<std::uint32_t, 3> cluster{};  // zeros: launched without clusters
  std::uint16_t registers_per_thread = 0;
  std::int32_t static_shared_memory = 0;
  std::int32_t dynamic_shared_memory = 0;
  std::uint32_t local_memory_per_thread = 0;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint8_t launch_type = 0;  // CUpti_ActivityLaunchType
  std::uint32_t graph_id = 0;    // 0: not part of a graph
  std::uint64_t graph_node_id = 0;
};

/// CUpti_ActivityMemcpy6 (MEMCPY) or CUpti_ActivityMemcpyPtoP4 (MEMCPY2, with source and destination devices).
struct CopyActivity {
  std::uint8_t copy_kind = 0;  // CUpti_ActivityMemcpyKind
  std::uint8_t src_kind = 0;   // CUpti_ActivityMemoryKind
  std::uint8_t dst_kind = 0;
  std::uint64_t bytes = 0;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint32_t device_id = 0;
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t correlation_id = 0;
  std::optional<std::uint32_t> src_device_id;  // MEMCPY2 only
  std::optional<std::uint32_t> dst_device_id;
  std::uint32_t graph_id = 0;
  bool asynchronous = false;  // CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC: an ...Async call issued it
};

/// CUpti_ActivityMemset4.
struct MemsetActivity {
  std::uint32_t value = 0;
  std::uint64_t bytes = 0;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint32_t device_id = 0;
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t correlation_id = 0;
  std::uint16_t memory_kind = 0;  // CUpti_ActivityMemoryKind
  std::uint32_t graph_id = 0;
  bool asynchronous = false;      // CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC
};

/// CUpti_ActivityAPI (RUNTIME or DRIVER): one API call of a host thread.
struct ApiActivity {
  bool runtime = true;  // false: a driver API call
  std::uint32_t callback_id = 0;
  std::string name;     // cuptiGetCallbackName's, e.g. "cudaLaunchKernel_v7000"
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint32_t process_id = 0;
  std::uint32_t thread_id = 0;  // the system thread id (the tracer sets CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM)
  std::uint32_t correlation_id = 0;
  std::uint32_t return_value = 0;
};

/// CUpti_ActivityStream: a stream the context created, with its flag. Names a context, not a device.
struct StreamActivity {
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t priority = 0;
  std::uint32_t flag = 0;  // CUpti_ActivityStreamFlag: 1 default (blocking), 2 non-blocking, 3 NULL
  std::uint32_t correlation_id = 0;
};

/// CUpti_ActivitySynchronization2. It names a context, not a device: the sink resolves the device.
struct SyncActivity {
  std::uint32_t type = 0;  // CUpti_ActivitySynchronizationType
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint32_t correlation_id = 0;
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;  // CUPTI_SYNCHRONIZATION_INVALID_VALUE (~0u) when not applicable
  std::uint32_t cuda_event_id = 0;
};

/// CUpti_ActivityCudaEvent2: a cudaEventRecord, the point in a stream that waits refer to.
struct EventRecordActivity {
  std::uint32_t correlation_id = 0;
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t event_id = 0;
  std::uint32_t device_id = 0;
  std::uint64_t timestamp = 0;  // when the record was made: CUPTI gives a device timestamp, not a host one
};

/// CUpti_ActivityMarker2: NVTX marks and the start and end of NVTX ranges (paired by id).
struct MarkerActivity {
  enum class Phase { kInstant, kStart, kEnd };
  Phase phase = Phase::kInstant;
  std::uint64_t timestamp = 0;
  std::uint32_t id = 0;
  std::string name;  // empty on range ends
  std::string domain;
  std::optional<std::uint64_t> thread_id;
};

/// CUpti_ActivityDevice5.
struct DeviceActivity {
  std::uint32_t id = 0;
  std::string name;
  Uuid uuid{};
  std::uint64_t global_memory_bandwidth_kbps = 0;  // KB/s as CUPTI reports
  std::uint64_t global_memory_size = 0;
  std::uint32_t l2_cache_size = 0;
  std::uint32_t threads_per_warp = 0;
  std::uint32_t core_clock_khz = 0;
  std::uint32_t memcpy_engines = 0;
  std::uint32_t multiprocessors = 0;
  std::uint32_t max_warps_per_sm = 0;
  std::uint32_t max_blocks_per_sm = 0;
  std::uint32_t max_shared_memory_per_sm = 0;
  std::uint32_t max_registers_per_sm = 0;
  std::uint32_t max_registers_per_block = 0;
  std::uint32_t max_shared_memory_per_block = 0;
  std::uint32_t max_threads_per_block = 0;
  std::uint32_t cc_major = 0;
  std::uint32_t cc_minor = 0;
};

/// CUpti_ActivityNvLink4: one bundle of NVLinks between two endpoints (GPUs by UUID, or NVSwitch/NPU by index).
struct NvLinkActivity {
  std::uint32_t nvlink_version = 0;
  bool dev0_is_gpu = false;
  bool dev1_is_gpu = false;
  Uuid uuid0{};  // valid when devN_is_gpu
  Uuid uuid1{};
  std::uint32_t npu_index0 = 0;  // valid otherwise
  std::uint32_t npu_index1 = 0;
  std::uint32_t physical_link_count = 0;
  std::uint64_t bandwidth_kbps = 0;
  bool nvswitch_connected = false;
};

/// CUpti_ActivityPcie for a GPU (bridges are not kept yet).
struct PcieActivity {
  std::uint32_t device_id = 0;
  std::uint16_t generation = 0;
  std::uint16_t link_rate = 0;  // as CUPTI reports (GT/s for the generation)
  std::uint16_t link_width = 0;
};

/// What the driver tells about a device that the DEVICE record lacks, read when the first context is created.
struct DriverDeviceInfo {
  std::uint32_t ordinal = 0;
  std::string name;
  Uuid uuid{};
  std::string pci_bus_id;
  std::optional<std::uint32_t> sm_clock_khz;
  std::optional<std::uint32_t> memory_clock_khz;
  std::optional<std::uint32_t> memory_bus_width_bits;
  std::optional<std::uint32_t> max_shared_memory_per_block_optin;
  std::optional<std::uint32_t> async_engine_count;
  std::optional<std::uint32_t> max_threads_per_sm;
  std::optional<std::uint32_t> sm_count;
  std::optional<std::uint32_t> cc_major;
  std::optional<std::uint32_t> cc_minor;
  std::optional<std::uint64_t> total_memory_bytes;
  std::optional<std::uint32_t> l2_cache_bytes;
  /// peer_access[j]: this device can access device j's memory (cuDeviceCanAccessPeer).
  std::vector<bool> peer_access;
};

}  // namespace warpsim::tracer
