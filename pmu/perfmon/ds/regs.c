/* pmu/perfmon/ds/regs.c: the DS save area layouts, field access on
 * memory images of them, and ds_check(), the rules a DS area and its
 * buffers must pass before BTS or PEBS is enabled (regs.h lists them).
 * Pure logic: host-tested (tests/host/pmu/perfmon/ds/test_regs.c).
 *
 * Layouts: Intel SDM Vol. 3B §17.4.9 (the 32-bit DS save area),
 * §17.4.9.1 (the 64-bit DS save area); the counter-reset slots:
 * 8 GP + 4 fixed through PEBS format 4, 32 GP + 16 fixed with format 5
 * (regs.h).  Fields are little-endian and accessed a byte at a time,
 * so an image at any alignment (a host buffer, a misaligned test area)
 * is read and written the same way. */
#include "regs.h"
#include "../../../lib/fmt.h"
#include "../../../arch/x86/cpu.h"

#define DS_FIELDS_END64 0x40u	/* after the eight 8-byte fields */
#define DS_FIELDS_END32 0x20u	/* after the eight 4-byte fields */
#define DS_RESET_SIZE 8u	/* a counter-reset slot, either layout */
#define DS_ALIGN 8u
#define FOUR_GIB (1ull << 32)
#define DS_FORMATS 6		/* PEBS record formats 0-5 */

/* Counter-reset slots (64-bit layout) per PEBS format. */
static const struct {
	unsigned gp, fixed;
} reset_slots[DS_FORMATS] = {
	[0] = { 8, 4 }, [1] = { 8, 4 }, [2] = { 8, 4 }, [3] = { 8, 4 },
	[4] = { 8, 4 },
	[5] = { 32, 16 },	/* format 5: the larger reset area */
};

int ds_format64(int ia32e, int dtes64)
{
	return ia32e || dtes64;
}

void ds_layout_for(unsigned fmt, int ds64, struct ds_layout *l)
{
	if (!ds64) {
		*l = (struct ds_layout){
			.ds64 = 0,
			.field_size = 4,
			.reset_offset = DS_FIELDS_END32,
			.gp_slots = 1,
			.fixed_slots = 0,
			.size = DS_FIELDS_END32 + DS_RESET_SIZE,
			.bts_record = 12,
		};
		return;
	}
	/* A format past 5 is not known: take the largest reset area known,
	 * so that no slot the processor may read lies outside the area. */
	if (fmt >= DS_FORMATS)
		fmt = DS_FORMATS - 1;
	*l = (struct ds_layout){
		.ds64 = 1,
		.field_size = 8,
		.reset_offset = DS_FIELDS_END64,
		.gp_slots = reset_slots[fmt].gp,
		.fixed_slots = reset_slots[fmt].fixed,
		.size = DS_FIELDS_END64 + DS_RESET_SIZE *
			(reset_slots[fmt].gp + reset_slots[fmt].fixed),
		.bts_record = 24,
	};
}

/* Byte offset of field f. */
static unsigned ds_field_offset(const struct ds_layout *l, enum ds_field f)
{
	return (unsigned)f * l->field_size;
}

int ds_reset_offset(const struct ds_layout *l, unsigned n, int fixed)
{
	unsigned slot = fixed ? l->gp_slots + n : n;

	if (n >= (fixed ? l->fixed_slots : l->gp_slots))
		return -1;
	return (int)(l->reset_offset + DS_RESET_SIZE * slot);
}

/* ---- byte-safe little-endian access -------------------------------- */

static uint64_t get_le(const void *p, unsigned bytes)
{
	const uint8_t *b = p;
	uint64_t v = 0;

	while (bytes--)
		v = v << 8 | b[bytes];
	return v;
}

static void put_le(void *p, unsigned bytes, uint64_t v)
{
	uint8_t *b = p;

	for (unsigned i = 0; i < bytes; i++, v >>= 8)
		b[i] = (uint8_t)v;
}

