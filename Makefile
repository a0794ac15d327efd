# pftrace — build, lab and tests.
#
#   make            build ./pftrace (static) from bpf/ and user/
#   make deps       install every Debian package the build, lab and tests use
#   make demo       deps + build + boot the lab + trace the AVC there
#   make test       deps + build + unit tests + lab tests on six kernels,
#                   and the arm64 build, its unit tests and its lab (6.12,
#                   7.2), each stage timed
#   make unit       the cmocka and host tests (make asan: the hostile
#                   inputs again through ASan+UBSan; make deb-test: the .deb)
#   make lab-test   the lab's cases on six kernels (tests/lab/suite -l lists them)
#   make test-all   the same, plus the newest Debian kernel and 6.12-generic,
#                   and arm64 5.10, 6.1, 6.19 and 7.2-rt
#   make lab        the lab's base initramfs (tests/lab/run calls this)
#   make lab-systemd  pftrace-exporter@avc under systemd in a Debian guest
#                   (make test runs it after the lab suite)
#   make bench      overhead figures in the lab (QEMU -icount), on x86 and
#                   arm64, and the AVC hash table of Linux 6.19, not a test
#   make soak       10 minutes of tracing under load: memory, kernel log
#   ARCH=arm64      cross-build for arm64 into .output/arm64/ (pftrace, its
#                   .deb, the lab's initramfs); its unit target runs the
#                   unit tests and file commands under qemu-user
#   V=1             show the commands
#
# Everything generated goes to .output/ (and ./pftrace); kernels
# downloaded for the lab are cached in .cache/.

empty :=
space := $(empty) $(empty)
CLANG ?= clang
LLVM_STRIP ?= llvm-strip
BPFTOOL ?= bpftool
ARCH ?= x86
# One tree, two targets. arm64 builds in its own .output/arm64/ with the
# cross compiler and the :arm64 libraries (make deps installs both), so
# the x86 build beside it is never touched; EXEC runs what it built.
ifeq ($(ARCH),arm64)
OUTPUT := .output/arm64
CROSS_COMPILE ?= aarch64-linux-gnu-
PFTRACE := $(OUTPUT)/pftrace
BPF_ARCH := arm64
VMLINUX_DIR := vmlinux/arm64
DEB_ARCH := arm64
PREFETCH_MNEMONIC := prfm
EXEC := qemu-aarch64-static
# the guests' static busybox, fetched as the kernels are (not installed)
LAB_ENV = BUSYBOX=$$(tests/lab/fetch-kernel --arch arm64 busybox)/busybox
else ifneq ($(filter x86 x86_64 amd64,$(ARCH)),)
OUTPUT := .output
CROSS_COMPILE ?=
PFTRACE := pftrace
BPF_ARCH := x86
VMLINUX_DIR := vmlinux
DEB_ARCH := amd64
PREFETCH_MNEMONIC := prefetch
EXEC :=
LAB_ENV :=
else
$(error ARCH=$(ARCH): pftrace builds for x86 (the default) and arm64)
endif
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
OBJDUMP := $(CROSS_COMPILE)objdump
VMLINUX_H := $(VMLINUX_DIR)/vmlinux.h
LAB_KERNELS ?= 5.10 6.1 6.12 6.19 7.2 7.2-rt
# make test-all adds the newest Debian kernel and the generic (non-cloud) flavour
LAB_KERNELS_ALL ?= $(LAB_KERNELS) newest 6.12-generic
# the arm64 lab (tests/lab/suite --arch arm64): Debian's cloud-arm64 kernels
LAB_KERNELS_ARM64 ?= 6.12 7.2
LAB_KERNELS_ARM64_ALL ?= $(LAB_KERNELS_ARM64) 5.10 6.1 6.19 7.2-rt

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
MAKEFLAGS += --no-print-directory
endif

# user/ by layer, each using only those before it: model (counts and
# statistics), render (pure functions of the model), runfile (the JSON run
# file, safe file I/O), kernel (facts of the running kernel), trace (plan,
# recipes, session, sampler), cmd (one file per subcommand)
USER_LAYERS := model render runfile kernel trace cmd
INCLUDES := -I$(OUTPUT) -Ibpf $(patsubst %,-Iuser/%,$(USER_LAYERS))
CFLAGS := -g -O2 -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter \
	-Wno-missing-field-initializers -Wno-format-truncation -D_GNU_SOURCE $(INCLUDES)
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Wall -Werror \
	-I$(VMLINUX_DIR) -Ibpf
