#include "cupti/activity_buffers.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace warpsim::tracer {
namespace {

// record_builder.cc repeats these numbers so that it builds without CUDA: keep them in step.
static_assert(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD == 1 && CUPTI_ACTIVITY_MEMCPY_KIND_DTOD == 8 &&
              CUPTI_ACTIVITY_MEMCPY_KIND_HTOH == 9 && CUPTI_ACTIVITY_MEMCPY_KIND_PTOP == 10);
static_assert(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE == 1 &&
              CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE == 4);
static_assert(CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE == 1 &&
              CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_MULTI_DEVICE == 2);
static_assert(CUPTI_ACTIVITY_MEMORY_KIND_PINNED == 2 && CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC == 7);
static_assert(CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT == 1 && CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING == 2 &&
              CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL == 3);

constexpr std::size_t kBufferBytes = 4u << 20;  // fewer, larger hand-overs cost less; partial ones go out each flush
TraceSink* g_sink = nullptr;

constexpr CUpti_ActivityKind kRunKinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,     CUPTI_ACTIVITY_KIND_MEMCPY2,
    CUPTI_ACTIVITY_KIND_MEMSET,            CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, CUPTI_ACTIVITY_KIND_CUDA_EVENT,
    CUPTI_ACTIVITY_KIND_MARKER, CUPTI_ACTIVITY_KIND_STREAM};
constexpr CUpti_ActivityKind kApiKinds[] = {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER};

Uuid to_uuid(const CUuuid& uuid) {
  Uuid result{};
  std::memcpy(result.data(), uuid.bytes, result.size());
  return result;
}

KernelActivity convert(const CUpti_ActivityKernel10& r) {
  KernelActivity a;
  a.device_id = r.deviceId;
  a.context_id = r.contextId;
  a.stream_id = r.streamId;
  a.correlation_id = r.correlationId;
  a.name = r.name ? r.name : "";
  a.grid = {r.gridX, r.gridY, r.gridZ};
  a.block = {r.blockX, r.blockY, r.blockZ};
  a.cluster = {r.clusterX, r.clusterY, r.clusterZ};
  a.registers_per_thread = r.registersPerThread;
  a.static_shared_memory = r.staticSharedMemory;
  a.dynamic_shared_memory = r.dynamicSharedMemory;
  a.local_memory_per_thread = r.localMemoryPerThread;
  a.start = r.start;
  a.end = r.end;
  a.launch_type = r.launchType;
  a.graph_id = r.graphId;
  a.graph_node_id = r.graphNodeId;
  return a;
}

