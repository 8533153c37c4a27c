// `warpsim calibrate --from` on the shipped H100 recordings: the values it takes are those the hand-written H100 file
// took from the same runs, and the file it writes loads and passes the platform checks.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "calibrated_gpu.h"
#include "calibration_suite.h"
#include "combined_runs.h"
#include "gpu_catalog.h"
#include "gpu_file_text.h"
#include "sample_trace.h"

namespace warpsim::calibrate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const fs::path kSource = WARPSIM_SOURCE_DIR;

// A calibration folder made of the shipped H100 recordings and outputs, named as calibrate names its own; `run` 2
// takes the second of the runs where two are shipped (microbench_l1's, the copy sweep's).
fs::path h100_folder(int run = 1, fs::path folder = testing::fresh_temp_dir()) {
  fs::create_directories(folder);
  auto copy = [&](const fs::path& from, const std::string& to) { fs::copy_file(kSource / from, folder / to); };
  copy(run == 1 ? "workloads/microbench_l1/results/H100-80GB-HBM3.txt"
                : "workloads/microbench_l1/results/H100-80GB-HBM3.run2.txt",
       "microbench_l1.log");
  copy("workloads/traces/H100-80GB-HBM3/microbench_launch.timeline.wstrace", "microbench_launch.wstrace");
  copy("workloads/traces/H100-80GB-HBM3/microbench_launch.timeline.log", "microbench_launch.log");
  const std::string sweep = fmt::format("workloads/microbench_copy/results/sweep/H100-80GB-HBM3.{}", run);
  copy(sweep + ".wstrace", "microbench_copy.wstrace");
  copy("workloads/microbench_copy/results/sweep/H100-80GB-HBM3.1.log", "microbench_copy.log");
  copy("workloads/microbench_latency/results-H100.txt", "microbench_latency.log");
  const std::string inflight = "workloads/microbench_dram_inflight/traces/H100-80GB-HBM3/microbench_dram_inflight";
  copy(inflight + ".timeline.wstrace", "microbench_dram_inflight.wstrace");
  copy(inflight + ".timeline.log", "microbench_dram_inflight.log");
  return folder;
}

std::map<std::string, double> by_field(const Measurements& measurements) {
  std::map<std::string, double> values;
  for (const Measurement& m : measurements) {
    if (m.field.ends_with("[]") || m.value.find(':') != std::string::npos) continue;  // messages in text format
    values[m.field] = std::stod(m.value);
  }
  return values;
}

platform::GpuCatalog shipped_gpus() { return platform::GpuCatalog::load(kSource / "platforms/gpus"); }

TEST(Calibration, TheShippedH100RunsGiveTheHandWrittenFilesMeasuredValues) {
  const FolderMeasurements measured = measure_folder(h100_folder());
  EXPECT_EQ(measured.device.name(), "NVIDIA H100 80GB HBM3");
  const auto values = by_field(measured.measurements);
  const platform::GpuCatalog catalog = shipped_gpus();
  const platform::GpuSpec& h100 = catalog.find("H100-SXM5-80GB")->spec;
  EXPECT_EQ(values.at("sm_count"), h100.sm_count());
  EXPECT_EQ(values.at("sm.latency_cycles.dram"), h100.sm().latency_cycles().dram());  // both: the 256 MiB chase
  EXPECT_NEAR(values.at("kernel_launch_overhead_us"), h100.kernel_launch_overhead_us(), 1e-9);  // the same trace
  EXPECT_NEAR(values.at("memory.device_copy_bandwidth_gb_per_s"), h100.memory().device_copy_bandwidth_gb_per_s(), 1);
  // The file pools two runs; this folder holds one of them.
  EXPECT_NEAR(values.at("memory.memset_bandwidth_gb_per_s"), h100.memory().memset_bandwidth_gb_per_s(),
              0.01 * h100.memory().memset_bandwidth_gb_per_s());
  EXPECT_NEAR(values.at("memory.l2_bandwidth_gb_per_s"), h100.memory().l2_bandwidth_gb_per_s(),
              0.01 * h100.memory().l2_bandwidth_gb_per_s());
}

