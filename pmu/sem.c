/* sem: a traced step as counts (see sem.h).  Pure logic: host-tested. */
#include "sem.h"

static int retired_branch(const struct insn_event *e)
{
	return e->retired && (e->flags & DEC_BRANCH);
}

uint64_t sem_once(enum sem s, const struct insn_event *e)
{
	switch (s) {
	case SEM_INSTRUCTIONS:	return e->retired;
	case SEM_BRANCHES:	return retired_branch(e);
	case SEM_TAKEN:		return retired_branch(e) &&
				       (e->flags & EV_TAKEN);
	case SEM_COND:		return retired_branch(e) &&
				       (e->flags & DEC_COND);
	case SEM_CALLS:		return retired_branch(e) &&
				       (e->flags & DEC_CALL);
	case SEM_RETURNS:	return retired_branch(e) &&
				       (e->flags & DEC_RET);
	case SEM_FAR:		return e->retired && (e->flags & DEC_FAR);
	case SEM_LOADS:		return e->loads;
	case SEM_STORES:	return e->stores;
	case SEM_SEGLOADS:	return e->retired && (e->flags & DEC_SEGLOAD);
	case SEM_CLOCKS:	return 1;
	case SEM_REF_CLOCKS:	return SEM_REF_PER_CLOCK;
	default:		return 0;
	}
}

uint64_t sem_step(enum sem s, const struct insn_event *e)
{
	return sem_once(s, e) * (1 + (uint64_t)e->more);
}

uint64_t sem_steps_with(enum sem s, const struct insn_event *e)
{
	return sem_once(s, e) ? 1 + (uint64_t)e->more : 0;
}

uint64_t sem_once_mask(uint32_t mask, const struct insn_event *e)
{
	uint64_t n = 0;

	for (unsigned s = 0; s < SEM_NR; s++)
		if (mask & SEM_BIT(s))
			n += sem_once((enum sem)s, e);
	return n;
}

uint64_t sem_step_mask(uint32_t mask, const struct insn_event *e)
{
	return sem_once_mask(mask, e) * (1 + (uint64_t)e->more);
}

uint64_t sem_sum(uint32_t mask, const uint64_t *counts)
{
	uint64_t n = 0;

	for (unsigned s = 0; s < SEM_NR; s++)
		if (mask & SEM_BIT(s))
			n += counts[s];
	return n;
}

const char *sem_name(enum sem s)
{
	static const char *const names[SEM_NR] = {
		[SEM_INSTRUCTIONS] = "instructions",
		[SEM_BRANCHES] = "branches",
		[SEM_TAKEN] = "taken",
		[SEM_COND] = "cond",
		[SEM_CALLS] = "calls",
		[SEM_RETURNS] = "returns",
		[SEM_FAR] = "far",
		[SEM_LOADS] = "loads",
		[SEM_STORES] = "stores",
		[SEM_SEGLOADS] = "segloads",
		[SEM_CLOCKS] = "clocks",
		[SEM_REF_CLOCKS] = "ref_clocks",
	};

	return (unsigned)s < SEM_NR ? names[s] : "?";
}
