// The replay's processes, resumed by SimGrid's maestro, on a two-host platform. One engine per process: CTest runs
// each test alone.
#include "maestro_process.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace warpsim::replay {
namespace {

// Two hosts of 1e6 flops per second, one core each, linked at 1e6 bytes per second without latency.
class MaestroTest : public ::testing::Test {
 protected:
  MaestroTest() {
    static std::string program = "maestro_test", quiet = "--log=root.thresh:critical";
    static char* argv[] = {program.data(), quiet.data(), nullptr};
    int argc = 2;
    engine_ = std::make_unique<sg4::Engine>(&argc, argv);
    engine_->set_config("network/model:CM02");
    engine_->set_config("network/crosstraffic:0");
    engine_->set_config("network/TCP-gamma:1e30");
    sg4::NetZone* zone = sg4::create_full_zone("zone");
    a_ = zone->create_host("a", 1e6)->seal();
    b_ = zone->create_host("b", 1e6)->seal();
    sg4::Link* link = zone->create_link("link", 1e6)->set_latency(0)->seal();
    zone->add_route(a_->get_netpoint(), b_->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(link)}, true);
    zone->seal();
  }

  void run() {
    maestro_.run_ready();
    engine_->run();
  }

  sg4::ActivityPtr exec_on_a(double seconds) const {
    return sg4::Exec::init()->set_flops_amount(seconds * 1e6)->set_host(a_);
  }
  sg4::ActivityPtr bytes_from_a_to_b(double seconds) const {
    return sg4::Comm::sendto_init(a_, b_)->set_payload_size(static_cast<std::uint64_t>(seconds * 1e6));
  }

  std::unique_ptr<sg4::Engine> engine_;
  sg4::Host* a_ = nullptr;
  sg4::Host* b_ = nullptr;
  Maestro maestro_;
};

Process wait_until(Maestro& maestro, double time, std::vector<std::string>& log, std::string name) {
  co_await maestro.until(time);
  log.push_back(name + "@" + std::to_string(sg4::Engine::get_clock()));
}

TEST_F(MaestroTest, ProcessesResumeAtTheTimesTheyWaitForInTimeOrder) {
  std::vector<std::string> log;
  maestro_.spawn(wait_until(maestro_, 3, log, "late"));
  maestro_.spawn(wait_until(maestro_, 1, log, "early"));
  maestro_.spawn(wait_until(maestro_, 0, log, "now"));  // a time that has come: no wait
  run();
  EXPECT_EQ(log, (std::vector<std::string>{"now@0.000000", "early@1.000000", "late@3.000000"}));
  EXPECT_TRUE(maestro_.all_finished());
}

Process run_activities(Maestro& maestro, std::vector<sg4::ActivityPtr> activities, std::vector<double>& end_times,
                       double& resumed_at) {
  end_times = co_await maestro.activities(std::move(activities));
  resumed_at = sg4::Engine::get_clock();
}

TEST_F(MaestroTest, AProcessResumesOnceAllItsActivitiesEndedWithTheTimeEachEnded) {
  std::vector<double> end_times;
  double resumed_at = -1;
  maestro_.spawn(run_activities(maestro_, {exec_on_a(2), bytes_from_a_to_b(5), exec_on_a(0.5)}, end_times, resumed_at));
  run();
  // The two executions share host a's one core: the short one ends at 1 s, the long one at 2.5 s.
  ASSERT_EQ(end_times.size(), 3u);
  EXPECT_NEAR(end_times[0], 2.5, 1e-9);
  EXPECT_NEAR(end_times[1], 5, 1e-9);
  EXPECT_NEAR(end_times[2], 1, 1e-9);
  EXPECT_NEAR(resumed_at, 5, 1e-9);
}

Process park(Waiters& waiters, std::vector<std::string>& log, std::string name) {
  co_await Park{&waiters};
  log.push_back(name);
}

Process wake_one_each_second(Maestro& maestro, Waiters& waiters, int times) {
  for (int i = 1; i <= times; ++i) {
    co_await maestro.until(i);
    maestro.wake_one(waiters);
  }
}

TEST_F(MaestroTest, ParkedProcessesAreWokenInTheOrderTheyCame) {
  Waiters waiters;
  std::vector<std::string> log;
  for (const char* name : {"first", "second", "third"}) maestro_.spawn(park(waiters, log, name));
  maestro_.spawn(wake_one_each_second(maestro_, waiters, 2));
  run();
  EXPECT_EQ(log, (std::vector<std::string>{"first", "second"}));
  EXPECT_FALSE(maestro_.all_finished());  // the third is still parked
}

Process fail_at(Maestro& maestro, double time) {
  co_await maestro.until(time);
  throw std::runtime_error("failed at " + std::to_string(static_cast<int>(time)));
}

TEST_F(MaestroTest, TheFirstExceptionLeavingAProcessStopsTheOthers) {
  std::vector<std::string> log;
  maestro_.spawn(fail_at(maestro_, 1));
  maestro_.spawn(fail_at(maestro_, 2));
  maestro_.spawn(wait_until(maestro_, 3, log, "after"));
  run();
  ASSERT_TRUE(maestro_.failure());
  try {
    std::rethrow_exception(maestro_.failure());
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "failed at 1");
  }
  EXPECT_TRUE(log.empty());
}

}  // namespace
}  // namespace warpsim::replay