# One static binary: what an engineer copies onto a production box.
STATIC_LIBS := -lbpf -lelf -ljson-c -lcapstone -lpfm -lz -lzstd -lm -lresolv
TEST_LIBS := -lbpf -lelf -ljson-c -lcapstone -lpfm -lz -lzstd -lm -lcmocka -lresolv

# A recipe is bpf/recipes/NAME.bpf.c (and user/trace/recipe_NAME.c, and
# its line in the registry): nothing here names one. bpf/ itself holds
# the other programs (calibration, sampler, kernel text, symbols, ...).
RECIPE_NAMES := $(patsubst bpf/recipes/%.bpf.c,%,$(wildcard bpf/recipes/*.bpf.c))
BPF_SRCS := $(wildcard bpf/*.bpf.c) $(wildcard bpf/recipes/*.bpf.c)
BPF_HEADERS := $(wildcard bpf/*.h bpf/recipes/*.h)
BPF_OBJS := $(patsubst %.bpf.c,$(OUTPUT)/%.bpf.o,$(notdir $(BPF_SRCS)))
# Each recipe is also built with direct loads (bpf/kread.bpf.h), for
# kernels that have bpf_rdonly_cast(): the loader opens one or the other
DIRECT_OBJS := $(patsubst %,$(OUTPUT)/%.direct.bpf.o,$(RECIPE_NAMES))
BPF_OBJS += $(DIRECT_OBJS)
SKELS := $(patsubst %.bpf.c,$(OUTPUT)/%.skel.h,$(notdir $(BPF_SRCS))) \
	$(patsubst %,$(OUTPUT)/%.direct.skel.h,$(RECIPE_NAMES))
USER_SRCS := $(filter-out user/cmd/replay_walk.c,$(wildcard user/*/*.c))
# the replay's walk, compiled three ways (see user/cmd/replay_walk.c)
REPLAY_WALKS := $(OUTPUT)/user/cmd/replay_walk_none.o $(OUTPUT)/user/cmd/replay_walk_every.o \
	$(OUTPUT)/user/cmd/replay_walk_nonnull.o
USER_OBJS := $(patsubst user/%.c,$(OUTPUT)/user/%.o,$(USER_SRCS)) $(REPLAY_WALKS)
LIB_OBJS := $(filter-out $(OUTPUT)/user/cmd/main.o,$(USER_OBJS))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(OUTPUT)/unit/%,$(UNIT_SRCS))
WORKLOAD_SRCS := $(wildcard tests/lab/workloads/*.c)
WORKLOADS := $(patsubst tests/lab/workloads/%.c,$(OUTPUT)/lab/bin/%,$(WORKLOAD_SRCS))
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
# Defined before any rule names them: make expands a prerequisite list when
# it reads the rule, so a later definition leaves the list empty (the unit
# target once built neither, and a fresh clone's docs tests failed).
DOCS := $(OUTPUT)/pftrace.8 $(OUTPUT)/pftrace.bash $(OUTPUT)/_pftrace
DEB := $(OUTPUT)/pftrace_$(VERSION)_$(DEB_ARCH).deb

.PHONY: all deps demo test test-all unit asan deb-test fuzz lab lab-test lab-systemd bench soak clean vmlinux-header check-static check-pure check-layers docs install deb
.DELETE_ON_ERROR:
.SECONDARY:

all: $(PFTRACE)

$(OUTPUT) $(OUTPUT)/user $(OUTPUT)/unit $(OUTPUT)/lab/bin $(OUTPUT)/tools:
	$(Q)mkdir -p $@

# DWARF is not needed: CO-RE uses .BTF/.BTF.ext
define compile_bpf
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) $(1) -c $< -o $@
	$(Q)$(LLVM_STRIP) -g $@
endef

$(OUTPUT)/%.bpf.o: bpf/%.bpf.c $(BPF_HEADERS) $(VMLINUX_H) | $(OUTPUT)
	$(call compile_bpf)

$(OUTPUT)/%.bpf.o: bpf/recipes/%.bpf.c $(BPF_HEADERS) $(VMLINUX_H) | $(OUTPUT)
	$(call compile_bpf)

$(OUTPUT)/%.direct.bpf.o: bpf/recipes/%.bpf.c $(BPF_HEADERS) $(VMLINUX_H) | $(OUTPUT)
	$(call compile_bpf,-DPFT_DIRECT_LOADS)

$(OUTPUT)/%.skel.h: $(OUTPUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

# Each object depends on what it includes (-MMD: the compiler lists it in
# a .d file), so a change rebuilds only what it touches. Skeletons are
# generated: all exist before the first compile (order-only), and after
# that a changed skeleton rebuilds only the objects that include it.
$(OUTPUT)/user/%.o: user/%.c | $(SKELS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -DPFTRACE_VERSION='"$(VERSION)"' -c $< -o $@

-include $(wildcard $(OUTPUT)/user/*/*.d)