uint64_t ds_get(const void *area, const struct ds_layout *l, enum ds_field f)
{
	return get_le((const uint8_t *)area + ds_field_offset(l, f),
		      l->field_size);
}

void ds_put(void *area, const struct ds_layout *l, enum ds_field f,
	    uint64_t v)
{
	put_le((uint8_t *)area + ds_field_offset(l, f), l->field_size, v);
}

uint64_t ds_get_reset(const void *area, const struct ds_layout *l,
		      unsigned n, int fixed)
{
	int off = ds_reset_offset(l, n, fixed);

	return off < 0 ? 0 :
	       get_le((const uint8_t *)area + off, DS_RESET_SIZE);
}

void ds_put_reset(void *area, const struct ds_layout *l, unsigned n,
		  int fixed, uint64_t v)
{
	int off = ds_reset_offset(l, n, fixed);

	if (off >= 0)
		put_le((uint8_t *)area + off, DS_RESET_SIZE, v);
}

/* ---- ds_check ------------------------------------------------------- */

/* What one check works on: the output sentence and the input. */
struct check {
	const struct ds_check_in *in;
	char *why;
	unsigned size;
};

static int fail(struct check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct check *c, const char *fmt, ...)
{
	va_list ap;

	if (c->why && c->size) {
		va_start(ap, fmt);
		fmt_vsnprintf(c->why, c->size, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* [a, end) with end exclusive stays in one canonical half. */
static int canonical_range(uint64_t a, uint64_t end)
{
	return canonical48(a) && end > a && canonical48(end - 1) &&
	       (a >> 63) == ((end - 1) >> 63);
}

static int overlap(uint64_t a, uint64_t a_end, uint64_t b, uint64_t b_end)
{
	return a < b_end && b < a_end;
}

static const char *const field_names[4] = {
	"base", "index", "absolute maximum", "interrupt threshold",
};

/* Field i of a buffer, in field_names[] order. */
static uint64_t buffer_field(const struct ds_buffer *b, unsigned i)
{
	const uint64_t v[4] = { b->base, b->index, b->max, b->thresh };

	return v[i];
}

/* Why an address must lie below 4 GiB here, or NULL where it need not:
 * outside IA-32e mode linear addresses are 32 bits (whatever the DS
 * layout); in it, the 32-bit layout's fields hold 4 bytes. */
static const char *below_4g_why(const struct ds_check_in *in)
{
	if (in->la32)
		return "linear addresses are 32 bits outside IA-32e mode";
	if (!in->l->ds64)
		return "out of reach of the 32-bit DS layout's 4-byte fields";
	return 0;
}

/* Every field below 4 GiB where addresses are 32 bits (la32, or the
 * 32-bit layout); in IA-32e mode canonical, and the buffer not across the
 * non-canonical hole (outside it the canonical rule does not apply:
 * Vol. 3A §3.3.7.1 is about IA-32e mode). */
static int check_addresses(struct check *c, const char *name,
			   const struct ds_buffer *b)
{
	const char *why4g = below_4g_why(c->in);

	for (unsigned i = 0; i < 4; i++) {
		uint64_t v = buffer_field(b, i);

		if (!c->in->la32 && !canonical48(v))
			return fail(c, "%s buffer: %s 0x%llx is not "
				    "canonical (bits 63:47 differ)", name,
				    field_names[i], (unsigned long long)v);
		if (why4g && v >= FOUR_GIB)
			return fail(c, "%s buffer: %s 0x%llx is at or above "
				    "4 GiB, %s", name, field_names[i],
				    (unsigned long long)v, why4g);
	}
	if (c->in->la32)
		return 0;
	if (b->max > b->base && !canonical_range(b->base, b->max))
		return fail(c, "%s buffer: base 0x%llx to absolute maximum "
			    "0x%llx spans the non-canonical hole", name,
			    (unsigned long long)b->base,
			    (unsigned long long)b->max);
	return 0;
}

/* Field i (index or threshold) within [base, max], or (above_base) within
 * (base, max]: a threshold at the base fires before any record, one past
 * the maximum never fires. */
static int check_within(struct check *c, const char *name,
			const struct ds_buffer *b, unsigned i, int above_base)
{
	uint64_t v = buffer_field(b, i);

	if (v < b->base || (above_base && v == b->base))
		return fail(c, "%s buffer: %s 0x%llx is %s base 0x%llx", name,
			    field_names[i], (unsigned long long)v,
			    above_base ? "not above" : "below",
			    (unsigned long long)b->base);
	if (v > b->max)
		return fail(c, "%s buffer: %s 0x%llx is past absolute "
			    "maximum 0x%llx%s", name, field_names[i],
			    (unsigned long long)v, (unsigned long long)b->max,
			    above_base ? " and never fires" : "");
	return 0;
}

/* base < max, base aligned, base <= index <= max (§17.4.9.2). */
static int check_bounds(struct check *c, const char *name,
			const struct ds_buffer *b)
{
	if (b->max < b->base)
		return fail(c, "%s buffer: absolute maximum 0x%llx is below "
			    "base 0x%llx", name, (unsigned long long)b->max,
			    (unsigned long long)b->base);
	if (b->max == b->base)
		return fail(c, "%s buffer: absolute maximum 0x%llx equals "
			    "base: the buffer holds no record", name,
			    (unsigned long long)b->max);
	if (b->base % DS_ALIGN)
		return fail(c, "%s buffer: base 0x%llx is not aligned to %u "
			    "bytes", name, (unsigned long long)b->base,
			    DS_ALIGN);
	return check_within(c, name, b, 1, 0);
}

/* Field i (index, maximum or threshold) a whole number of records past
 * the base.  The absolute maximum may also be one byte more: the SDM's
 * DS save area list asks for "a multiple of the record size plus 1"
 * (Vol. 3B §17.4.9), while the PEBS field's definition is the base plus
 * the buffer's length, full "when PEBS Index equals PEBS Absolute
 * Maximum" (§18.8.1.1); both hold the same whole records, a record being
 * written only where it fits below the maximum. */
static int check_multiple(struct check *c, const char *name,
			  const struct ds_buffer *b, unsigned i,
			  unsigned record)
{
	uint64_t v = buffer_field(b, i);
	uint64_t rem = (v - b->base) % record;
	int is_max = i == 2;

	if (rem == 0 || (is_max && rem == 1 && record > 1))
		return 0;
	return fail(c, "%s buffer: %s 0x%llx is 0x%llx bytes past base "
		    "0x%llx, not a multiple of the 0x%x-byte record%s", name,
		    field_names[i], (unsigned long long)v,
		    (unsigned long long)(v - b->base),
		    (unsigned long long)b->base, record,
		    is_max ? " (or one more)" : "");
}

static int is_mapped(const struct ds_check_in *in, uint64_t a, uint64_t len)
{
	return !in->mapped || in->mapped(a, len, in->ctx);
}

/* The threshold at least one whole record short of the maximum.  The SDM
 * (Vol. 3B §17.4.9, the BTS and PEBS interrupt threshold fields) says it
 * "must be several records short of the ... absolute maximum address to
 * allow a pending interrupt to be handled prior to processor writing the
 * ... absolute maximum record".  "Several" is no number; one record is
 * the least that leaves the buffer a slot when the PMI is raised, so a
 * threshold at the maximum (or in its last, partial record) is refused. */
static int check_room(struct check *c, const char *name,
		      const struct ds_buffer *b, unsigned record)
{
	if (b->max - b->thresh >= record)
		return 0;
	return fail(c, "%s buffer: interrupt threshold 0x%llx is not a "
		    "record short of absolute maximum 0x%llx: the SDM asks "
		    "for it several records short, so that the PMI is "
		    "handled before the buffer fills (Vol. 3B 17.4.9)", name,
		    (unsigned long long)b->thresh,
		    (unsigned long long)b->max);
}

/* Every rule for one buffer in use. */
static int check_buffer(struct check *c, const char *name,
			const struct ds_buffer *b, unsigned record,
			uint64_t max_bytes)
{
	if (!record)
		return fail(c, "%s buffer: record size 0: no record fits",
			    name);
	if (check_addresses(c, name, b) || check_bounds(c, name, b) ||
	    check_multiple(c, name, b, 1, record) ||
	    check_multiple(c, name, b, 2, record) ||
	    check_within(c, name, b, 3, 1) ||
	    check_multiple(c, name, b, 3, record) ||
	    check_room(c, name, b, record))
		return -1;
	if (max_bytes && b->max - b->base > max_bytes)
		return fail(c, "%s buffer: base 0x%llx to absolute maximum "
			    "0x%llx is 0x%llx bytes, more than the 0x%llx "
			    "this PEBS format allows", name,
			    (unsigned long long)b->base,
			    (unsigned long long)b->max,
			    (unsigned long long)(b->max - b->base),
			    (unsigned long long)max_bytes);
	if (!is_mapped(c->in, b->base, b->max - b->base))
		return fail(c, "%s buffer: base 0x%llx to absolute maximum "
			    "0x%llx is not mapped writable", name,
			    (unsigned long long)b->base,
			    (unsigned long long)b->max);
	return 0;
}

/* The DS area itself: aligned, addressable, mapped. */
static int check_area(struct check *c)
{
	const struct ds_check_in *in = c->in;
	uint64_t end = in->area + in->l->size;

	if (in->area % DS_ALIGN)
		return fail(c, "DS area: address 0x%llx is not aligned to %u "
			    "bytes", (unsigned long long)in->area, DS_ALIGN);
	if (!in->la32 && (end < in->area || !canonical_range(in->area, end)))
		return fail(c, "DS area: [0x%llx, +0x%x) is not canonical "
			    "(bits 63:47 differ)",
			    (unsigned long long)in->area, in->l->size);
	if (below_4g_why(in) && (end < in->area || end > FOUR_GIB))
		return fail(c, "DS area: [0x%llx, 0x%llx) reaches past 4 GiB, "
			    "%s", (unsigned long long)in->area,
			    (unsigned long long)end, below_4g_why(in));
	if (!is_mapped(in, in->area, in->l->size))
		return fail(c, "DS area: [0x%llx, 0x%llx) is not mapped "
			    "writable", (unsigned long long)in->area,
			    (unsigned long long)end);
	return 0;
}

/* One region the overlap check compares. */
struct region {
	const char *name;
	uint64_t a, end;
};

static int check_overlaps(struct check *c)
{
	const struct ds_check_in *in = c->in;
	struct region r[3] = {
		{ "DS area", in->area, in->area + in->l->size },
	};
	unsigned n = 1;

	if (in->use_bts)
		r[n++] = (struct region){ "BTS buffer", in->bts.base,
					  in->bts.max };
	if (in->use_pebs)
		r[n++] = (struct region){ "PEBS buffer", in->pebs.base,
					  in->pebs.max };
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = i + 1; j < n; j++)
			if (overlap(r[i].a, r[i].end, r[j].a, r[j].end))
				return fail(c, "%s: [0x%llx, 0x%llx) overlaps "
					    "%s [0x%llx, 0x%llx)", r[j].name,
					    (unsigned long long)r[j].a,
					    (unsigned long long)r[j].end,
					    r[i].name,
					    (unsigned long long)r[i].a,
					    (unsigned long long)r[i].end);
	return 0;
}

int ds_check(const struct ds_check_in *in, char *why, unsigned size)
{
	struct check c = { .in = in, .why = why, .size = size };
	unsigned bts_record = in->bts_record ? in->bts_record :
			      in->l->bts_record;

	if (why && size)
		why[0] = 0;
	if (check_area(&c))
		return -1;
	if (in->use_bts &&
	    check_buffer(&c, "BTS", &in->bts, bts_record, 0))
		return -1;
	if (in->use_pebs &&
	    check_buffer(&c, "PEBS", &in->pebs, in->pebs_record,
			 in->pebs_max_bytes))
		return -1;
	return check_overlaps(&c);
}
