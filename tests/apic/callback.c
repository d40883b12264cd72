/* apic/pmi-callback-rearm: what a PMU driver's handler sees and does.
 * The callback finds the LVTPC already masked (the APIC masks it when it
 * handles the PMI: SDM Vol. 3A §10.5.1 Mask, Vol. 3B §17.4.9.5 "The ISR
 * must clear the mask bit"), unmasks it, and - as a second counter
 * overflowing in the handler would - raises another PMI.  That NMI waits
 * until the handler's IRET (NMIs are blocked until then, Vol. 3A §6.7.1)
 * and is taken at the same boundary, never nested. */
#include "../../harness/pmi_run.h"
#include "../../arch/x86/apic.h"
#include "apic_test.h"

#define CALLS 4

struct seen {
	unsigned calls, depth, max_depth;
	uint32_t lvtpc[CALLS];		/* as the callback found it */
	uint64_t frame_rip[CALLS];
	int second;			/* deliver's return in call 1 */
};

static void callback(const struct pmi_record *r, void *ctx)
{
	struct seen *s = ctx;
	unsigned i = s->calls++;

	if (++s->depth > s->max_depth)
		s->max_depth = s->depth;
	if (i < CALLS) {
		s->lvtpc[i] = apic_lvtpc();
		s->frame_rip[i] = r->frame_rip;
	}
	apic_set_lvtpc(apic_lvtpc() & ~SDM_LVT_MASK);	/* re-arm */
	if (r->seq == 1)
		s->second = apic_lvtpc_deliver(1);
	s->depth--;
}

static void fire(void *arg)
{
	pmi_set_callback(callback, arg);
	(void)apic_fire(1);
}

static void test_rearm(struct tcase *t)
{
	struct seen s = { 0 };
	struct fault f;
	int rc;

	if (!apic_ready(t))
		return;
	rc = pmi_run(PMI_PATH_NMI, fire, &s, &f);
	value(t, "callbacks", "%u", s.calls);
	value(t, "max_depth", "%u", s.max_depth);
	value(t, "lvtpc_seen", "0x%x 0x%x", s.lvtpc[0], s.lvtpc[1]);
	value(t, "frame_rips", "0x%llx 0x%llx",
	      (unsigned long long)s.frame_rip[0],
	      (unsigned long long)s.frame_rip[1]);
	value(t, "pmis", "%llu", (unsigned long long)pmi_count());
	if (!check(t, rc == 0, "pmi_run returned %d (vector %u)", rc,
		   rc == 1 ? f.vector : 0))
		return;
	check(t, s.calls == 2 && pmi_count() == 2, "%u callbacks, %llu PMIs; "
	      "expected 2 and 2", s.calls, (unsigned long long)pmi_count());
	check(t, s.second == 1, "the PMI raised in the handler: deliver "
	      "returned %d, expected 1", s.second);
	check(t, (s.lvtpc[0] & SDM_LVT_MASK) && (s.lvtpc[1] & SDM_LVT_MASK),
	      "the handler found LVTPC 0x%x, 0x%x: not masked on delivery",
	      s.lvtpc[0], s.lvtpc[1]);
	check(t, s.max_depth == 1, "handler nested %u deep: the second NMI "
	      "did not wait for IRET", s.max_depth);
	check(t, s.frame_rip[1] == s.frame_rip[0], "the second NMI "
	      "interrupted 0x%llx, the first 0x%llx: expected the same "
	      "boundary", (unsigned long long)s.frame_rip[1],
	      (unsigned long long)s.frame_rip[0]);
}

TEST(apic_pmi_rearm, "apic/pmi-callback-rearm",
     "the PMI callback finds LVTPC masked, re-arms it, and a PMI raised "
     "in the handler waits for its IRET", test_rearm, 0);