# --version says what git describe says, from a checkout (not from a
# tarball or the .deb's build tree without .git). The stamp is rewritten
# only when that changes, so main.o and cli.o rebuild then and only then.
GIT_DESCRIBE := $(shell git describe --always --dirty 2>/dev/null)
$(shell mkdir -p $(OUTPUT); echo '$(GIT_DESCRIBE)' | cmp -s - $(OUTPUT)/git-describe 2>/dev/null || \
	echo '$(GIT_DESCRIBE)' > $(OUTPUT)/git-describe)
$(OUTPUT)/user/cmd/main.o $(OUTPUT)/user/cmd/cli.o: $(OUTPUT)/git-describe
ifneq ($(GIT_DESCRIBE),)
$(OUTPUT)/user/cmd/main.o $(OUTPUT)/user/cmd/cli.o: CFLAGS += -DPFTRACE_GIT='"$(GIT_DESCRIBE)"'
endif

# Checked in the build: the prefetching variants hold a prefetch
# instruction and the plain one none, or the comparison means nothing.
$(OUTPUT)/user/cmd/replay_walk_%.o: user/cmd/replay_walk.c user/cmd/replay.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -DREPLAY_PREFETCH=$(if $(filter none,$*),0,$(if $(filter every,$*),1,2)) -c $< -o $@
	$(Q)n=$$($(OBJDUMP) -d $@ | grep -c '$(PREFETCH_MNEMONIC)'); \
	if [ "$*" = none ] && [ "$$n" -ne 0 ] || [ "$*" != none ] && [ "$$n" -eq 0 ]; then \
		echo "$@: $$n prefetch instructions, which defeats the replay"; rm -f $@; exit 1; fi

$(PFTRACE): $(USER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) -static $(CFLAGS) $^ $(STATIC_LIBS) -o $@

# --- tests -----------------------------------------------------------------

