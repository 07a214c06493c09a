# TouchTrace — common tasks. `make run` and `make test` are the README's quick start.
SWIFT ?= swift
TOUCHTRACE = .build/release/touchtrace

.PHONY: setup build run test bench bench-ci docs clean

setup:
	@Scripts/setup.sh

build: setup
	$(SWIFT) build -c release --product touchtrace

# The main job on the bundled samples.
run: build
	$(TOUCHTRACE) inspect samples/

test: setup
	$(SWIFT) test

# Benchmarks (the nested package Benchmarks/, see Benchmarks/README.md): every suite with a
# summary table, and the deterministic gates CI runs.
bench: setup
	Benchmarks/Scripts/bench.sh

bench-ci: setup
	Benchmarks/Scripts/bench-ci.sh

# Every module's DocC catalog, with warnings (broken links, undocumented parameters) as errors.
docs: setup
	Scripts/check-docs.sh

clean:
	rm -rf .build out Benchmarks/.build
