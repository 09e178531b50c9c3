// A communicator that frees what it owns (RAII), with the few collective
// helpers mmbench needs.
//
// Comm::world() is a non-owning view of MPI_COMM_WORLD; split() returns an
// owning sub-communicator that is freed in the destructor. A rank that is not
// part of a split (MPI_UNDEFINED colour) gets a null Comm (is_null()).
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace mmbench {

// idle_barrier's longest pause between polls: an idle rank notices the
// barrier's end up to this late (half of it on average once a wait is
// longer than the pauses' ramp, 12.75 ms).
inline constexpr double kIdleBarrierLongestPauseSeconds = 0.010;

class Comm {
 public:
  Comm() = default;               // null communicator
  static Comm world();            // non-owning view of MPI_COMM_WORLD
  static Comm view(MPI_Comm c);   // non-owning view of any communicator
  static Comm adopt(MPI_Comm c);  // takes ownership: freed in the destructor
  ~Comm();
  Comm(Comm&& other) noexcept;
  Comm& operator=(Comm&& other) noexcept;
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;

  bool is_null() const { return comm_ == MPI_COMM_NULL; }
  // Forget the communicator without freeing it: after MPI_Finalize a free
  // is an error, and the process's end takes it anyway.
  void release() { owned_ = false, comm_ = MPI_COMM_NULL; }
  MPI_Comm get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

  // Collective over this communicator. colour < 0 means "not a member".
  Comm split(int colour, int key) const;
  // Ranks that share a node (MPI_COMM_TYPE_SHARED).
  Comm split_node() const;
  // Ranks listed (in this communicator's numbering) form the new one, in
  // that order; collective over this communicator.
  Comm subset(const std::vector<int>& ranks) const;

  void barrier() const;
  // Barrier for measurements where some ranks sit out: ranks that pass
  // idle = true sleep between polls (growing pauses, at most
  // kIdleBarrierLongestPauseSeconds) instead of spinning, so they do not
  // steal a core from the ranks that work (Open MPI busy-polls otherwise).
  // Ranks that pass false wait normally.
  void idle_barrier(bool idle) const;
  double max(double v) const;
  double min(double v) const;
  double sum(double v) const;
  long long max(long long v) const;
  long long sum(long long v) const;
  bool all(bool v) const;
  // True on every rank when every rank passed the same v (v > LLONG_MIN).
  bool same(long long v) const;
  void sum_inplace(std::vector<double>& v) const;
  std::string bcast_string(const std::string& s, int root) const;
  // Every rank passes its error ("" = none); every rank gets the lowest
  // failing rank's error prefixed with "rank R: ", or "" if none failed.
  // Collective: call it where every rank arrives, failed or not.
  std::string first_error(const std::string& mine) const;

 private:
  explicit Comm(MPI_Comm c, bool owned);
  MPI_Comm comm_ = MPI_COMM_NULL;
  bool owned_ = false;
  int rank_ = -1;
  int size_ = 0;
};

}  // namespace mmbench
