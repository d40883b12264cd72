/* pmu/perfmon/driver.c: the architectural performance monitoring
 * driver, versions 1 to 5 (driver.h), one ops table whose behaviour
 * follows the version of the capabilities in force (caps.h).  Every
 * register access goes through pmu/backend.h.
 *
 * Counters: GP counters 0..gp-1, then the fixed counters (driver.h).
 * Two enables gate a counter from v2 on: its own (PerfEvtSel.EN, a
 * FIXED_CTR_CTRL field) and its IA32_PERF_GLOBAL_CTRL bit.  program()
 * leaves the counter stopped, cleared, its event written with EN clear
 * (a fixed counter's field 0); start() sets its own enable, then its
 * GLOBAL_CTRL bit; stop() clears them in the opposite order.  The driver
 * keeps shadows of GLOBAL_CTRL and FIXED_CTR_CTRL, which hold the bits of
 * several counters. */
#include "driver.h"
#include "caps.h"
#include "ds/format.h"
#include "events.h"
#include "regs.h"
#include "../pt/caps.h"
#include "../detect.h"
#include "../../lib/fmt.h"

/* ---- counters */

static struct {
	const struct perfmon_caps *c;
	uint64_t global_ctrl, fixed_ctrl;
	uint64_t fixed_extra;	/* perfmon_fixed_ctrl_extra() */
	uint8_t pending_field[PERFMON_MAX_FIXED];
	uint64_t evtsel[PERFMON_MAX_GP];	/* as programmed, EN clear */
	int ready;
} st;

unsigned perfmon_fixed_ctr(unsigned i)
{
	const struct perfmon_caps *c = perfmon_caps(0);

	return (c ? c->gp : 0) + i;
}

int perfmon_is_fixed(unsigned ctr, unsigned *i)
{
	const struct perfmon_caps *c = perfmon_caps(0);
	unsigned gp = c ? c->gp : 0;

	if (ctr < gp)
		return 0;
	*i = ctr - gp;
	return 1;
}

static uint64_t width_mask(unsigned bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static int write_global(struct pmu_err *e)
{
	if (st.c->version < 2)
		return 0;
	return pmu_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, st.global_ctrl, "GLOBAL_CTRL",
		  e);
}

static int write_fixed_ctrl(struct pmu_err *e)
{
	return pmu_wrmsr(MSR_IA32_FIXED_CTR_CTRL, st.fixed_ctrl | st.fixed_extra,
			 "FIXED_CTR_CTRL", e);
}

int perfmon_fixed_ctrl_extra(uint64_t bits, struct pmu_err *e)
{
	uint64_t fields = 0;

	if (!st.ready)
		return pmu_fail(e, 0, "the driver is not initialised");
	for (unsigned i = 0; i < PERFMON_MAX_FIXED; i++)
		fields |= 0xfull << (FIXED_CTRL_BITS * i);
	if (bits & fields)
		return pmu_fail(e, 0, "FIXED_CTR_CTRL bits 0x%llx are the "
				"counters' own fields",
				(unsigned long long)(bits & fields));
	st.fixed_extra = bits;
	return write_fixed_ctrl(e);
}

/* A clean PMU: every counter disabled, no overflow status left. */
static int perfmon_init(struct pmu_err *e)
{
	const char *why = 0;

	st.ready = 0;
	st.c = perfmon_caps(&why);
	if (!st.c)
		return pmu_fail(e, 0, "no capabilities: %s", why);
	st.global_ctrl = st.fixed_ctrl = st.fixed_extra = 0;
	for (unsigned n = 0; n < st.c->gp; n++) {
		st.evtsel[n] = 0;
		if (pmu_wrmsr(MSR_IA32_PERFEVTSEL(n), 0, "PERFEVTSEL", e))
			return -1;
	}
	if (st.c->version >= 2 &&
	    (write_global(e) || write_fixed_ctrl(e) ||
	     pmu_wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, perfmon_status_bits(st.c),
		st.c->version >= 4 ? "GLOBAL_STATUS_RESET" :
		"GLOBAL_OVF_CTRL", e)))
		return -1;
	st.ready = 1;
	return 0;
}

static int check_ctr(unsigned ctr, struct pmu_err *e)
{
	unsigned i;

	if (!st.ready)
		return pmu_fail(e, 0, "perfmon driver not initialized");
	if (!perfmon_is_fixed(ctr, &i))
		return 0;
	if (!perfmon_fixed_exists(st.c, i))
		return pmu_fail(e, 0, "counter %u (fixed counter %u) does not "
				"exist: %u GP counters, fixed mask 0x%x", ctr,
				i, st.c->gp, st.c->fixed_mask);
	return 0;
}

