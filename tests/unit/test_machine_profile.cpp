// Tests of the machine profile file: round trip, atomic write, the error
// messages of every kind of bad file, and the mapping to the model's
// parameters.
#include "profile/machine_profile.hpp"
#include "model/refined_model.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace mmbench::tuner {
using namespace mmbench::profile;
namespace {

namespace fs = std::filesystem;

MachineProfile sample_profile() {
  MachineProfile p;
  p.host = "node17";
  p.cpu_model = "AMD EPYC 9R14 96-Core Processor";
  p.cores = 2;
  p.date = "2025-03-01T12:34:56Z";
  p.libraries = {"Open MPI v4.1.4, package: Debian", "OpenBLAS 0.3.21 DYNAMIC_ARCH", "2.2.1"};
  p.problem = {4096, 1, 2, 32, 2048, 0.98, false};
  p.lb = 256;
  p.rule_lb = 78;
  p.lb_panels = 2;
  p.lb_curve.points = {{1024, 512, 128, 28}, {2048, 1024, 256, 14}, {4096, 2048, 256, 7}};
  p.lb_at_max = 1102;
  p.peak_dgemm_mflops = 49123.456789012345;
  p.t_op_s = 1.0 / 48.5e9;
  p.network_measured = true;
  p.latency_s = 2.1e-7;
  p.tau_pingpong = 1.1e9;
  p.tau_alltoall = 8.3e8;
  p.tau_model = TauModel::pingpong;
  p.two_regime = {2.0e-7, 6.1e8, 4.2e-6, 1.3e9, 4096};
  p.add_bytes_per_s = 1.7e10;
  p.strassen_l1_n = 3000;
  p.strassen_l2_n = 6000;
  p.lb_check.n = 4096;
  p.lb_check.nb = 64;
  p.lb_check.rounds = 7;
  p.lb_check.reference_lb = 32;
  p.lb_check.coverage = 0.984375;
  p.lb_check.candidates = {{32, 36000.5, 1.0, 1.0, 1.0}, {78, 41000.25, 1.12, 1.09, 1.15}, {256, 46000, 1.3, 1.27, 1.33}};
  p.lb_check.csv = "results/dgemm-profile-node17-lb-check.csv";
  p.dgemm_threads = 2;
  p.dgemm_threaded_n = 2048;
  p.dgemm_threaded_mflops = 90000;
  p.dgemm_single_mflops = 50000;
  p.add_threads = 2;
  p.add_threaded_bytes_per_s = 2.38e10;
  p.first_touch_bytes_per_s = 2.2e9;
  p.memory_per_rank_bytes = std::int64_t{12} << 30;
  p.notes = "quiet machine; \"quoted\" text\nsecond line";
  p.dgemm_profile = {{4096, 2048, 32, 30000.5}, {4096, 2048, 40, 35000.25}, {4096, 2048, 256, 48000}};
  p.dgemm_profile_csv = "results/dgemm-profile-node17.csv";
  p.dgemm_profile_noise = 0.0325;
  p.refreshed = {"2025-03-01T13:40:00Z", 1.125, 3, 4.5};
  return p;
}

class ProfileFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("mmbench_profile_test_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::string write_text(const std::string& name, const std::string& text) const {
    std::ofstream(path(name)) << text;
    return path(name);
  }

  // The sample profile as a JSON object, to be damaged by a test.
  static nlohmann::json sample_json() { return nlohmann::json::parse(profile_to_json(sample_profile())); }