TEST(Calibration, TheWrittenFileLoadsAndSaysWhereEachValueComesFrom) {
  const FolderMeasurements measured = measure_folder(h100_folder());
  const platform::GpuCatalog catalog = shipped_gpus();
  const platform::CatalogEntry& base = choose_base(catalog, measured.device.name(), 9, 0, "");
  ASSERT_EQ(base.spec.name(), "H100-SXM5-80GB");
  CalibratedGpu gpu = calibrated_gpu(base, measured.measurements, "H100-calibrated", measured.device.name());
  gpu.header = {"a test"};
  const std::string text = gpu_file_text(gpu);

  const fs::path gpus = testing::fresh_temp_dir();
  std::ofstream(gpus / "H100-calibrated.textproto") << text;
  const platform::GpuCatalog written = platform::GpuCatalog::load(gpus);
  const platform::CatalogEntry* loaded = written.find("H100-calibrated");
  ASSERT_NE(loaded, nullptr) << text;
  EXPECT_EQ(loaded->spec.SerializeAsString(), gpu.spec.SerializeAsString());
  EXPECT_EQ(loaded->spec.launch_fits_size(), 6);
  EXPECT_EQ(loaded->spec.memory().dram_bytes(), measured.device.global_memory_bytes());  // the driver's, not 80 GiB
  EXPECT_THAT(text, HasSubstr("MEASURED ws_microbench_latency on NVIDIA H100 80GB HBM3"));
  EXPECT_THAT(text, HasSubstr("DEVICE PROPERTY of NVIDIA H100 80GB HBM3: multiProcessorCount"));
  EXPECT_THAT(text, HasSubstr("# FROM H100-SXM5-80GB (not measured): WP-H Fig. 7"));  // schedulers, with its source
  for (const char* line : {"sm_count: 132", "  schedulers: 4", "kernel_launch_overhead_us: 0.864"})
    EXPECT_THAT(text, HasSubstr(line));
}

TEST(Calibration, TheBaseIsTheSameGpuElseARealOneOfTheSameComputeCapability) {
  const platform::GpuCatalog catalog = shipped_gpus();
  EXPECT_EQ(choose_base(catalog, "NVIDIA H200", 9, 0, "").spec.name(), "H200-SXM-141GB");
  const platform::CatalogEntry& other = choose_base(catalog, "NVIDIA H100 PCIe", 9, 0, "");
  EXPECT_EQ(other.spec.compute_capability_major(), 9u);
  EXPECT_FALSE(other.spec.device_names().empty()) << "a hypothetical GPU was chosen: " << other.spec.name();
  EXPECT_EQ(choose_base(catalog, "NVIDIA H200", 9, 0, "A100-SXM4-80GB").spec.name(), "A100-SXM4-80GB");
  try {
    choose_base(catalog, "NVIDIA Tesla M40", 5, 2, "");
    FAIL() << "no shipped Maxwell";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("no shipped GPU of compute capability 5.x"));
    EXPECT_THAT(error.what(), HasSubstr("--base"));
  }
}

TEST(Calibration, AMeasurementOfNoFieldOrABrokenValueIsRefused) {
  const platform::GpuCatalog catalog = shipped_gpus();
  const platform::CatalogEntry& base = *catalog.find("H100-SXM5-80GB");
  try {
    calibrated_gpu(base, {{"memory.l3_bandwidth_gb_per_s", "1", "test"}}, "X", "NVIDIA H100 80GB HBM3");
    FAIL() << "no such field";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("memory.l3_bandwidth_gb_per_s"));
  }
  try {
    calibrated_gpu(base, {{"memory.dram_efficiency", "1.5", "test"}}, "X", "NVIDIA H100 80GB HBM3");
    FAIL() << "an efficiency above 1 breaks the platform checks";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("dram_efficiency"));
  }
}

TEST(Calibration, ABenchmarkAnOlderFolderLacksIsListedAndAFolderOfNoneRefused) {
  const fs::path folder = h100_folder();
  fs::remove(folder / "microbench_latency.log");
  const FolderMeasurements measured = measure_folder(folder);
  // No H100 run of microbench_chain is shipped: it is missing there too.
  EXPECT_THAT(measured.missing, ::testing::ElementsAre("microbench_latency", "microbench_chain"));
  EXPECT_EQ(by_field(measured.measurements).count("sm.latency_cycles.dram"), 0u);
  const fs::path empty = testing::fresh_temp_dir();
  try {
    measure_folder(empty);
    FAIL() << "nothing to measure";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("no output of any calibration benchmark"));
  }
}

