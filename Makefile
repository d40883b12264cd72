# pmu-harness: build, boot and check.  `make run` and `make check` are the
# two commands; both install what is missing from Debian's packages first.

# Debian packages each job needs (tools/build/deps.sh installs them as root).
# gcc-multilib: the i386 build's 64-bit division helpers (libgcc -m32).
BUILD_PKGS := gcc make binutils gnu-efi gcc-multilib
# The image and the floppy (tools/boot/mkimage.sh, tools/boot/mkfloppy.sh): FAT
# volumes (mtools, dosfstools), the hybrid ISO (xorriso), the BIOS loader
# (isolinux, syslinux for the floppy, syslinux-common's COM32 modules).
IMAGE_PKGS := mtools dosfstools xorriso isolinux syslinux syslinux-common
# python3: make run asks QEMU which boot a CPU model takes
# (tools/boot/boot_kind.py).
RUN_PKGS   := $(BUILD_PKGS) $(IMAGE_PKGS) qemu-system-x86 ovmf python3
# The Bochs boots of make check (tools/boot/bochs-boot.sh).
BOCHS_PKGS := bochs bochsbios vgabios
# make check also runs the lab tools (tools/lab/pmu-harness): pyserial for
# capture, xmllint for the JUnit schema, Chromium for the HTML report,
# Perl's prove for TAP consumers, jinja2 for the report's page
# (tools/lab/templates/) and the LAVA device template's render tests
# (tools/lab/tests/test_lava.py); fontconfig's fc-list and DejaVu, which
# Chromium draws the report's marks with (test_report.py Glyphs: every
# mark in an installed font).  pytest and pytest-xdist run make check.
# Intel PT's host tools (docs/pt.md): libipt as the referee decoder, clang's
# libFuzzer for the fuzz target.
PT_PKGS    := libipt-dev clang libclang-rt-14-dev
# libpfm4, the referee of the event tables (docs/testing.md): its P6 PMUs
# are in the 32-bit library only, libpfm4:i386 (deps.sh adds the i386
# architecture for it).
PFM_PKGS   := libpfm4-dev libpfm4:i386
CHECK_PKGS := $(RUN_PKGS) libcmocka-dev pkg-config gawk python3 python3-yaml \
	      python3-pytest python3-pytest-xdist \
	      python3-serial python3-jinja2 libxml2-utils chromium perl \
	      fontconfig fonts-dejavu-core \
	      $(BOCHS_PKGS) \
	      $(PT_PKGS) $(PFM_PKGS)
# make lava: LAVA's dispatcher runs a job on QEMU locally (tools/lab/lava).
LAVA_PKGS  := $(RUN_PKGS) lava-dispatcher python3-jinja2
# make fresh-check: a Debian 12 minbase root (tools/build/fresh-check.sh).
FRESH_PKGS := debootstrap git

CC      := gcc
LD      := ld
OBJCOPY := objcopy
B       := build

EFI_INC := /usr/include/efi
EFI_LIB := /usr/lib
EFI_CRT := $(EFI_LIB)/crt0-efi-x86_64.o

CPU     ?= Skylake-Client
SMP     ?= 1
ARGS    ?=
ifeq ($(origin RUN_LOG),undefined)
RUN_LOG := $(B)/serial.log
endif
# CPU, SMP (QEMU's -smp, e.g. 2,sockets=1,cores=1,threads=2 for the smp/*
# tests), ARGS, BOOT and RUN_LOG are data, taken as written: make expands nothing
# in them ($(value)), and they reach qemu-boot.sh through the environment,
# never pasted into a recipe where a shell would parse them.
override CPU     := $(value CPU)
override SMP     := $(value SMP)
override ARGS    := $(value ARGS)
# BOOT (uefi or bios; empty: the CPU decides, tools/boot/boot_kind.py)
BOOT    ?=
override BOOT    := $(value BOOT)
override RUN_LOG := $(value RUN_LOG)
# Host tools run by Debian's python3 (python3-yaml is installed for it).
PYTHON  ?= /usr/bin/python3

