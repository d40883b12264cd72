# pmu-harness: build, boot and check.  `make run` and `make check` are the
# two commands; both install what is missing from Debian's packages first.

# Debian packages each job needs (tools/deps.sh installs them as root).
BUILD_PKGS := gcc make binutils gnu-efi
IMAGE_PKGS := mtools dosfstools gdisk
RUN_PKGS   := $(BUILD_PKGS) $(IMAGE_PKGS) qemu-system-x86 ovmf
CHECK_PKGS := $(RUN_PKGS) libcmocka-dev pkg-config gawk

CC      := gcc
LD      := ld
OBJCOPY := objcopy
B       := build

EFI_INC := /usr/include/efi
EFI_LIB := /usr/lib
EFI_CRT := $(EFI_LIB)/crt0-efi-x86_64.o

CPU     ?= Skylake-Client
ARGS    ?=

WARN    := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow \
	   -Wstrict-prototypes -Wmissing-prototypes -Wno-missing-field-initializers
CFLAGS  := -std=gnu11 -O2 -g $(WARN) -ffreestanding -fno-builtin \
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

SRCS := $(wildcard boot/*.c arch/x86/*.c arch/x86/*.S pmu/*.c lib/*.c \
	  harness/*.c bench/*.c bench/*.S tests/*/*.c tests/*/*.S)
SRCS := $(filter-out tests/host/%,$(SRCS))
OBJS := $(patsubst %,$(B)/%.o,$(basename $(SRCS)))

.PHONY: all deps deps-build deps-run deps-check image run check host-test \
	bench clean

all: $(B)/pmu-harness.efi

deps-build:
	@tools/deps.sh $(BUILD_PKGS)
deps-run:
	@tools/deps.sh $(RUN_PKGS)
deps-check:
	@tools/deps.sh $(CHECK_PKGS)

$(B)/%.o: %.c | deps-build
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/%.o: %.S | deps-build
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(CC) $(CFLAGS) $(ASFLAGS) -MMD -MP -c $< -o $@

$(B)/pmu-harness.so: $(OBJS) linker.ld
	$(LD) $(LDFLAGS) $(EFI_CRT) $(OBJS) -L$(EFI_LIB) -lgnuefi -o $@
	@tools/check-elf.sh $@

$(B)/pmu-harness.efi: $(B)/pmu-harness.so
	$(OBJCOPY) $(EFI_SECTIONS) --target=efi-app-x86_64 $< $@

image: $(B)/pmu-harness.img
$(B)/pmu-harness.img: $(B)/pmu-harness.efi tools/mkimage.sh | deps-run
	tools/mkimage.sh $@ $<

run: $(B)/pmu-harness.img | deps-run
	tools/qemu-boot.sh --stream --cpu '$(CPU)' --image $< \
		--args '$(ARGS)' --log $(B)/serial.log

check: $(B)/pmu-harness.img | deps-check
	tools/check.sh

host-test: | deps-check
	tools/host-test.sh

bench: $(B)/pmu-harness.img | deps-run
	tools/qemu-boot.sh --stream --cpu '$(CPU)' --image $< \
		--args 'tests=bench/*' --log $(B)/bench.log

clean:
	rm -rf $(B)

-include $(OBJS:.o=.d)