// The fields MEMCPY and MEMCPY2 (peer-to-peer) records share.
template <typename Record>
CopyActivity copy_activity(const Record& r) {
  CopyActivity a;
  a.copy_kind = r.copyKind;
  a.src_kind = r.srcKind;
  a.dst_kind = r.dstKind;
  a.bytes = r.bytes;
  a.start = r.start;
  a.end = r.end;
  a.device_id = r.deviceId;
  a.context_id = r.contextId;
  a.stream_id = r.streamId;
  a.correlation_id = r.correlationId;
  a.graph_id = r.graphId;
  a.asynchronous = (r.flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0;
  return a;
}

CopyActivity convert(const CUpti_ActivityMemcpy6& r) { return copy_activity(r); }

CopyActivity convert(const CUpti_ActivityMemcpyPtoP4& r) {
  CopyActivity a = copy_activity(r);
  a.src_device_id = r.srcDeviceId;
  a.dst_device_id = r.dstDeviceId;
  return a;
}

MemsetActivity convert(const CUpti_ActivityMemset4& r) {
  MemsetActivity a;
  a.value = r.value;
  a.bytes = r.bytes;
  a.start = r.start;
  a.end = r.end;
  a.device_id = r.deviceId;
  a.context_id = r.contextId;
  a.stream_id = r.streamId;
  a.correlation_id = r.correlationId;
  a.memory_kind = r.memoryKind;
  a.graph_id = r.graphId;
  a.asynchronous = (r.flags & CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC) != 0;
  return a;
}

// CUPTI names the call (e.g. "cudaLaunchKernel_v7000"); the name is looked up once per callback id.
std::string callback_name(CUpti_CallbackDomain domain, CUpti_CallbackId id) {
  const char* name = nullptr;
  if (cuptiGetCallbackName(domain, id, &name) != CUPTI_SUCCESS || name == nullptr) return "cbid " + std::to_string(id);
  return name;
}

ApiActivity convert_api(const CUpti_ActivityAPI& r, bool runtime) {
  ApiActivity a;
  a.runtime = runtime;
  a.callback_id = r.cbid;
  a.name = callback_name(runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API, r.cbid);
  a.start = r.start;
  a.end = r.end;
  a.process_id = r.processId;
  a.thread_id = r.threadId;
  a.correlation_id = r.correlationId;
  a.return_value = r.returnValue;
  return a;
}

StreamActivity convert(const CUpti_ActivityStream& r) {
  StreamActivity a;
  a.context_id = r.contextId;
  a.stream_id = r.streamId;
  a.priority = r.priority;
  a.flag = static_cast<std::uint32_t>(r.flag);
  a.correlation_id = r.correlationId;
  return a;
}

SyncActivity convert(const CUpti_ActivitySynchronization2& r) {
  SyncActivity a;
  a.type = static_cast<std::uint32_t>(r.type);
  a.start = r.start;
  a.end = r.end;
  a.correlation_id = r.correlationId;
  a.context_id = r.contextId;
  a.stream_id = r.streamId;
  a.cuda_event_id = r.cudaEventId;
  return a;
}

EventRecordActivity convert(const CUpti_ActivityCudaEvent2& r) {
  EventRecordActivity a;
  a.correlation_id = r.correlationId;
  a.context_id = r.contextId;
  a.stream_id = r.streamId;
  a.event_id = r.eventId;
  a.device_id = r.deviceId;
  a.timestamp = r.deviceTimestamp;
  return a;
}

MarkerActivity convert(const CUpti_ActivityMarker2& r) {
  MarkerActivity a;
  if (r.flags & CUPTI_ACTIVITY_FLAG_MARKER_START) a.phase = MarkerActivity::Phase::kStart;
  else if (r.flags & CUPTI_ACTIVITY_FLAG_MARKER_END) a.phase = MarkerActivity::Phase::kEnd;
  a.timestamp = r.timestamp;
  a.id = r.id;
  a.name = r.name ? r.name : "";
  a.domain = r.domain ? r.domain : "";
  if (r.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD) a.thread_id = r.objectId.pt.threadId;
  return a;
}

DeviceActivity convert(const CUpti_ActivityDevice5& r) {
  DeviceActivity a;
  a.id = r.id;
  a.name = r.name ? r.name : "";
  a.uuid = to_uuid(r.uuid);
  a.global_memory_bandwidth_kbps = r.globalMemoryBandwidth;
  a.global_memory_size = r.globalMemorySize;
  a.l2_cache_size = r.l2CacheSize;
  a.threads_per_warp = r.numThreadsPerWarp;
  a.core_clock_khz = r.coreClockRate;
  a.memcpy_engines = r.numMemcpyEngines;
  a.multiprocessors = r.numMultiprocessors;
  a.max_warps_per_sm = r.maxWarpsPerMultiprocessor;
  a.max_blocks_per_sm = r.maxBlocksPerMultiprocessor;
  a.max_shared_memory_per_sm = r.maxSharedMemoryPerMultiprocessor;
  a.max_registers_per_sm = r.maxRegistersPerMultiprocessor;
  a.max_registers_per_block = r.maxRegistersPerBlock;
  a.max_shared_memory_per_block = r.maxSharedMemoryPerBlock;
  a.max_threads_per_block = r.maxThreadsPerBlock;
  a.cc_major = r.computeCapabilityMajor;
  a.cc_minor = r.computeCapabilityMinor;
  return a;
}

NvLinkActivity convert(const CUpti_ActivityNvLink4& r) {
  NvLinkActivity a;
  a.nvlink_version = r.nvlinkVersion;
  a.dev0_is_gpu = r.typeDev0 == CUPTI_DEV_TYPE_GPU;
  a.dev1_is_gpu = r.typeDev1 == CUPTI_DEV_TYPE_GPU;
  if (a.dev0_is_gpu) a.uuid0 = to_uuid(r.idDev0.uuidDev);
  else a.npu_index0 = r.idDev0.npu.index;
  if (a.dev1_is_gpu) a.uuid1 = to_uuid(r.idDev1.uuidDev);
  else a.npu_index1 = r.idDev1.npu.index;
  a.physical_link_count = r.physicalNvLinkCount;
  a.bandwidth_kbps = r.bandwidth;
  a.nvswitch_connected = r.nvswitchConnected != 0;
  return a;
}

std::optional<Activity> convert(const CUpti_ActivityPcie& r) {
  if (r.type != CUPTI_PCIE_DEVICE_TYPE_GPU) return std::nullopt;
  PcieActivity a;
  a.device_id = static_cast<std::uint32_t>(r.id.devId);
  a.generation = r.pcieGeneration;
  a.link_rate = r.linkRate;
  a.link_width = r.linkWidth;
  return a;
}

template <typename Record>
const Record& as(const CUpti_Activity& record) {
  return reinterpret_cast<const Record&>(record);
}

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext context, std::uint32_t stream_id, std::uint8_t* buffer, std::size_t,
                               std::size_t valid_size) {
  std::vector<Activity> batch;
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS)
    if (auto activity = convert_record(*record)) batch.push_back(std::move(*activity));
  std::free(buffer);
  std::size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(context, stream_id, &dropped) == CUPTI_SUCCESS && dropped > 0)
    std::fprintf(stderr, "warpsim tracer: CUPTI dropped %zu records (buffers full)\n", dropped);
  if (g_sink) g_sink->consume(batch);
}

}  // namespace