/* Why a PerfEvtSel value cannot be programmed, or NULL. */
static const char *evtsel_refusal(uint64_t sel, char *buf, unsigned size)
{
	struct evtsel s = evtsel_decode(sel);
	const struct perfmon_event *ev = perfmon_event_of(st.c, s.event,
							  s.umask);
	uint64_t bad = sel & ~perfmon_evtsel_valid(st.c);

	if (bad & EVTSEL_ANY) {
		fmt_snprintf(buf, size, "AnyThread (bit 21) %s", st.c->version
			     < 3 ? "needs architectural perfmon v3" :
			     "is deprecated (CPUID.0AH:EDX[15])");
		return buf;
	}
	if (bad) {
		fmt_snprintf(buf, size, "reserved PerfEvtSel bits 0x%llx",
			     (unsigned long long)bad);
		return buf;
	}
	if (ev && !perfmon_event_available(st.c, ev->arch)) {
		fmt_snprintf(buf, size, "%s (event 0x%02x umask 0x%02x) is not "
			     "available: %s", ev->name, ev->event, ev->umask,
			     (unsigned)ev->arch >= st.c->ebx_len ?
			     "beyond CPUID.0AH:EAX[31:24]" :
			     "its CPUID.0AH:EBX bit is set");
		return buf;
	}
	return 0;
}

static int gp_stop(unsigned n, struct pmu_err *e)
{
	st.global_ctrl &= ~(1ull << n);
	if (write_global(e))
		return -1;
	return pmu_wrmsr(MSR_IA32_PERFEVTSEL(n), st.evtsel[n], "PERFEVTSEL", e);
}

static int fixed_stop(unsigned i, struct pmu_err *e)
{
	st.global_ctrl &= ~(1ull << (GLOBAL_FIXED_SHIFT + i));
	if (write_global(e))
		return -1;
	st.fixed_ctrl &= ~(0xfull << (FIXED_CTRL_BITS * i));
	return write_fixed_ctrl(e);
}

static int perfmon_stop(unsigned ctr, struct pmu_err *e)
{
	unsigned i;

	if (check_ctr(ctr, e))
		return -1;
	return perfmon_is_fixed(ctr, &i) ? fixed_stop(i, e) : gp_stop(ctr, e);
}

static int perfmon_start(unsigned ctr, struct pmu_err *e)
{
	unsigned i;

	if (check_ctr(ctr, e))
		return -1;
	if (perfmon_is_fixed(ctr, &i)) {
		st.fixed_ctrl |= (uint64_t)st.pending_field[i] <<
				 (FIXED_CTRL_BITS * i);
		if (write_fixed_ctrl(e))
			return -1;
		st.global_ctrl |= 1ull << (GLOBAL_FIXED_SHIFT + i);
		return write_global(e);
	}
	if (pmu_wrmsr(MSR_IA32_PERFEVTSEL(ctr), st.evtsel[ctr] | EVTSEL_EN,
	       "PERFEVTSEL", e))
		return -1;
	st.global_ctrl |= 1ull << ctr;
	return write_global(e);
}

static int perfmon_read(unsigned ctr, uint64_t *v, struct pmu_err *e)
{
	unsigned i;

	if (check_ctr(ctr, e))
		return -1;
	if (perfmon_is_fixed(ctr, &i))
		return pmu_rdmsr(MSR_IA32_FIXED_CTR(i), v, "FIXED_CTR", e);
	return pmu_rdmsr(MSR_IA32_PMC(ctr), v, "PMC", e);
}

/* A preset: full width through IA32_A_PMCx where PERF_CAPABILITIES says
 * so; else through IA32_PMCx, which takes EAX sign-extended (SDM Vol. 3B
 * §18.2.6), so only values whose bits above 31 all equal bit 31 can be
 * written. */
static int perfmon_reset(unsigned ctr, uint64_t v, struct pmu_err *e)
{
	uint64_t mask, sext;
	unsigned i;

	if (check_ctr(ctr, e))
		return -1;
	if (perfmon_is_fixed(ctr, &i)) {
		if (v & ~width_mask(st.c->fixed_width))
			return pmu_fail(e, 0, "0x%llx does not fit the %u-bit "
					"fixed counter %u",
					(unsigned long long)v,
					st.c->fixed_width, i);
		return pmu_wrmsr(MSR_IA32_FIXED_CTR(i), v, "FIXED_CTR", e);
	}
	mask = width_mask(st.c->gp_width);
	if (v & ~mask)
		return pmu_fail(e, 0, "0x%llx does not fit the %u-bit PMC%u",
				(unsigned long long)v, st.c->gp_width, ctr);
	if (perfmon_full_width(st.c))
		return pmu_wrmsr(MSR_IA32_A_PMC(ctr), v, "A_PMC", e);
	sext = (uint64_t)(int64_t)(int32_t)(uint32_t)v & mask;
	if (sext != v)
		return pmu_fail(e, 0, "0x%llx cannot be preset without "
				"full-width writes (IA32_PERF_CAPABILITIES bit 13 "
				"clear): IA32_PMC%u takes bit 31 sign-extended",
				(unsigned long long)v, ctr);
	return pmu_wrmsr(MSR_IA32_PMC(ctr), (uint32_t)v, "PMC", e);
}