$(OUTPUT)/unit/%: tests/unit/%.c $(LIB_OBJS) $(wildcard tests/unit/*.h) | $(OUTPUT)/unit
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -Itests/unit $(filter-out %.h,$^) $(TEST_LIBS) -o $@

# The native micro-benchmark of a node's cost (bench/micro): make bench
# runs it for figures, make test once to see that it still loads and runs.
$(OUTPUT)/bench/walk_bench.bpf.o: bench/micro/walk_bench.bpf.c $(VMLINUX_H)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@
	$(Q)$(LLVM_STRIP) -g $@

$(OUTPUT)/bench/walk_bench.skel.h: $(OUTPUT)/bench/walk_bench.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

$(OUTPUT)/bench/walk-bench: bench/micro/walk-bench.c $(OUTPUT)/bench/walk_bench.skel.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -I$(OUTPUT)/bench $< $(STATIC_LIBS) -static -o $@

# CO-RE checker and its negative control (tests/host/core.sh)
TOOLS := $(OUTPUT)/tools/core-check $(OUTPUT)/tools/core-bad.bpf.o

$(OUTPUT)/tools/core-check: tests/tools/core-check.c | $(OUTPUT)/tools
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $< $(TEST_LIBS) -o $@

$(OUTPUT)/tools/core-bad.bpf.o: tests/tools/core-bad.bpf.c $(VMLINUX_H) | $(OUTPUT)/tools
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# pftrace built with AddressSanitizer and UBSan: the host tier's hostile
# inputs run through it too (tests/unit/run), so a use after free on a
# refusal path fails a test instead of passing by luck.
ASAN_SRCS := $(filter-out user/cmd/replay_walk.c,$(wildcard user/*/*.c))
$(OUTPUT)/asan/pftrace: $(ASAN_SRCS) $(REPLAY_WALKS) $(SKELS) $(wildcard user/*/*.h) $(BPF_HEADERS)
	$(call msg,ASAN,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CLANG) -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
		-D_GNU_SOURCE -DPFTRACE_VERSION='"$(VERSION)"' $(INCLUDES) $(ASAN_SRCS) $(REPLAY_WALKS) \
		$(STATIC_LIBS) -o $@

ifeq ($(ARCH),arm64)
# The cross build's unit tests and the commands that read only files
# (report, diff, merge, whatif, plot, replay), run by qemu-user; what
# needs bpf() or perf events runs in the arm64 lab.
unit: $(UNIT_BINS) $(PFTRACE) $(DOCS)
	$(Q)PFTRACE_EXEC=$(EXEC) PFTRACE_BIN=$(PFTRACE) PFTRACE_HOST_TESTS="golden replay" \
		tests/unit/run $(UNIT_BINS)
else
unit: $(UNIT_BINS) $(TOOLS) $(BPF_OBJS) pftrace $(DOCS) $(OUTPUT)/bench/walk-bench
	$(Q)tests/unit/run $(UNIT_BINS)
endif

# the host tier's hostile inputs again, through the sanitized build
asan: $(OUTPUT)/asan/pftrace pftrace
	$(Q)tests/unit/run --asan $(OUTPUT)/asan/pftrace

# the Debian package: built, unpacked, and judged by lintian
deb-test: $(DEB)
	$(Q)rc=0; for t in tests/package/*.sh; do bash $$t || rc=1; done; exit $$rc

# libFuzzer targets, instrumented with AddressSanitizer and UBSan; each
# links only the pieces it fuzzes, so a target that needs more than its
# sources fails to link. FUZZ_SECONDS each in make test.
FUZZ_SECONDS ?= 20
FUZZ_CC := $(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-D_GNU_SOURCE -DPFTRACE_VERSION='"$(VERSION)"' $(INCLUDES)
# the model and run-file layer: json-c and libm, no libbpf, no kernel code
FUZZ_runfile_SRCS := $(wildcard user/model/*.c user/render/*.c user/runfile/*.c)
FUZZ_runfile_LIBS := -ljson-c -lm -lresolv
# plot's reader of -i --format json's lines: the same layers
FUZZ_jsonl_SRCS := $(FUZZ_runfile_SRCS)
FUZZ_jsonl_LIBS := $(FUZZ_runfile_LIBS)
FUZZ_elf_SRCS := user/kernel/elfread.c user/runfile/fileio.c
FUZZ_elf_LIBS := -lelf -lz -lzstd
FUZZ_btf_SRCS := user/kernel/btffile.c user/runfile/fileio.c
FUZZ_btf_LIBS := -lbpf -lelf -lz -lzstd
FUZZ_argv_SRCS := user/cmd/cli.c user/cmd/knobs.c user/cmd/opts.c user/cmd/command_lookup.c user/runfile/fileio.c \
	user/runfile/progress.c user/model/suggest.c tests/fuzz/argv_commands.c
FUZZ_argv_LIBS := -lm
FUZZERS := runfile jsonl elf btf argv
FUZZ_BINS := $(patsubst %,$(OUTPUT)/fuzz/fuzz_%,$(FUZZERS))

.SECONDEXPANSION:
$(OUTPUT)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $$(FUZZ_$$*_SRCS) $(wildcard user/*/*.h tests/fuzz/*.h) bpf/pftrace.h
	$(call msg,FUZZ,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $< $(FUZZ_$*_SRCS) $(FUZZ_$*_LIBS) -o $@

# seeds that are build products: a BPF object (ELF with .BTF) and its raw BTF
$(OUTPUT)/fuzz/seeds: $(OUTPUT)/ksym.bpf.o
	$(Q)mkdir -p $@/elf $@/btf
	$(Q)cp $< $@/elf/ksym.bpf.o
	$(Q)cp $< $@/btf/ksym.bpf.o
	$(Q)llvm-objcopy --dump-section .BTF=$@/btf/ksym.btf $< /dev/null 2>/dev/null || \
		llvm-objcopy --dump-section .BTF=$@/btf/ksym.btf $< $@/btf/scratch.o
	$(Q)rm -f $@/btf/scratch.o
	$(Q)touch $@

fuzz: $(FUZZ_BINS) $(OUTPUT)/fuzz/seeds
	$(Q)tests/fuzz/run $(OUTPUT)/fuzz $(FUZZ_SECONDS) $(FUZZERS)

# Workloads run inside the guest, which has no libc: link them statically.
$(OUTPUT)/lab/bin/%: tests/lab/workloads/%.c | $(OUTPUT)/lab/bin
	$(call msg,CC,$@)
	$(Q)$(CC) -static -O2 -Wall -Wextra -Werror -D_GNU_SOURCE $< -o $@

$(OUTPUT)/lab/default.policy: tests/lab/policy/default.cil | $(OUTPUT)/lab/bin
	$(call msg,SECILC,$@)
	$(Q)secilc -M false -f /dev/null -o $@ $<

$(OUTPUT)/lab/long.cil: tests/lab/policy/gen-long-chains | $(OUTPUT)/lab/bin
	$(call msg,GEN,$@)
	$(Q)tests/lab/policy/gen-long-chains > $@

$(OUTPUT)/lab/base.cpio.gz: $(PFTRACE) tests/lab/init tests/lab/mkbase $(WORKLOADS) \
		$(OUTPUT)/lab/default.policy $(OUTPUT)/lab/long.cil $(wildcard tests/lab/guest/*)
	$(call msg,CPIO,$@)
	$(Q)$(LAB_ENV) tests/lab/mkbase $@ $(OUTPUT)/lab/default.policy $(PFTRACE) $(WORKLOADS)

lab: $(OUTPUT)/lab/base.cpio.gz $(OUTPUT)/lab/long.cil

ifeq ($(ARCH),arm64)
lab-test: lab
	$(Q)tests/lab/suite --arch arm64 $(LAB_KERNELS_ARM64)
else
lab-test: lab
	$(Q)tests/lab/suite $(LAB_KERNELS)
endif

# pftrace-exporter@avc under a real systemd, in a Debian root booted on 6.12
lab-systemd: deb lab
	$(Q)tests/lab/systemd/run

# The renderers are pure functions of the model: none may call into the
# system (files, processes, the clock, the machine's identity). Checked on
# their objects' undefined symbols.
PURE_OBJS := $(patsubst user/%.c,$(OUTPUT)/user/%.o,$(wildcard user/model/*.c user/render/*.c))
SYSTEM_CALLS := open open64 __open_2 openat fopen fopen64 fdopen popen read __read_chk \
	pread pread64 write uname sysconf gethostname time clock_gettime gettimeofday \
	localtime localtime_r gmtime gmtime_r strftime getenv stat stat64 lstat fstat \
	__xstat __lxstat __fxstat access getpid getrusage fork syscall ioctl mmap socket
check-pure: $(PURE_OBJS)
	$(Q)bad=$$(for o in $^; do nm -u $$o | awk -v o=$$o '{ print o ": " $$2 }'; done | \
		grep -wE '($(subst $(space),|,$(strip $(SYSTEM_CALLS))))$$'); \
	if [ -n "$$bad" ]; then echo "renderers touch the system:"; echo "$$bad"; exit 1; fi

# Each layer of user/ includes only headers of itself and the layers
# before it in USER_LAYERS (model first, cmd last), as the compiler
# reports what each source includes.
check-layers:
	$(Q)bad=$$(rank() { i=0; for l in $(USER_LAYERS); do i=$$((i + 1)); \
		[ "$$l" = "$$1" ] && echo $$i && return; done; echo 0; }; \
	for f in $(USER_SRCS); do l=$${f#user/}; l=$${l%%/*}; \
		d=$$($(CC) $(CFLAGS) -MM $$f 2>/dev/null) || { echo "$$f: the compiler cannot list its includes"; continue; }; \
		echo "$$d" | tr ' \\' '\n\n' | grep -E '^user/.*\.h$$' | \
		while read -r h; do hl=$${h#user/}; hl=$${hl%%/*}; \
			[ "$$(rank $$hl)" -le "$$(rank $$l)" ] || echo "$$f ($$l) includes $$h ($$hl)"; \
		done; \
	done); \
	if [ -n "$$bad" ]; then echo "a layer reaches up:"; echo "$$bad"; exit 1; fi

check-static: $(PFTRACE)
	$(Q)file -L $(PFTRACE) | grep -q 'statically linked' || \
		{ echo "$(PFTRACE) is not statically linked: $$(file -L $(PFTRACE))"; exit 1; }

# --- the man page, the completions, install, the package ---------------------
# pftrace(8) and the completions come from the same option tables as
# --help (user/cmd/commands.c prints them): nothing to keep in step.

$(OUTPUT)/pftrace.8: docs/pftrace.8.scd $(PFTRACE)
	$(call msg,SCDOC,$@)
	$(Q){ sed '/^@COMMANDS@$$/,$$d' $<; $(EXEC) ./$(PFTRACE) __doc scd; sed '1,/^@COMMANDS@$$/d' $<; } | \
		scdoc >$@.tmp && mv $@.tmp $@

$(OUTPUT)/pftrace.bash: $(PFTRACE)
	$(Q)$(EXEC) ./$(PFTRACE) __doc bash >$@.tmp && mv $@.tmp $@

$(OUTPUT)/_pftrace: $(PFTRACE)
	$(Q)$(EXEC) ./$(PFTRACE) __doc zsh >$@.tmp && mv $@.tmp $@

docs: $(DOCS)

# The README's picture, drawn by pftrace plot from two run files the lab
# measured (docs/examples/); a host test checks it is still what pftrace
# draws from them, so it cannot be edited by hand or go stale.
docs/plot-example.svg: docs/examples/avc-6.12-short-chains.json docs/examples/avc-6.12-long-chains.json pftrace
	$(Q)cd docs/examples && ../../pftrace plot avc-6.12-short-chains.json avc-6.12-long-chains.json -o ../plot-example.svg

PREFIX ?= /usr
DESTDIR ?=
install: $(PFTRACE) $(DOCS)
	$(Q)install -D -m 0755 $(PFTRACE) $(DESTDIR)$(PREFIX)/bin/pftrace
	$(Q)install -D -m 0644 $(OUTPUT)/pftrace.8 $(DESTDIR)$(PREFIX)/share/man/man8/pftrace.8
	$(Q)gzip -9nf $(DESTDIR)$(PREFIX)/share/man/man8/pftrace.8
	$(Q)install -D -m 0644 $(OUTPUT)/pftrace.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/pftrace
	$(Q)install -D -m 0644 $(OUTPUT)/_pftrace $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_pftrace
	$(Q)install -D -m 0644 LICENSE $(DESTDIR)$(PREFIX)/share/doc/pftrace/copyright

# The Debian package, from debian/ (dpkg-buildpackage and debhelper): the
# binary (stripped; its debug symbols in pftrace-dbgsym), its page and
# completions, the pftrace-exporter@ service and the Prometheus rules.
# dpkg-buildpackage writes its packages to ..: they are collected in
# $(OUTPUT)/deb instead, and the package copied to $(DEB). Its output
# goes to $(OUTPUT)/deb/build.log, shown when it fails.
DEB_DIR := $(OUTPUT)/deb
DEB_FOREIGN := $(filter-out $(shell dpkg --print-architecture 2>/dev/null),$(DEB_ARCH))
deb: $(DEB)
$(DEB): $(PFTRACE) $(DOCS) LICENSE VERSION $(wildcard debian/* debian/source/* dist/*/*)
	$(call msg,DEB,$@)
	$(Q)[ "$$(dpkg-parsechangelog -SVersion)" = "$(VERSION)" ] || \
		{ echo "debian/changelog is at $$(dpkg-parsechangelog -SVersion), VERSION at $(VERSION)"; exit 1; }
	$(Q)rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)
	$(Q)PFTRACE_DEB_DIR=$(CURDIR)/$(DEB_DIR) dpkg-buildpackage -b -uc -us \
		$(if $(DEB_FOREIGN),-a$(DEB_ARCH)) \
		--buildinfo-option=-u$(CURDIR)/$(DEB_DIR) --changes-option=-u$(CURDIR)/$(DEB_DIR) \
		--buildinfo-file=$(DEB_DIR)/pftrace_$(VERSION)_$(DEB_ARCH).buildinfo \
		--changes-file=$(DEB_DIR)/pftrace_$(VERSION)_$(DEB_ARCH).changes \
		>$(DEB_DIR)/build.log 2>&1 || { tail -n 40 $(DEB_DIR)/build.log; exit 1; }
	$(Q)cp $(DEB_DIR)/pftrace_$(VERSION)_$(DEB_ARCH).deb $@

