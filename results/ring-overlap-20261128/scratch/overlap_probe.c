#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
static volatile double sink;
static void spin(double s){double t0=now(); double x=1; while(now()-t0<s){for(int i=0;i<1000;i++) x=x*1.0000001+1e-9;} sink=x;}
int main(int argc,char**argv){
  MPI_Init(&argc,&argv); int r; MPI_Comm_rank(MPI_COMM_WORLD,&r);
  long bytes=atol(argv[1]); double comp=atof(argv[2]); double every=atof(argv[3]);
  char*s=malloc(bytes),*d=malloc(bytes); for(long i=0;i<bytes;i++)s[i]=i;
  int o=1-r;
  for(int mode=0;mode<3;mode++){ for(int rep=0;rep<12;rep++){
    MPI_Barrier(MPI_COMM_WORLD); double t0=now();
    MPI_Request q[2];
    if(mode!=1){MPI_Irecv(d,bytes,MPI_BYTE,o,1,MPI_COMM_WORLD,&q[0]);MPI_Isend(s,bytes,MPI_BYTE,o,1,MPI_COMM_WORLD,&q[1]);}
    if(mode!=0){ double done=0; while(done<comp){ spin(every); done+=every; if(mode==2){int f; MPI_Testall(2,q,&f,MPI_STATUSES_IGNORE);} } }
    if(mode!=1) MPI_Waitall(2,q,MPI_STATUSES_IGNORE);
    double t=now()-t0; double tm; MPI_Reduce(&t,&tm,1,MPI_DOUBLE,MPI_MAX,0,MPI_COMM_WORLD);
    if(r==0) printf("mode %s rep %d: %.4f s\n", mode==0?"comm":mode==1?"comp":"both", rep, tm);
  }}
  MPI_Finalize(); return 0;}
