/* pmi: the harness's handler for performance-monitoring interrupts as
 * the local APIC delivers them through its LVT performance-counter entry
 * (apic.h): as an NMI (vector 2) or as a fixed interrupt on PMI_VECTOR.
 *
 * pmi_arm() takes the path over for a test: it hooks NMI (trap.h) or
 * lends PMI_VECTOR to the handler (with interrupts off, as trap.h asks),
 * and programs the LVTPC unmasked for that path.  While armed, every
 * delivery on the path is counted and recorded (every NMI counts as a
 * PMI: the harness sends no other); the fixed path sends EOI, the NMI
 * path needs none (SDM Vol. 3A §10.8.5).  pmi_disarm() masks the LVTPC,
 * takes a fixed PMI still waiting in the IRR, and gives both back.
 *
 * Where a PMI is recorded: the instruction boundary it interrupted.  A
 * PMI that a model raises from the single-step tracer's #DB hook
 * (trace.h) is taken either inside the harness's trap code, before the
 * #DB handler's IRET, or just after it, before the traced code's next
 * instruction.  Both belong to the traced code at that next instruction:
 * an NMI that finds RFLAGS.TF clear while a trace runs is recorded at
 * trace_resume_rip(), with the CPL of the #DB frame (in_tracer = 1).
 * The NMI gate clears TF and its IRET restores it, so the tracer counts
 * no step more or less.  A fixed PMI raised during a trace waits for IF,
 * which traces keep clear, as hardware would make it wait.
 *
 * Citations: Intel SDM Vol. 3A, order no. 253668-059US (June 2016). */
#ifndef ARCH_X86_PMI_H
#define ARCH_X86_PMI_H

/* The fixed vector of the PMI: priority class 15 (SDM Vol. 3A §10.8.3.1)
 * so that no TPR setting holds it back; next to the ring-3 exit gate
 * (0xF9, ring3.h), away from the 8259's and the APIC timer's vectors. */
#define PMI_VECTOR 0xf8

#ifndef __ASSEMBLY__
#include <stdint.h>

enum pmi_path { PMI_PATH_NMI, PMI_PATH_VECTOR };

struct pmi_record {
	uint64_t seq;		/* 1 for the first PMI since pmi_arm() */
	enum pmi_path path;
	uint64_t rip;		/* the boundary it belongs to */
	uint8_t cpl;		/* the CPL of the code at rip */
	uint8_t in_tracer;	/* taken inside the tracer's #DB handling */
	uint64_t frame_rip;	/* the frame as the CPU pushed it */
	uint8_t frame_cpl;
	uint64_t frame_rsp, frame_rflags;
};

/* Runs in the handler, NMI or interrupt context, after the record is
 * made and before EOI: a PMU driver or model may read its overflow
 * state, reload counters and re-arm the LVTPC here. */
typedef void (*pmi_callback)(const struct pmi_record *r, void *ctx);

/* Returns 0, or -1 when the APIC is unusable (apic_init()) or the vector
 * is busy (pending or in service, or the APIC's spurious vector).  Resets
 * the count and the last record. */
int pmi_arm(enum pmi_path path);
void pmi_disarm(void);

uint64_t pmi_count(void);
/* The last record into *r; 0 when there was none since pmi_arm(). */
int pmi_last(struct pmi_record *r);
/* Until pmi_disarm(), which clears it; NULL for none. */
void pmi_set_callback(pmi_callback fn, void *ctx);

const char *pmi_path_name(enum pmi_path p);

/* Fills r's boundary and frame fields from the interrupt frame tf, given
 * resume = trace_resume_rip() and db = the #DB frame whose hook is
 * running (trap_hook_frame(VEC_DB)); exposed for the host tests. */
struct trap_frame;
void pmi_attribute(struct pmi_record *r, const struct trap_frame *tf,
		   uint64_t resume, const struct trap_frame *db);

#endif
#endif