WARN    := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow \
	   -Wstrict-prototypes -Wmissing-prototypes -Wno-missing-field-initializers
# No debug info by default: nothing reads it (the boot media are stripped
# of it, tools/boot/mkimage.sh and mkfloppy.sh), the .efi is byte for byte
# the same and the 32-bit ELF loads the same bytes without it, and it was
# an eighth of the build's compile time.  `make clean; make CDEBUG=-g` for
# a debugger.
CDEBUG  ?=
CFLAGS  := -std=gnu11 -O2 $(CDEBUG) $(WARN) -ffreestanding -fno-builtin \
	   -fno-stack-protector -fno-stack-check -fno-strict-aliasing \
	   -fpic -fvisibility=hidden -fshort-wchar -mno-red-zone \
	   -mgeneral-regs-only -DGNU_EFI_USE_MS_ABI \
	   -isystem $(EFI_INC) -isystem $(EFI_INC)/x86_64 \
	   -isystem $(EFI_INC)/protocol -I.
ASFLAGS := -D__ASSEMBLY__ -I.
LDFLAGS := -nostdlib --no-undefined -znocombreloc -shared -Bsymbolic \
	   -T linker.ld
# Output sections that make up the PE image (see linker.ld).
EFI_SECTIONS := -j .text -j .reloc -j .data -j .dynamic -j .dynsym -j .rela

# Sources both builds share, then each mode's own: arch/x86/<mode>/ and
# bench/<mode>/ hold what differs by CPU mode, boot/efi/ and boot/bios/ the
# firmware entries (docs/boot.md).
COMMON_SRCS := $(wildcard arch/x86/*.c pmu/*.c pmu/*/*.c pmu/*/*/*.c \
		 lib/*.c lib/pt/*.c harness/*.c \
		 bench/*.c tests/*/*.c tests/*/*.S boot/*.c)
# pmu/<gen>/listing.c: the events tool's alone (pmu/listing.h);
# pmu/<gen>/referee.c pfm-check's alone (pmu/referee.h).
COMMON_SRCS := $(filter-out tests/host/% pmu/%/listing.c pmu/%/referee.c,\
		 $(COMMON_SRCS))
SRCS := $(COMMON_SRCS) $(wildcard boot/efi/*.c arch/x86/x86_64/*.c \
	  arch/x86/x86_64/*.S bench/x86_64/*.S)
OBJS := $(patsubst %,$(B)/%.o,$(basename $(SRCS)))

# The legacy-BIOS build: the same harness as a 32-bit Multiboot ELF for
# machines without long mode or UEFI (docs/boot.md).  -march=i586: it runs
# on a Pentium (no CMOV, no SSE); paging stays off, addresses physical.
B32      := $(B)/i386
CFLAGS32 := -m32 -march=i586 -std=gnu11 -O2 $(CDEBUG) $(WARN) -ffreestanding \
	    -fno-builtin -fno-stack-protector -fno-stack-check \
	    -fno-strict-aliasing -fno-pic -fno-pie -mgeneral-regs-only -I.
SRCS32   := $(COMMON_SRCS) $(wildcard boot/bios/*.c boot/bios/*.S \
	    arch/x86/i386/*.c arch/x86/i386/*.S bench/i386/*.S)
OBJS32   := $(patsubst %,$(B32)/%.o,$(basename $(SRCS32)))

.PHONY: all i386 deps deps-build deps-run deps-check deps-lava deps-pt \
	deps-fresh fresh-check \
	image floppy ovmf-vars run check host-test bench lava clean ptdecode \
	mutate pt-tools fuzz deps-pfm pfm-check pmu-events pmu-detect \
	lab-scale

all: $(B)/pmu-harness.efi $(B32)/pmu-harness.elf $(B)/pmu-generations.txt

# The PMU generations built into the image, for the host tools (the boot
# table's kinds, logcheck's "# pmu: kind=" words): each
# pmu/<gen>/generation.c's descriptor, preprocessed with
# PMU_GENERATION_LISTING (pmu/generation.h) into one line
# "pmu_generation_listing: .name = "p5", .kind = PMU_P5, ...", read by
# tools/generations.py.  Derived from the descriptors, never copied.
GEN_SRCS := $(wildcard pmu/*/generation.c)
$(B)/pmu-generations.txt: $(GEN_SRCS) pmu/generation.h | deps-build
	@mkdir -p $(@D)
	@echo "  GEN     $@"
	@$(CC) -E -P -DPMU_GENERATION_LISTING $(CFLAGS32) $(GEN_SRCS) | \
		grep '^pmu_generation_listing:' >$@.tmp && mv $@.tmp $@

