/* inject: the inject= spec parser and the fault table (inject.h). */
#include "inject.h"
#include "../arch/x86/trap.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

#define ITEM_MAX 64		/* longer items are bad anyway */
_Static_assert(INJECT_MAX == 16, "parse_item() says \"more than 16\"");

struct effect_word {
	const char *word;
	const char *mnemonic;	/* SDM Vol. 3A Table 6-1 */
	enum inject_effect effect;
	int vector;
	int msr_only;
};

/* The faults RDMSR, WRMSR and RDPMC raise on hardware (SDM Vol. 2B,
 * "Protected Mode Exceptions"): #GP(0) for an absent or reserved register
 * or a bad counter index, #UD where the instruction does not exist. */
static const struct effect_word effects[] = {
	{ .word = "gp", .mnemonic = "#GP", .effect = INJECT_FAULT,
	  .vector = VEC_GP },
	{ .word = "ud", .mnemonic = "#UD", .effect = INJECT_FAULT,
	  .vector = VEC_UD },
	{ .word = "stuck", .mnemonic = "stuck", .effect = INJECT_STUCK,
	  .msr_only = 1 },
};

struct parse {
	inject_error_fn err;
	void *ctx;
	unsigned errors, item_no;
	char echo[INJECT_ECHO_MAX * 4 + 8];
};

/* The item as an error message may show it: control bytes and
 * non-ASCII escaped (\xNN), cut at INJECT_ECHO_MAX bytes with "...". */
static void echo_item(char *out, unsigned size, const char *s, unsigned len)
{
	unsigned o = 0;

	for (unsigned i = 0; i < len && i < INJECT_ECHO_MAX && o + 5 < size;
	     i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			o += (unsigned)fmt_snprintf(out + o, size - o,
						    "\\x%02x", c);
		else
			out[o++] = (char)c;
	}
	if (len > INJECT_ECHO_MAX && o + 4 < size) {
		str_copy(out + o, "...", size - o);
		o += 3;
	}
	out[o] = 0;
}

