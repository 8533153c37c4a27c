#pragma once
/// @brief CUPTI-like activity records (activity_records.h) -> trace events (trace.proto). Pure functions.

#include <optional>

#include "sink/activity_records.h"
#include "trace.pb.h"

namespace warpsim::tracer {

Event build_kernel(const KernelActivity& activity);
/// nullopt for a copy the trace cannot place: a peer-to-peer copy without its source and destination devices.
std::optional<Event> build_copy(const CopyActivity& activity);
Event build_memset(const MemsetActivity& activity);
/// `device_id`: the device of the activity's context. nullopt for CUPTI's UNKNOWN synchronization type.
std::optional<Event> build_sync(const SyncActivity& activity, std::uint32_t device_id);
Event build_event_record(const EventRecordActivity& activity);
Event build_api_call(const ApiActivity& activity);
/// `device_id`: the device of the stream's context. nullopt for a flag CUPTI leaves unknown.
std::optional<Event> build_stream(const StreamActivity& activity, std::uint32_t device_id);
/// `name`: what the operating system calls the thread; nullopt when it could not be read (the thread had ended).
Event build_host_thread(std::uint32_t process_id, std::uint64_t thread_id, const std::optional<std::string>& name);

Memcpy::Kind copy_kind_from_cupti(std::uint8_t cupti_kind);
MemoryKind memory_kind_from_cupti(std::uint32_t cupti_kind);

}  // namespace warpsim::tracer
