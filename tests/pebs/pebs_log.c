/* tests/pebs/pebs_log.c: what a PEBS run puts in the test's YAML block,
 * so that a validation engineer can diff a real machine's records
 * against the model's (docs/pebs.md, "Records in the log"):
 *   - the values the run used, read after any stand-in replaced the
 *     asked ones: on the adaptive formats the IA32_PEBS_DATA_CFG read
 *     back and the record size its groups imply;
 *   - records 0, 1 and the last one written (by the index), each field
 *     a key record<i>_<field>, named after the SDM's record layout
 *     (pebs_test.h), instruction addresses as <benchmark>+0xNN where
 *     they fall in a benchmark's code (bench_addr_str), else hex.
 * The keys are the ones pebs/arming-next-event pins (record0_ip,
 * record0_rax, ...). */
#include "pebs_test.h"
#include "../../bench/bench.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

/* Formats 0-3 fields by key (SDM Vol. 3B, order no. 253669-060US,
 * Table 18-23, Table 18-44, Table 18-55; offset 90H is
 * IA32_PERF_GLOBAL_STATUS for formats 1-2, "Applicable Counters" for
 * format 3).  The 32-bit DS record (§17.4.9) names its 4-byte fields
 * by their 32-bit registers. */
static const char *const key64[S_NR] = {
	"rflags", "ip", "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp",
	"rsp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	"global_status", "data_linear_address", "data_source", "latency",
	"eventing_ip", "tx_abort", "tsc",
};

static const char *const key32[S_R8] = {
	"eflags", "ip", "eax", "ebx", "ecx", "edx", "esi", "edi", "ebp",
	"esp",
};

/* The adaptive GPR group's order (RAX, RCX, RDX, RBX, RSP, RBP, RSI,
 * RDI, R8-R15 after RFLAGS and RIP: the encoding order). */
static const char *const gpr_keys[16] = {
	"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9",
	"r10", "r11", "r12", "r13", "r14", "r15",
};

static uint64_t get(const struct pebs_run *r, unsigned i, unsigned off,
		    unsigned bytes)
{
	uint64_t v = 0;

	memcpy(&v, r->buf + (uint64_t)i * r->record_size + off, bytes);
	return v;
}

static void put(struct tcase *t, unsigned i, const char *field,
		uint64_t v, int is_ip)
{
	char key[40], ip[64];

	fmt_snprintf(key, sizeof(key), "record%u_%s", i, field);
	if (is_ip)
		value(t, key, "%s", bench_addr_str(v, ip, sizeof(ip)));
	else
		value(t, key, "0x%llx", (unsigned long long)v);
}

static int is_ip_field(unsigned f)
{
	return f == S_IP || f == S_EIP;
}

static void log_fixed(struct tcase *t, const struct pebs_run *r,
		      unsigned fmt, unsigned i)
{
	for (unsigned f = 0; f < S_NR; f++) {
		int off = sdm_pebs_offset(fmt, f);
		const char *k = key64[f];

		if (off < 0)
			continue;
		if (f == S_STATUS && fmt >= 3)
			k = "applicable_counters";
		put(t, i, k, get(r, i, (unsigned)off, 8), is_ip_field(f));
	}
}

static void log_fixed32(struct tcase *t, const struct pebs_run *r,
			unsigned i)
{
	for (unsigned f = S_FLAGS; f < S_R8; f++)
		put(t, i, key32[f],
		    get(r, i, (unsigned)sdm_pebs32_offset(f), 4), f == S_IP);
}

static void log_xmms(struct tcase *t, const struct pebs_run *r, unsigned i,
		     unsigned at)
{
	char key[40];

	for (unsigned k = 0; k < 16; k++) {
		fmt_snprintf(key, sizeof(key), "record%u_xmm%u", i, k);
		value(t, key, "0x%016llx%016llx",
		      (unsigned long long)get(r, i, at + 16 * k + 8, 8),
		      (unsigned long long)get(r, i, at + 16 * k, 8));
	}
}

static void log_lbrs(struct tcase *t, const struct pebs_run *r, unsigned i,
		     const struct sdm_adaptive *a)
{
	char key[40], from[64], to[64];

	for (unsigned k = 0; k < a->n_lbr; k++) {
		unsigned at = a->lbrs + SDM_LBR * k;

		fmt_snprintf(key, sizeof(key), "record%u_lbr%u", i, k);
		value(t, key, "from %s to %s info 0x%llx",
		      bench_addr_str(get(r, i, at, 8), from, sizeof(from)),
		      bench_addr_str(get(r, i, at + 8, 8), to, sizeof(to)),
		      (unsigned long long)get(r, i, at + 16, 8));
	}
}

