#include "prepared_events.h"

#include <utility>

namespace warpsim::replay {

bool is_operation(const Event& event) { return event.has_kernel() || event.has_memcpy() || event.has_memset(); }

PreparedEvents::Fill prepare_each(ApiOrderReader& reader, Prepare prepare) {
  return [&reader, prepare = std::move(prepare)](PreparedEvent& item) {
    if (!reader.next(item.event, item.source_index)) return false;
    item.prepared.reset();
    if (is_operation(item.event)) item.prepared = prepare(item.event);
    return true;
  };
}

}  // namespace warpsim::replay