static int gp_program(unsigned n, uint64_t sel, struct pmu_err *e)
{
	char why[120];
	const char *no;

	sel &= ~EVTSEL_EN;
	no = evtsel_refusal(sel, why, sizeof(why));
	if (no)
		return pmu_fail(e, 0, "PMC%u: %s", n, no);
	if (gp_stop(n, e) || perfmon_reset(n, 0, e))
		return -1;
	st.evtsel[n] = sel;
	return pmu_wrmsr(MSR_IA32_PERFEVTSEL(n), sel, "PERFEVTSEL", e);
}

static int fixed_program(unsigned i, uint64_t field, struct pmu_err *e)
{
	uint64_t valid = perfmon_fixed_ctrl_valid(st.c) >> (FIXED_CTRL_BITS * i);

	if (field & ~(valid & 0xf))
		return pmu_fail(e, 0, "fixed counter %u: FIXED_CTR_CTRL field "
				"0x%llx sets bits this PMU reserves (valid "
				"0x%llx%s)", i, (unsigned long long)field,
				(unsigned long long)(valid & 0xf),
				perfmon_any_allowed(st.c) ? "" :
				", no AnyThread");
	if (fixed_stop(i, e) || perfmon_reset(perfmon_fixed_ctr(i), 0, e))
		return -1;
	st.pending_field[i] = (uint8_t)field;
	return 0;
}

static int perfmon_program(unsigned ctr, const struct pmu_config *c,
			   struct pmu_err *e)
{
	unsigned i;

	if (check_ctr(ctr, e))
		return -1;
	if (c->aux)
		return pmu_fail(e, 0, "aux 0x%llx: unused by this PMU",
				(unsigned long long)c->aux);
	if (perfmon_is_fixed(ctr, &i))
		return fixed_program(i, c->sel, e);
	return gp_program(ctr, c->sel, e);
}

/* ---- configs and their meaning */

/* The OS and USR bits whose classes hold the CPLs of cpls (driver.h):
 * a request of CPL 3 gets USR, which counts CPL 1 and 2 as well. */
static uint64_t cpl_bits(unsigned cpls, uint64_t os, uint64_t usr)
{
	return (pmu_cpls_want_os(cpls) ? os : 0) |
	       (pmu_cpls_want_usr(cpls) ? usr : 0);
}

static int perfmon_event_config(enum sem s, unsigned ctr, unsigned cpls,
				struct pmu_config *c)
{
	const struct perfmon_caps *caps = perfmon_caps(0);
	unsigned i;

	if (!caps || !pmu_cpls_valid(cpls))
		return -1;
	if (perfmon_is_fixed(ctr, &i)) {
		const struct perfmon_event *ev = perfmon_fixed_event(i);

		if (!perfmon_fixed_exists(caps, i) || !ev ||
		    ev->sem != SEM_BIT(s))
			return -1;
		*c = (struct pmu_config){ cpl_bits(cpls, FIXED_CTRL_OS,
						   FIXED_CTRL_USR), 0 };
		return 0;
	}
	for (unsigned k = 0; k < ARCH_EV_NR; k++) {
		const struct perfmon_event *ev = &perfmon_arch_events[k];

		if (ev->sem == SEM_BIT(s) && perfmon_event_available(caps, k)) {
			*c = (struct pmu_config){ ev->event | (uint64_t)
				ev->umask << EVTSEL_UMASK_SHIFT |
				cpl_bits(cpls, EVTSEL_OS, EVTSEL_USR), 0 };
			return 0;
		}
	}
	return -1;
}

/* OS counts at CPL 0, USR at CPL 1, 2 and 3 (SDM Vol. 3B 18.2.1.1,
 * 18.2.2; the CPL sets of driver.h).  A counter mask or edge detect makes
 * the count no sum of the trace's counts (tests/perfmon/evtsel_sdm.h says what it is). */
static int perfmon_config_counts(const struct pmu_config *c, unsigned ctr,
				 uint32_t *sem_mask, unsigned *cpls)
{
	const struct perfmon_event *ev;
	struct evtsel s;
	unsigned i;

	if (perfmon_is_fixed(ctr, &i)) {
		ev = perfmon_fixed_event(i);
		*cpls = pmu_os_usr_cpls(!!(c->sel & FIXED_CTRL_OS),
					!!(c->sel & FIXED_CTRL_USR));
		*sem_mask = ev ? ev->sem : 0;
		return ev ? 0 : -1;
	}
	s = evtsel_decode(c->sel);
	ev = perfmon_event_of(st.c, s.event, s.umask);
	*cpls = pmu_os_usr_cpls(s.os, s.usr);
	*sem_mask = ev && !s.cmask && !s.edge ? ev->sem : 0;
	return 0;
}

