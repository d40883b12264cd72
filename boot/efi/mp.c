/* mp: EFI_MP_SERVICES_PROTOCOL for arch/x86/smp.c (mp.h). */
#include "../mp.h"
#include "efi.h"
#include "../../arch/x86/smp.h"
#include "../../lib/fmt.h"

/* EFI_MP_SERVICES_PROTOCOL: UEFI Platform Initialization Specification
 * Vol. 2 (DXE Core Interface), §13.4.  gnu-efi 3.0.15 does not define
 * it.  Member order and types are the specification's. */
#define MP_SERVICES_GUID                                                     \
	{ 0x3fdda605, 0xa76e, 0x4f46,                                        \
	  { 0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08 } }

/* EFI_PROCESSOR_INFORMATION.StatusFlag (§13.4.3, GetProcessorInfo). */
#define PROCESSOR_AS_BSP_BIT 0x1u
#define PROCESSOR_ENABLED_BIT 0x2u
#define PROCESSOR_HEALTH_STATUS_BIT 0x4u

typedef VOID (EFIAPI *ap_procedure)(VOID *buffer);

/* EFI_PROCESSOR_INFORMATION.  PI 1.7 appends ExtendedInformation (six
 * UINT32s), filled only when asked for (bit 24 of the processor number);
 * the room is there anyway, whatever the firmware's version. */
struct processor_info {
	UINT64 processor_id;		/* the APIC ID */
	UINT32 status_flag;
	UINT32 package, core, thread;	/* EFI_CPU_PHYSICAL_LOCATION */
	UINT32 extended[6];
};

struct mp_services;

struct mp_services {
	EFI_STATUS (EFIAPI *get_number_of_processors)(struct mp_services *self,
						      UINTN *n,
						      UINTN *enabled);
	EFI_STATUS (EFIAPI *get_processor_info)(struct mp_services *self,
						UINTN index,
						struct processor_info *info);
	EFI_STATUS (EFIAPI *startup_all_aps)(struct mp_services *self,
					     ap_procedure proc,
					     BOOLEAN single_thread,
					     EFI_EVENT wait, UINTN timeout_us,
					     VOID *arg, UINTN **failed);
	EFI_STATUS (EFIAPI *startup_this_ap)(struct mp_services *self,
					     ap_procedure proc, UINTN index,
					     EFI_EVENT wait, UINTN timeout_us,
					     VOID *arg, BOOLEAN *finished);
	EFI_STATUS (EFIAPI *switch_bsp)(struct mp_services *self, UINTN index,
					BOOLEAN enable_old_bsp);
	EFI_STATUS (EFIAPI *enable_disable_ap)(struct mp_services *self,
					       UINTN index, BOOLEAN enable,
					       UINT32 *health);
	EFI_STATUS (EFIAPI *who_am_i)(struct mp_services *self, UINTN *index);
};

#define SERVICE_NAME "EFI_MP_SERVICES_PROTOCOL"

static struct mp_services *mp;
static struct smp_firmware fw;

struct ap_call {
	void (*fn)(void *);
	void *arg;
};

/* Runs on the application processor, called by the firmware with the
 * MS ABI; fn is the harness's (SysV, arch/x86/smp.c). */
static VOID EFIAPI ap_entry(VOID *buffer)
{
	struct ap_call *c = buffer;

	c->fn(c->arg);
}

/* What a status of StartupThisAP means (§13.4.5); NULL: unexpected. */
static const char *status_text(EFI_STATUS s)
{
	switch (s) {
	case EFI_TIMEOUT:
		return "EFI_TIMEOUT: no return in time; the firmware reset it";
	case EFI_NOT_READY:
		return "EFI_NOT_READY: the processor is busy";
	case EFI_DEVICE_ERROR:
		return "EFI_DEVICE_ERROR: called on an application processor";
	case EFI_INVALID_PARAMETER:
		return "EFI_INVALID_PARAMETER: the BSP, or a disabled "
		       "processor";
	case EFI_NOT_FOUND:
		return "EFI_NOT_FOUND: no such processor";
	case EFI_UNSUPPORTED:
		return "EFI_UNSUPPORTED: boot services have ended";
	default:
		return NULL;
	}
}

/* Blocking mode (no WaitEvent): StartupThisAP returns when fn returned,
 * or after timeout_us with EFI_TIMEOUT (§13.4.5).  0 would mean "no
 * limit": never passed. */