  // Reads a file that must fail and returns the message.
  static std::string error_of(const std::string& file) {
    try {
      read_profile(file);
    } catch (const ProfileError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no ProfileError for " << file;
    return "";
  }

  // Damages one field of the sample, reads it back and checks that the
  // message names the file and every given word.
  void expect_error(const std::string& case_name, const std::function<void(nlohmann::json&)>& damage,
                    std::initializer_list<std::string> words) {
    nlohmann::json doc = sample_json();
    damage(doc);
    const std::string file = write_text(case_name + ".json", doc.dump(2));
    const std::string msg = error_of(file);
    EXPECT_EQ(msg.rfind(file + ": ", 0), 0u) << case_name << ": " << msg;
    for (const std::string& w : words) {
      EXPECT_NE(msg.find(w), std::string::npos) << case_name << ": '" << w << "' not in: " << msg;
    }
  }

  fs::path dir_;
};

void expect_same(const MachineProfile& a, const MachineProfile& b) {
  EXPECT_EQ(a.schema, b.schema);
  EXPECT_EQ(a.host, b.host);
  EXPECT_EQ(a.cpu_model, b.cpu_model);
  EXPECT_EQ(a.cores, b.cores);
  EXPECT_EQ(a.date, b.date);
  EXPECT_EQ(a.libraries.mpi, b.libraries.mpi);
  EXPECT_EQ(a.libraries.blas, b.libraries.blas);
  EXPECT_EQ(a.libraries.scalapack, b.libraries.scalapack);
  EXPECT_EQ(a.problem.n, b.problem.n);
  EXPECT_EQ(a.problem.pr, b.problem.pr);
  EXPECT_EQ(a.problem.pc, b.problem.pc);
  EXPECT_EQ(a.problem.kmin, b.problem.kmin);
  EXPECT_EQ(a.problem.kmax, b.problem.kmax);
  EXPECT_EQ(a.problem.x, b.problem.x);
  EXPECT_EQ(a.problem.exhaustive, b.problem.exhaustive);
  EXPECT_EQ(a.lb, b.lb);
  EXPECT_EQ(a.rule_lb, b.rule_lb);
  EXPECT_EQ(a.lb_check.n, b.lb_check.n);
  EXPECT_EQ(a.lb_check.nb, b.lb_check.nb);
  EXPECT_EQ(a.lb_check.rounds, b.lb_check.rounds);
  EXPECT_EQ(a.lb_check.reference_lb, b.lb_check.reference_lb);
  EXPECT_EQ(a.lb_check.coverage, b.lb_check.coverage);
  EXPECT_EQ(a.lb_check.csv, b.lb_check.csv);
  ASSERT_EQ(a.lb_check.candidates.size(), b.lb_check.candidates.size());
  for (std::size_t i = 0; i < a.lb_check.candidates.size(); ++i) {
    EXPECT_EQ(a.lb_check.candidates[i].lb, b.lb_check.candidates[i].lb);
    EXPECT_EQ(a.lb_check.candidates[i].mflops_median, b.lb_check.candidates[i].mflops_median);
    EXPECT_EQ(a.lb_check.candidates[i].ratio_median, b.lb_check.candidates[i].ratio_median);
    EXPECT_EQ(a.lb_check.candidates[i].ratio_ci_lo, b.lb_check.candidates[i].ratio_ci_lo);
    EXPECT_EQ(a.lb_check.candidates[i].ratio_ci_hi, b.lb_check.candidates[i].ratio_ci_hi);
  }
  EXPECT_EQ(a.dgemm_threads, b.dgemm_threads);
  EXPECT_EQ(a.dgemm_threaded_n, b.dgemm_threaded_n);
  EXPECT_EQ(a.dgemm_threaded_mflops, b.dgemm_threaded_mflops);
  EXPECT_EQ(a.dgemm_single_mflops, b.dgemm_single_mflops);
  EXPECT_EQ(a.add_threads, b.add_threads);
  EXPECT_EQ(a.add_threaded_bytes_per_s, b.add_threaded_bytes_per_s);
  EXPECT_EQ(a.first_touch_bytes_per_s, b.first_touch_bytes_per_s);
  EXPECT_EQ(a.memory_per_rank_bytes, b.memory_per_rank_bytes);
  EXPECT_EQ(a.lb_at_max, b.lb_at_max);
  EXPECT_EQ(a.lb_panels, b.lb_panels);
  ASSERT_EQ(a.lb_curve.points.size(), b.lb_curve.points.size());
  for (std::size_t i = 0; i < a.lb_curve.points.size(); ++i) {
    EXPECT_EQ(a.lb_curve.points[i].n, b.lb_curve.points[i].n);
    EXPECT_EQ(a.lb_curve.points[i].share, b.lb_curve.points[i].share);
    EXPECT_EQ(a.lb_curve.points[i].lb, b.lb_curve.points[i].lb);
    EXPECT_EQ(a.lb_curve.points[i].rounds, b.lb_curve.points[i].rounds);
  }
  EXPECT_EQ(a.peak_dgemm_mflops, b.peak_dgemm_mflops);  // exact: 17 digits are written
  EXPECT_EQ(a.t_op_s, b.t_op_s);
  EXPECT_EQ(a.network_measured, b.network_measured);
  EXPECT_EQ(a.latency_s, b.latency_s);
  EXPECT_EQ(a.tau_pingpong, b.tau_pingpong);
  EXPECT_EQ(a.tau_alltoall, b.tau_alltoall);
  EXPECT_EQ(a.tau_model, b.tau_model);
  EXPECT_EQ(a.two_regime.eager_latency_s, b.two_regime.eager_latency_s);
  EXPECT_EQ(a.two_regime.eager_tau, b.two_regime.eager_tau);
  EXPECT_EQ(a.two_regime.rendezvous_latency_s, b.two_regime.rendezvous_latency_s);
  EXPECT_EQ(a.two_regime.rendezvous_tau, b.two_regime.rendezvous_tau);
  EXPECT_EQ(a.two_regime.break_bytes, b.two_regime.break_bytes);
  EXPECT_EQ(a.add_bytes_per_s, b.add_bytes_per_s);
  EXPECT_EQ(a.strassen_l1_n, b.strassen_l1_n);
  EXPECT_EQ(a.strassen_l2_n, b.strassen_l2_n);
  EXPECT_EQ(a.notes, b.notes);
  EXPECT_EQ(a.dgemm_profile_noise, b.dgemm_profile_noise);
  EXPECT_EQ(a.refreshed.date, b.refreshed.date);
  EXPECT_EQ(a.refreshed.factor, b.refreshed.factor);
  EXPECT_EQ(a.refreshed.points, b.refreshed.points);
  EXPECT_EQ(a.refreshed.seconds, b.refreshed.seconds);
  ASSERT_EQ(a.dgemm_profile.size(), b.dgemm_profile.size());
  for (std::size_t i = 0; i < a.dgemm_profile.size(); ++i) {
    EXPECT_EQ(a.dgemm_profile[i].m, b.dgemm_profile[i].m);
    EXPECT_EQ(a.dgemm_profile[i].n, b.dgemm_profile[i].n);
    EXPECT_EQ(a.dgemm_profile[i].k, b.dgemm_profile[i].k);
    EXPECT_EQ(a.dgemm_profile[i].mflops, b.dgemm_profile[i].mflops);
  }
  EXPECT_EQ(a.dgemm_profile_csv, b.dgemm_profile_csv);
}

TEST_F(ProfileFile, RoundTrip) {
  const MachineProfile p = sample_profile();
  const std::string file = path("configs/node17.json");  // parent created by write_profile
  write_profile(p, file);
  EXPECT_FALSE(fs::exists(file + ".tmp"));
  expect_same(read_profile(file), p);

  // Overwriting replaces the file as a whole.
  MachineProfile q = p;
  q.lb = 300;
  q.network_measured = false;
  q.latency_s = q.tau_pingpong = q.tau_alltoall = 0;
  q.dgemm_profile.clear();
  write_profile(q, file);
  expect_same(read_profile(file), q);
}

TEST_F(ProfileFile, KeysCarryTheirUnits) {
  const nlohmann::json doc = sample_json();
  EXPECT_EQ(doc.at("schema"), "mmbench-profile/1");
  EXPECT_DOUBLE_EQ(doc.at("latency_s").get<double>(), 2.1e-7);
  EXPECT_DOUBLE_EQ(doc.at("tau_alltoall_doubles_per_s").get<double>(), 8.3e8);
  EXPECT_DOUBLE_EQ(doc.at("tau_pingpong_doubles_per_s").get<double>(), 1.1e9);
  EXPECT_EQ(doc.at("tau_model"), "pingpong");
  EXPECT_EQ(doc.at("two_regime").at("break_bytes"), 4096);
  EXPECT_DOUBLE_EQ(doc.at("add_bandwidth_bytes_per_s").get<double>(), 1.7e10);
}

TEST_F(ProfileFile, OptionalFieldsMayBeLeftOut) {
  nlohmann::json doc = sample_json();
  EXPECT_EQ(doc.at("memory_per_rank_bytes"), std::int64_t{12} << 30);
  doc.erase("strassen_crossover");
  doc.erase("notes");
  doc.erase("memory_per_rank_bytes");
  doc.erase("dgemm_profile_noise");
  doc.erase("refreshed");
  doc["a_future_field"] = 1;
  const MachineProfile p = read_profile(write_text("optional.json", doc.dump()));
  EXPECT_EQ(p.strassen_l1_n, 0);
  EXPECT_EQ(p.strassen_l2_n, 0);
  EXPECT_EQ(p.notes, "");
  EXPECT_EQ(p.memory_per_rank_bytes, 0);  // no limit from the profile
  EXPECT_EQ(p.dgemm_profile_noise, 0.0);   // not recorded
  EXPECT_EQ(p.refreshed.date, "");         // never refreshed
  EXPECT_FALSE(nlohmann::json::parse(profile_to_json(p)).contains("refreshed"));
  doc["memory_per_rank_bytes"] = -1;
  EXPECT_THROW(read_profile(write_text("negative-memory.json", doc.dump())), ProfileError);
}

TEST_F(ProfileFile, ProfilesWithoutTheLbCheckAndThreadFieldsStillLoad) {
  // A profile written before rule_lb, lb_check and the threaded DGEMM existed.
  nlohmann::json doc = sample_json();
  for (const char* key :
       {"rule_lb", "lb_panels", "lb_check", "lb_curve", "dgemm_threads", "dgemm_threaded_n", "dgemm_threaded_mflops",
        "dgemm_single_mflops", "add_threads", "add_threaded_bytes_per_s", "first_touch_bytes_per_s"})
    doc.erase(key);
  const MachineProfile p = read_profile(write_text("old.json", doc.dump()));
  EXPECT_EQ(p.lb, 256);
  EXPECT_EQ(p.rule_lb, 256);  // the old lb was the rule's
  EXPECT_EQ(p.lb_panels, kLbPanelsPerProcess);  // the cap every profile kept before
  EXPECT_TRUE(p.lb_curve.empty());              // no curve: the panels hold
  EXPECT_EQ(p.lb_check.rounds, 0);
  EXPECT_TRUE(p.lb_check.candidates.empty());
  EXPECT_EQ(p.dgemm_threads, 0);
  const model::MachineParams m = to_params(p);
  EXPECT_EQ(m.thread_efficiency, 0.0);  // ideal scaling, as before
  EXPECT_EQ(m.thread_efficiency_threads, 0);
  EXPECT_EQ(p.add_threads, 0);
  EXPECT_EQ(m.add_thread_speedup, 0.0);  // additions scale like DGEMM, as before
  // Written back, it reads the same and gains rule_lb; no lb_check appears.
  const nlohmann::json again = nlohmann::json::parse(profile_to_json(p));
  EXPECT_EQ(again.at("rule_lb"), 256);
  EXPECT_FALSE(again.contains("lb_check"));
  // The committed Opteron profile (written by hand, no new fields) loads.
  const MachineProfile opteron = read_profile(std::string(MMBENCH_SOURCE_DIR) + "/configs/thesis-opteron.json");
  EXPECT_EQ(opteron.rule_lb, opteron.lb);
}

// A kernel model with every field set to a distinct value.
KernelTimeModel sample_kernel_model() {
  KernelTimeModel m;
  m.measured = true;
  m.max_dim = 2048;
  m.rounds = 3;
  m.ranks = 2;
  m.dgemm = {1.5e-6, 2.1e-11, 3.2e-10, 4.3e-10, 5.4e-10, 0.041, 0.012, 14, 84};
  m.add = {2.5e-6, 1.0 / 2.3e10, 0.052, 0.021, 5, 30};
  m.copy = {1.5e-6, 1.0 / 2.9e10, 0.063, 0.022, 5, 30};
  m.pack = {0.5e-6, 1.0 / 2.1e10, 0.074, 0.023, 5, 30};
  return m;
}

void expect_same_fit(const DgemmTimeFit& a, const DgemmTimeFit& b) {
  EXPECT_EQ(a.a_s, b.a_s);
  EXPECT_EQ(a.b_s_per_mnk, b.b_s_per_mnk);
  EXPECT_EQ(a.c_s_per_mn, b.c_s_per_mn);
  EXPECT_EQ(a.d_s_per_mk, b.d_s_per_mk);
  EXPECT_EQ(a.e_s_per_nk, b.e_s_per_nk);
  EXPECT_EQ(a.log_sd, b.log_sd);
  EXPECT_EQ(a.repeat_log_sd, b.repeat_log_sd);
  EXPECT_EQ(a.shapes, b.shapes);
  EXPECT_EQ(a.points, b.points);
}

void expect_same_fit(const BytesTimeFit& a, const BytesTimeFit& b) {
  EXPECT_EQ(a.a_s, b.a_s);
  EXPECT_EQ(a.b_s_per_byte, b.b_s_per_byte);
  EXPECT_EQ(a.log_sd, b.log_sd);
  EXPECT_EQ(a.repeat_log_sd, b.repeat_log_sd);
  EXPECT_EQ(a.sizes, b.sizes);
  EXPECT_EQ(a.points, b.points);
}

TEST_F(ProfileFile, KernelModelRoundTrips) {
  MachineProfile p = sample_profile();
  p.kernel_model = sample_kernel_model();
  p.kernel_model_csv = "results/local/dgemm-profile-node17-n4096-kernel-model.csv";
  const std::string file = path("kernel.json");
  write_profile(p, file);
  const MachineProfile q = read_profile(file);
  expect_same(q, p);
  ASSERT_TRUE(q.kernel_model.measured);
  EXPECT_EQ(q.kernel_model.max_dim, 2048);
  EXPECT_EQ(q.kernel_model.rounds, 3);
  EXPECT_EQ(q.kernel_model.ranks, 2);
  expect_same_fit(q.kernel_model.dgemm, p.kernel_model.dgemm);
  expect_same_fit(q.kernel_model.add, p.kernel_model.add);
  expect_same_fit(q.kernel_model.copy, p.kernel_model.copy);
  expect_same_fit(q.kernel_model.pack, p.kernel_model.pack);
  EXPECT_EQ(q.kernel_model_csv, p.kernel_model_csv);
  const nlohmann::json doc = nlohmann::json::parse(profile_to_json(p));
  EXPECT_DOUBLE_EQ(doc.at("kernel_model").at("dgemm").at("b_s_per_mnk").get<double>(), 2.1e-11);
  EXPECT_DOUBLE_EQ(doc.at("kernel_model").at("add").at("b_s_per_byte").get<double>(), 1.0 / 2.3e10);
  // The refined model takes DGEMM's shape dependence from it.
  EXPECT_EQ(to_params(q).dgemm_shape_fit.b_s_per_mnk, p.kernel_model.dgemm.b_s_per_mnk);
}

TEST_F(ProfileFile, ProfilesWithoutTheKernelModelStillLoadAndWriteNone) {
  // sample_profile() has none, like every profile written before the key.
  const nlohmann::json doc = sample_json();
  EXPECT_FALSE(doc.contains("kernel_model"));
  const MachineProfile p = read_profile(write_text("nokernel.json", doc.dump()));
  EXPECT_FALSE(p.kernel_model.measured);  // charged simulations: flat prices
  EXPECT_FALSE(to_params(p).dgemm_shape_fit.fitted());  // the refined model: the nearest point's rate
  EXPECT_EQ(p.kernel_model_csv, "");
  EXPECT_FALSE(nlohmann::json::parse(profile_to_json(p)).contains("kernel_model"));
  const MachineProfile opteron = read_profile(std::string(MMBENCH_SOURCE_DIR) + "/configs/thesis-opteron.json");
  EXPECT_FALSE(opteron.kernel_model.measured);
}

TEST_F(ProfileFile, KernelModelIsValidated) {
  auto with_model = [] {
    MachineProfile p = sample_profile();
    p.kernel_model = sample_kernel_model();
    return nlohmann::json::parse(profile_to_json(p));
  };
  auto damaged = [&](const std::string& name, const std::function<void(nlohmann::json&)>& damage) {
    nlohmann::json doc = with_model();
    damage(doc);
    return error_of(write_text(name + ".json", doc.dump()));
  };
  std::string msg = damaged("nob", [](auto& d) { d["kernel_model"]["dgemm"]["b_s_per_mnk"] = 0.0; });
  EXPECT_NE(msg.find("'kernel_model.dgemm.b_s_per_mnk'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("> 0"), std::string::npos) << msg;
  msg = damaged("neg", [](auto& d) { d["kernel_model"]["dgemm"]["c_s_per_mn"] = -1e-10; });
  EXPECT_NE(msg.find("'kernel_model.dgemm.c_s_per_mn'"), std::string::npos) << msg;
  msg = damaged("nopack", [](auto& d) { d["kernel_model"].erase("pack"); });
  EXPECT_NE(msg.find("'kernel_model.pack'"), std::string::npos) << msg;
  msg = damaged("nosd", [](auto& d) { d["kernel_model"]["add"].erase("log_sd"); });
  EXPECT_NE(msg.find("'kernel_model.add.log_sd'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("missing"), std::string::npos) << msg;
  msg = damaged("type", [](auto& d) { d["kernel_model"] = 3; });
  EXPECT_NE(msg.find("'kernel_model'"), std::string::npos) << msg;
}

NetworkLevelsRecord sample_levels() {
  NetworkLevelsRecord r;
  r.present = true;
  r.nodes = 32;
  r.levels.ranks_per_node = 2;
  r.levels.intra = {1e-6, 1.875e8};
  r.levels.intra_tau_concurrent = 1.5e8;
  r.levels.inter = {1.7e-5, 7.5e7};
  r.levels.node_link_tau = 7.0e7;
  r.levels.backbone_tau = 1.168e9;
  r.source = "configs/platforms/thesis-opteron.xml";
  return r;
}

TEST_F(ProfileFile, NetworkLevelsRoundTrip) {
  MachineProfile p = sample_profile();
  p.network_levels = sample_levels();
  const MachineProfile q = read_profile(write_text("levels.json", profile_to_json(p)));
  expect_same(q, p);
  ASSERT_TRUE(q.network_levels.present);
  EXPECT_EQ(q.network_levels.nodes, 32);
  EXPECT_EQ(q.network_levels.levels.ranks_per_node, 2);
  EXPECT_EQ(q.network_levels.levels.intra, p.network_levels.levels.intra);
  EXPECT_EQ(q.network_levels.levels.intra_tau_concurrent, 1.5e8);
  EXPECT_EQ(q.network_levels.levels.inter, p.network_levels.levels.inter);
  EXPECT_EQ(q.network_levels.levels.node_link_tau, 7.0e7);
  EXPECT_EQ(q.network_levels.levels.backbone_tau, 1.168e9);
  EXPECT_EQ(q.network_levels.source, p.network_levels.source);
  // Written back as read: a rewrite (tune --kernel-model-only) keeps it.
  EXPECT_EQ(profile_to_json(q), profile_to_json(p));
  const nlohmann::json doc = nlohmann::json::parse(profile_to_json(p));
  EXPECT_DOUBLE_EQ(doc.at("network_levels").at("inter_node").at("backbone_doubles_per_s").get<double>(), 1.168e9);
  EXPECT_DOUBLE_EQ(doc.at("network_levels").at("intra_node").at("tau_doubles_per_s").get<double>(), 1.875e8);
  // The models get it.
  const model::MachineParams m = to_params(q);
  EXPECT_TRUE(m.network.two_level());
  EXPECT_EQ(m.network.backbone_tau, 1.168e9);
  EXPECT_EQ(m.network.job_ranks, 0);
}

TEST_F(ProfileFile, ProfilesWithoutNetworkLevelsStillLoadAndWriteNone) {
  const nlohmann::json doc = sample_json();
  EXPECT_FALSE(doc.contains("network_levels"));
  const MachineProfile p = read_profile(write_text("nolevels.json", doc.dump()));
  EXPECT_FALSE(p.network_levels.present);
  EXPECT_FALSE(nlohmann::json::parse(profile_to_json(p)).contains("network_levels"));
  EXPECT_FALSE(to_params(p).network.two_level());
  // A level not known (tune on one node) is kept, and prices one level.
  MachineProfile t = sample_profile();
  t.network_levels = sample_levels();
  t.network_levels.levels.inter = {};
  const MachineProfile u = read_profile(write_text("half.json", profile_to_json(t)));
  EXPECT_TRUE(u.network_levels.present);
  EXPECT_EQ(u.network_levels.levels.inter.tau, 0.0);
  EXPECT_FALSE(to_params(u).network.two_level());
}

// tune's overlap step (profile/shift_overlap_record.hpp): written, read back,
// handed to the models as a curve by size; absent in older profiles, where
// ring hides all; the one-size record of older profiles still reads.
TEST_F(ProfileFile, ShiftOverlapRoundTripsAndReachesTheModels) {
  MachineProfile p = sample_profile();
  p.shift_overlap = {true, 3, true, {{4 << 20, 0.045, 0.044, 0.085, 0.09, 9}, {64 << 20, 0.72, 0.70, 1.41, 0.01, 5}}};
  const MachineProfile q = read_profile(write_text("overlap.json", profile_to_json(p)));
  ASSERT_TRUE(q.shift_overlap.measured);
  EXPECT_EQ(q.shift_overlap.partner, 3);
  EXPECT_TRUE(q.shift_overlap.across_nodes);
  ASSERT_EQ(q.shift_overlap.points.size(), 2u);
  EXPECT_EQ(q.shift_overlap.points[0].bytes, 4 << 20);
  EXPECT_EQ(q.shift_overlap.points[0].both_s, 0.085);
  EXPECT_EQ(q.shift_overlap.points[1].rounds, 5);
  EXPECT_EQ(profile_to_json(q), profile_to_json(p));
  // The models: 0.09 at 4 MiB and below, 0.01 at 64 MiB and above, halfway
  // in log(bytes) at 16 MiB.
  const model::OverlapCurve curve = to_params(q).shift_overlap;
  EXPECT_DOUBLE_EQ(curve.at(1 << 20), 0.09);
  EXPECT_DOUBLE_EQ(curve.at(256 << 20), 0.01);
  EXPECT_NEAR(curve.at(16 << 20), 0.05, 1e-12);
  // Without the key: not measured, fully hidden, nothing written.
  const MachineProfile old = read_profile(write_text("nooverlap.json", sample_json().dump()));
  EXPECT_FALSE(old.shift_overlap.measured);
  EXPECT_FALSE(to_params(old).shift_overlap.measured());
  EXPECT_EQ(to_params(old).shift_overlap.at(64 << 20), 1.0);
  EXPECT_FALSE(nlohmann::json::parse(profile_to_json(old)).contains("shift_overlap"));
  // The one-size record tune wrote before it measured several sizes.
  nlohmann::json one = sample_json();
  one["shift_overlap"] = {{"fraction", 0.35},   {"partner", 1},      {"across_nodes", true}, {"bytes", 4194304},
                          {"exchange_s", 0.07}, {"compute_s", 0.07}, {"both_s", 0.115}};
  const MachineProfile older = read_profile(write_text("oneoverlap.json", one.dump()));
  ASSERT_EQ(older.shift_overlap.points.size(), 1u);
  EXPECT_EQ(older.shift_overlap.points[0].rounds, 0);
  EXPECT_EQ(to_params(older).shift_overlap.at(64 << 20), 0.35);
  // A fraction outside [0, 1] names the field; so do sizes out of order.
  nlohmann::json doc = nlohmann::json::parse(profile_to_json(p));
  doc["shift_overlap"]["points"][1]["fraction"] = 1.5;
  std::string msg = error_of(write_text("over.json", doc.dump()));
  EXPECT_NE(msg.find("'shift_overlap.points[1].fraction'"), std::string::npos) << msg;
  doc["shift_overlap"]["points"][1]["fraction"] = -0.1;
  msg = error_of(write_text("under.json", doc.dump()));
  EXPECT_NE(msg.find("'shift_overlap.points[1].fraction'"), std::string::npos) << msg;
  doc["shift_overlap"]["points"][1]["fraction"] = 0.01;
  doc["shift_overlap"]["points"][1]["bytes"] = 1024;
  msg = error_of(write_text("order.json", doc.dump()));
  EXPECT_NE(msg.find("'shift_overlap.points[1].bytes' must exceed"), std::string::npos) << msg;
  one["shift_overlap"]["fraction"] = 1.5;
  msg = error_of(write_text("oneover.json", one.dump()));
  EXPECT_NE(msg.find("'shift_overlap.fraction'"), std::string::npos) << msg;
}

// The busy-core ladder reaches the models with the count of cores tune's
// DGEMM timings kept busy: the tune ranks of one node.
TEST_F(ProfileFile, BusyCoreLadderReachesTheModels) {
  MachineProfile p = sample_profile();
  EXPECT_TRUE(to_params(p).peak_per_core_by_busy.empty());  // no cpu_peak: no scaling
  PeakRecord peak;
  peak.cores = 4;
  peak.one_core_gflops = 80;
  peak.all_cores_gflops_per_core = 40;
  peak.by_busy_cores = {{2, 60}, {4, 40}};
  p.cpu_peak = peak;
  p.problem.pr = 1;
  p.problem.pc = 4;
  model::MachineParams m = to_params(p);
  EXPECT_EQ(m.peak_per_core_by_busy, (std::vector<double>{80, 60, 50, 40}));
  EXPECT_EQ(m.profiled_busy_cores, 4);
  EXPECT_DOUBLE_EQ(model::busy_core_speed(1, m), 2.0);
  // Tuned across nodes, 2 ranks on each: the timings kept 2 cores busy.
  p.network_levels = sample_levels();
  p.network_levels.levels.ranks_per_node = 2;
  EXPECT_EQ(to_params(p).profiled_busy_cores, 2);
  // A ladder older profiles lack: nothing to scale by.
  p.cpu_peak->by_busy_cores.clear();
  EXPECT_TRUE(to_params(p).peak_per_core_by_busy.empty());
}

// DGEMM's own loss with the profiled cores busy (dgemm_single_mflops, every
// tune rank at once) against its rate alone (cpu_peak.dgemm_gflops) is
// what the FMA ladder leaves out: the models get the ratio of the two
// ratios, and 1 where it cannot be formed or is below 1.
TEST_F(ProfileFile, DgemmSharingComesFromTheTwoDgemmTimings) {
  MachineProfile p = sample_profile();
  PeakRecord peak;
  peak.cores = 2;
  peak.one_core_gflops = 56.0;
  peak.all_cores_gflops_per_core = 55.0;
  peak.by_busy_cores = {{2, 55.0}};
  p.cpu_peak = peak;
  p.problem.pr = 1;
  p.problem.pc = 2;
  p.dgemm_threaded_n = 2048;
  p.dgemm_single_mflops = 47500;
  EXPECT_EQ(to_params(p).dgemm_busy_sharing, 1.0);  // DGEMM alone not timed
  p.cpu_peak->dgemm_n = 2048;
  p.cpu_peak->dgemm_gflops = 51.6;
  const model::MachineParams m = to_params(p);
  EXPECT_NEAR(m.dgemm_busy_sharing, (51.6 / 47.5) / (56.0 / 55.0), 1e-12);
  EXPECT_NEAR(model::busy_core_speed(1, m), 51.6 / 47.5, 1e-12);  // a one-rank run: DGEMM's own ratio
  p.cpu_peak->dgemm_n = 1024;                                     // timed at another size: not comparable
  EXPECT_EQ(to_params(p).dgemm_busy_sharing, 1.0);
  p.cpu_peak->dgemm_n = 2048;
  p.dgemm_single_mflops = 55000;  // lost less than the FMA loop: noise, no gain
  EXPECT_EQ(to_params(p).dgemm_busy_sharing, 1.0);
}

TEST_F(ProfileFile, NetworkLevelsAreValidated) {
  auto damaged = [&](const std::string& name, const std::function<void(nlohmann::json&)>& damage) {
    MachineProfile p = sample_profile();
    p.network_levels = sample_levels();
    nlohmann::json doc = nlohmann::json::parse(profile_to_json(p));
    damage(doc);
    return error_of(write_text(name + ".json", doc.dump()));
  };
  std::string msg = damaged("rpn", [](auto& d) { d["network_levels"]["ranks_per_node"] = 0; });
  EXPECT_NE(msg.find("'network_levels.ranks_per_node'"), std::string::npos) << msg;
  EXPECT_NE(msg.find(">= 1"), std::string::npos) << msg;
  msg = damaged("neg", [](auto& d) { d["network_levels"]["inter_node"]["backbone_doubles_per_s"] = -1.0; });
  EXPECT_NE(msg.find("'network_levels.inter_node.backbone_doubles_per_s'"), std::string::npos) << msg;
  msg = damaged("missing", [](auto& d) { d["network_levels"]["intra_node"].erase("latency_s"); });
  EXPECT_NE(msg.find("'network_levels.intra_node.latency_s'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("missing"), std::string::npos) << msg;
  msg = damaged("type", [](auto& d) { d["network_levels"]["inter_node"] = 1; });
  EXPECT_NE(msg.find("'network_levels.inter_node'"), std::string::npos) << msg;
}

TEST_F(ProfileFile, LbCheckAndThreadFieldsAreValidated) {
  expect_error("halfthreads", [](auto& d) { d.erase("dgemm_single_mflops"); }, {"'dgemm_single_mflops'", "missing"});
  expect_error("zerothreaded", [](auto& d) { d["dgemm_threaded_mflops"] = 0; },
               {"'dgemm_threaded_mflops'", "must be > 0"});
  expect_error("norounds", [](auto& d) { d["lb_check"].erase("rounds"); }, {"'lb_check.rounds'", "missing"});
  expect_error("nocands", [](auto& d) { d["lb_check"]["candidates"] = nlohmann::json::array(); },
               {"'lb_check.candidates'", "non-empty"});
  expect_error("badcand", [](auto& d) { d["lb_check"]["candidates"][1]["lb"] = 0; },
               {"'lb_check.candidates[1].lb'", "must be > 0"});
  expect_error("coverage", [](auto& d) { d["lb_check"]["coverage"] = 1.5; }, {"'lb_check.coverage'", "[0, 1]"});
  expect_error("rulelb", [](auto& d) { d["rule_lb"] = -4; }, {"'rule_lb'", "must be >= 1, got -4"});
  expect_error("panels0", [](auto& d) { d["lb_panels"] = 0; }, {"'lb_panels'", "must be >= 1, got 0"});
  expect_error("panels65", [](auto& d) { d["lb_panels"] = 65; }, {"'lb_panels'", "must be <= 64, got 65"});
  expect_error("curveorder", [](auto& d) { d["lb_curve"]["points"][1]["share"] = 512; },
               {"'lb_curve.points[1].share'", "larger than the previous"});
  expect_error("curvelb", [](auto& d) { d["lb_curve"]["points"][0]["lb"] = 0; },
               {"'lb_curve.points[0].lb'", "must be >= 1"});
  expect_error("curveempty", [](auto& d) { d["lb_curve"]["points"] = nlohmann::json::array(); },
               {"'lb_curve.points'", "1 to 4 points"});
  expect_error("curvepoints", [](auto& d) { d["lb_curve"].erase("points"); }, {"'lb_curve.points'", "missing"});
  expect_error("halfadd", [](auto& d) { d.erase("add_threads"); }, {"'add_threads'", "missing"});
  expect_error("zeroadd", [](auto& d) { d["add_threaded_bytes_per_s"] = 0; },
               {"'add_threaded_bytes_per_s'", "must be > 0"});
  expect_error("negadd", [](auto& d) { d["add_threads"] = -2; }, {"'add_threads'"});
  expect_error("negnoise", [](auto& d) { d["dgemm_profile_noise"] = -0.1; }, {"'dgemm_profile_noise'", ">= 0"});
  expect_error("refreshfactor", [](auto& d) { d["refreshed"]["factor"] = 0; }, {"'refreshed.factor'", "must be > 0"});
  expect_error("refreshdate", [](auto& d) { d["refreshed"].erase("date"); }, {"'refreshed.date'", "missing"});
  // Not measured (threads 0): the rates may be 0.
  nlohmann::json doc = sample_json();
  doc["dgemm_threads"] = 0;
  doc["dgemm_threaded_n"] = 0;
  doc["dgemm_threaded_mflops"] = 0;
  doc["dgemm_single_mflops"] = 0;
  doc["add_threads"] = 0;
  doc["add_threaded_bytes_per_s"] = 0;
  const MachineProfile none = read_profile(write_text("nothreads.json", doc.dump()));
  EXPECT_EQ(none.dgemm_threads, 0);
  EXPECT_EQ(none.add_threads, 0);
  EXPECT_EQ(to_params(none).add_thread_speedup, 0.0);
}

TEST_F(ProfileFile, MissingFile) {
  const std::string file = path("nope.json");
  const std::string msg = error_of(file);
  EXPECT_EQ(msg.rfind(file + ": ", 0), 0u) << msg;
  EXPECT_NE(msg.find("no such"), std::string::npos) << msg;
  EXPECT_NE(error_of(dir_.string()).find("not a regular file"), std::string::npos);
}

TEST_F(ProfileFile, MalformedJsonNamesLineAndColumn) {
  // The stray 'x' is on line 3, column 11.
  const std::string file = write_text("bad.json", "{\n  \"schema\": \"mmbench-profile/1\",\n  \"host\": x\n}\n");
  const std::string msg = error_of(file);
  EXPECT_EQ(msg.rfind(file + ": ", 0), 0u) << msg;
  EXPECT_NE(msg.find("malformed JSON at line 3, column 11"), std::string::npos) << msg;
  EXPECT_NE(error_of(write_text("empty.json", "")).find("malformed JSON"), std::string::npos);
}

TEST_F(ProfileFile, SchemaVersion) {
  expect_error("noschema", [](auto& d) { d.erase("schema"); }, {"schema", "missing"});
  expect_error("oldschema", [](auto& d) { d["schema"] = "mmbench-profile/0"; },
               {"schema", "mmbench-profile/0", "not supported"});
  expect_error("numschema", [](auto& d) { d["schema"] = 1; }, {"schema", "not supported"});
  const std::string msg = error_of(write_text("array.json", "[1, 2]"));
  EXPECT_NE(msg.find("top level"), std::string::npos) << msg;
}

TEST_F(ProfileFile, MissingFields) {
  expect_error("nolatency", [](auto& d) { d.erase("latency_s"); }, {"'latency_s'", "missing"});
  expect_error("nokmax", [](auto& d) { d["tuning_problem"].erase("kmax"); },
               {"'tuning_problem.kmax'", "missing"});
  expect_error("nobreak", [](auto& d) { d["two_regime"].erase("break_bytes"); },
               {"'two_regime.break_bytes'", "missing"});
  expect_error("nompi", [](auto& d) { d["libraries"].erase("mpi"); }, {"'libraries.mpi'"});
  expect_error("noprofile", [](auto& d) { d.erase("dgemm_profile"); }, {"'dgemm_profile'"});
  expect_error("nok", [](auto& d) { d["dgemm_profile"][1].erase("k"); }, {"'dgemm_profile[1].k'"});
}

TEST_F(ProfileFile, WronglyTypedFields) {
  expect_error("corestext", [](auto& d) { d["cores"] = "two"; }, {"'cores'", "integer", "string"});
  expect_error("lbfloat", [](auto& d) { d["lb"] = 256.5; }, {"'lb'", "integer"});
  expect_error("latencytext", [](auto& d) { d["latency_s"] = "fast"; }, {"'latency_s'", "number"});
  expect_error("latencynull", [](auto& d) { d["latency_s"] = nullptr; }, {"'latency_s'", "null"});
  expect_error("exhaustive", [](auto& d) { d["tuning_problem"]["exhaustive"] = 1; },
               {"'tuning_problem.exhaustive'", "true or false"});
  expect_error("hostnum", [](auto& d) { d["host"] = 17; }, {"'host'", "string"});
  expect_error("tpnum", [](auto& d) { d["tuning_problem"] = 3; }, {"'tuning_problem'", "object"});
  expect_error("profobj", [](auto& d) { d["dgemm_profile"] = nlohmann::json::object(); },
               {"'dgemm_profile'", "array"});
  expect_error("taumodel", [](auto& d) { d["tau_model"] = "summa"; }, {"'tau_model'", "summa"});
}

TEST_F(ProfileFile, OutOfRangeValues) {
  expect_error("lbzero", [](auto& d) { d["lb"] = 0; }, {"'lb'", ">= 1", "got 0"});
  expect_error("topneg", [](auto& d) { d["t_op_s_per_flop"] = -1e-11; }, {"'t_op_s_per_flop'", "> 0"});
  expect_error("peakzero", [](auto& d) { d["peak_dgemm_mflops"] = 0.0; }, {"'peak_dgemm_mflops'"});
  expect_error("cores0", [](auto& d) { d["cores"] = 0; }, {"'cores'"});
  expect_error("n0", [](auto& d) { d["tuning_problem"]["n"] = -4096; }, {"'tuning_problem.n'"});
  expect_error("x2", [](auto& d) { d["tuning_problem"]["x"] = 1.5; }, {"'tuning_problem.x'", "(0, 1]"});
  expect_error("kmin1", [](auto& d) { d["tuning_problem"]["kmin"] = 1; }, {"'tuning_problem.kmin'"});
  expect_error("kmaxlow", [](auto& d) { d["tuning_problem"]["kmax"] = 16; }, {"'tuning_problem.kmax'"});
  expect_error("tau0", [](auto& d) { d["tau_alltoall_doubles_per_s"] = 0.0; },
               {"'tau_alltoall_doubles_per_s'", "> 0"});
  expect_error("breakneg", [](auto& d) { d["two_regime"]["break_bytes"] = -1; },
               {"'two_regime.break_bytes'", ">= 0"});
  expect_error("mflopsneg", [](auto& d) { d["dgemm_profile"][2]["mflops"] = -5.0; },
               {"'dgemm_profile[2].mflops'"});
  // Without a network (one rank) zeros are fine, negative values are not.
  nlohmann::json doc = sample_json();
  doc["network_measured"] = false;
  doc["latency_s"] = 0.0;
  doc["tau_alltoall_doubles_per_s"] = 0.0;
  EXPECT_NO_THROW(read_profile(write_text("nonet.json", doc.dump())));
  expect_error("nonetneg", [](auto& d) { d["network_measured"] = false; d["latency_s"] = -1e-6; },
               {"'latency_s'", ">= 0"});
}

TEST_F(ProfileFile, WriteRefusesWhatWouldNotReadBack) {
  MachineProfile p = sample_profile();
  p.t_op_s = std::nan("");
  const std::string file = path("nan.json");
  try {
    write_profile(p, file);
    FAIL() << "no exception";
  } catch (const ProfileError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind(file + ": ", 0), 0u) << msg;
    EXPECT_NE(msg.find("t_op_s_per_flop"), std::string::npos) << msg;
  }
  EXPECT_FALSE(fs::exists(file));
  EXPECT_FALSE(fs::exists(file + ".tmp"));
}

TEST(ToParams, MapsTheModelParameters) {
  MachineProfile p = sample_profile();
  p.tau_model = TauModel::alltoall;
  model::MachineParams m = to_params(p);
  EXPECT_EQ(m.latency_s, 2.1e-7);
  EXPECT_EQ(m.tau, 8.3e8);
  EXPECT_EQ(m.t_op, 1.0 / 48.5e9);
  EXPECT_EQ(m.latency_eager_s, 2.0e-7);
  EXPECT_EQ(m.tau_eager, 6.1e8);
  EXPECT_EQ(m.latency_rendezvous_s, 4.2e-6);
  EXPECT_EQ(m.tau_rendezvous, 1.3e9);
  EXPECT_EQ(m.eager_limit_bytes, 4096);
  EXPECT_EQ(m.add_bytes_per_s, 1.7e10);
  EXPECT_EQ(m.first_touch_bytes_per_s, 2.2e9);
  EXPECT_EQ(m.t_op_pdgemm_default, 0.0);
  ASSERT_EQ(m.dgemm_profile.size(), 3u);
  EXPECT_EQ(m.dgemm_profile[1].k, 40);
  EXPECT_EQ(m.dgemm_profile[1].mflops, 35000.25);
  p.tau_model = TauModel::pingpong;
  EXPECT_EQ(to_params(p).tau, 1.1e9);
  // Threaded DGEMM: 90000 MFLOPS on 2 threads against 50000 on one.
  EXPECT_DOUBLE_EQ(m.thread_efficiency, 0.9);
  EXPECT_EQ(m.thread_efficiency_threads, 2);
  // Threaded addition: 2.38e10 B/s on 2 threads against 1.7e10 on one: 1.4x.
  EXPECT_DOUBLE_EQ(m.add_thread_speedup, 1.4);
  EXPECT_EQ(m.add_thread_speedup_threads, 2);
  // One thread measured (a one-core node): no information, ideal scaling.
  p.dgemm_threads = 1;
  p.add_threads = 1;
  EXPECT_EQ(to_params(p).thread_efficiency, 0.0);
  EXPECT_EQ(to_params(p).add_thread_speedup, 0.0);
}

TEST(DefaultProfilePath, IsConfigsHostJson) {
  EXPECT_EQ(default_profile_path("node17"), "configs/node17.json");
  EXPECT_THROW(default_profile_path(""), std::invalid_argument);
  EXPECT_THROW(default_profile_path("a/b"), std::invalid_argument);
  EXPECT_THROW(default_profile_path(".."), std::invalid_argument);
}

}  // namespace
}  // namespace mmbench::tuner