static void perfmon_config_name(const struct pmu_config *c, char *buf,
				unsigned size)
{
	const struct perfmon_event *ev;
	char sel[96];

	/* A config does not carry its counter: a value that fits a fixed
	 * field is named both ways. */
	ev = perfmon_event_of(st.c, c->sel & 0xff, c->sel >> 8 & 0xff);
	evtsel_name(c->sel, sel, sizeof(sel));
	if (c->sel <= 0xf)
		fmt_snprintf(buf, size, "fixed field 0x%llx (%s%s%s%s) / %s",
			     (unsigned long long)c->sel,
			     c->sel & FIXED_CTRL_OS ? "os " : "",
			     c->sel & FIXED_CTRL_USR ? "usr " : "",
			     c->sel & FIXED_CTRL_ANY ? "any " : "",
			     c->sel & FIXED_CTRL_PMI ? "pmi" : "", sel);
	else
		fmt_snprintf(buf, size, "%s (%s)", sel,
			     ev ? ev->name : "model-specific");
}

static void perfmon_shape(const struct cpu_info *ci, struct pmu_shape *s)
{
	const struct perfmon_caps *c = perfmon_caps(0);
	unsigned top = 0;

	(void)ci;
	*s = (struct pmu_shape){ 0, 0, 0 };
	if (!c)
		return;
	for (unsigned i = 0; i < PERFMON_MAX_FIXED; i++)
		if (perfmon_fixed_exists(c, i))
			top = i + 1;
	s->counters = c->gp + top;
	s->width = c->gp_width;
	s->fixed = c->fixed_mask << c->gp;
}

static unsigned count_bits(uint32_t v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* Where Intel PT capabilities come from (pmu/pt/caps.c): CPUID leaf 14H
 * where CPUID.07H:EBX[25] is set, else the capability row the model
 * stands in with (the line is written before the backend is chosen). */
static const char *pt_source(const struct cpu_info *ci)
{
	const struct pt_caps_row *row;

	if (ci->f7_ebx & CPUID7_EBX_PT)
		return "cpuid";
	row = pt_caps_row_for(ci->sig.family, ci->sig.model);
	return row ? row->caps.source : "none";
}

static void perfmon_describe(const struct cpu_info *ci, char *buf,
			     unsigned size)
{
	const char *why = 0;
	const struct perfmon_caps *c = perfmon_caps(&why);

	if (!c) {
		fmt_snprintf(buf, size, "caps=none reason=\"%s\"", why);
		return;
	}
	/* ds=64|32: the DS save area and PEBS record layout in use: 64 in
	 * IA-32e mode (the x86-64 build) and where CPUID.01H:ECX.DTES64 is
	 * set, else 32 (SDM Vol. 3B, order no. 253669-060US, §17.4.9.1 "64
	 * Bit Format of the DS Save Area"; pmu/perfmon/ds/format.h). */
	fmt_snprintf(buf, size, "caps=%s version=%u counters=%u width=%u "
		     "fixed=%u fixed_width=%u fixed_mask=0x%x ebx_len=%u "
		     "events_unavailable=0x%x any_thread=%s "
		     "perf_capabilities=%s0x%llx full_width=%s pebs_format=%u "
		     "pebs_trap=%d ds=%d pt=%s",
		     c->source, c->version, c->gp, c->gp_width,
		     count_bits(c->fixed_mask), c->fixed_width,
		     c->fixed_mask, c->ebx_len, c->events_unavail,
		     perfmon_any_allowed(c) ? "yes" : c->any_deprecated ?
		     "deprecated" : "no", c->has_perf_caps ? "" : "absent/",
		     (unsigned long long)c->perf_caps,
		     perfmon_full_width(c) ? "yes" : "no",
		     perfmon_pebs_format(c), perfmon_pebs_trap(c),
		     perfmon_ds64() ? 64 : 32, pt_source(ci));
}

const struct pmu_driver perfmon_driver = {
	.kind = PMU_ARCH,
	.name = "arch-perfmon",
	.shape = perfmon_shape,
	.describe = perfmon_describe,
	.init = perfmon_init,
	.program = perfmon_program,
	.start = perfmon_start,
	.stop = perfmon_stop,
	.read = perfmon_read,
	.reset = perfmon_reset,
	.event_config = perfmon_event_config,
	.config_counts = perfmon_config_counts,
	.config_name = perfmon_config_name,
};
