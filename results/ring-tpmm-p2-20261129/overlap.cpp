// Does a shift move while ring's chunks multiply? Two ranks exchange 4 MiB
// each way (x alone), run CH DGEMMs of M x NC x K (c alone), and both at
// once with MPI_Testall after each DGEMM, as ring does between its chunks
// (b); fraction = (x + c - b) / min(x, c): 1 hidden, 0 serial. Medians of
// ROUNDS rounds; rank 0 prints.
// Build: mpicxx -O2 results/ring-tpmm-p2-20261129/overlap.cpp -o /tmp/overlap -lopenblas
// Run:   mpirun ... -n 2 /tmp/overlap CH M NC K ROUNDS
#include <mpi.h>
#include <cblas.h>
#include <vector>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
int main(int argc,char**argv){
  MPI_Init(&argc,&argv); int me; MPI_Comm_rank(MPI_COMM_WORLD,&me); int peer=1-me;
  int CH=atoi(argv[1]); long M=atol(argv[2]), NC=atol(argv[3]), K=atol(argv[4]); int reps=atoi(argv[5]);
  openblas_set_num_threads(1);
  const long bytes=4<<20; std::vector<char> s(bytes,1), r(bytes);
  std::vector<double> A(M*K,0.5),B(K*NC,0.25),C(M*NC,0.0);
  MPI_Request q[2];
  auto post=[&]{MPI_Irecv(r.data(),bytes,MPI_BYTE,peer,7,MPI_COMM_WORLD,&q[0]);MPI_Isend(s.data(),bytes,MPI_BYTE,peer,7,MPI_COMM_WORLD,&q[1]);};
  auto chunks=[&](bool t){for(int i=0;i<CH;++i){cblas_dgemm(CblasColMajor,CblasNoTrans,CblasNoTrans,M,NC,K,1.0,A.data(),M,B.data(),K,0.0,C.data(),M); if(t){int d;MPI_Testall(2,q,&d,MPI_STATUSES_IGNORE);}}};
  auto timed=[&](auto f){MPI_Barrier(MPI_COMM_WORLD);double t0=MPI_Wtime();f();double t=MPI_Wtime()-t0,mx;MPI_Allreduce(&t,&mx,1,MPI_DOUBLE,MPI_MAX,MPI_COMM_WORLD);return mx;};
  timed([&]{post();MPI_Waitall(2,q,MPI_STATUSES_IGNORE);});
  std::vector<double> X,Cc,Bb,F;
  for(int i=0;i<reps;++i){
    double x=timed([&]{post();MPI_Waitall(2,q,MPI_STATUSES_IGNORE);});
    double c=timed([&]{chunks(false);});
    double b=timed([&]{post();chunks(true);MPI_Waitall(2,q,MPI_STATUSES_IGNORE);});
    X.push_back(x);Cc.push_back(c);Bb.push_back(b);F.push_back((x+c-b)/std::min(x,c));
  }
  auto med=[](std::vector<double> v){std::sort(v.begin(),v.end());return v[v.size()/2];};
  if(me==0) printf("CH=%d dgemm %ldx%ldx%ld: x %.1f ms c %.1f ms b %.1f ms  fraction %.2f\n",CH,M,NC,K,med(X)*1e3,med(Cc)*1e3,med(Bb)*1e3,med(F));
  MPI_Finalize();
}
