#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
void blas_thread_shutdown_(void);
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return (x>y)-(x<y);}
int main(int argc,char**argv){
  int n=atoi(argv[1]); double *A=malloc(8.0*n*n),*B=malloc(8.0*n*n),*C=malloc(8.0*n*n);
  for(long i=0;i<(long)n*n;i++){A[i]=1;B[i]=1;}
  double t[3][15];
  for(int r=0;r<15;r++) for(int v=0;v<3;v++){
    openblas_set_num_threads(2);
    double s=now(); cblas_dgemm(CblasColMajor,CblasNoTrans,CblasNoTrans,n,n,n,1,A,n,B,n,0,C,n); t[v][r]=now()-s;
    openblas_set_num_threads(1);
    /* what follows decides the state of the workers at the NEXT call, of variant v+1 */
    int next=(v+1)%3;
    if(next==0){ blas_thread_shutdown_(); }                 /* ended */
    else if(next==1){ struct timespec ts={0,200000000}; nanosleep(&ts,0);} /* waited */
    /* next==2: nothing, warm */
  }
  const char* name[3]={"ended","waited","warm"};
  for(int v=0;v<3;v++){qsort(t[v],15,8,cmp); printf("n=%d %s: median %.2f ms min %.2f\n",n,name[v],1e3*t[v][7],1e3*t[v][0]);}
}