deps-build:
	@tools/build/deps.sh $(BUILD_PKGS)
deps-run:
	@tools/build/deps.sh $(RUN_PKGS)
deps-check:
	@tools/build/deps.sh $(CHECK_PKGS)
deps-lava:
	@tools/build/deps.sh $(LAVA_PKGS)
deps-fresh:
	@tools/build/deps.sh $(FRESH_PKGS)
deps-pt:
	@tools/build/deps.sh $(BUILD_PKGS) $(PT_PKGS)
deps-pfm:
	@tools/build/deps.sh $(BUILD_PKGS) $(PFM_PKGS)

$(B)/%.o: %.c | deps-build
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/%.o: %.S | deps-build
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(CC) $(CFLAGS) $(ASFLAGS) -MMD -MP -c $< -o $@

$(B32)/%.o: %.c | deps-build
	@mkdir -p $(dir $@)
	@echo "  CC32    $<"
	@$(CC) $(CFLAGS32) -MMD -MP -c $< -o $@

$(B32)/%.o: %.S | deps-build
	@mkdir -p $(dir $@)
	@echo "  AS32    $<"
	@$(CC) $(CFLAGS32) $(ASFLAGS) -MMD -MP -c $< -o $@

# libgcc for __udivdi3 and friends (64-bit division on a 32-bit CPU).
$(B32)/pmu-harness.elf: $(OBJS32) linker-i386.ld
	$(LD) -m elf_i386 -nostdlib --no-undefined -T linker-i386.ld \
		$(OBJS32) $$($(CC) -m32 -print-libgcc-file-name) -o $@

i386: $(B32)/pmu-harness.elf

$(B)/pmu-harness.so: $(OBJS) linker.ld
	$(LD) $(LDFLAGS) $(EFI_CRT) $(OBJS) -L$(EFI_LIB) -lgnuefi -o $@
	@tools/build/check-elf.sh $@

$(B)/pmu-harness.efi: $(B)/pmu-harness.so
	$(OBJCOPY) $(EFI_SECTIONS) --target=efi-app-x86_64 $< $@

image: $(B)/pmu-harness.img
$(B)/pmu-harness.img: $(B)/pmu-harness.efi $(B32)/pmu-harness.elf \
		tools/boot/mkimage.sh tools/boot/bootmenu.sh | deps-run
	tools/boot/mkimage.sh $@ $< $(B32)/pmu-harness.elf

# A warm UEFI variable store (tools/boot/qemu-boot.sh --vars): what OVMF left
# after one short boot of the image, which must pass.  Boots that start
# from it skip OVMF's first-boot writes (1.5 s of each of make check's
# UEFI boots); the boot table's `nvram: fresh` boots start empty.
ovmf-vars: $(B)/ovmf-vars.fd
$(B)/ovmf-vars.fd: $(B)/pmu-harness.img tools/boot/qemu-boot.sh | deps-run
	tools/boot/qemu-boot.sh --image $< --cpu Skylake-Client \
		--args 'tests=detect/*' --log $(B)/ovmf-vars.log \
		--save-vars $@.new
	mv -f $@.new $@

floppy: $(B)/pmu-harness-floppy.img
$(B)/pmu-harness-floppy.img: $(B32)/pmu-harness.elf tools/boot/mkfloppy.sh \
		tools/boot/bootmenu.sh | deps-run
	tools/boot/mkfloppy.sh $@ $<

