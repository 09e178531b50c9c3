// The SMPI build links no ScaLAPACK, so there is no pilaenv_ to override:
// this empty unit stands in for pilaenv_override.cpp in mmbench_pilaenv.
namespace mmbench::algos {}
