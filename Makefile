# TouchTrace — common tasks. `make run` and `make test` are the README's quick start.
SWIFT ?= swift
TOUCHTRACE = .build/release/touchtrace
# `make install`: where (PREFIX) and, for packaging, under which staging root (DESTDIR).
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: setup build install check-install check-slurm run test example check-filters check-html check-capture check-export bench bench-ci bench-scale fuzz docs format check-format check-api clean

setup:
	@Scripts/setup.sh

build: setup
	$(SWIFT) build -c release --product touchtrace

# The release executable, its man page (swift-argument-parser's generate-manual plugin) and
# bash, zsh and fish completions under $(DESTDIR)$(PREFIX): bin/, share/man/man1/,
# share/bash-completion/completions/, share/zsh/site-functions/, share/fish/vendor_completions.d/.
install: build
	$(SWIFT) package generate-manual
	Scripts/install.sh "$(DESTDIR)$(PREFIX)" $(TOUCHTRACE) .build/plugins/GenerateManual/outputs/touchtrace/touchtrace.1

# `make install` into a temporary prefix, checked: the man page names every subcommand, bash
# completes subcommands, options and --format values.
check-install: setup
	Scripts/check-install.sh

# Sharded runs on a real single-node Slurm cluster (Debian's slurmctld, slurmd, munge; installed
# when missing; needs root): deploy/slurm/'s scripts run a job array and the merge after it, and
# `sweep` and `tune` through 4 shards merge byte-identical to the unsharded reports.
check-slurm: setup
	$(SWIFT) build --product touchtrace
	Scripts/check-slurm.sh .build/debug/touchtrace

# The main job on the bundled samples: every recognizer variant swept over its main threshold
# (plus tap and long press waiting for a force press); Markdown on the terminal, JSON and CSV in out/.
run: build
	@mkdir -p out
	$(TOUCHTRACE) sweep samples/ --recognizer all,tap+deep-press,long-press+deep-press --format md \
	  --json-output out/sweep.json --csv-output out/sweep.csv

test: setup
	$(SWIFT) test

# The example package: touchtrace with a recognizer of your own (Examples/CustomRecognizer), built
# and checked against an independent implementation of its rules on samples/.
example: setup
	cd Examples/CustomRecognizer && $(SWIFT) build
	python3 Examples/CustomRecognizer/check.py Examples/CustomRecognizer/.build/debug/custom-touchtrace samples/*.csv

# A causal filter in front of a recognizer equals the filter applied to the recording first:
# ema/deep-press against deep-press on traces an independent script EMA-filtered beforehand.
check-filters: setup
	$(SWIFT) build --product touchtrace
	python3 Scripts/check-filter-equivalence.py .build/debug/touchtrace samples/*.csv

# The HTML report in a real browser: the `make run` sweep as --format html, rendered in headless
# Chromium (Debian's chromium and chromium-driver; selenium from pip): no console errors, every
# figure present and drawn, nothing loaded from elsewhere, byte-identical twice. Screenshot in out/.
check-html: setup
	$(SWIFT) build --product touchtrace
	Scripts/check-html-report.sh .build/debug/touchtrace out/sweep-report.png

# The capture and try pages in a real browser, driven by headless Chromium with pen actions at
# known pressures: a whole capture session as a participant does it (welcome, consent, practice,
# every prompt, redo at both ends, Finish) read back from the dataset, a second one ended by
# SIGINT with its summary; then `touchtrace try` with two configurations, whose final marks must
# equal `touchtrace run` on the saved trace. Screenshots in out/.
check-capture: setup
	$(SWIFT) build --product touchtrace
	Scripts/check-capture.sh .build/debug/touchtrace out/capture-page.png out/try-page.png

# Exported recognizer cores proven equal to the replay: every supported recognizer (and causal
# filters in front) tuned on samples/, exported, and each core built and run in Swift (swiftc),
# Kotlin (kotlinc, the JDK) and TypeScript (tsc; Node) on samples/ and 10 000 seeded random
# contacts with zero differences; canaries must fail; the Android adapter type-checks against
# stubs; the Pointer Events binding runs in headless Chromium with pen pressures. Installs
# kotlin, node-typescript and a JDK when missing (Debian packages).
check-export: setup
	@Scripts/setup-export.sh
	$(SWIFT) build -c release --product touchtrace
	Scripts/check-export.sh $(TOUCHTRACE) out/export

# Benchmarks (the nested package Benchmarks/, see Benchmarks/README.md): every suite with a
# summary table, and the deterministic gates CI runs.
bench: setup
	Benchmarks/Scripts/bench.sh

bench-ci: setup
	Benchmarks/Scripts/bench-ci.sh

# Peak memory and throughput of `sweep --recognizer all` streamed over 100 MB, 1 GB and 3 GB
# synthesized CSVs, against reading each file whole; partial sizes of a 4-shard run (issue 16).
bench-scale: setup
	Benchmarks/Scripts/scale.sh

# The libFuzzer harnesses (the nested package Fuzz/, see Fuzz/README.md): each run a fixed number
# of executions under AddressSanitizer; fails on any crash, leaving the input in Fuzz/crashes/.
fuzz: setup
	Fuzz/run.sh

# Every module's DocC catalog, with warnings (broken links, undocumented parameters) as errors.
docs: setup
	Scripts/check-docs.sh

# The toolchain's swift-format with the committed .swift-format: `make format` rewrites every
# Swift file of the repository in place, `make check-format` fails on any file it would change or
# any rule it flags (CI runs it).
SWIFT_FILES = Sources Tests Benchmarks/Sources Benchmarks/Benchmarks Benchmarks/Package.swift Fuzz/Sources \
  Fuzz/Package.swift Examples Package.swift

format:
	$(SWIFT) format format --in-place --recursive --parallel $(SWIFT_FILES)

check-format:
	$(SWIFT) format lint --strict --recursive --parallel $(SWIFT_FILES)

# The public API of every library product, one declaration a line, from the compiler's symbol
# graphs, against the committed api/public-api.txt (CI runs it). After a meant change:
# `Scripts/public-api.py write` and commit the list with the change.
check-api: setup
	Scripts/public-api.py check

clean:
	rm -rf .build out Benchmarks/.build Examples/CustomRecognizer/.build Fuzz/.build Fuzz/crashes