# ---- Intel PT host tools (docs/pt.md), from the same decoder source as
# the harness (lib/pt/*.c) built by the host compiler.
HB          := $(B)/host
HOST_CFLAGS := -std=gnu11 -O2 -g $(WARN) -I.
PT_LIB      := lib/pt/decode.c lib/pt/encode.c lib/pt/timing.c \
	       lib/pt/errata.c
PT_HDRS     := lib/pt/packet.h lib/pt/timing.h
# What the PT host tools share (files, numbers, the PSB pattern, a PRNG).
PT_TOOL     := tools/pt/tool.c tools/pt/tool.h

ptdecode: $(HB)/ptdecode
$(HB)/ptdecode: tools/pt/ptdecode.c $(PT_LIB) $(PT_HDRS) $(PT_TOOL) \
		| deps-build
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) tools/pt/ptdecode.c tools/pt/tool.c $(PT_LIB) \
		-o $@.$$$$ && mv -f $@.$$$$ $@

# The referee, the model's streams, the fuzz target and the speed test
# (tools/pt/; make check's pt stage, tools/check/pt.py, runs them).
# libipt (-lipt, Debian's libipt-dev 2.0.5) decodes and encodes for the
# referee and is the speed test's yardstick; clang builds the libFuzzer
# target with ASan and UBSan.
PT_TOOLS  := $(HB)/ptdecode $(HB)/ipt-dump $(HB)/ipt-gen $(HB)/pt-modelgen \
	     $(HB)/pt-modelgen-i386 $(HB)/pt-bench $(HB)/pt-fuzz
# make fuzz FUZZ_TIME=S: seconds (data: it reaches fuzz.sh through the
# environment, which checks it is a number).
FUZZ_TIME ?= 60
override FUZZ_TIME := $(value FUZZ_TIME)
PT_FUZZ_CFLAGS := -std=gnu11 -O1 -g $(WARN) -I. \
		  -fsanitize=fuzzer,address,undefined \
		  -fno-sanitize-recover=undefined -fno-omit-frame-pointer

pt-tools: $(PT_TOOLS)

$(HB)/ipt-dump: tools/pt/ipt_dump.c $(PT_TOOL) | deps-pt
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) tools/pt/ipt_dump.c tools/pt/tool.c -lipt -o $@

$(HB)/ipt-gen: tools/pt/ipt_gen.c $(PT_TOOL) | deps-pt
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) tools/pt/ipt_gen.c tools/pt/tool.c -lipt -o $@

$(HB)/pt-bench: tools/pt/pt_bench.c $(PT_TOOL) lib/pt/decode.c $(PT_HDRS) \
		| deps-pt
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) tools/pt/pt_bench.c tools/pt/tool.c \
		lib/pt/decode.c -lipt -o $@

$(HB)/pt-fuzz: tools/pt/pt_fuzz.c lib/pt/decode.c lib/pt/timing.c \
		$(PT_HDRS) $(PT_TOOL) | deps-pt
	@mkdir -p $(dir $@)
	clang $(PT_FUZZ_CFLAGS) tools/pt/pt_fuzz.c tools/pt/tool.c \
		lib/pt/decode.c lib/pt/timing.c -o $@

# pt-modelgen(-i386): the benchmark routines and their descriptors built
# as tests/host/bench/run.sh builds them (-no-pie with host.ld, so the
# routines run where the parent decodes them), with the model's packet
# generator; the i386 routines with -m32.
PT_MG_SRCS := $(wildcard bench/b_*.c) bench/registry.c pmu/sem.c \
	      lib/fmt.c arch/x86/decode.c pmu/pt/gen.c lib/pt/encode.c \
	      tests/host/bench/single_step.c tools/pt/pt_modelgen.c \
	      tools/pt/tool.c
