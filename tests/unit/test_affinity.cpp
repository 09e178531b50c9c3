// Which CPUs a multi-threaded rank widens to (core/machine/affinity.hpp,
// widening_target), on recorded node topologies: ranks bound one core each
// or not bound, a hybrid's group of ranks or the whole node, a job of fewer
// ranks than threads. The system calls around it run in
// tests/mpi/test_affinity_restore.
#include <gtest/gtest.h>

#include <vector>

#include "core/machine/affinity.hpp"

using namespace mmbench;

namespace {

cpu_set_t cpus(std::initializer_list<int> ids) {
  cpu_set_t s;
  CPU_ZERO(&s);
  for (int c : ids) CPU_SET(c, &s);
  return s;
}

std::vector<int> ids_of(const cpu_set_t& s) {
  std::vector<int> out;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &s)) out.push_back(c);
  return out;
}

// `ranks` ranks of one node, rank r bound to core first_core + r
// (mpirun --bind-to core).
NodeCpus bound_one_core_each(int ranks, int first_rank = 0, int first_core = 0) {
  NodeCpus node;
  for (int r = 0; r < ranks; ++r) node.push_back({first_rank + r, cpus({first_core + r})});
  return node;
}

}  // namespace

TEST(Affinity, HybridGroupTakesItsOwnCoresNotTheNodes) {
  // 16 ranks on 16 cores, t = 2: computing rank 4 runs on cores 4 and 5.
  const auto node = bound_one_core_each(16);
  EXPECT_EQ(ids_of(widening_target(node, {4, 2}, 2, 16)), (std::vector<int>{4, 5}));
  // t = 4, rank 8: cores 8 .. 11.
  EXPECT_EQ(ids_of(widening_target(node, {8, 4}, 4, 16)), (std::vector<int>{8, 9, 10, 11}));
}

TEST(Affinity, GroupNumberedAcrossNodes) {
  // The second node of two: world ranks 8 .. 15 on its cores 0 .. 7.
  const auto node = bound_one_core_each(8, 8, 0);
  EXPECT_EQ(ids_of(widening_target(node, {12, 2}, 2, 8)), (std::vector<int>{4, 5}));
}

TEST(Affinity, WholeNodeForThePeerAndPlainThreads) {
  const auto node = bound_one_core_each(4);
  EXPECT_EQ(ids_of(widening_target(node, RankGroup::whole_node(), 4, 4)), (std::vector<int>{0, 1, 2, 3}));
}

TEST(Affinity, GroupTooSmallFallsBackToTheNode) {
  // A group of 2 single-core ranks asked for 3 threads (--threads 3 after
  // t = 1 ... or a mis-numbered group): the node's 4 cores, never fewer
  // CPUs than threads.
  const auto node = bound_one_core_each(4);
  EXPECT_EQ(ids_of(widening_target(node, {0, 2}, 3, 4)), (std::vector<int>{0, 1, 2, 3}));
  // A group naming no rank of this node.
  EXPECT_EQ(ids_of(widening_target(node, {40, 2}, 2, 4)), (std::vector<int>{0, 1, 2, 3}));
}

TEST(Affinity, NodeTooSmallTakesTheOnlineCpus) {
  // mpirun -n 1 --threads 2: one rank bound to core 0 of a 2-core machine.
  const auto node = bound_one_core_each(1);
  EXPECT_EQ(ids_of(widening_target(node, RankGroup::whole_node(), 2, 2)), (std::vector<int>{0, 1}));
}

TEST(Affinity, UnboundRanksKeepEveryCore) {
  // --bind-to none: every rank may run anywhere; a group's union is the node.
  NodeCpus node;
  for (int r = 0; r < 4; ++r) node.push_back({r, cpus({0, 1, 2, 3})});
  EXPECT_EQ(ids_of(widening_target(node, {2, 2}, 2, 4)), (std::vector<int>{0, 1, 2, 3}));
}

TEST(Affinity, NoMasksNoWidening) {
  // A node whose masks were not gathered (SMPI, or a rank that could not
  // read its own) is never widened to, whatever the threads.
  const NodeCpus none;
  EXPECT_FALSE(widen_affinity_for(1 << 20, &none));
}
