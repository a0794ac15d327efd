# pftrace — build, lab and tests.
#
#   make            build ./pftrace (static) from bpf/ and user/
#   make deps       install every Debian package the build, lab and tests use
#   make demo       deps + build + boot the lab + trace the AVC there
#   make test       deps + build + unit tests + lab tests on six kernels
#   make test-all   the same, plus the newest Debian kernel and 6.12-generic
#   make lab        the lab's base initramfs (tests/lab/run calls this)
#   make bench      overhead figures in the lab (QEMU -icount) and the AVC
#                   hash table of Linux 6.19, not a test
#   make soak       10 minutes of tracing under load: memory, kernel log
#   V=1             show the commands
#
# Everything generated goes to .output/ (and ./pftrace); kernels
# downloaded for the lab are cached in .cache/.

OUTPUT := .output
empty :=
space := $(empty) $(empty)
CLANG ?= clang
LLVM_STRIP ?= llvm-strip
BPFTOOL ?= bpftool
CC ?= gcc
LAB_KERNELS ?= 5.10 6.1 6.12 6.19 7.2 7.2-rt
# make test-all adds the newest Debian kernel and the generic (non-cloud) flavour
LAB_KERNELS_ALL ?= $(LAB_KERNELS) newest 6.12-generic

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
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
	-Ivmlinux -Ibpf
# One static binary: what an engineer copies onto a production box.
STATIC_LIBS := -lbpf -lelf -ljson-c -lcapstone -lpfm -lz -lzstd -lm -lresolv
TEST_LIBS := -lbpf -lelf -ljson-c -lcapstone -lpfm -lz -lzstd -lm -lcmocka -lresolv

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.bpf.o,$(BPF_SRCS))
# Each recipe is also built with direct loads (bpf/walk.bpf.h), for
# kernels that have bpf_rdonly_cast(): the loader opens one or the other
RECIPE_NAMES := avc dcache inode mount tcp
DIRECT_OBJS := $(patsubst %,$(OUTPUT)/%.direct.bpf.o,$(RECIPE_NAMES))
BPF_OBJS += $(DIRECT_OBJS)
SKELS := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.skel.h,$(BPF_SRCS)) \
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
DEB := $(OUTPUT)/pftrace_$(VERSION)_amd64.deb

.PHONY: all deps demo test test-all unit fuzz lab lab-test bench soak clean vmlinux-header check-static check-pure check-layers docs install deb
.DELETE_ON_ERROR:
.SECONDARY:

all: pftrace

$(OUTPUT) $(OUTPUT)/user $(OUTPUT)/unit $(OUTPUT)/lab/bin $(OUTPUT)/tools:
	$(Q)mkdir -p $@

