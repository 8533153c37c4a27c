#pragma once
/// @brief One CSV row per kernel of a trace, for spreadsheets and pandas (`simulate --csv`).
///
/// Columns: device,stream,correlation_id,name,demangled,grid_x,grid_y,grid_z,block_x,block_y,block_z,registers,
/// shared_bytes,start_ns,end_ns,duration_ns,inst_executed,dram_bytes,l2_bytes. The last three come from the
/// kernel's counters (warp instructions executed, DRAM read + write bytes, L2 bytes) and are empty when it has none
/// or lacks that counter, so every row has the same columns. Fields are quoted per RFC 4180 where needed: demangled
/// names contain commas.

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>

#include "trace_reader.h"

namespace warpsim::report {

struct KernelsCsvResult {
  std::uint64_t rows = 0;          ///< kernels written (the header line not counted)
  std::string truncation_warning;  ///< empty unless the trace was cut short (its complete kernels are written)
};

/// Writes the header line and one row per kernel of the trace at `trace`, in file order. Throws TraceError.
KernelsCsvResult write_kernels_csv(const std::filesystem::path& trace, std::ostream& out);

/// `field` as one CSV field: quoted, with quotes doubled, when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& field);

}  // namespace warpsim::report
