#include "sink/record_builder.h"

namespace warpsim::tracer {
namespace {

// CUPTI's numbering (cupti_activity.h), repeated here so that this file needs no CUDA headers; the CUPTI-facing
// code static_asserts that they agree.
enum CuptiCopyKind : std::uint8_t { kHtoD = 1, kDtoH = 2, kHtoA = 3, kAtoH = 4, kAtoA = 5, kAtoD = 6, kDtoA = 7,
                                    kDtoD = 8, kHtoH = 9, kPtoP = 10 };
enum CuptiSyncType : std::uint32_t { kEventSynchronize = 1, kStreamWaitEvent = 2, kStreamSynchronize = 3,
                                     kContextSynchronize = 4 };
enum CuptiLaunchType : std::uint8_t { kRegular = 0, kCooperativeSingle = 1, kCooperativeMulti = 2 };
enum CuptiStreamFlag : std::uint32_t { kStreamDefault = 1, kStreamNonBlocking = 2, kStreamNull = 3 };
constexpr std::uint32_t kCuptiInvalidStream = 0xffffffffu;

Dim3 dim3(std::int32_t x, std::int32_t y, std::int32_t z) {
  Dim3 d;
  d.set_x(static_cast<std::uint32_t>(x));
  d.set_y(static_cast<std::uint32_t>(y));
  d.set_z(static_cast<std::uint32_t>(z));
  return d;
}

// CUPTI reports a cluster launch (cudaLaunchKernelEx) as cooperative too (seen on H100): the cluster says more.
KernelLaunch::LaunchKind launch_kind(const KernelActivity& a) {
  if (a.graph_id != 0) return KernelLaunch::GRAPH;
  if (a.cluster[0] > 0) return KernelLaunch::CLUSTER;
  if (a.launch_type == kCooperativeSingle) return KernelLaunch::COOPERATIVE;
  if (a.launch_type == kCooperativeMulti) return KernelLaunch::COOPERATIVE_MULTI_DEVICE;
  return KernelLaunch::REGULAR;
}

// Where a copy's bytes come from and go to, for the kinds a MEMCPY record describes on one device.
void set_copy_endpoints(Memcpy& copy, const CopyActivity& a) {
  if (a.src_device_id && a.dst_device_id) {
    copy.set_src_device_id(*a.src_device_id);
    copy.set_dst_device_id(*a.dst_device_id);
    return;
  }
  switch (copy.kind()) {
    case Memcpy::HTOD: copy.set_dst_device_id(a.device_id); break;
    case Memcpy::DTOH: copy.set_src_device_id(a.device_id); break;
    case Memcpy::DTOD:
      copy.set_src_device_id(a.device_id);
      copy.set_dst_device_id(a.device_id);
      break;
    default: break;
  }
}

}  // namespace

Memcpy::Kind copy_kind_from_cupti(std::uint8_t cupti_kind) {
  switch (cupti_kind) {
    case kHtoD: case kHtoA: return Memcpy::HTOD;
    case kDtoH: case kAtoH: return Memcpy::DTOH;
    case kDtoD: case kAtoA: case kAtoD: case kDtoA: return Memcpy::DTOD;
    case kHtoH: return Memcpy::HTOH;
    case kPtoP: return Memcpy::PTOP;
    default: return Memcpy::KIND_UNSPECIFIED;
  }
}

MemoryKind memory_kind_from_cupti(std::uint32_t cupti_kind) {
  switch (cupti_kind) {
    case 1: return MEMORY_KIND_PAGEABLE;
    case 2: return MEMORY_KIND_PINNED;
    case 3: case 6: return MEMORY_KIND_DEVICE;   // DEVICE, DEVICE_STATIC
    case 4: return MEMORY_KIND_ARRAY;
    case 5: case 7: return MEMORY_KIND_MANAGED;  // MANAGED, MANAGED_STATIC
    default: return MEMORY_KIND_UNSPECIFIED;
  }
}

Event build_kernel(const KernelActivity& a) {
  Event event;
  KernelLaunch* k = event.mutable_kernel();
  k->set_device_id(a.device_id);
  k->set_stream_id(a.stream_id);
  k->set_name(a.name);
  *k->mutable_grid() = dim3(a.grid[0], a.grid[1], a.grid[2]);
  *k->mutable_block() = dim3(a.block[0], a.block[1], a.block[2]);
  if (a.cluster[0] > 0) {
    k->mutable_cluster()->set_x(a.cluster[0]);
    k->mutable_cluster()->set_y(a.cluster[1]);
    k->mutable_cluster()->set_z(a.cluster[2]);
  }
  k->set_registers_per_thread(a.registers_per_thread);
  k->set_static_shared_memory_bytes(static_cast<std::uint32_t>(a.static_shared_memory));
  k->set_dynamic_shared_memory_bytes(static_cast<std::uint32_t>(a.dynamic_shared_memory));
  k->set_local_memory_per_thread_bytes(a.local_memory_per_thread);
  k->set_start_ns(a.start);
  k->set_end_ns(a.end);
  k->set_correlation_id(a.correlation_id);
  k->set_launch_kind(launch_kind(a));
  if (a.graph_id != 0) {
    k->set_graph_id(a.graph_id);
    k->set_graph_node_id(a.graph_node_id);
  }
  k->set_context_id(a.context_id);
  return event;
}

std::optional<Event> build_copy(const CopyActivity& a) {
  Event event;
  Memcpy* copy = event.mutable_memcpy();
  copy->set_kind(copy_kind_from_cupti(a.copy_kind));
  if (copy->kind() == Memcpy::KIND_UNSPECIFIED) return std::nullopt;
  if (copy->kind() == Memcpy::PTOP && !(a.src_device_id && a.dst_device_id)) return std::nullopt;
  copy->set_bytes(a.bytes);
  copy->set_device_id(a.device_id);
  copy->set_stream_id(a.stream_id);
  set_copy_endpoints(*copy, a);
  copy->set_src_memory(memory_kind_from_cupti(a.src_kind));
  copy->set_dst_memory(memory_kind_from_cupti(a.dst_kind));
  copy->set_start_ns(a.start);
  copy->set_end_ns(a.end);
  copy->set_correlation_id(a.correlation_id);
  if (a.graph_id != 0) copy->set_graph_id(a.graph_id);
  copy->set_asynchronous(a.asynchronous);
  return event;
}

Event build_memset(const MemsetActivity& a) {
  Event event;
  Memset* m = event.mutable_memset();
  m->set_device_id(a.device_id);
  m->set_stream_id(a.stream_id);
  m->set_bytes(a.bytes);
  m->set_value(a.value);
  m->set_memory(memory_kind_from_cupti(a.memory_kind));
  m->set_start_ns(a.start);
  m->set_end_ns(a.end);
  m->set_correlation_id(a.correlation_id);
  if (a.graph_id != 0) m->set_graph_id(a.graph_id);
  m->set_asynchronous(a.asynchronous);
  return event;
}

std::optional<Event> build_sync(const SyncActivity& a, std::uint32_t device_id) {
  Synchronization::Type type = Synchronization::TYPE_UNSPECIFIED;
  switch (a.type) {
    case kEventSynchronize: type = Synchronization::EVENT_SYNCHRONIZE; break;
    case kStreamWaitEvent: type = Synchronization::STREAM_WAIT_EVENT; break;
    case kStreamSynchronize: type = Synchronization::STREAM_SYNCHRONIZE; break;
    case kContextSynchronize: type = Synchronization::CONTEXT_SYNCHRONIZE; break;
    default: return std::nullopt;
  }
  Event event;
  Synchronization* s = event.mutable_sync();
  s->set_type(type);
  s->set_device_id(device_id);
  if (a.stream_id != kCuptiInvalidStream) s->set_stream_id(a.stream_id);
  if (type == Synchronization::EVENT_SYNCHRONIZE || type == Synchronization::STREAM_WAIT_EVENT)
    s->set_event_id(a.cuda_event_id);
  s->set_start_ns(a.start);
  s->set_end_ns(a.end);
  s->set_correlation_id(a.correlation_id);
  return event;
}

Event build_event_record(const EventRecordActivity& a) {
  Event event;
  Synchronization* s = event.mutable_sync();
  s->set_type(Synchronization::EVENT_RECORD);
  s->set_device_id(a.device_id);
  s->set_stream_id(a.stream_id);
  s->set_event_id(a.event_id);
  s->set_start_ns(a.timestamp);
  s->set_end_ns(a.timestamp);
  s->set_correlation_id(a.correlation_id);
  return event;
}

Event build_api_call(const ApiActivity& a) {
  Event event;
  ApiCall* call = event.mutable_api_call();
  call->set_domain(a.runtime ? ApiCall::RUNTIME : ApiCall::DRIVER);
  call->set_callback_id(a.callback_id);
  call->set_name(a.name);
  call->set_start_ns(a.start);
  call->set_end_ns(a.end);
  call->set_process_id(a.process_id);
  call->set_thread_id(a.thread_id);
  call->set_correlation_id(a.correlation_id);
  call->set_return_value(a.return_value);
  return event;
}

std::optional<Event> build_stream(const StreamActivity& a, std::uint32_t device_id) {
  Stream::Kind kind = Stream::KIND_UNSPECIFIED;
  switch (a.flag & 0xffffu) {  // CUPTI_ACTIVITY_STREAM_CREATE_MASK
    case kStreamDefault: kind = Stream::BLOCKING; break;
    case kStreamNonBlocking: kind = Stream::NON_BLOCKING; break;
    case kStreamNull: kind = Stream::LEGACY_DEFAULT; break;
    default: return std::nullopt;
  }
  Event event;
  Stream* stream = event.mutable_stream();
  stream->set_device_id(device_id);
  stream->set_stream_id(a.stream_id);
  stream->set_kind(kind);
  stream->set_priority(static_cast<std::int32_t>(a.priority));
  stream->set_correlation_id(a.correlation_id);
  return event;
}

Event build_host_thread(std::uint32_t process_id, std::uint64_t thread_id, const std::optional<std::string>& name) {
  Event event;
  HostThread* thread = event.mutable_host_thread();
  thread->set_process_id(process_id);
  thread->set_thread_id(thread_id);
  if (name) thread->set_name(*name);
  return event;
}

}  // namespace warpsim::tracer