# -O1 and no debug info, as run.sh builds them: the run is ptrace's time,
# and -O2 -g took half as long again to compile.
PT_MG_CFLAGS := -std=gnu11 -O1 $(WARN) -I. -DHOST_TEST -MMD -MP
PT_MG64 := $(patsubst %,$(HB)/mg/x86_64/%.o,$(PT_MG_SRCS) \
	   $(wildcard bench/x86_64/*.S))
PT_MG32 := $(patsubst %,$(HB)/mg/i386/%.o,$(PT_MG_SRCS) \
	   $(wildcard bench/i386/*.S))

$(HB)/mg/x86_64/%.c.o: %.c | deps-build
	@mkdir -p $(dir $@)
	$(CC) $(PT_MG_CFLAGS) -c $< -o $@
$(HB)/mg/x86_64/%.S.o: %.S | deps-build
	@mkdir -p $(dir $@)
	$(CC) $(PT_MG_CFLAGS) -D__ASSEMBLY__ -c $< -o $@
$(HB)/mg/i386/%.c.o: %.c | deps-build
	@mkdir -p $(dir $@)
	$(CC) -m32 $(PT_MG_CFLAGS) -c $< -o $@
$(HB)/mg/i386/%.S.o: %.S | deps-build
	@mkdir -p $(dir $@)
	$(CC) -m32 $(PT_MG_CFLAGS) -D__ASSEMBLY__ -c $< -o $@

$(HB)/pt-modelgen: $(PT_MG64) tests/host/bench/host.ld
	$(CC) -no-pie -Wl,-T,tests/host/bench/host.ld $(PT_MG64) -o $@
$(HB)/pt-modelgen-i386: $(PT_MG32) tests/host/bench/host.ld
	$(CC) -m32 -no-pie -Wl,-T,tests/host/bench/host.ld $(PT_MG32) -o $@

-include $(PT_MG64:.o=.d) $(PT_MG32:.o=.d)

# What the host tools link of the product: the generations' descriptors
# (without their drivers and models, PMU_GENERATION_NO_OPS) and their
# tables and lookups, pure logic only.  -DHOST_TEST: lib/string.c leaves
# the C library's mem* in place.
PMU_TABLE_SRCS := pmu/cpu_model.c pmu/sem.c pmu/generation.c pmu/evtsel.c \
	       $(wildcard pmu/*/generation.c pmu/*/events.c pmu/*/regs.c \
			  pmu/*/*/events.c pmu/*/*/regs.c pmu/*/caps_table.c) \
	       lib/fmt.c lib/string.c
PMU_TABLE_HDRS := $(wildcard pmu/*.h pmu/*/*.h pmu/*/*/*.h lib/*.h \
		    arch/x86/*.h)

# ---- libpfm4, the referee of the event tables (tools/pfm/, docs/testing.md;
# make check's pfm stage, tools/check/pfm.sh): the product's tables linked
# into a host program that asks libpfm4 (Debian's 4.13) for every row.
# Each generation's referee is its own (pmu/<gen>/referee.c, named by its
# descriptor's .referee, no part of the image; PMU_GENERATION_WITH_REFEREE)
# and says which libpfm4 library has its PMUs (pmu/referee.h): pfm-check
# runs the tables of libpfm4's x86_64 library, pfm-check-i386, the same
# sources built with -m32 against libpfm4:i386's libpfm.so.4, those of its
# 32-bit library (some PMUs are in the 32-bit build only; the headers are
# libpfm4-dev's, the same for both).
PFM_SRCS  := tools/pfm/pfm_check.c tools/pfm/referee.c $(PMU_TABLE_SRCS) \
	     $(wildcard pmu/*/referee.c)
PFM_HDRS  := tools/pfm/referee.h $(PMU_TABLE_HDRS)
PFM_FLAGS := -DHOST_TEST -DPMU_GENERATION_NO_OPS -DPMU_GENERATION_WITH_REFEREE
PFM_LIB32 := /usr/lib/i386-linux-gnu/libpfm.so.4

pfm-check: $(HB)/pfm-check $(HB)/pfm-check-i386

# At -O0 without debug information: each checker runs once, for a fifth
# of a second, and compiling every generation's tables twice at -O2 -g
# took three times as long.
PFM_CFLAGS := $(filter-out -O2 -g,$(HOST_CFLAGS)) -O0

$(HB)/pfm-check: $(PFM_SRCS) $(PFM_HDRS) | deps-pfm
	@mkdir -p $(dir $@)
	$(CC) $(PFM_CFLAGS) $(PFM_FLAGS) $(PFM_SRCS) -lpfm -o $@

$(HB)/pfm-check-i386: $(PFM_SRCS) $(PFM_HDRS) | deps-pfm
	@mkdir -p $(dir $@)
	$(CC) -m32 $(PFM_CFLAGS) $(PFM_FLAGS) $(PFM_SRCS) $(PFM_LIB32) -o $@

# The lab's event listing (tools/lab/pmu-harness events, docs/lab.md):
# the product's own tables and lookups, built for the host.
# The generations' descriptors say which kind a CPU's PMU is, its name and
# its listing (pmu/generation.h cpu_pmu_kind(), pmu_kind_name(),
# list_events), linked with their listings (PMU_GENERATION_WITH_EVENTS,
# pmu/<gen>/listing.c), which read the generations' own tables.
EVENTS_SRCS := tools/lab/pmu_events.c $(PMU_TABLE_SRCS) \
	       $(wildcard pmu/*/listing.c)

# ptdecode and pmu-events are linked to a file of their own and renamed
# into place: the tools and their tests build them on demand, and under
# make check's pytest workers two makes of one of them may run at once,
# while a third process runs it; it must never see a half-written file.
pmu-events: $(HB)/pmu-events
$(HB)/pmu-events: $(EVENTS_SRCS) $(PMU_TABLE_HDRS) | deps-build
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	@$(CC) $(HOST_CFLAGS) -DHOST_TEST -DPMU_GENERATION_NO_OPS \
		-DPMU_GENERATION_WITH_EVENTS $(EVENTS_SRCS) -o $@.$$$$ && \
		mv -f $@.$$$$ $@

# The lab's detection of a CPU from its CPUID dump (tools/lab/pmu-harness
# detect, docs/lab.md#detect): the harness's own detection, the drivers'
# "# pmu:" fields and its topology decoding, built for the host with CPUID
# answered from the dump (HOST_CPUID, arch/x86/cpu.h) and no model
# (PMU_GENERATION_NO_MODELS); linked to a file of its own and renamed into
# place, as pmu-events.
DETECT_SRCS := tools/lab/pmu_detect.c $(PMU_TABLE_SRCS) pmu/detect.c \
	       pmu/driver.c pmu/perfmon/report.c pmu/perfmon/caps.c \
	       pmu/perfmon/ds/format.c pmu/pt/caps.c arch/x86/topology.c \
	       pmu/lbr.c pmu/perfmon/lbr/layout.c \
	       $(wildcard pmu/*/driver.c)
pmu-detect: $(HB)/pmu-detect
$(HB)/pmu-detect: $(DETECT_SRCS) $(PMU_TABLE_HDRS) | deps-build
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	@$(CC) $(HOST_CFLAGS) -DHOST_TEST -DHOST_CPUID \
		-DPMU_GENERATION_NO_MODELS $(DETECT_SRCS) -o $@.$$$$ && \
		mv -f $@.$$$$ $@

# The host unit tests (cmocka), each module compiled once
# (tools/check/host-test.sh builds them with make -j and runs them).
include tests/host/host.mk

# make fuzz: the fuzz target for FUZZ_TIME seconds (tools/pt/fuzz.sh).
fuzz: export PT_FUZZ_TIME = $(FUZZ_TIME)
fuzz: $(HB)/pt-fuzz
	tools/pt/fuzz.sh "$$PT_FUZZ_TIME"

run bench: export PMU_CPU = $(CPU)
run: export PMU_SMP = $(SMP)
run: export PMU_ARGS = $(ARGS)
run: export PMU_LOG = $(RUN_LOG)
run: export PMU_BOOT = $(BOOT)
# The CPU picks the boot (tools/boot/boot_kind.py, docs/boot.md): the
# x86-64 UEFI image where QEMU's model has long mode, else the 32-bit
# Multiboot kernel through the BIOS path; BOOT=uefi|bios overrides.
run: $(B)/pmu-harness.img $(B32)/pmu-harness.elf | deps-run
	@cpu=$$($(PYTHON) tools/boot/boot_kind.py --cpu-arg "$$PMU_CPU") || \
		exit 2; \
	boot="$$PMU_BOOT"; \
	if [ -z "$$boot" ]; then \
		boot=$$($(PYTHON) tools/boot/boot_kind.py "$$cpu") || exit 2; \
	fi; \
	case "$$boot" in \
	uefi) exec tools/boot/qemu-boot.sh --stream --cpu "$$cpu" \
		--smp "$$PMU_SMP" --image $(B)/pmu-harness.img \
		--args "$$PMU_ARGS" --log "$$PMU_LOG" ;; \
	bios) exec tools/boot/qemu-boot.sh --stream --bios kernel \
		--cpu "$$cpu" --smp "$$PMU_SMP" \
		--image $(B32)/pmu-harness.elf --args "$$PMU_ARGS" \
		--log "$$PMU_LOG" ;; \
	*) echo "make run: BOOT=$$boot: want uefi or bios" >&2; exit 2 ;; \
	esac

