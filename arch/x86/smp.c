/* smp: code on the sibling logical processor, one processor at a time
 * (smp.h). */
#include "smp.h"
#include "apic.h"
#include "cpu.h"
#include "trap.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

#define SIBLING_STACK 65536
/* The probe of smp_sibling_ready() only runs CPUID: a second is plenty. */
#define PROBE_TIMEOUT_US (5ull * 1000 * 1000)
#define WHY_LEN 240

/* Runs fn(arg) on the stack whose top is stack_top (smp_entry.S). */
void smp_call_on_stack(void (*fn)(void *), void *arg, void *stack_top);

enum call_state {
	CALL_NOT_STARTED,	/* the sibling never reached sibling_body */
	CALL_RETURNED,
	CALL_FAULTED,
	CALL_REFUSED,		/* its CS/SS are not the BSP's */
};

/* One run, on the BSP's stack; the sibling reads the inputs and writes
 * state last (release), the BSP reads state first (acquire). */
struct call {
	void (*fn)(void *);
	void *arg;
	struct x86_dtr gdt, idt;	/* the BSP's GDT, the harness's IDT */
	uint16_t cs, ss;		/* the BSP's selectors */
	uint16_t found_cs, found_ss;	/* the sibling's */
	struct fault fault;
	int state;
};

/* What the sibling's probe finds there. */
/* What a processor says of its own PMU and core type: CPUID.0AH (the
 * architectural PMU, SDM Vol. 2A CPUID) and CPUID.1AH:EAX (the core type
 * of a hybrid part), 0 where the maximum leaf is below them. */
struct pmu_leaves {
	struct cpuid_regs a;
	uint32_t hybrid_eax;
};

struct probe {
	struct topo topo;
	uint32_t lapic_id;
	int lapic_valid;
	struct pmu_leaves pmu;
};

static struct {
	const char *why_not;	/* from boot/: no service */
	struct smp_firmware fw;
	int have_fw;
	int checked, ready;
	char why[WHY_LEN];
	const struct smp_cpu *bsp, *sib;
	struct topo bsp_topo;
	struct pmu_leaves bsp_pmu;
} smp = { .why_not = "smp_init() not called" };

/* Written on the sibling only, around fn; read anywhere. */
static volatile int on_sibling;
static int busy;
static struct trap_state saved_trap;
static uint8_t sibling_stack[SIBLING_STACK] __attribute__((aligned(16)));

void smp_init(const struct smp_firmware *fw, const char *why_not)
{
	memset(&smp, 0, sizeof(smp));
	smp.why_not = why_not ? why_not : "no MP service";
	if (!fw)
		return;
	smp.fw = *fw;
	if (smp.fw.n > SMP_MAX_CPUS)
		smp.fw.n = SMP_MAX_CPUS;
	smp.have_fw = 1;
	smp.why_not = NULL;
}

int smp_on_sibling(void)
{
	return on_sibling;
}

const char *smp_service(void)
{
	return smp.have_fw ? smp.fw.name : NULL;
}

const struct smp_cpu *smp_bsp_cpu(void)
{
	return smp.ready ? smp.bsp : NULL;
}

const struct smp_cpu *smp_sibling_cpu(void)
{
	return smp.ready ? smp.sib : NULL;
}

/* ---- the sibling's side */

static void publish(struct call *c, int state)
{
	__atomic_store_n(&c->state, state, __ATOMIC_RELEASE);
}

/* On the sibling, on our stack.  Until the LIDT a fault here would go to
 * the firmware's handlers (which halt: the BSP's wait times out). */
static void sibling_body(void *p)
{
	struct call *c = p;
	struct x86_dtr own_gdt, own_idt;
	ureg_t flags = read_flags();
	int faulted;

	irq_disable();
	c->found_cs = read_cs();
	c->found_ss = read_ss();
	if (c->found_cs != c->cs || c->found_ss != c->ss) {
		write_flags(flags);
		publish(c, CALL_REFUSED);
		return;
	}
	sgdt(&own_gdt);
	sidt(&own_idt);
	/* Same CS and SS selectors: in the BSP's GDT they name the segments
	 * the IDT's gates and IRETQ expect (SDM Vol. 3A §6.14.1,
	 * §6.14.3, order no. 253668). */
	lgdt(&c->gdt);
	lidt(&c->idt);
	on_sibling = 1;
	faulted = trap_catch(c->fn, c->arg, &c->fault);
	on_sibling = 0;
	lidt(&own_idt);
	lgdt(&own_gdt);
	write_flags(flags & ~(ureg_t)X86_EFLAGS_TF);
	publish(c, faulted ? CALL_FAULTED : CALL_RETURNED);
}

