/* smp/...: code on the sibling logical processor (arch/x86/smp.h).
 *
 *   sibling-runs            fn runs there, and only there: another APIC
 *                           ID, CPL 0, IF clear, the harness's IDT and
 *                           the BSP's GDT loaded, smp_on_sibling() 1
 *                           there and 0 here; from there, a nested
 *                           smp_sibling_run() and bench_alloc() (the
 *                           firmware's allocator) are refused;
 *   sibling-is-same-core    CPUID's topology (leaf 0BH, or 01H/04H) on
 *                           both processors puts them in one core, as
 *                           threads 0 and 1, and agrees with the
 *                           firmware's list (SDM Vol. 3A §8.9,
 *                           order no. 253668-059US);
 *   sibling-fault           a fault there ends fn, is reported with its
 *                           vector, and the next run works;
 *   sibling-timeout         a sibling that never returns is a failure
 *                           after the time limit, not a hung boot; the
 *                           hook it installed is gone; the next run works;
 *   ring3-refused-on-sibling  CPL 3 is not offered there (smp.h).
 *
 * With one logical processor each SKIPs with smp_sibling_ready()'s
 * reason; where the firmware lists a sibling that does not work, each
 * fails with it (harness/smp_run.h). */
#include "../../harness/clock.h"
#include "../../harness/smp_run.h"
#include "../../harness/test.h"
#include "../../bench/bench.h"
#include "../../bench/oracle.h"
#include "../../arch/x86/apic.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/ring3.h"
#include "../../arch/x86/smp.h"
#include "../../arch/x86/trace.h"
#include "../../arch/x86/trap.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

#define WHY 240
#define KEY_LEN 40
/* The timeout test's limit: long enough for the firmware to start the
 * processor, short enough for make check. */
#define SPIN_TIMEOUT_US (300ull * 1000)

/* What a processor finds about itself. */
struct where {
	int ran, on_sibling;
	struct topo topo;
	uint32_t lapic_id;
	int lapic_valid;
	uint64_t rflags;
	uint16_t cs;
	struct x86_dtr gdt, idt;
	uint32_t l1_edx;
	int nested;		/* smp_sibling_run() from here */
	void *alloc;		/* bench_alloc() from here */
};

static void nothing(void *arg)
{
	(void)arg;
}

static void where_am_i(void *arg)
{
	struct where *w = arg;

	w->on_sibling = smp_on_sibling();
	topo_read(&w->topo);
	w->lapic_valid = apic_init() == NULL;
	if (w->lapic_valid)
		w->lapic_id = apic_id();
	w->rflags = read_flags();
	w->cs = read_cs();
	sgdt(&w->gdt);
	sidt(&w->idt);
	w->l1_edx = cpuid(1).edx;
	if (w->on_sibling) {
		w->nested = smp_sibling_run(nothing, NULL, NULL, 0);
		w->alloc = bench_alloc(4096, 4096);
	}
	w->ran = 1;
}

static int run_where(struct tcase *t, struct where *w)
{
	char why[WHY];

	memset(w, 0, sizeof(*w));
	return check(t, smp_sibling_run(where_am_i, w, why, sizeof(why)) == 0,
		     "smp_sibling_run: %s", why) &&
	       check(t, w->ran, "returned 0 but fn did not run");
}

static const char *key(char *buf, const char *who, const char *what)
{
	fmt_snprintf(buf, KEY_LEN, "%s_%s", who, what);
	return buf;
}

static void log_where(struct tcase *t, const char *who, const struct where *w)
{
	char k[KEY_LEN];

	value(t, key(k, who, "apic_id"), "%u", w->topo.apic_id);
	if (w->lapic_valid)
		value(t, key(k, who, "local_apic_id"), "%u", w->lapic_id);
	value(t, key(k, who, "topology"), "source=%s smt_bits=%u core_bits=%u "
	      "threads_per_core=%u package=%u core=%u thread=%u",
	      topo_source_name(w->topo.source), w->topo.smt_bits,
	      w->topo.core_bits, w->topo.threads_per_core,
	      w->topo.package_id, w->topo.core_id, w->topo.thread_id);
}

