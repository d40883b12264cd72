/* pmu/perfmon/bts/model.c: Branch Trace Store records of the
 * arch-perfmon reference model (model.h).
 *
 * Citations: Intel SDM Vol. 3B, order no. 253669-060US: §17.4.1
 * (IA32_DEBUGCTL, Figure 17-3: TR bit 6, BTS bit 7, BTINT bit 8,
 * BTS_OFF_OS bit 9, BTS_OFF_USR bit 10), §17.4.5 "Branch Trace Store
 * (BTS)", §17.4.9 "BTS and DS Save Area" (the BTS record, Figure 17-5;
 * the 64-bit one, §17.4.9.1, Figure 17-6), §17.4.9.3 "Setting Up the BTS
 * Buffer" (circular buffer when BTINT is clear, interrupt at the
 * threshold when it is set), §17.4.9.4 "Setting Up CPL-Qualified BTS".
 *
 * What is a branch here: ds_model_branch() (pmu/perfmon/ds/model.h), the
 * one rule BTS and the LBRs share - a retired near branch the trace marks taken (SEM_TAKEN) or a
 * far transfer the decoder names (SEM_FAR: INT n, IRET, far CALL/JMP/RET,
 * SYSCALL ...).  A Jcc not taken is no branch record.
 *
 * The record {from, to, flags}: from is the branch's own address and to
 * its target, as the trace gives them; flags bit 4 (the branch was
 * predicted) is left 0: the model has no branch predictor.  The model
 * feeds trace_run's events one step each (never aggregated ones).
 *
 * The DS area's fields are read from memory at each branch, as the
 * processor does.  A record is written only where all of it lies in
 * [base, max) and the live page tables map it writable. */
#include "model.h"
#include "../ds/model.h"
#include "../ds/regs.h"
#include "../../emufault.h"
#include "../../../arch/x86/paging.h"
#include "../../../lib/string.h"

#define BTS_CONTROL (DEBUGCTL_TR | DEBUGCTL_BTS)

/* BTS_OFF_OS: none at CPL 0; BTS_OFF_USR: none at CPL 1-3 (§17.4.9.4). */
static int bts_cpl_on(uint64_t debugctl, unsigned cpl)
{
	return !(debugctl & (cpl ? DEBUGCTL_BTS_OFF_USR : DEBUGCTL_BTS_OFF_OS));
}

/* Does a record at addr lie in [base, max) and is it mapped writable? */
static int bts_fits(const struct ds_buffer *b, uint64_t addr, unsigned rec)
{
	return addr >= b->base && addr <= b->max && b->max - addr >= rec &&
	       ds_reachable(addr, rec) && paging_range_writable(addr, rec);
}

/* One field of a record: 8 bytes (64-bit format) or 4 (32-bit). */
static void put_field(uint64_t addr, uint64_t v, unsigned size)
{
	uint32_t v32 = (uint32_t)v;

	if (size == 8)
		memcpy((void *)(uintptr_t)addr, &v, 8);
	else
		memcpy((void *)(uintptr_t)addr, &v32, 4);
}

static void bts_write(uint64_t addr, const struct bts_record *r,
		      const struct ds_layout *l)
{
	unsigned f = l->field_size;

	put_field(addr, r->from, f);
	put_field(addr + f, r->to, f);
	put_field(addr + 2 * f, r->flags, f);
}

static void bts_buffer(const void *area, const struct ds_layout *l,
		       struct ds_buffer *b)
{
	b->base = ds_get(area, l, DS_BTS_BASE);
	b->index = ds_get(area, l, DS_BTS_INDEX);
	b->max = ds_get(area, l, DS_BTS_MAX);
	b->thresh = ds_get(area, l, DS_BTS_THRESH);
}

/*
 * Where the next record goes: at the index when it fits; else, with
 * BTINT clear, at the base (the circular buffer wraps); with BTINT set
 * nowhere (the buffer is full: the record is dropped).  Returns 0 with
 * *at, or -1.
 */
static int bts_slot(const struct ds_buffer *b, uint64_t debugctl,
		    unsigned rec, uint64_t *at)
{
	if (bts_fits(b, b->index, rec)) {
		*at = b->index;
		return 0;
	}
	if ((debugctl & DEBUGCTL_BTINT) || !bts_fits(b, b->base, rec))
		return -1;
	*at = b->base;
	return 0;
}

int bts_model_step(const struct insn_event *e, uint64_t debugctl)
{
	const struct ds_layout *l;
	struct ds_buffer b;
	struct bts_record r;
	uint64_t at;
	void *area;

	if ((debugctl & BTS_CONTROL) != BTS_CONTROL || !ds_model_branch(e) ||
	    !bts_cpl_on(debugctl, e->cpl))
		return 0;
	area = ds_model_area(&l);
	if (!area)
		return 0;
	bts_buffer(area, l, &b);
	if (bts_slot(&b, debugctl, l->bts_record, &at))
		return 0;
	r = (struct bts_record){ .from = e->rip, .to = e->next_rip,
				 .flags = 0 };
	if (emufault_on(EF_BTS_SWAPPED))
		r = (struct bts_record){ .from = e->next_rip, .to = e->rip };
	bts_write(at, &r, l);
	b.index = at + l->bts_record;
	ds_put(area, l, DS_BTS_INDEX, b.index);
	return (debugctl & DEBUGCTL_BTINT) && b.index >= b.thresh;
}