/* What the firmware calls on the sibling (through boot/'s procedure). */
static void sibling_entry(void *p)
{
	smp_call_on_stack(sibling_body, p, sibling_stack + SIBLING_STACK);
}

/* ---- the BSP's side */

static int outcome(const struct call *c, char *why, unsigned size)
{
	int state = __atomic_load_n(&c->state, __ATOMIC_ACQUIRE);

	switch (state) {
	case CALL_RETURNED:
		return 0;
	case CALL_FAULTED:
		fmt_snprintf(why, size, "%s (vector %u) on the sibling at "
			     "rip=0x%llx error=0x%llx",
			     trap_vector_name(c->fault.vector), c->fault.vector,
			     (unsigned long long)c->fault.rip,
			     (unsigned long long)c->fault.error);
		return -1;
	case CALL_REFUSED:
		fmt_snprintf(why, size, "the sibling runs with CS=0x%x SS=0x%x,"
			     " the BSP with CS=0x%x SS=0x%x: the harness's "
			     "IDT gates would not fit", c->found_cs,
			     c->found_ss, c->cs, c->ss);
		return -1;
	default:
		fmt_snprintf(why, size, "the firmware reported success but "
			     "the sibling never ran our code");
		return -1;
	}
}

static int run_checked(void (*fn)(void *), void *arg, uint64_t timeout_us,
		       char *why, unsigned size)
{
	struct call c = { .fn = fn, .arg = arg, .state = CALL_NOT_STARTED };
	char fw_why[WHY_LEN];
	int r;

	if (on_sibling || busy) {
		fmt_snprintf(why, size, "smp_sibling_run called from the "
			     "sibling or while it runs");
		return -1;
	}
	if (!trap_installed()) {
		fmt_snprintf(why, size, "the harness's IDT is not installed");
		return -1;
	}
	sgdt(&c.gdt);
	trap_idt(&c.idt);
	c.cs = read_cs();
	c.ss = read_ss();
	busy = 1;
	trap_state_save(&saved_trap);
	r = smp.fw.run(smp.sib->index, sibling_entry, &c, timeout_us, fw_why,
		       sizeof(fw_why));
	if (r) {
		/* Reset mid-run: what it hooked or pushed is gone with it. */
		trap_state_restore(&saved_trap);
		on_sibling = 0;
		busy = 0;
		fmt_snprintf(why, size, "%s", fw_why);
		return -1;
	}
	busy = 0;
	return outcome(&c, why, size);
}

static void read_pmu_leaves(struct pmu_leaves *l)
{
	uint32_t max = cpuid(0).eax;

	*l = (struct pmu_leaves){ 0 };
	if (max >= 0x0a)
		l->a = cpuid(0x0a);
	if (max >= 0x1a)
		l->hybrid_eax = cpuid(0x1a).eax;
}

static void probe_fn(void *arg)
{
	struct probe *p = arg;

	topo_read(&p->topo);
	read_pmu_leaves(&p->pmu);
	p->lapic_valid = apic_init() == NULL;
	if (p->lapic_valid)
		p->lapic_id = apic_id();
}

/* The firmware's idea of the sibling: same package and core as the BSP,
 * another thread, enabled and healthy. */
