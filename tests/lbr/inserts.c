/* lbr/inserts-event: the model-specific event that counts LBR records,
 * against the records the SDM asks for.  Intel SDM Vol. 3B (order no.
 * 253669) chapter 19, each microarchitecture's table: CCH/20H,
 * ROB_MISC_EVENTS.LBR_INSERTS on Sandy Bridge, Ivy Bridge, Haswell,
 * Broadwell and Skylake ("Count cases of saving new LBR records by
 * hardware"), MISC_RETIRED.LBR_INSERTS on Ice Lake and Sapphire Rapids
 * ("Increments when an entry is added to the Last Branch Record (LBR)
 * array"); restated here by DisplayModel (Vol. 4 Table 2-1), not read
 * from the product's table (pmu/perfmon/lbr/events.c).
 *
 * GP counter 0 counts the event at every CPL while the LBRs record every
 * branch: the count is the branches recorded between the LBRs' enabling
 * write and their disabling one.  Under the model that is the
 * benchmark's taken branches (its trace alone, and its formula); under
 * backend=emulated and on hardware the driver's own branches count too,
 * the same in every run: two sizes of the benchmark differ by its
 * formula's branches. */
#include "lbr_test.h"
#include "../../pmu/evtsel.h"

static const int16_t sdm_models[] = {
	0x2a, 0x2d, 0x3a, 0x3e,			/* Sandy Bridge, Ivy Bridge */
	0x3c, 0x3f, 0x45, 0x46, 0x3d, 0x47, 0x4f, 0x56, /* Haswell, Broadwell */
	0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6, 0x66, /* Skylake's */
	0x7d, 0x7e, 0x6a, 0x6c, 0x8f, -1,	/* Ice Lake, Sapphire Rapids */
};

static int sdm_has_inserts(const struct cpu_sig *s)
{
	if (s->family != 6)
		return 0;
	for (unsigned i = 0; sdm_models[i] >= 0; i++)
		if ((unsigned)sdm_models[i] == s->model)
			return 1;
	return 0;
}

#define SDM_LBR_INSERTS (0xccull | 0x20ull << 8)

static int count_run(struct lbr_env *v, const struct bench *b, uint64_t n,
		     uint64_t *count)
{
	static const struct lbr_filter every = {
		.cpls = PMU_CPLS_ALL, .branches = LBR_BR_ALL,
	};
	struct pmu_config cfg = { .sel = SDM_LBR_INSERTS | EVTSEL_USR |
					 EVTSEL_OS | EVTSEL_EN };
	trace_sink sink = backend_current()->sink;
	struct fault f = { 0 };
	struct pmu_err e;
	int rc;

	if (!check(v->t, v->d->program(0, &cfg, &e) == 0, "program: %s",
		   e.msg) ||
	    !check(v->t, v->d->reset(0, 0, &e) == 0, "reset: %s", e.msg) ||
	    !check(v->t, lbr_clear(&v->l, &e) == 0, "clear: %s", e.msg))
		return 0;
	v->tr = (struct lbr_trace){ .model = sink };
	rc = v->d->start(0, &e) || lbr_enable(&v->l, &every, &e);
	if (!rc)
		rc = 2 * !!bench_exec(b, n, 3, NULL, sink ? lbr_sink : NULL,
				      &v->tr, &f);
	rc |= 4 * !!lbr_disable(&v->l, &e);
	rc |= 8 * !!v->d->stop(0, &e);
	return check(v->t, rc == 0, "run: %d (%s; vector %u)", rc, e.msg,
		     f.vector) &&
	       check(v->t, v->d->read(0, count, &e) == 0, "read: %s", e.msg);
}

/* Hardware and backend=emulated: the harness's own branches between the
 * writes are the same in two runs of two sizes, so the counts differ by
 * the benchmark's branches alone (nanoBench's two sizes); silicon may
 * add an interrupt's records (noise.h): 2 of slack there. */
static void two_sizes(struct tcase *t, struct lbr_env *v, const struct bench *b)
{
	uint64_t c12 = 0, c4 = 0;
	int64_t want = bench_expect(b, SEM_TAKEN, 12) -
		       bench_expect(b, SEM_TAKEN, 4), got, slack;

	if (!count_run(v, b, 12, &c12) || !count_run(v, b, 4, &c4))
		return;
	got = (int64_t)c12 - (int64_t)c4;
	slack = backend_current()->id == BE_EMULATED ? 0 : 2;
	value(t, "lbr_inserts", "%llu - %llu (call-ret n=12 and n=4 at CPL "
	      "3, backend=%s)", (unsigned long long)c12,
	      (unsigned long long)c4, backend_current()->name);
	check(t, got >= want - slack && got <= want + slack, "CCH/20H "
	      "counted %lld more at n=12 than at n=4; the benchmark takes "
	      "%lld more branches (the formulas), +-%lld", (long long)got,
	      (long long)want, (long long)slack);
}

static void test_inserts(struct tcase *t)
{
	const struct bench *b = bench_find("call-ret");
	struct lbr_env v;
	uint64_t count = 0;

	if (!lbr_begin(t, &v))
		goto out;
	if (!sdm_has_inserts(&cpu_info()->sig)) {
		skip(t, "no LBR insert event: the SDM's event tables give "
		     "CCH/20H to Sandy Bridge to Skylake, Ice Lake and "
		     "Sapphire Rapids only");
		goto out;
	}
	if (!check(t, b != NULL, "no call-ret") || !need_bench_data(t, b))
		goto out;
	if (!pmu_on_model()) {
		two_sizes(t, &v, b);
		goto out;
	}
	if (!count_run(&v, b, 12, &count))
		goto out;
	value(t, "lbr_inserts", "%llu (call-ret n=12 cpl=3, %u branches "
	      "traced)", (unsigned long long)count, v.tr.n);
	check(t, count == v.tr.n && (int64_t)v.tr.n ==
	      bench_expect(b, SEM_TAKEN, 12), "CCH/20H counted %llu; the "
	      "trace took %u branches, the formula %lld",
	      (unsigned long long)count, v.tr.n,
	      (long long)bench_expect(b, SEM_TAKEN, 12));
out:
	lbr_end(&v);
}

TEST(lbr_inserts_event, "lbr/inserts-event",
     "CCH/20H LBR_INSERTS: one per record the LBRs took", test_inserts, 0);
