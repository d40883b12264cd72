/* pmi_attribute: the instruction boundary a PMI belongs to (pmi.h).
 * Pure logic on the frames, so the host tests can drive it. */
#include "pmi.h"
#include "cpu.h"
#include "trap.h"

void pmi_attribute(struct pmi_record *r, const struct trap_frame *tf,
		   uint64_t resume, const struct trap_frame *db)
{
	r->frame_rip = tf->rip;
	r->frame_cpl = (uint8_t)(tf->cs & 3);
	r->frame_rsp = tf->rsp;
	r->frame_rflags = tf->rflags;
	r->rip = r->frame_rip;
	r->cpl = r->frame_cpl;
	r->in_tracer = 0;
	/* No trace, or RFLAGS.TF set: the frame names the code it
	 * interrupted, the traced code itself included. */
	if (!resume || (tf->rflags & X86_EFLAGS_TF))
		return;
	/* TF clear while a trace runs: inside the tracer's handling of a
	 * step, whose traced code resumes at resume.  Past the #DB hook
	 * (the last instructions before its IRET) the #DB frame is no
	 * longer known and the CPL stays the handler's. */
	r->rip = resume;
	r->cpl = db ? (uint8_t)(db->cs & 3) : r->frame_cpl;
	r->in_tracer = 1;
}