TEST(Calibration, TheChainsGiveTheLatencyOfTheClassTheyName) {
  const fs::path folder = h100_folder();
  std::ofstream(folder / "microbench_chain.log") << "device NVIDIA H100 80GB HBM3 sms 132 steps 16384\n"
                                                    "chain fp32 FFMA 4.02\nchain fp64 DFMA 8.10\n"
                                                    "chain fp16 HFMA2 4.50\nchain int32 IMAD 4.51\n"
                                                    "chain alu VIADD+LOP3 2.03\nchain sfu MUFU.EX2 17.9\n"
                                                    "chain shared LDS 29.4\ncheck microbench_chain PASS chains 7\n";
  const FolderMeasurements measured = measure_folder(folder);
  EXPECT_TRUE(measured.missing.empty());
  const auto values = by_field(measured.measurements);
  EXPECT_EQ(values.at("sm.latency_cycles.fp32"), 4.0);
  EXPECT_EQ(values.at("sm.latency_cycles.fp64"), 8.1);
  EXPECT_EQ(values.at("sm.latency_cycles.int32"), 2.0);  // the integer unit's add and LOP3, not IMAD
  EXPECT_EQ(values.at("sm.latency_cycles.sfu"), 17.9);
  EXPECT_EQ(values.at("sm.latency_cycles.shared"), 29.4);
  // The file takes them: they load and pass the platform checks.
  const platform::GpuCatalog catalog = shipped_gpus();
  const CalibratedGpu gpu =
      calibrated_gpu(*catalog.find("H100-SXM5-80GB"), measured.measurements, "X", measured.device.name());
  EXPECT_EQ(gpu.spec.sm().latency_cycles().shared(), 29.4);
  EXPECT_THAT(gpu_file_text(gpu), HasSubstr("MEASURED ws_microbench_chain"));
  EXPECT_EQ(values.count("sm.latency_cycles.constant"), 0u) << "a run from before the constant chase";
}

// The constant chase's step is an SHF and an LDC: the ALU's chain comes off it.
TEST(Calibration, TheConstantChaseLessTheAluStepIsTheConstantLatency) {
  const fs::path folder = h100_folder();
  std::ofstream(folder / "microbench_chain.log") << "device NVIDIA H100 80GB HBM3 sms 132 steps 16384\n"
                                                    "chain fp32 FFMA 4.05\nchain fp64 DFMA 8.04\n"
                                                    "chain alu VIADD+LOP3 5.02\nchain sfu MUFU.EX2 17.01\n"
                                                    "chain shared LDS 23.00\nchain constant_indexed LDC 34.00\n"
                                                    "check microbench_chain PASS chains 8\n";
  const FolderMeasurements measured = measure_folder(folder);
  EXPECT_EQ(by_field(measured.measurements).at("sm.latency_cycles.constant"), 29.0);
  const platform::GpuCatalog catalog = shipped_gpus();
  const CalibratedGpu gpu =
      calibrated_gpu(*catalog.find("H100-SXM5-80GB"), measured.measurements, "X", measured.device.name());
  EXPECT_EQ(gpu.spec.sm().latency_cycles().constant(), 29.0);
}

TEST(Calibration, TheDramGridIsTheHandWrittenFilesFromTheSameRecording) {
  const FolderMeasurements measured = measure_folder(h100_folder());
  const platform::GpuCatalog catalog = shipped_gpus();
  const platform::CatalogEntry& base = *catalog.find("H100-SXM5-80GB");
  const CalibratedGpu gpu = calibrated_gpu(base, measured.measurements, "X", measured.device.name());
  EXPECT_EQ(gpu.spec.memory().dram_concurrency().SerializeAsString(),
            base.spec.memory().dram_concurrency().SerializeAsString());
  EXPECT_NEAR(gpu.spec.memory().dram_efficiency(), 2985.7 / 3352.3, 1e-3);  // the grid's fastest read / the peak
  EXPECT_THAT(gpu_file_text(gpu), HasSubstr("dram_concurrency {                          # MEASURED"));
}

TEST(Calibration, TwoRunsGiveTheirMedianAndTheSpreadInTheComment) {
  const fs::path folder = testing::fresh_temp_dir();
  h100_folder(1, folder / "run1");
  h100_folder(2, folder / "run2");
  ASSERT_EQ(run_folders(folder).size(), 2u);
  const FolderMeasurements measured = measure_runs(run_folders(folder));
  const platform::GpuCatalog catalog = shipped_gpus();
  const platform::GpuSpec& h100 = catalog.find("H100-SXM5-80GB")->spec;
  const auto values = by_field(measured.measurements);
  // The hand-written file took the mean of the same two runs (8332.1 and 8256.5).
  EXPECT_EQ(values.at("memory.l2_bandwidth_gb_per_s"), h100.memory().l2_bandwidth_gb_per_s());
  for (const Measurement& m : measured.measurements) {
    if (m.field == "memory.l2_bandwidth_gb_per_s") {
      EXPECT_THAT(m.source, HasSubstr("(median of 2 runs: 8332 / 8256, spread 0.9%)"));
    }
    if (m.field == "sm_count") {
      EXPECT_THAT(m.source, ::testing::Not(HasSubstr("runs")));  // the same in both
    }
  }
  EXPECT_EQ(values.at("sm.latency_cycles.dram"), 682);  // both runs read the same output
}

TEST(Calibration, RunsThatMeasureDifferentFieldsAreRefused) {
  try {
    combine_runs({{{"sm_count", "132", "a"}}, {{"memory.l2_bytes", "1", "b"}}});
    FAIL() << "run 2 measures another field";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("run 2 does not measure sm_count"));
  }
}

}  // namespace
}  // namespace warpsim::calibrate
