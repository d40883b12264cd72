# tests/host/host.mk: the host unit tests (cmocka) built by make, included
# by the Makefile.  They mirror the product tree: the tests of pmu/p5/ are
# tests/host/pmu/p5/test_*.c.  Each tests/host/PATH/test_NAME.c names the
# module sources it needs on a line "/* host-sources: a.c b.c */"; it is
# linked with them into $(HT)/PATH/test_NAME.  Every source is compiled once into
# $(HT)/obj/SOURCE.o, shared by all the tests that name it, with -MMD
# dependency files, so a second run rebuilds nothing.
#
#   make host-test-bins          every test binary
#   make $(HT)/PATH/test_NAME    one (PATH as under tests/host/)
#
# tools/check/host-test.sh builds the $(HT)/test_NAME.ok markers instead
# (one for a binary that is up to date: see below) and runs the binaries.
# HOST_TEST_SANITIZE=0 (environment or command line) builds without
# AddressSanitizer/UBSan, which are used when the compiler supports them.

HT       := $(HB)/test
HT_TESTS := $(patsubst tests/host/%.c,%,$(wildcard tests/host/test_*.c \
	    tests/host/*/test_*.c tests/host/*/*/test_*.c \
	    tests/host/*/*/*/test_*.c))
HT_BINS  := $(addprefix $(HT)/,$(HT_TESTS))

# Recursive (=) and probed once at most, when a recipe first needs them,
# so that every other make of the project runs neither pkg-config nor the
# compiler probe.
HT_CM_CFLAGS = $(eval HT_CM_CFLAGS := $$(shell \
	pkg-config --exists cmocka 2>/dev/null && \
	pkg-config --cflags cmocka))$(HT_CM_CFLAGS)
HT_LIBS = $(eval HT_LIBS := $$(shell \
	pkg-config --libs cmocka 2>/dev/null || echo -lcmocka))$(HT_LIBS)

# The sanitizers when a program built with them runs here (a compiler may
# accept the flags without having the runtime).
HT_SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
		-fno-omit-frame-pointer
HT_SAN_PROBE = mkdir -p $(HT) && \
	echo 'int main(void) { return 0; }' | \
	$(CC) -x c -fsanitize=address,undefined -o $(HT)/.sanitize-probe - \
		2>/dev/null && $(HT)/.sanitize-probe && echo '$(HT_SAN_FLAGS)'; \
	rm -f $(HT)/.sanitize-probe
ifeq ($(HOST_TEST_SANITIZE),0)
HT_SAN :=
else
HT_SAN = $(eval HT_SAN := $$(shell $$(HT_SAN_PROBE)))$(HT_SAN)
endif

# -O0: ASan and UBSan check as much unoptimised, and the compiles take
# two thirds of -O1's time (the product's sources are also built -O2
# -Werror by the harness's own build, which keeps the warnings that need
# the optimiser).
HT_CFLAGS = -std=gnu11 -O0 -g $(WARN) -DHOST_TEST -I. $(HT_SAN) \
	    $(HT_CM_CFLAGS)

.PHONY: host-test-bins host-test-force

host-test-bins: $(HT_BINS)

# The flags every object and binary was built with: rewritten only when
# they differ (another CC, HOST_TEST_SANITIZE=0, cmocka's flags), so that
# a change rebuilds everything and no change rebuilds nothing.
$(HT)/flags: host-test-force
	@mkdir -p $(@D)
	@echo '$(CC) $(HT_CFLAGS) $(HT_LIBS)' | cmp -s - $@ || \
		echo '$(CC) $(HT_CFLAGS) $(HT_LIBS)' >$@
host-test-force:

# A pattern of its own (SOURCE.c.o): the harness's $(B)/%.o rule is for
# the freestanding build, and a .c and a .S of the same name stay apart.
$(HT)/obj/%.c.o: %.c $(HT)/flags | deps-build
	@mkdir -p $(@D)
	@echo "  HOSTCC  $<"
	@$(CC) $(HT_CFLAGS) -MMD -MP -c $< -o $@

# As host-test.sh always built them: no -D__ASSEMBLY__ (the .S defines
# it, tests/host/arch/x86/decode_benches.S).
$(HT)/obj/%.S.o: %.S $(HT)/flags | deps-build
	@mkdir -p $(@D)
	@echo "  HOSTAS  $<"
	@$(CC) $(HT_CFLAGS) -MMD -MP -c $< -o $@

# The modules of each test come below (HT_SRCS_test_NAME: ":", then the
# line's sources); a test without a host-sources line fails to build
# rather than linking without them.  So does one whose line names a
# compiler option: each object serves every test that names its source,
# so all are built with the same flags.  An empty line is a test that
# includes the one .c it tests and links nothing else.
$(HT_BINS): $(HT)/%: $(HT)/obj/tests/host/%.c.o $(HT)/flags
	$(if $(filter :,$(HT_SRCS_$*)),,@echo "host-test:" \
		"tests/host/$*.c: no /* host-sources: ... */ line" >&2; exit 1)
	$(if $(filter -%,$(HT_SRCS_$*)),@echo "host-test: tests/host/$*.c:" \
		"host-sources names options ($(filter -%,$(HT_SRCS_$*)));" \
		"it takes source files only" >&2; exit 1)
	@echo "  HOSTLD  $@"
	@mkdir -p $(@D)
	@$(CC) $(HT_CFLAGS) $(filter %.o,$^) -o $@ $(HT_LIBS)

# test_NAME.ok: made only when the binary was (make -k goes on past a
# failed build, and leaves the binary of the last good build in place);
# host-test.sh removes the markers first, then runs the binaries that got
# one.
$(HT_BINS:=.ok): %.ok: %
	@touch $@

# The host-sources lines are read only when a host test is to be built:
# the other goals of the Makefile cost no sed.  Read on every run, so an
# edited line takes effect at once.
ifneq ($(filter host-test-bins $(HT)/%,$(MAKECMDGOALS)),)
# ":" first, so that an empty line still reads as one.
HT_LINE := s|^/\* host-sources:\(.*\)\*/ *$$|: \1|p
$(foreach t,$(HT_TESTS),$(eval HT_SRCS_$(t) := \
	$$(shell sed -n '$$(HT_LINE)' tests/host/$(t).c | head -n 1)))
# $(call ht-objs,test_NAME): the objects of its modules.
ht-objs = $(patsubst %,$(HT)/obj/%.o,$(filter-out : -%,$(HT_SRCS_$(1))))
$(foreach t,$(HT_TESTS),$(eval $(HT)/$(t): $(call ht-objs,$(t))))
HT_OBJS := $(sort $(foreach t,$(HT_TESTS),$(HT)/obj/tests/host/$(t).c.o \
	   $(call ht-objs,$(t))))
-include $(HT_OBJS:.o=.d)
endif