static void test_runs(struct tcase *t)
{
	struct where here, there;
	struct x86_dtr idt;

	if (!sibling_ready(t))
		return;
	value(t, "service", "%s", smp_service());
	where_am_i(&here);
	if (!run_where(t, &there))
		return;
	log_where(t, "bsp", &here);
	log_where(t, "sibling", &there);
	check(t, there.on_sibling == 1 && here.on_sibling == 0 &&
	      smp_on_sibling() == 0, "smp_on_sibling(): %d on the sibling, "
	      "%d on the BSP, %d after", there.on_sibling, here.on_sibling,
	      smp_on_sibling());
	check(t, there.nested == -1, "smp_sibling_run from the sibling "
	      "returned %d", there.nested);
	check(t, there.alloc == NULL, "bench_alloc on the sibling gave %p",
	      there.alloc);
	check(t, there.topo.apic_id != here.topo.apic_id, "fn ran with the "
	      "BSP's APIC ID %u", here.topo.apic_id);
	check(t, there.topo.apic_id == smp_sibling_cpu()->apic_id,
	      "fn ran on APIC ID %u, the sibling is %u", there.topo.apic_id,
	      smp_sibling_cpu()->apic_id);
	check(t, !there.lapic_valid || there.lapic_id != here.lapic_id,
	      "local APIC ID %u on both", here.lapic_id);
	check(t, (there.cs & 3) == 0 && there.cs == here.cs, "CS 0x%x there, "
	      "0x%x here", there.cs, here.cs);
	check(t, !(there.rflags & X86_EFLAGS_IF), "IF set on the sibling "
	      "(RFLAGS 0x%llx)", (unsigned long long)there.rflags);
	trap_idt(&idt);
	check(t, there.idt.base == idt.base && there.idt.limit == idt.limit,
	      "IDT 0x%llx/%u there, the harness's is 0x%llx/%u",
	      (unsigned long long)there.idt.base, there.idt.limit,
	      (unsigned long long)idt.base, idt.limit);
	check(t, there.gdt.base == here.gdt.base &&
	      there.gdt.limit == here.gdt.limit, "GDT 0x%llx/%u there, "
	      "0x%llx/%u here", (unsigned long long)there.gdt.base,
	      there.gdt.limit, (unsigned long long)here.gdt.base,
	      here.gdt.limit);
}

TEST(smp_sibling_runs, "smp/sibling-runs",
     "code runs on the sibling at CPL 0, IF clear, harness IDT, and the "
     "BSP waits", test_runs, 0);

static void test_same_core(struct tcase *t)
{
	const struct smp_cpu *fb, *fs;
	struct where here, there;

	if (!sibling_ready(t))
		return;
	where_am_i(&here);
	if (!run_where(t, &there))
		return;
	fb = smp_bsp_cpu();
	fs = smp_sibling_cpu();
	log_where(t, "bsp", &here);
	log_where(t, "sibling", &there);
	value(t, "firmware_bsp", "apic_id=%u package=%u core=%u thread=%u",
	      fb->apic_id, fb->package, fb->core, fb->thread);
	value(t, "firmware_sibling", "apic_id=%u package=%u core=%u "
	      "thread=%u", fs->apic_id, fs->package, fs->core, fs->thread);
	check(t, (here.l1_edx & there.l1_edx & CPUID1_EDX_HTT) != 0,
	      "CPUID.01H:EDX.HTT clear (0x%x here, 0x%x there)",
	      here.l1_edx, there.l1_edx);
	check(t, here.topo.source == there.topo.source, "topology from %s "
	      "here, %s there", topo_source_name(here.topo.source),
	      topo_source_name(there.topo.source));
	check(t, topo_same_core(&here.topo, &there.topo), "not one core: "
	      "package %u core %u here, package %u core %u there",
	      here.topo.package_id, here.topo.core_id,
	      there.topo.package_id, there.topo.core_id);
	check(t, here.topo.thread_id != there.topo.thread_id, "both thread %u",
	      here.topo.thread_id);
	check(t, there.topo.threads_per_core >= 2, "%u thread(s) per core",
	      there.topo.threads_per_core);
	check(t, fb->apic_id == here.topo.apic_id &&
	      fs->apic_id == there.topo.apic_id, "firmware APIC IDs %u/%u, "
	      "CPUID %u/%u", fb->apic_id, fs->apic_id, here.topo.apic_id,
	      there.topo.apic_id);
	check(t, fb->package == fs->package && fb->core == fs->core &&
	      fb->thread != fs->thread, "the firmware's locations are not "
	      "two threads of one core");
	check(t, !there.lapic_valid || there.lapic_id == there.topo.apic_id,
	      "sibling local APIC ID %u, CPUID %u", there.lapic_id,
	      there.topo.apic_id);
}

TEST(smp_same_core, "smp/sibling-is-same-core",
     "CPUID topology on both processors: two threads of one core",
     test_same_core, 0);