std::optional<Activity> convert_record(const CUpti_Activity& record) {
  switch (record.kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return convert(as<CUpti_ActivityKernel10>(record));
    case CUPTI_ACTIVITY_KIND_MEMCPY: return convert(as<CUpti_ActivityMemcpy6>(record));
    case CUPTI_ACTIVITY_KIND_MEMCPY2: return convert(as<CUpti_ActivityMemcpyPtoP4>(record));
    case CUPTI_ACTIVITY_KIND_MEMSET: return convert(as<CUpti_ActivityMemset4>(record));
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: return convert(as<CUpti_ActivitySynchronization2>(record));
    case CUPTI_ACTIVITY_KIND_CUDA_EVENT: return convert(as<CUpti_ActivityCudaEvent2>(record));
    case CUPTI_ACTIVITY_KIND_MARKER: return convert(as<CUpti_ActivityMarker2>(record));
    case CUPTI_ACTIVITY_KIND_DEVICE: return convert(as<CUpti_ActivityDevice5>(record));
    case CUPTI_ACTIVITY_KIND_NVLINK: return convert(as<CUpti_ActivityNvLink4>(record));
    case CUPTI_ACTIVITY_KIND_PCIE: return convert(as<CUpti_ActivityPcie>(record));
    case CUPTI_ACTIVITY_KIND_RUNTIME: return convert_api(as<CUpti_ActivityAPI>(record), /*runtime=*/true);
    case CUPTI_ACTIVITY_KIND_DRIVER: return convert_api(as<CUpti_ActivityAPI>(record), /*runtime=*/false);
    case CUPTI_ACTIVITY_KIND_STREAM: return convert(as<CUpti_ActivityStream>(record));
    default: return std::nullopt;
  }
}

bool cupti_ok(CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return true;
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  std::fprintf(stderr, "warpsim tracer: %s failed: %s\n", call, text ? text : "unknown CUPTI error");
  return false;
}

bool register_activity_buffers(TraceSink& sink) {
  g_sink = &sink;
  return cupti_ok(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), "cuptiActivityRegisterCallbacks");
}

void dump_topology_records(bool with_pcie) {
  cupti_ok(cuptiActivityEnableAndDump(CUPTI_ACTIVITY_KIND_DEVICE), "cuptiActivityEnableAndDump(DEVICE)");
  // Machines without NVLink or without PCIe records answer "not supported": nothing to record, nothing to say.
  cuptiActivityEnableAndDump(CUPTI_ACTIVITY_KIND_NVLINK);
  if (with_pcie) cuptiActivityEnableAndDump(CUPTI_ACTIVITY_KIND_PCIE);
}

void enable_run_records(bool api_calls) {
  for (CUpti_ActivityKind kind : kRunKinds) cupti_ok(cuptiActivityEnable(kind), "cuptiActivityEnable");
  if (!api_calls) return;
  // System thread ids (gettid) rather than pthread_self(), so that /proc names the threads.
  cupti_ok(cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM), "cuptiSetThreadIdType");
  for (CUpti_ActivityKind kind : kApiKinds) cupti_ok(cuptiActivityEnable(kind), "cuptiActivityEnable(API)");
}

void disable_run_records() {
  for (CUpti_ActivityKind kind : kRunKinds) cuptiActivityDisable(kind);
  for (CUpti_ActivityKind kind : kApiKinds) cuptiActivityDisable(kind);
}

}  // namespace warpsim::tracer