static int mp_run(unsigned index, void (*fn)(void *), void *arg,
		  uint64_t timeout_us, char *why, unsigned size)
{
	struct ap_call c = { fn, arg };
	EFI_STATUS s;

	s = mp->startup_this_ap(mp, ap_entry, index, NULL,
				timeout_us ? timeout_us : 1, &c, NULL);
	if (s == EFI_SUCCESS)
		return 0;
	if (status_text(s))
		fmt_snprintf(why, size, "%s StartupThisAP(processor %u, %llu "
			     "us): %s", SERVICE_NAME, index,
			     (unsigned long long)timeout_us, status_text(s));
	else
		fmt_snprintf(why, size, "%s StartupThisAP(processor %u, %llu "
			     "us): status 0x%llx", SERVICE_NAME, index,
			     (unsigned long long)timeout_us,
			     (unsigned long long)s);
	return -1;
}

/* Non-blocking mode (§13.4.5): with a WaitEvent StartupThisAP returns at
 * once, and the firmware signals the event when fn has returned (or after
 * timeout_us, having reset the processor).  One such call at a time. */
static struct ap_call async_call;
static EFI_EVENT async_done;

static int mp_start(unsigned index, void (*fn)(void *), void *arg,
		    uint64_t timeout_us, char *why, unsigned size)
{
	EFI_STATUS s;

	if (async_done) {
		fmt_snprintf(why, size, "a non-blocking call is still open");
		return -1;
	}
	s = efi.bs->CreateEvent(0, 0, NULL, NULL, &async_done);
	if (s != EFI_SUCCESS) {
		async_done = NULL;
		fmt_snprintf(why, size, "CreateEvent: status 0x%llx",
			     (unsigned long long)s);
		return -1;
	}
	async_call = (struct ap_call){ fn, arg };
	s = mp->startup_this_ap(mp, ap_entry, index, async_done,
				timeout_us ? timeout_us : 1, &async_call,
				NULL);
	if (s == EFI_SUCCESS)
		return 0;
	efi.bs->CloseEvent(async_done);
	async_done = NULL;
	fmt_snprintf(why, size, "%s StartupThisAP(processor %u, non-blocking):"
		     " %s", SERVICE_NAME, index, status_text(s) ?
		     status_text(s) : "unexpected status");
	return -1;
}

/* Waits, polling with Stall (the firmware learns that the processor is
 * done from a timer of its own), until the event of mp_start() is
 * signalled, at most wait_us. */
static int mp_join(uint64_t wait_us, char *why, unsigned size)
{
	uint64_t waited = 0;
	EFI_STATUS s;

	if (!async_done) {
		fmt_snprintf(why, size, "no non-blocking call is open");
		return -1;
	}
	while ((s = efi.bs->CheckEvent(async_done)) == EFI_NOT_READY &&
	       waited < wait_us) {
		efi.bs->Stall(1000);
		waited += 1000;
	}
	if (s != EFI_SUCCESS) {
		fmt_snprintf(why, size, "%s: the processor's procedure did not "
			     "return within %llu us (CheckEvent status 0x%llx)",
			     SERVICE_NAME, (unsigned long long)wait_us,
			     (unsigned long long)s);
		return -1;
	}
	efi.bs->CloseEvent(async_done);
	async_done = NULL;
	return 0;
}

static void list_processors(UINTN n)
{
	fw.n = 0;
	for (UINTN i = 0; i < n && fw.n < SMP_MAX_CPUS; i++) {
		struct processor_info info = { 0 };
		struct smp_cpu *c = &fw.cpu[fw.n];

		if (mp->get_processor_info(mp, i, &info) != EFI_SUCCESS)
			continue;
		c->index = (unsigned)i;
		c->apic_id = (uint32_t)info.processor_id;
		c->package = info.package;
		c->core = info.core;
		c->thread = info.thread;
		c->bsp = !!(info.status_flag & PROCESSOR_AS_BSP_BIT);
		c->enabled = !!(info.status_flag & PROCESSOR_ENABLED_BIT);
		c->healthy = !!(info.status_flag & PROCESSOR_HEALTH_STATUS_BIT);
		fw.n++;
	}
}

void mp_init(void)
{
	EFI_GUID guid = MP_SERVICES_GUID;
	UINTN n = 0, enabled = 0;
	static char why[120];

	if (efi.bs->LocateProtocol(&guid, NULL, (void **)&mp) != EFI_SUCCESS ||
	    !mp) {
		smp_init(NULL, "the firmware offers no " SERVICE_NAME);
		return;
	}
	if (mp->get_number_of_processors(mp, &n, &enabled) != EFI_SUCCESS) {
		fmt_snprintf(why, sizeof(why), SERVICE_NAME
			     " GetNumberOfProcessors failed");
		smp_init(NULL, why);
		return;
	}
	fw.name = SERVICE_NAME;
	fw.total = (unsigned)n;
	fw.run = mp_run;
	fw.start = mp_start;
	fw.join = mp_join;
	list_processors(n);
	smp_init(&fw, NULL);
}
