#pragma once
// A trace's events in API order with each operation's work already prepared (its kernel predicted), made on a thread
// of their own a bounded number of events ahead of the replay (ReadAhead): reading, parsing and predicting took a
// fifth of a replay's time on the SimGrid thread.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

#include "api_order_reader.h"
#include "op_work.h"
#include "read_ahead.h"
#include "trace.pb.h"

namespace warpsim::replay {

/// What the caller keeps of an operation until it ends.
struct OpNotes {
  std::uint16_t model_bound = 0;               // a kernel's bound as its model names it (BoundTable id)
  std::optional<std::uint32_t> kernel_device;  // a kernel's GPU
};

/// What the replay needs of an operation's event, made when it is read (the caller predicts a kernel then).
struct PreparedOp {
  OpWork work;
  OpNotes notes;
};

struct PreparedEvent {
  Event event;
  std::size_t source_index = 0;
  std::optional<PreparedOp> prepared;  // operations only
};

/// Makes an operation's work from its event. Called on the reading thread, in API order.
using Prepare = std::function<PreparedOp(Event&)>;

/// Reads `reader` ahead and prepares each operation; `reader` and `prepare` are used on the reading thread until the
/// result is destroyed.
using PreparedEvents = ReadAhead<PreparedEvent>;
PreparedEvents::Fill prepare_each(ApiOrderReader& reader, Prepare prepare);

}  // namespace warpsim::replay