static void fault_ud(void *arg)
{
	(void)arg;
	__asm__ volatile("ud2");
}

static void test_fault(struct tcase *t)
{
	char why[WHY];
	struct where w;
	int r;

	if (!sibling_ready(t))
		return;
	r = smp_sibling_run(fault_ud, NULL, why, sizeof(why));
	value(t, "why", "%s", r ? why : "-");
	check(t, r == -1, "a #UD on the sibling returned %d", r);
	check(t, r != -1 || (why[0] == '#' && why[1] == 'U' && why[2] == 'D'),
	      "reason does not name the #UD: %s", why);
	check(t, smp_on_sibling() == 0, "smp_on_sibling() still 1");
	if (run_where(t, &w))
		check(t, w.on_sibling == 1, "the next run was not on the "
		      "sibling");
}

TEST(smp_fault, "smp/sibling-fault",
     "a fault on the sibling is caught and reported; the next run works",
     test_fault, 0);

static int never_called(struct trap_frame *f)
{
	(void)f;
	return 0;
}

/* Installs a hook, then never returns. */
static void spin_forever(void *arg)
{
	volatile int *hooked = arg;

	trap_set_hook(VEC_BP, never_called);
	*hooked = 1;
	for (;;)
		__asm__ volatile("pause");
}

static void test_timeout(struct tcase *t)
{
	trap_hook_fn before = trap_get_hook(VEC_BP);
	volatile int hooked = 0;
	uint64_t t0, t1, hz = harness_tsc_hz();
	char why[WHY];
	struct where w;
	int r;

	if (!sibling_ready(t))
		return;
	t0 = rdtsc();
	r = smp_sibling_run_timeout(spin_forever, (void *)&hooked,
				    SPIN_TIMEOUT_US, why, sizeof(why));
	t1 = rdtsc();
	value(t, "timeout_us", "%llu", (unsigned long long)SPIN_TIMEOUT_US);
	if (hz)
		value(t, "waited_ms", "%llu",
		      (unsigned long long)((t1 - t0) / (hz / 1000)));
	value(t, "why", "%s", r ? why : "-");
	check(t, r == -1, "a sibling that never returns: %d", r);
	check(t, hooked == 1, "the sibling never started spinning");
	check(t, trap_get_hook(VEC_BP) == before, "the sibling's #BP hook "
	      "is still installed");
	check(t, smp_on_sibling() == 0, "smp_on_sibling() still 1");
	if (run_where(t, &w))
		check(t, w.on_sibling == 1, "the next run was not on the "
		      "sibling");
}

TEST(smp_timeout, "smp/sibling-timeout",
     "a sibling that never returns fails after the limit; the next run "
     "works", test_timeout, 0);

struct r3 {
	const struct bench *b;
	int ret;
	unsigned vector;
	int trace_ret;
};

static void nop_sink(const struct insn_event *e, void *ctx)
{
	(void)e;
	(*(uint64_t *)ctx)++;
}

static void try_ring3(void *arg)
{
	struct r3 *r = arg;
	struct trace_range range = { (const void *)r->b->fn, r->b->end };
	uint64_t events = 0;
	struct fault f = { 0 };

	r->ret = ring3_run(r->b->fn, 0, NULL, 0, &f);
	r->vector = f.vector;
	r->trace_ret = trace_run(r->b->fn, 0, NULL, 3, range, nop_sink,
				 &events, &f);
}

static void test_ring3(struct tcase *t)
{
	struct r3 r = { .b = bench_find("empty"), .ret = 99 };
	struct fault f;
	char why[WHY];

	if (!sibling_ready(t))
		return;
	if (!ring3_ready()) {
		skip(t, "ring 3 is unavailable on the BSP too");
		return;
	}
	if (!check(t, r.b != NULL, "no benchmark empty"))
		return;
	check(t, ring3_run(r.b->fn, 0, NULL, 0, &f) == 0, "CPL 3 on the BSP "
	      "failed");
	if (!check(t, smp_sibling_run(try_ring3, &r, why, sizeof(why)) == 0,
		   "smp_sibling_run: %s", why))
		return;
	check(t, r.ret == -1 && r.vector == 0, "ring3_run on the sibling "
	      "returned %d (vector %u), not -1", r.ret, r.vector);
	check(t, r.trace_ret == -1, "trace_run at CPL 3 on the sibling "
	      "returned %d", r.trace_ret);
}

TEST(smp_ring3, "smp/ring3-refused-on-sibling",
     "CPL 3 is refused on the sibling (its TR is not the harness's TSS)",
     test_ring3, 0);