# make check is pytest (pytest.ini, docs/check.md): the build is its first
# test (make -jN all image floppy ovmf-vars), so that its time is counted
# and the tests that need no build run beside it; CHECK_JOBS pytest-xdist
# workers (default: the processors plus one, so that a worker waiting on
# I/O leaves none idle).  Each run starts from an empty build/check; its
# JUnit XML is build/check/junit.xml.
CHECK_JOBS ?= $(shell echo $$(( $$(nproc) + 1 )))
check: export PMU_CHECK_JOBS = $(CHECK_JOBS)
check: | deps-check
	@rm -rf build/check
	$(PYTHON) -m pytest -n "$$PMU_CHECK_JOBS" --junitxml=build/check/junit.xml

# Deliberate misreadings of the product (tools/check/mutants.yaml), each
# applied alone in a private copy of the tree, rebuilt and run against the
# tests it names: every one must be killed (docs/testing.md).  Slow (a
# rebuild and boots per mutant), so not part of check.
mutate: | deps-check
	$(PYTHON) -m tools.check.mutate

host-test: | deps-check
	tools/check/host-test.sh

bench: $(B)/pmu-harness.img $(HB)/pt-bench | deps-run
	tools/boot/qemu-boot.sh --stream --cpu "$$PMU_CPU" --image $< \
		--args 'tests=bench/*' --log $(B)/bench.log
	$(HB)/pt-bench