static int find_sibling(void)
{
	const struct smp_firmware *fw = &smp.fw;

	smp.bsp = smp.sib = NULL;
	for (unsigned i = 0; i < fw->n; i++)
		if (fw->cpu[i].bsp)
			smp.bsp = &fw->cpu[i];
	if (!smp.bsp) {
		fmt_snprintf(smp.why, WHY_LEN, "%s lists %u processors, none "
			     "the BSP", fw->name, fw->total);
		return 0;
	}
	for (unsigned i = 0; i < fw->n && !smp.sib; i++) {
		const struct smp_cpu *c = &fw->cpu[i];

		if (!c->bsp && c->enabled && c->healthy &&
		    c->package == smp.bsp->package &&
		    c->core == smp.bsp->core && c->thread != smp.bsp->thread)
			smp.sib = c;
	}
	if (smp.sib)
		return 1;
	if (fw->total <= 1)
		fmt_snprintf(smp.why, WHY_LEN, "one logical processor: %s "
			     "lists no other", fw->name);
	else
		fmt_snprintf(smp.why, WHY_LEN, "%s lists %u processors, none "
			     "an enabled, healthy thread of the BSP's core "
			     "(package %u core %u)", fw->name, fw->total,
			     smp.bsp->package, smp.bsp->core);
	return 0;
}

/* The tests program the BSP's PMU and read the capabilities of the BSP's
 * CPUID: the sibling must report the same, or a test there would hold it
 * to another processor's (a hybrid part's other core type, CPUID.1AH;
 * SDM Vol. 2A CPUID leaves 0AH and 1AH).  Threads of one core share it. */
static int pmu_agrees(const struct probe *p)
{
	const struct pmu_leaves *b = &smp.bsp_pmu, *s = &p->pmu;

	if (b->a.eax == s->a.eax && b->a.ebx == s->a.ebx &&
	    b->a.ecx == s->a.ecx && b->a.edx == s->a.edx &&
	    b->hybrid_eax >> 24 == s->hybrid_eax >> 24)
		return 1;
	fmt_snprintf(smp.why, WHY_LEN, "the sibling reports another PMU "
		     "than the BSP: CPUID.0AH %08x %08x %08x %08x, core type "
		     "%02xH (CPUID.1AH), the BSP's %08x %08x %08x %08x, "
		     "%02xH", s->a.eax, s->a.ebx, s->a.ecx, s->a.edx,
		     s->hybrid_eax >> 24, b->a.eax, b->a.ebx, b->a.ecx,
		     b->a.edx, b->hybrid_eax >> 24);
	return 0;
}

/* CPUID on each processor must agree with the firmware: the APIC IDs it
 * listed, and both threads of one core (SDM Vol. 3A §8.9.1). */
static int topology_agrees(const struct probe *p)
{
	const struct topo *b = &smp.bsp_topo, *s = &p->topo;

	if (b->apic_id != smp.bsp->apic_id || s->apic_id != smp.sib->apic_id)
		fmt_snprintf(smp.why, WHY_LEN, "CPUID APIC IDs %u (BSP) and %u "
			     "(sibling), the firmware lists %u and %u",
			     b->apic_id, s->apic_id, smp.bsp->apic_id,
			     smp.sib->apic_id);
	else if (!topo_same_core(b, s) || b->thread_id == s->thread_id)
		fmt_snprintf(smp.why, WHY_LEN, "CPUID (%s) puts APIC ID %u at "
			     "package %u core %u thread %u and APIC ID %u at "
			     "package %u core %u thread %u: not two threads of "
			     "one core", topo_source_name(s->source),
			     b->apic_id, b->package_id, b->core_id,
			     b->thread_id, s->apic_id, s->package_id,
			     s->core_id, s->thread_id);
	else if (p->lapic_valid && s->apic_id < 256 &&
		 p->lapic_id != s->apic_id)
		fmt_snprintf(smp.why, WHY_LEN, "the sibling's local APIC ID is "
			     "%u, its CPUID APIC ID %u", p->lapic_id,
			     s->apic_id);
	else if (!pmu_agrees(p))
		return 0;
	else
		return 1;
	return 0;
}

static int check_sibling(void)
{
	struct probe p = { 0 };
	char why[WHY_LEN];

	if (!smp.have_fw) {
		str_copy(smp.why, smp.why_not, WHY_LEN);
		return 0;
	}
	if (!find_sibling())
		return 0;
	topo_read(&smp.bsp_topo);
	read_pmu_leaves(&smp.bsp_pmu);
	/* apic_init() keeps its first caller's LVTPC as the firmware's, which
	 * apic_restore() gives back to the BSP: that first call must be the
	 * BSP's, not the probe's on the sibling. */
	(void)apic_init();
	if (run_checked(probe_fn, &p, PROBE_TIMEOUT_US, why, sizeof(why))) {
		fmt_snprintf(smp.why, WHY_LEN, "the sibling (APIC ID %u) did "
			     "not run the probe: %s", smp.sib->apic_id, why);
		return 0;
	}
	if (!topology_agrees(&p))
		return 0;
	return 1;
}