static void bad(struct parse *p, const char *why)
{
	char msg[240];

	p->errors++;
	if (!p->err)
		return;
	fmt_snprintf(msg, sizeof(msg), "inject=: item %u \"%s\": %s",
		     p->item_no, p->echo, why);
	p->err(p->ctx, msg);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "0x" and 1-8 hex digits; returns 0 on success. */
static int parse_msr(const char *s, uint32_t *msr)
{
	uint32_t v = 0;
	unsigned n = 0;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -1;
	for (s += 2; *s; s++, n++) {
		int d = hex_digit(*s);

		if (d < 0 || n == 8)
			return -1;
		v = v << 4 | (uint32_t)d;
	}
	if (!n)
		return -1;
	*msr = v;
	return 0;
}

static const struct effect_word *find_effect(const char *w)
{
	for (unsigned i = 0; i < sizeof(effects) / sizeof(effects[0]); i++)
		if (!str_cmp(w, effects[i].word))
			return &effects[i];
	return NULL;
}

static int duplicate(const struct inject_table *t,
		     const struct inject_rule *r)
{
	for (unsigned i = 0; i < t->n; i++)
		if (t->rule[i].target == r->target &&
		    (r->target == INJECT_RDPMC || t->rule[i].msr == r->msr))
			return 1;
	return 0;
}

/* Splits item at ':' into at most 3 fields (in place). */
static unsigned split(char *item, char **f)
{
	unsigned n = 0;

	f[n++] = item;
	for (char *c = item; *c; c++) {
		if (*c != ':')
			continue;
		if (n == 3)
			return 4;	/* too many fields */
		*c = 0;
		f[n++] = c + 1;
	}
	return n;
}

/* One item into the table; NULL, or what is wrong with it. */
static const char *parse_item(struct inject_table *t, char *item)
{
	struct inject_rule r = { 0 };
	const struct effect_word *ew;
	char *f[3];
	unsigned n = split(item, f);

	if (n >= 2 && !str_cmp(f[0], "msr")) {
		r.target = INJECT_MSR;
		if (n != 3)
			return "expected msr:0xNUMBER:gp|ud|stuck";
		if (parse_msr(f[1], &r.msr))
			return "the MSR number is not 0x and 1-8 hex digits";
		ew = find_effect(f[2]);
	} else if (!str_cmp(f[0], "rdpmc")) {
		r.target = INJECT_RDPMC;
		if (n != 2)
			return "expected rdpmc:gp|ud";
		ew = find_effect(f[1]);
		if (ew && ew->msr_only)
			return "RDPMC takes gp or ud (stuck is for MSRs)";
	} else {
		return "expected msr:0xNUMBER:gp|ud|stuck or rdpmc:gp|ud";
	}
	if (!ew)
		return "the effect is not gp, ud or stuck";
	r.effect = ew->effect;
	r.vector = ew->vector;
	if (duplicate(t, &r))
		return r.target == INJECT_RDPMC ? "rdpmc given twice" :
		       "this MSR is given twice";
	if (t->n == INJECT_MAX)
		return "more than 16 items";
	t->rule[t->n++] = r;
	return NULL;
}

int inject_parse(struct inject_table *t, const char *spec,
		 inject_error_fn err, void *ctx)
{
	struct parse p = { .err = err, .ctx = ctx };
	const char *s = spec;

	t->n = 0;
	while (*s) {
		unsigned len = 0;
		char item[ITEM_MAX];

		while (s[len] && s[len] != ',')
			len++;
		p.item_no++;
		echo_item(p.echo, sizeof(p.echo), s, len);
		if (!len) {
			bad(&p, "empty item");
		} else if (len >= sizeof(item)) {
			bad(&p, "too long to be an item");
		} else {
			const char *why;

			memcpy(item, s, len);
			item[len] = 0;
			why = parse_item(t, item);
			if (why)
				bad(&p, why);
		}
		s += len;
		if (*s == ',' && !*++s) {
			p.item_no++;
			p.echo[0] = 0;
			bad(&p, "empty item");
		}
	}
	if (p.errors)
		t->n = 0;
	return (int)p.errors;
}

static const struct effect_word *effect_of(const struct inject_rule *r)
{
	for (unsigned i = 0; i < sizeof(effects) / sizeof(effects[0]); i++)
		if (effects[i].effect == r->effect &&
		    (r->effect == INJECT_STUCK || effects[i].vector == r->vector))
			return &effects[i];
	return &effects[0];	/* not reached: rules come from the table */
}

void inject_describe(const struct inject_table *t, char *buf, unsigned size)
{
	unsigned o = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < t->n && o < size; i++) {
		const struct inject_rule *r = &t->rule[i];
		const char *sep = i ? "," : "";

		if (r->target == INJECT_RDPMC)
			o += (unsigned)fmt_snprintf(buf + o, size - o,
						    "%srdpmc:%s", sep,
						    effect_of(r)->word);
		else
			o += (unsigned)fmt_snprintf(buf + o, size - o,
						    "%smsr:0x%x:%s", sep,
						    r->msr, effect_of(r)->word);
	}
}

/* "#GP (vector 13)", "stuck", ... for one rule. */
static void inject_rule_name(const struct inject_rule *r, char *buf,
			     unsigned size)
{
	if (r->effect == INJECT_STUCK)
		fmt_snprintf(buf, size, "stuck (writes dropped)");
	else
		fmt_snprintf(buf, size, "%s (vector %d)",
			     effect_of(r)->mnemonic, r->vector);
}