$(OUTPUT)/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) vmlinux/vmlinux.h | $(OUTPUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@
	$(Q)$(LLVM_STRIP) -g $@ # DWARF is not needed: CO-RE uses .BTF/.BTF.ext

$(OUTPUT)/%.direct.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) vmlinux/vmlinux.h | $(OUTPUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DPFT_DIRECT_LOADS -c $< -o $@
	$(Q)$(LLVM_STRIP) -g $@

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
	$(Q)n=$$(objdump -d $@ | grep -c 'prefetch'); \
	if [ "$*" = none ] && [ "$$n" -ne 0 ] || [ "$*" != none ] && [ "$$n" -eq 0 ]; then \
		echo "$@: $$n prefetch instructions, which defeats the replay"; rm -f $@; exit 1; fi

pftrace: $(USER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) -static $(CFLAGS) $^ $(STATIC_LIBS) -o $@

# --- tests -----------------------------------------------------------------

$(OUTPUT)/unit/%: tests/unit/%.c $(LIB_OBJS) $(wildcard tests/unit/*.h) | $(OUTPUT)/unit
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -Itests/unit $(filter-out %.h,$^) $(TEST_LIBS) -o $@

# The native micro-benchmark of a node's cost (bench/micro): make bench
# runs it for figures, make test once to see that it still loads and runs.
$(OUTPUT)/bench/walk_bench.bpf.o: bench/micro/walk_bench.bpf.c vmlinux/vmlinux.h
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

$(OUTPUT)/tools/core-bad.bpf.o: tests/tools/core-bad.bpf.c vmlinux/vmlinux.h | $(OUTPUT)/tools
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# pftrace built with AddressSanitizer and UBSan: the host tier's hostile
# inputs run through it too (tests/unit/run), so a use after free on a
# refusal path fails a test instead of passing by luck.
ASAN_SRCS := $(filter-out user/cmd/replay_walk.c,$(wildcard user/*/*.c))
$(OUTPUT)/asan/pftrace: $(ASAN_SRCS) $(REPLAY_WALKS) $(SKELS) $(wildcard user/*/*.h) $(wildcard bpf/*.h)
	$(call msg,ASAN,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CLANG) -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
		-D_GNU_SOURCE -DPFTRACE_VERSION='"$(VERSION)"' $(INCLUDES) $(ASAN_SRCS) $(REPLAY_WALKS) \
		$(STATIC_LIBS) -o $@

unit: $(UNIT_BINS) $(TOOLS) $(BPF_OBJS) pftrace $(OUTPUT)/asan/pftrace $(DOCS) $(DEB) \
	$(OUTPUT)/bench/walk-bench
	$(Q)PFTRACE_ASAN=$(OUTPUT)/asan/pftrace tests/unit/run $(UNIT_BINS)

# libFuzzer targets, instrumented with AddressSanitizer and UBSan; each
# links only the pieces it fuzzes, so a target that needs more than its
# sources fails to link. FUZZ_SECONDS each in make test.
FUZZ_SECONDS ?= 20
FUZZ_CC := $(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-D_GNU_SOURCE -DPFTRACE_VERSION='"$(VERSION)"' $(INCLUDES)
# the model and run-file layer: json-c and libm, no libbpf, no kernel code
FUZZ_runfile_SRCS := $(wildcard user/model/*.c user/render/*.c user/runfile/*.c) \
	user/cmd/report_commit.c
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

$(OUTPUT)/lab/base.cpio.gz: pftrace tests/lab/init tests/lab/mkbase $(WORKLOADS) \
		$(OUTPUT)/lab/default.policy $(OUTPUT)/lab/long.cil $(wildcard tests/lab/guest/*)
	$(call msg,CPIO,$@)
	$(Q)tests/lab/mkbase $@ $(OUTPUT)/lab/default.policy pftrace $(WORKLOADS)

lab: $(OUTPUT)/lab/base.cpio.gz $(OUTPUT)/lab/long.cil

lab-test: lab
	$(Q)tests/lab/suite $(LAB_KERNELS)

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

check-static: pftrace
	$(Q)file -L pftrace | grep -q 'statically linked' || \
		{ echo "pftrace is not statically linked: $$(file -L pftrace)"; exit 1; }

# --- the man page, the completions, install, the package ---------------------
# pftrace(8) and the completions come from the same option tables as
# --help (user/cmd/commands.c prints them): nothing to keep in step.

$(OUTPUT)/pftrace.8: docs/pftrace.8.scd pftrace
	$(call msg,SCDOC,$@)
	$(Q){ sed '/^@COMMANDS@$$/,$$d' $<; ./pftrace __doc scd; sed '1,/^@COMMANDS@$$/d' $<; } | \
		scdoc >$@.tmp && mv $@.tmp $@

$(OUTPUT)/pftrace.bash: pftrace
	$(Q)./pftrace __doc bash >$@.tmp && mv $@.tmp $@

$(OUTPUT)/_pftrace: pftrace
	$(Q)./pftrace __doc zsh >$@.tmp && mv $@.tmp $@

docs: $(DOCS)

# The README's picture, drawn by pftrace plot from two run files the lab
# measured (docs/examples/); a host test checks it is still what pftrace
# draws from them, so it cannot be edited by hand or go stale.
docs/plot-example.svg: docs/examples/avc-6.12-short-chains.json docs/examples/avc-6.12-long-chains.json pftrace
	$(Q)cd docs/examples && ../../pftrace plot avc-6.12-short-chains.json avc-6.12-long-chains.json -o ../plot-example.svg

PREFIX ?= /usr
DESTDIR ?=
install: pftrace $(DOCS)
	$(Q)install -D -m 0755 pftrace $(DESTDIR)$(PREFIX)/bin/pftrace
	$(Q)install -D -m 0644 $(OUTPUT)/pftrace.8 $(DESTDIR)$(PREFIX)/share/man/man8/pftrace.8
	$(Q)gzip -9nf $(DESTDIR)$(PREFIX)/share/man/man8/pftrace.8
	$(Q)install -D -m 0644 $(OUTPUT)/pftrace.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/pftrace
	$(Q)install -D -m 0644 $(OUTPUT)/_pftrace $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_pftrace
	$(Q)install -D -m 0644 LICENSE $(DESTDIR)$(PREFIX)/share/doc/pftrace/copyright

# A Debian package of the static binary, its page and completions (dpkg-deb, no debhelper).
deb: $(DEB)
$(DEB): pftrace $(DOCS) LICENSE
	$(call msg,DEB,$@)
	$(Q)rm -rf $(OUTPUT)/deb && $(MAKE) -s install PREFIX=/usr DESTDIR=$(CURDIR)/$(OUTPUT)/deb
	$(Q)mkdir -p $(OUTPUT)/deb/DEBIAN && printf '%s\n' \
		'Package: pftrace' 'Version: $(VERSION)' 'Architecture: amd64' \
		'Maintainer: pftrace developers <pftrace@localhost>' 'Section: admin' \
		'Priority: optional' \
		"Installed-Size: $$(du -sk $(OUTPUT)/deb/usr | cut -f1)" \
		'Description: measure hash-chain walks inside the running kernel' \
		' pftrace traces a kernel lookup function (the SELinux AVC, the dcache,' \
		' the inode, mount and TCP hashes), re-walks each chain in BPF and' \
		' checks every walk against the kernel. One static binary.' \
		>$(OUTPUT)/deb/DEBIAN/control
	$(Q)dpkg-deb --root-owner-group -Zxz --build $(OUTPUT)/deb $@ >/dev/null

# --- the two commands of the README ------------------------------------------

deps:
	$(Q)tools/install-deps

test: deps
	$(Q)$(MAKE) all check-static check-pure check-layers
	$(Q)$(MAKE) unit
	$(Q)$(MAKE) fuzz
	$(Q)$(MAKE) lab-test

# everything make test runs, on more kernels (not in CI: time)
test-all: deps
	$(Q)$(MAKE) test LAB_KERNELS="$(LAB_KERNELS_ALL)"

demo: deps
	$(Q)$(MAKE) lab
	$(Q)tests/lab/demo

# what pftrace costs and how it holds up: figures, not pass/fail tests
bench: deps $(OUTPUT)/bench/walk-bench
	$(Q)bench/replay
	$(Q)$(OUTPUT)/bench/walk-bench --json $(OUTPUT)/bench/micro.json
	$(Q)bench/run --json $(OUTPUT)/bench/run.json
	$(Q)bench/compare bench/baseline.json $(OUTPUT)/bench/run.json $(OUTPUT)/bench/micro.json
	$(Q)bench/avc-hash-table

soak: deps
	$(Q)bench/soak

vmlinux-header:
	$(Q){ echo "/* vmlinux.h: C types dumped from the BTF of Linux $$(uname -r) (x86-64),"; \
	  echo " * the kernel of the build host, with"; \
	  echo " *   bpftool btf dump file /sys/kernel/btf/vmlinux format c"; \
	  echo " * CO-RE relocations resolve every field against the running kernel's own"; \
	  echo " * BTF at load time, so one header serves 5.10 to 6.19. Regenerate with"; \
	  echo " * 'make vmlinux-header' only when a recipe needs a type this one lacks. */"; \
	  $(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c; } > vmlinux/vmlinux.h

clean:
	$(call msg,CLEAN,)
	$(Q)rm -rf $(OUTPUT) pftrace
