#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return (x>y)-(x<y);}
int main(int argc,char**argv){
  int m=atoi(argv[1]),n=atoi(argv[2]),k=atoi(argv[3]),R=41;
  double *A=malloc(8.0*m*k),*B=malloc(8.0*k*n),*C=malloc(8.0*m*n);
  for(long i=0;i<(long)m*k;i++)A[i]=1e-3; for(long i=0;i<(long)k*n;i++)B[i]=1e-3; for(long i=0;i<(long)m*n;i++)C[i]=0;
  double t[2][64];
  for(int r=0;r<R;r++) for(int v=0;v<2;v++){ double s=now();
    cblas_dgemm(CblasColMajor,CblasNoTrans,CblasNoTrans,m,n,k,1,A,m,B,k,v?1.0:0.0,C,m); t[v][r]=now()-s;}
  for(int v=0;v<2;v++){qsort(t[v],R,8,cmp);}
  printf("%d x %d x %d: beta 0 median %.3f ms, beta 1 median %.3f ms, ratio %.3f; GFLOP/s %.1f / %.1f\n",m,n,k,1e3*t[0][R/2],1e3*t[1][R/2],t[0][R/2]/t[1][R/2],2.0*m*n*k/t[0][R/2]/1e9,2.0*m*n*k/t[1][R/2]/1e9);
}
