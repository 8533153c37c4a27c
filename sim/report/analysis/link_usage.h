#pragma once
/// @brief How busy a trace's links were over time, for the report: per link and direction, the bytes moved in each
/// of a number of equal time bins, as a rate.
///
/// What is counted: copies on the link their route takes (HtoD and DtoH on the GPU's PCIe link, PtoP on the NVLink
/// between the two GPUs, else on their PCIe links), and kernels' own remote traffic where counters recorded it
/// (NVLink received and transmitted bytes on the GPU's NVLinks, shared evenly; PCIe read and written bytes on its
/// PCIe link), each spread evenly over the operation's duration. A link's capacity is the header's where it gives
/// one (NVLink: CUPTI's total over the bundle; simulated traces: the node's); recordings give none for PCIe.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace warpsim::report {

struct LinkSeries {
  std::string name;                            ///< "PCIe GPU0 to GPU", "PCIe GPU0 to host", "NVLink GPU0-GPU1"
  std::optional<double> capacity_gb_per_s;    ///< the header's bandwidth of the link, where known
  std::vector<double> gb_per_s;                ///< per bin: bytes moved in it / bin length
};

struct LinkUsage {
  std::uint64_t start_ns = 0;  ///< the first bin's start, on the trace's clock
  std::uint64_t bin_ns = 0;
  std::vector<LinkSeries> links;  ///< only links that moved bytes, in header order
};

/// Reads the trace at `path` once and bins its link traffic into `bins` bins from `start_ns` to `end_ns` (the
/// trace's span). Throws TraceError on bad input.
LinkUsage link_usage(const std::filesystem::path& path, std::uint64_t start_ns, std::uint64_t end_ns,
                     std::size_t bins);

}  // namespace warpsim::report
