/* pmi_run: shared steps of the apic tests (pmi_run.h). */
#include "pmi_run.h"
#include "../arch/x86/apic.h"
#include "../lib/fmt.h"

/* Deeper than apic_lvtpc_deliver and what it calls ever go. */
#define FIRE_STACK 1024

extern const char _text[], _etext[];
/* From linker.ld: where the image was loaded (RIPs log as offsets). */
extern char ImageBase[];

/* apic_fire records its stack pointer where pmi_in_fire_call() finds it:
 * the one mode-specific part of the asm below (in i386 the low half of
 * apic_fire_rsp, the high half staying 0). */
#ifdef __x86_64__
#define FIRE_SAVE "	pushq %rbx\n	movq %rsp, apic_fire_rsp(%rip)\n"
#define FIRE_RESTORE "	popq %rbx\n"
#else
#define FIRE_SAVE "	pushl %ebx\n	movl %esp, apic_fire_rsp\n"
#define FIRE_RESTORE "	popl %ebx\n"
#endif

__asm__(".pushsection .text\n"
	".globl apic_fire, apic_fire_sled, apic_fire_end\n"
	".hidden apic_fire, apic_fire_sled, apic_fire_end\n"
	"apic_fire:\n"
	FIRE_SAVE
	"	call apic_lvtpc_deliver\n"
	"apic_fire_sled:\n"
	"	.rept 64\n"
	"	nop\n"
	"	.endr\n"
	FIRE_RESTORE
	"	ret\n"
	"apic_fire_end:\n"
	".globl apic_fire_sti, apic_fire_sti_land, apic_fire_sti_end\n"
	".hidden apic_fire_sti, apic_fire_sti_land, apic_fire_sti_end\n"
	"apic_fire_sti:\n"
	"	sti\n"
	"	nop\n"
	"apic_fire_sti_land:\n"
	"	.rept 64\n"
	"	nop\n"
	"	.endr\n"
	"	cli\n"
	"	ret\n"
	"apic_fire_sti_end:\n"
	".popsection\n");

uint64_t apic_fire_rsp;

int apic_ready(struct tcase *t)
{
	const char *why = apic_init();

	if (why)
		skip(t, "no usable local APIC: %s", why);
	return !why;
}

void apic_log(struct tcase *t)
{
	value(t, "apic_mode", "%s", apic_mode_name(apic_mode()));
	value(t, "apic_base", "0x%llx", (unsigned long long)apic_base());
	value(t, "apic_base_msr", "0x%llx",
	      (unsigned long long)apic_base_msr());
	value(t, "apic_id", "%u", apic_id());
	value(t, "lvtpc_firmware", "0x%x", apic_firmware_lvtpc());
	value(t, "lvtpc", "0x%x", apic_lvtpc());
}

void pmi_log(struct tcase *t, const char *prefix, const struct pmi_record *r)
{
	const char *p = prefix ? prefix : "pmi";
	char k[40];

	fmt_snprintf(k, sizeof(k), "%s_path", p);
	value(t, k, "%s", pmi_path_name(r->path));
	fmt_snprintf(k, sizeof(k), "%s_rip", p);
	value(t, k, "0x%llx (image+0x%llx)", (unsigned long long)r->rip,
	      (unsigned long long)(r->rip - (uintptr_t)ImageBase));
	fmt_snprintf(k, sizeof(k), "%s_cpl", p);
	value(t, k, "%u", r->cpl);
	fmt_snprintf(k, sizeof(k), "%s_taken_in", p);
	value(t, k, "%s", r->in_tracer ? "tracer" : "interrupted code");
	fmt_snprintf(k, sizeof(k), "%s_frame_rip", p);
	value(t, k, "0x%llx (image+0x%llx) cpl=%u rflags=0x%llx",
	      (unsigned long long)r->frame_rip,
	      (unsigned long long)(r->frame_rip - (uintptr_t)ImageBase),
	      r->frame_cpl, (unsigned long long)r->frame_rflags);
}

int pmi_run(enum pmi_path path, void (*fn)(void *), void *arg,
	    struct fault *f)
{
	int r;

	if (pmi_arm(path))
		return -1;
	r = trap_catch(fn, arg, f);
	pmi_disarm();
	return r;
}

int pmi_run_nmi_checked(struct tcase *t, void (*fn)(void *), void *arg)
{
	struct fault f;
	int rc = pmi_run(PMI_PATH_NMI, fn, arg, &f);

	value(t, "pmis", "%llu", (unsigned long long)pmi_count());
	return check(t, rc == 0, "pmi_run returned %d (vector %u)", rc,
		     rc == 1 ? f.vector : 0);
}

int pmi_in_fire_call(const struct pmi_record *r)
{
	return r->frame_cpl == 0 && r->frame_rsp <= apic_fire_rsp &&
	       r->frame_rsp > apic_fire_rsp - FIRE_STACK &&
	       r->frame_rip >= (uintptr_t)_text &&
	       r->frame_rip < (uintptr_t)_etext;
}

void apic_delay(unsigned n)
{
	for (volatile unsigned i = 0; i < n; i++)
		;
}