# The lab tools on a 200 MB log (issue 43 item 3; docs/lab.md "Lab
# scale"): parse, junit and report each within 60 s and 300 MB.  About 3
# minutes, so not part of make check.
lab-scale: | deps-check
	PMU_LAB_SCALE=1 $(PYTHON) -m pytest -q -o addopts="-p no:cacheprovider" \
		tools/lab/tests/test_scale.py

# The LAVA jobs `make lava` runs (tools/lab/lava/README.md): both QEMU
# jobs by default; LAVA_JOBS=tools/lab/lava/qemu-bios.yaml runs one.
LAVA_JOBS ?= tools/lab/lava/qemu-uefi.yaml tools/lab/lava/qemu-bios.yaml
lava: $(B)/pmu-harness.img $(B32)/pmu-harness.elf | deps-lava
	$(PYTHON) -m tools.lab.lava.run --image $(B)/pmu-harness.img \
		--kernel $(B32)/pmu-harness.elf --out $(B)/lava \
		$(addprefix --job ,$(LAVA_JOBS))

# make fresh-check: `make run` and `make check` as the README says, on a
# fresh Debian 12 (debootstrap minbase, only make and git installed by
# hand) with the commit HEAD names cloned into it (docs/check.md, "The
# fresh-machine check").  As root; FRESH_DIR (default build/fresh) keeps
# the base tarball between runs.
fresh-check: | deps-fresh
	tools/build/fresh-check.sh

# A fresh-check killed with SIGKILL leaves its mounts (/dev among them)
# inside build/fresh/root: unmounted first, and rm never crosses into
# another file system.
clean:
	@tools/build/fresh-check.sh --unmount
	rm -rf --one-file-system $(B)

-include $(OBJS:.o=.d) $(OBJS32:.o=.d)