void inject_hit_text(const struct inject_hit *h, char *buf, unsigned size)
{
	char what[40];

	inject_rule_name(h->rule, what, sizeof(what));
	if (h->op == INJECT_OP_RDPMC)
		fmt_snprintf(buf, size, "RDPMC 0x%x raised injected %s",
			     h->reg, what);
	else if (h->rule->effect == INJECT_FAULT && h->op == INJECT_OP_WRMSR)
		fmt_snprintf(buf, size, "WRMSR 0x%x=0x%llx raised injected %s",
			     h->reg, (unsigned long long)h->value, what);
	else if (h->rule->effect == INJECT_FAULT)
		fmt_snprintf(buf, size, "RDMSR 0x%x raised injected %s",
			     h->reg, what);
	else if (h->op == INJECT_OP_WRMSR)
		fmt_snprintf(buf, size, "WRMSR 0x%x=0x%llx dropped: injected "
			     "stuck MSR 0x%x (no vector; it reads 0x%llx)",
			     h->reg, (unsigned long long)h->value, h->reg,
			     (unsigned long long)h->rule->latch_value);
	else if (h->vector)
		fmt_snprintf(buf, size, "RDMSR 0x%x of injected stuck MSR 0x%x "
			     "raised vector %d (as at its first access)",
			     h->reg, h->reg, h->vector);
	else
		fmt_snprintf(buf, size, "RDMSR 0x%x answered by injected "
			     "stuck MSR 0x%x (no vector; it reads 0x%llx)",
			     h->reg, h->reg,
			     (unsigned long long)h->rule->latch_value);
}

static struct inject_rule *rule_for(struct inject_table *t,
				    enum inject_target target, uint32_t msr)
{
	if (!t)
		return NULL;
	for (unsigned i = 0; i < t->n; i++)
		if (t->rule[i].target == target &&
		    (target == INJECT_RDPMC || t->rule[i].msr == msr))
			return &t->rule[i];
	return NULL;
}

static int hit(struct inject_table *t, struct inject_rule *r,
	       enum inject_op op, uint32_t reg, uint64_t value, int vector)
{
	struct inject_hit h = { r, op, reg, value, vector };

	r->hits++;
	if (t->observe)
		t->observe(t->observe_ctx, &h);
	return vector;
}

/* A stuck register holds what it held at its first access under the
 * table (or answers the fault reading it raised then). */
static void latch(struct inject_rule *r, uint32_t msr, inject_rd_fn rd)
{
	if (r->latched)
		return;
	r->latch_value = 0;
	r->latch_vector = rd(msr, &r->latch_value);
	if (r->latch_vector)
		r->latch_value = 0;
	r->latched = 1;
}

int inject_rdmsr(struct inject_table *t, uint32_t msr, uint64_t *v,
		 inject_rd_fn rd)
{
	struct inject_rule *r = rule_for(t, INJECT_MSR, msr);

	if (!r)
		return rd(msr, v);
	if (r->effect == INJECT_FAULT)
		return hit(t, r, INJECT_OP_RDMSR, msr, 0, r->vector);
	latch(r, msr, rd);
	if (!r->latch_vector)
		*v = r->latch_value;
	return hit(t, r, INJECT_OP_RDMSR, msr, 0, r->latch_vector);
}

int inject_wrmsr(struct inject_table *t, uint32_t msr, uint64_t v,
		 inject_rd_fn rd, inject_wr_fn wr)
{
	struct inject_rule *r = rule_for(t, INJECT_MSR, msr);

	if (!r)
		return wr(msr, v);
	if (r->effect == INJECT_FAULT)
		return hit(t, r, INJECT_OP_WRMSR, msr, v, r->vector);
	latch(r, msr, rd);
	return hit(t, r, INJECT_OP_WRMSR, msr, v, 0);
}

int inject_rdpmc(struct inject_table *t, uint32_t idx, uint64_t *v,
		 inject_rd_fn rd)
{
	struct inject_rule *r = rule_for(t, INJECT_RDPMC, 0);

	if (!r)
		return rd(idx, v);
	return hit(t, r, INJECT_OP_RDPMC, idx, 0, r->vector);
}
