# Sourced on a machine without Debian's packages (the lent 16-core machine):
# unpacks scripts/bench/device_bundle.sh's folder and points the dynamic
# linker and Open MPI at it, and puts build/ where the benchmark scripts
# look. Run from the repository root: source scripts/bench/device_env.sh [DIR]
bundle=${1:-.devbundle}
rt=/tmp/mmbench-runtime
mkdir -p "$rt" build/examples
tar -xJf "$bundle/runtime.tar.xz" -C "$rt"
cp "$bundle"/bin/mmbench "$bundle"/bin/libmmbench-*.so build/
cp "$bundle"/bin/pdgemm_example build/examples/
# Debian names them through alternatives (/etc/alternatives/mpirun).
ln -sf mpirun.openmpi "$rt/usr/bin/mpirun"
ln -sf mpirun.openmpi "$rt/usr/bin/mpiexec"
a=x86_64-linux-gnu
export LD_LIBRARY_PATH=$rt/usr/lib/$a/openblas-pthread:$rt/lib/$a:$rt/usr/lib/$a:$rt/usr/lib/$a/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$rt/usr/bin:$PATH
# Open MPI and PMIx find their plugins and help files under the moved prefix.
export OPAL_PREFIX=$rt/usr
export OMPI_MCA_mca_base_component_path=$rt/usr/lib/$a/openmpi/lib/openmpi3
export PMIX_MCA_mca_base_component_path=$rt/usr/lib/$a/pmix2/lib/pmix
export OMPI_MCA_mca_base_component_show_load_errors=0
# One node, shared memory: no network stacks (their plugins' libraries
# may be missing there).
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_mtl=^ofi,psm2 OMPI_MCA_osc=^ucx
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# PMIx warns at every launch that the machine has no zlib.
export PMIX_MCA_pcompress_base_silence_warning=1
