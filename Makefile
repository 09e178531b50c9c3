# The two commands of the README:
#   make run   install what is missing, build mmbench (Release), run the default benchmark
#   make test  install what is missing, build (and the SMPI simulation build
#              when libsimgrid-dev is installed), run all tests with ctest
# and
#   make install [PREFIX=/usr/local]  build, then install bin/mmbench,
#              lib/libmmbench-lb.so (+ include/mmbench_lb.h) and
#              share/mmbench/mmbench_plot.py under PREFIX
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
MODE ?= --default
PREFIX ?= /usr/local
SMPI_BUILD ?= build-smpi
# When this make started: make run's ten minutes count from here, so that
# installing packages and building leave the sweep less time on a fresh
# machine (scripts/default-benchmark.sh, MMBENCH_MAKE_STARTED).
MAKE_STARTED := $(shell date +%s)
# A ScaLAPACK source tarball for the SMPI build (docs/simulation.md): with
# it, pdgemm and the Strassen members over it run simulated too.
SMPI_SCALAPACK ?=

.PHONY: all deps configure build smpi run test install clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The simulation build (SimGrid SMPI), only where libsimgrid-dev is
# installed; incremental, so a make test with nothing changed adds seconds.
smpi: deps
	@if command -v smpicxx >/dev/null; then \
	  cmake -S . -B $(SMPI_BUILD) -DCMAKE_BUILD_TYPE=Release -DMMBENCH_SMPI=ON \
	    $(if $(SMPI_SCALAPACK),-DMMBENCH_SMPI_SCALAPACK_SOURCE=$(abspath $(SMPI_SCALAPACK))) >/dev/null && \
	  cmake --build $(SMPI_BUILD) -j $(JOBS); \
	else echo "mmbench: smpicxx not found (libsimgrid-dev): no simulation build, smpi tests skip"; fi

# make run needs the executable only: on a 2-core machine, building the
# tests and benchmarks as well took minutes of make run's ten.
run: configure
	@cmake --build $(BUILD) -j $(JOBS) --target mmbench
	@MMBENCH_MAKE_STARTED=$(MAKE_STARTED) scripts/default-benchmark.sh $(BUILD)/mmbench $(MODE)

test: build smpi
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(SMPI_BUILD)
