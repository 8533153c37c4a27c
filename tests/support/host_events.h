#pragma once
/// @brief Builders for the host side of a trace (API calls, host threads, streams), with defaults as in
/// sample_trace.h: a test states only what it varies. Header-only: inline functions.

#include <cstdint>
#include <string>

#include "trace.pb.h"

namespace warpsim::testing {

inline constexpr std::uint32_t kHostPid = 4200;

/// A CUDA API call of thread `thread_id` (process kHostPid) over [start_ns, end_ns); the domain follows from the
/// name ("cuda..." runtime, else driver).
inline Event api_call_event(const std::string& name, std::uint64_t thread_id, std::uint64_t start_ns,
                            std::uint64_t end_ns, std::uint64_t correlation_id = 0, std::uint32_t callback_id = 211) {
  Event event;
  ApiCall* call = event.mutable_api_call();
  call->set_domain(name.rfind("cuda", 0) == 0 ? ApiCall::RUNTIME : ApiCall::DRIVER);
  call->set_callback_id(callback_id);
  call->set_name(name);
  call->set_start_ns(start_ns);
  call->set_end_ns(end_ns);
  call->set_process_id(kHostPid);
  call->set_thread_id(thread_id);
  call->set_correlation_id(correlation_id);
  return event;
}

/// A host thread of process kHostPid; an empty name leaves the name unset (the thread had ended).
inline Event host_thread_event(std::uint64_t thread_id, const std::string& name = "") {
  Event event;
  HostThread* thread = event.mutable_host_thread();
  thread->set_process_id(kHostPid);
  thread->set_thread_id(thread_id);
  if (!name.empty()) thread->set_name(name);
  return event;
}

inline Event stream_event(std::uint32_t device, std::uint32_t stream, Stream::Kind kind = Stream::NON_BLOCKING) {
  Event event;
  Stream* s = event.mutable_stream();
  s->set_device_id(device);
  s->set_stream_id(stream);
  s->set_kind(kind);
  return event;
}

}  // namespace warpsim::testing