# --- the two commands of the README ------------------------------------------

deps:
	$(Q)tools/install-deps

# Each stage prints "stage NAME: N s" (the lab's, one a kernel too), and
# the last lines list them all and the total.
test: export PFTRACE_STAGES := $(CURDIR)/$(OUTPUT)/stages
test:
	$(Q)mkdir -p $(OUTPUT) && tests/stage begin
	$(Q)tests/stage deps -- $(MAKE) deps
	$(Q)tests/stage build -- $(MAKE) all check-static check-pure check-layers
	$(Q)tests/stage unit -- $(MAKE) unit
	$(Q)tests/stage asan -- $(MAKE) asan
	$(Q)tests/stage deb -- $(MAKE) deb-test
	$(Q)tests/stage fuzz -- $(MAKE) fuzz
	$(Q)tests/stage lab -- $(MAKE) lab-test
	$(Q)tests/stage lab-systemd -- $(MAKE) lab-systemd
	$(Q)tests/stage arm64-build -- $(MAKE) ARCH=arm64 all check-static unit
	$(Q)tests/stage arm64-lab -- $(MAKE) ARCH=arm64 lab-test
	$(Q)tests/stage end

# everything make test runs, on more kernels (not in CI: time)
test-all: deps
	$(Q)$(MAKE) test LAB_KERNELS="$(LAB_KERNELS_ALL)" LAB_KERNELS_ARM64="$(LAB_KERNELS_ARM64_ALL)"

