# The two commands of the README:
#   make run   install what is missing, build (Release), run the default benchmark
#   make test  install what is missing, build, run all tests with ctest
# and
#   make install [PREFIX=/usr/local]  build, then install bin/mmbench,
#              lib/libmmbench-lb.so (+ include/mmbench_lb.h) and
#              share/mmbench/mmbench_plot.py under PREFIX
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
MODE ?= --default
PREFIX ?= /usr/local

.PHONY: all deps build run test install clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@scripts/default-benchmark.sh $(BUILD)/mmbench $(MODE)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD)
