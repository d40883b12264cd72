/* tests/pebs/pebs_tolerance.c: PEBS's one hardware tolerance (docs/pebs.md
 * "On hardware"), which every record test applies on backend=hw and no
 * other backend does: the model and backend=emulated hold records
 * exactly (docs/emulators.md "Exact under emulation"). */
#include "pebs_test.h"
#include "../../arch/x86/ring3.h"

/* Where a hardware record's eventing instruction may be: in the
 * benchmark; in a CPL 3 run also the ring-3 trampoline's CALL and INT,
 * which retire at CPL 3 around it (arch/x86/ring3.h); in a CPL 0 run
 * anywhere in the harness's code, whose CPL 0 instructions between the
 * counters' start and stop count too (harness/pmu_run.h, the driver's
 * CPL 0 code). */
extern const char _text[], _etext[];

static int hw_eventing_ip_ok(const struct pebs_run *r, uint64_t ip)
{
	if (ip >= r->range_lo && ip < r->range_hi)
		return 1;
	if (r->cpl)
		return ring3_trampoline_has(ip);
	return ip >= (uintptr_t)_text && ip < (uintptr_t)_etext;
}

/* The eventing IP's offset: the basic group's IP (formats 4-5, the
 * adaptive record), else the format 2-3 EventingIP field. */
static unsigned eventing_ip_offset(unsigned fmt)
{
	return fmt >= 4 ? 0x08 : (unsigned)sdm_pebs_offset(fmt, S_EIP);
}

void pebs_check_hw(struct tcase *t, const struct pebs_run *r, unsigned fmt,
		   unsigned size, unsigned expected)
{
	uint64_t got = (r->index - r->base) / size;
	uint64_t slack = expected / 8 + 2;

	value(t, "tolerance", "hardware: skid and, before format 3, records "
	      "for several counters at once: count at least the trace's "
	      "less %llu, at most the capacity; eventing IPs in the "
	      "benchmark (docs/pebs.md)",
	      (unsigned long long)slack);
	check(t, got + slack >= expected && got <= r->capacity, "%llu "
	      "records, the trace asks for %u",
	      (unsigned long long)got, expected);
	for (unsigned i = 0; i < got && fmt >= 2 && !pebs_ds32(); i++) {
		uint64_t ip = pebs_run_field(r, i, eventing_ip_offset(fmt));

		check(t, hw_eventing_ip_ok(r, ip), "record %u eventing IP "
		      "0x%llx outside the benchmark%s", i,
		      (unsigned long long)ip, r->cpl ? " and the ring-3 "
		      "trampoline" : " and the harness's code");
	}
}