int smp_sibling_ready(char *why, unsigned size)
{
	if (!smp.checked && !on_sibling && !busy) {
		smp.checked = 1;
		smp.ready = check_sibling();
	}
	if (!smp.ready && why && size)
		str_copy(why, smp.checked ? smp.why : "not yet checked", size);
	return smp.ready;
}

int smp_sibling_present(void)
{
	(void)smp_sibling_ready(NULL, 0);
	return smp.sib != NULL;
}

int smp_sibling_run_timeout(void (*fn)(void *), void *arg,
			    uint64_t timeout_us, char *why, unsigned size)
{
	char tmp[WHY_LEN];

	if (!why || !size) {
		why = tmp;
		size = sizeof(tmp);
	}
	if (!smp_sibling_ready(why, size))
		return -1;
	return run_checked(fn, arg, timeout_us ? timeout_us : 1, why, size);
}

int smp_sibling_run(void (*fn)(void *), void *arg, char *why,
		    unsigned size)
{
	return smp_sibling_run_timeout(fn, arg, SMP_RUN_TIMEOUT_US, why, size);
}

/* ---- the spinning sibling (smp.h) */

enum spin_state { SPIN_IDLE, SPIN_STARTED, SPIN_SPINNING, SPIN_LEFT };

static volatile int spin_state;
static volatile int spin_stop;

/* Runs on the sibling as the firmware starts it: reads and writes the two
 * flags only. */
static void spin_fn(void *arg)
{
	(void)arg;
	__atomic_store_n(&spin_state, SPIN_SPINNING, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&spin_stop, __ATOMIC_ACQUIRE))
		__asm__ volatile("pause");
	__atomic_store_n(&spin_state, SPIN_LEFT, __ATOMIC_RELEASE);
}

/* How long the BSP waits for the loop to start or for the firmware to
 * report it ended (its check runs from a timer: allow a few periods). */
#define SPIN_WAIT_US (5ull * 1000 * 1000)
#define SPIN_POLLS (1ull << 32)

int smp_sibling_spinning(void)
{
	return spin_state == SPIN_SPINNING;
}

int smp_sibling_spin_start(char *why, unsigned size)
{
	uint64_t polls = 0;

	if (!smp_sibling_ready(why, size))
		return -1;
	if (!smp.fw.start || !smp.fw.join) {
		fmt_snprintf(why, size, "%s offers no non-blocking start",
			     smp.fw.name);
		return -1;
	}
	if (on_sibling || busy || spin_state != SPIN_IDLE) {
		fmt_snprintf(why, size, "the sibling is busy");
		return -1;
	}
	spin_stop = 0;
	spin_state = SPIN_STARTED;
	if (smp.fw.start(smp.sib->index, spin_fn, NULL, SMP_RUN_TIMEOUT_US,
			 why, size)) {
		spin_state = SPIN_IDLE;
		return -1;
	}
	while (__atomic_load_n(&spin_state, __ATOMIC_ACQUIRE) != SPIN_SPINNING
	       && ++polls < SPIN_POLLS)
		__asm__ volatile("pause");
	if (spin_state == SPIN_SPINNING)
		return 0;
	{
		char ignored[WHY_LEN];

		(void)smp_sibling_spin_stop(ignored, sizeof(ignored));
	}
	fmt_snprintf(why, size, "the sibling was started but never spun");
	return -1;
}

int smp_sibling_spin_stop(char *why, unsigned size)
{
	int r;

	if (spin_state == SPIN_IDLE) {
		fmt_snprintf(why, size, "the sibling does not spin");
		return -1;
	}
	__atomic_store_n(&spin_stop, 1, __ATOMIC_RELEASE);
	r = smp.fw.join(SPIN_WAIT_US, why, size);
	spin_state = SPIN_IDLE;
	return r;
}