/* The adaptive record: the basic group, then the groups of DATA_CFG in
 * the SDM's order (memory info, GPRs, XMMs, LBRs), named as the SDM's
 * adaptive PEBS record tables name them. */
static void log_adaptive(struct tcase *t, const struct pebs_run *r,
			 unsigned i, const struct sdm_adaptive *a)
{
	static const char *const mem[4] = {
		"mem_address", "mem_aux_info", "mem_latency", "tsx_aux_info",
	};

	put(t, i, "format_size", get(r, i, 0, 8), 0);
	put(t, i, "ip", get(r, i, 8, 8), 1);
	put(t, i, "applicable_counters", get(r, i, 16, 8), 0);
	put(t, i, "tsc", get(r, i, 24, 8), 0);
	for (unsigned k = 0; a->meminfo && k < 4; k++)
		put(t, i, mem[k], get(r, i, a->meminfo + 8 * k, 8), 0);
	if (a->gprs) {
		put(t, i, "rflags", get(r, i, a->gprs, 8), 0);
		put(t, i, "rip", get(r, i, a->gprs + 8, 8), 1);
		for (unsigned k = 0; k < 16; k++)
			put(t, i, gpr_keys[k],
			    get(r, i, a->gprs + 16 + 8 * k, 8), 0);
	}
	if (a->xmms)
		log_xmms(t, r, i, a->xmms);
	if (a->lbrs)
		log_lbrs(t, r, i, a);
}

static void log_record(struct tcase *t, const struct pebs_run *r,
		       unsigned fmt, unsigned i, const struct sdm_adaptive *a)
{
	if (pebs_ds32())
		log_fixed32(t, r, i);
	else if (fmt >= 4)
		log_adaptive(t, r, i, a);
	else
		log_fixed(t, r, fmt, i);
}

/* The DATA_CFG groups in words, for the log line. */
static void cfg_words(char *buf, unsigned n, const struct sdm_adaptive *a,
		      const struct pebs_run *r)
{
	unsigned at = 0;

	at += (unsigned)fmt_snprintf(buf, n, "%s%s%s", a->meminfo ?
				     "memory info, " : "", a->gprs ?
				     "GPRs, " : "", a->xmms ? "XMMs, " : "");
	if (a->lbrs && at < n)
		at += (unsigned)fmt_snprintf(buf + at, n - at, "%u LBRs, ",
					     a->n_lbr);
	for (unsigned k = 0; k < r->n_ctr && at < n; k++)
		at += (unsigned)fmt_snprintf(buf + at, n - at,
			"%s%s%u Adaptive_Record %s", k ? "; " : "",
			r->ctr[k].bit >= 32 ? "fixed " : "PMC",
			r->ctr[k].bit >= 32 ? r->ctr[k].bit - 32 : r->ctr[k].bit,
			r->ctr[k].adaptive ? "on" : "off");
}

/* One line: the DATA_CFG read back, the asked one, and the record
 * size the SDM's groups give for it (the driver's stride is in
 * pebs_records). */
static void log_config(struct tcase *t, const struct pebs_run *r,
		       unsigned fmt, const struct sdm_adaptive *a)
{
	char words[160];

	if (fmt < 4 || pebs_ds32())
		return;
	cfg_words(words, sizeof(words), a, r);
	value(t, "pebs_data_cfg", "0x%llx (asked 0x%llx), record %u bytes "
	      "(basic, %s)", (unsigned long long)r->data_cfg_used,
	      (unsigned long long)r->cfg, a->size, words);
}

void pebs_log_run(struct tcase *t, const struct pebs_run *r)
{
	const struct perfmon_caps *c = perfmon_caps(0);
	unsigned fmt = c ? sdm_pebs_format(c->perf_caps) : 0;
	struct sdm_adaptive a = sdm_adaptive_of(r);
	uint64_t n = r->record_size && r->index >= r->base ?
		     (r->index - r->base) / r->record_size : 0;

	log_config(t, r, fmt, &a);
	if (r->log_settings_only)
		return;
	if (n > r->capacity)
		n = r->capacity;
	for (unsigned i = 0; i < n; i++)
		if (i < 2 || i == n - 1)
			log_record(t, r, fmt, i, &a);
}