demo: deps
	$(Q)$(MAKE) lab
	$(Q)tests/lab/demo

# what pftrace costs and how it holds up: figures, not pass/fail tests
bench: deps $(OUTPUT)/bench/walk-bench
	$(Q)bench/replay
	$(Q)$(OUTPUT)/bench/walk-bench --json $(OUTPUT)/bench/micro.json
	$(Q)bench/run --json $(OUTPUT)/bench/run.json
	$(Q)bench/run --arch arm64 --json $(OUTPUT)/bench/arm64.json
	$(Q)bench/compare bench/baseline.json $(OUTPUT)/bench/run.json $(OUTPUT)/bench/micro.json \
		$(OUTPUT)/bench/arm64.json
	$(Q)bench/avc-hash-table

# an hour on 6.12 and on 7.2-rt (bench/soak); docs/bench/soak.json is
# a copy of its $(OUTPUT)/soak/soak.json, the soak table of overhead.md
soak: deps
	$(Q)bench/soak --json $(OUTPUT)/soak/soak.json
	$(Q)bench/soak-judge --table $(OUTPUT)/soak/soak.json

ifeq ($(ARCH),arm64)
# arm64's: the BTF of Debian's 6.12 cloud-arm64 kernel, read in the lab
# (base64 over the guest's serial port) and dumped here
vmlinux-header: lab
	$(Q)tests/lab/run --arch arm64 --kernel 6.12 --selinux off -- base64 /sys/kernel/btf/vmlinux | \
		base64 -d > $(OUTPUT)/vmlinux.btf
	$(Q){ echo "/* vmlinux.h: C types dumped from the BTF of Linux $$(cat $${PFTRACE_LAB_CACHE:-.cache/lab}/kernels/arm64/6.12/release),"; \
	  echo " * Debian's cloud-arm64 kernel, booted in the lab (make ARCH=arm64"; \
	  echo " * vmlinux-header), with"; \
	  echo " *   bpftool btf dump file /sys/kernel/btf/vmlinux format c"; \
	  echo " * arm64's own: struct user_pt_regs and the arm64 layouts that"; \
	  echo " * bpf_tracing.h's PT_REGS macros read. CO-RE relocations resolve every"; \
	  echo " * field against the running kernel's BTF at load time. */"; \
	  $(BPFTOOL) btf dump file $(OUTPUT)/vmlinux.btf format c; } > $(VMLINUX_H)
else
vmlinux-header:
	$(Q){ echo "/* vmlinux.h: C types dumped from the BTF of Linux $$(uname -r) (x86-64),"; \
	  echo " * the kernel of the build host, with"; \
	  echo " *   bpftool btf dump file /sys/kernel/btf/vmlinux format c"; \
	  echo " * CO-RE relocations resolve every field against the running kernel's own"; \
	  echo " * BTF at load time, so one header serves 5.10 to 6.19. Regenerate with"; \
	  echo " * 'make vmlinux-header' only when a recipe needs a type this one lacks. */"; \
	  $(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c; } > $(VMLINUX_H)
endif

clean:
	$(call msg,CLEAN,)
	$(Q)rm -rf $(OUTPUT) pftrace
