/* session: one run of the harness under any firmware (see session.h). */
#include "session.h"
#include "clock.h"
#include "console.h"
#include "leave.h"
#include "mem.h"
#include "platform.h"
#include "acpi_root.h"
#include "../arch/x86/acpi.h"
#include "../arch/x86/apic.h"
#include "../arch/x86/ring3.h"
#include "../arch/x86/trap.h"
#include "../arch/x86/watchdog.h"
#include "../lib/fmt.h"
#include "../lib/string.h"
#include "../lib/tap.h"
#include "../pmu/backend.h"
#include "../pmu/detect.h"
#include "../pmu/driver.h"
#include "../pmu/emufault.h"
#include "../pmu/noise.h"
#include "../pmu/inject.h"
#include "../harness/clock.h"
#include "../harness/runner.h"
#include "../bench/oracle.h"
#include "version.h"

#define MAX_OPT_ERRORS 16

static struct options opts;
static struct platform plat;
static struct tap tap;
static char opt_errors[MAX_OPT_ERRORS][OPT_ERROR_MAX];
static unsigned n_opt_errors, lost_opt_errors;
static const char *ring3_why = "ok";
static const struct bench_mem bench_mem = {
	.alloc = mem_alloc,
	.release = mem_release,
	.free = mem_free,
};

struct options *session_options(void)
{
	return &opts;
}

void session_opt_error(void *ctx, const char *msg)
{
	(void)ctx;
	if (n_opt_errors < MAX_OPT_ERRORS)
		str_copy(opt_errors[n_opt_errors++], msg, OPT_ERROR_MAX);
	else
		lost_opt_errors++;
}

static void write_cpu_header(const struct cpu_info *ci)
{
	char line[TAP_LINE_MAX];

	cpu_describe(ci, line, sizeof(line));
	tap_comment(&tap, "%s", line);
	cpu_describe_extra(ci, line, sizeof(line));
	tap_comment(&tap, "%s", line);
}

static void write_pmu_header(const struct cpu_info *ci)
{
	char line[TAP_LINE_MAX];

	pmu_describe(ci, line, sizeof(line));
	tap_comment(&tap, "pmu: %s", line);
}

static void write_backend_header(const struct cpu_info *ci)
{
	/* the longest, backend=emulated's with the NetBurst model's name,
	 * is ~300 characters; the line has TAP_LINE_MAX */
	char reason[400];
	const struct backend *be = backend_select(opts.backend, ci, reason,
						  sizeof(reason));

	tap_comment(&tap, "backend: %s reason=\"%s\"", be->name, reason);
}

/* What the firmware has free once the harness is set up: what the
 * benchmarks' buffers are sized from (bench/data.h). */
static void write_memory_header(void)
{
	uint64_t total, largest;

	mem_free(&total, &largest);
	tap_comment(&tap, "memory: free_mib=%llu largest_mib=%llu",
		    (unsigned long long)(total >> 20),
		    (unsigned long long)(largest >> 20));
}

static void inject_error(void *ctx, const char *msg)
{
	(void)ctx;
	tap_comment(&tap, "error: option %s", msg);
}

/* inject= (pmu/inject.h): armed in front of the model backend only, and
 * the "# inject:" line labels every result below as under injection. */
static void write_inject_header(void)
{
	static struct inject_table table;
	char why[160], spec[OPT_INJECT_MAX];

	if (!opts.inject[0])
		return;
	if (inject_parse(&table, opts.inject, inject_error, NULL)) {
		tap_comment(&tap, "inject: none reason=\"inject= has errors: "
			    "nothing injected\"");
		return;
	}
	if (backend_inject(&table, why, sizeof(why))) {
		tap_comment(&tap, "error: option inject=: %s", why);
		tap_comment(&tap, "inject: none reason=\"%s\"", why);
		return;
	}
	inject_describe(&table, spec, sizeof(spec));
	tap_comment(&tap, "inject: active spec=\"%s\" reason=\"%s; injected "
		    "faults: results below are not the model's own\"", spec,
		    why);
}

/* emulated_fault= (pmu/emufault.h): the live model misbehaves as an
 * emulator's PMU might, so only under backend=emulated, where the tests
 * take their hardware path; the "# emulated_fault:" line labels every
 * result below. */
static void write_emufault_header(void)
{
	char names[EMUFAULT_NAMES_MAX];
	uint32_t set;

	emufault_arm(0);
	if (!opts.emulated_fault[0])
		return;
	if (backend_current()->id != BE_EMULATED) {
		tap_comment(&tap, "error: option emulated_fault=: refused: the "
			    "backend is %s, and emulator faults act in the "
			    "live model of backend=emulated only; the run goes "
			    "on without them", backend_current()->name);
		return;
	}
	if (emufault_parse(&set, opts.emulated_fault, inject_error, NULL)) {
		tap_comment(&tap, "emulated_fault: none reason=\"emulated_"
			    "fault= has errors: no fault armed\"");
		return;
	}
	emufault_arm(set);
	emufault_describe(set, names, sizeof(names));
	tap_comment(&tap, "emulated_fault: active %s reason=\"the emulated "
		    "PMU misbehaves on purpose: results below are not the "
		    "model's own\"", names);
}

/* emulated_noise=1 (pmu/noise.h): silicon's documented noise in the live
 * model, under backend=emulated alone; the "# emulated_noise:" line labels
 * every result below. */
static void write_noise_header(void)
{
	noise_arm(0);
	if (!opts.emulated_noise)
		return;
	if (backend_current()->id != BE_EMULATED) {
		tap_comment(&tap, "error: option emulated_noise=1: refused: the "
			    "backend is %s, and the noise acts in the live model "
			    "of backend=emulated only; the run goes on without "
			    "it", backend_current()->name);
		return;
	}
	noise_arm(1);
	tap_comment(&tap, "emulated_noise: on skid_max=%u reason=\"silicon's "
		    "documented noise added to the emulated PMU: PMI skid, "
		    "one retired instruction per interrupt taken while "
		    "counting\"", NOISE_SKID_MAX);
}

/* The options line: a tests= list of up to 4 KiB does not fit a log line
 * (TAP_LINE_MAX), so a long one shows its first HEADER_TESTS_MAX
 * characters and tests_cut= the number left out; the fields after it
 * stay whole. */
#define HEADER_TESTS_MAX 200

static void write_options_header(void)
{
	unsigned len = (unsigned)str_len(opts.tests);
	unsigned shown = len > HEADER_TESTS_MAX ? HEADER_TESTS_MAX : len;
	char cut[32] = "";

	if (shown < len)
		fmt_snprintf(cut, sizeof(cut), " tests_cut=%u", len - shown);
	tap_comment(&tap, "options: tests=%.*s%s backend=%s exit=%s "
		    "verbose=%d timeout=%u run_timeout=%u", (int)shown,
		    opts.tests, cut, options_backend_name(opts.backend),
		    options_exit_name(opts.exit), opts.verbose, opts.timeout_s,
		    opts.run_timeout_s);
}

static void write_header(const struct cpu_info *ci, const char *fw_name)
{
	uint64_t hz;

	tap_version(&tap);
	tap_comment(&tap, "harness: pmu-harness %s", HARNESS_VERSION);
	write_cpu_header(ci);
	write_pmu_header(ci);
	write_backend_header(ci);
	write_inject_header();
	write_emufault_header();
	write_noise_header();
	tap_comment(&tap, "platform: qemu=%s evidence=\"%s\" "
		    "smbios_manufacturer=\"%s\" hypervisor=\"%s\" "
		    "bochs=%s firmware=%s", plat.qemu ? "yes" : "no",
		    plat.evidence, plat.smbios_vendor, plat.hypervisor,
		    plat.bochs ? "yes" : "no", fw_name);
	tap_comment(&tap, "console: %s", console_describe());
	if (ring3_ready() && ring3_caveat())
		tap_comment(&tap, "ring3: ready (%s)", ring3_caveat());
	else
		tap_comment(&tap, "ring3: %s%s", ring3_ready() ? "ready" :
			    "unavailable: ", ring3_ready() ? "" : ring3_why);
	write_memory_header();
	write_options_header();
	tap_comment(&tap, "watchdog: %s", watchdog_describe());
	hz = clock_tsc_hz();	/* measured first: then its source is known */
	tap_comment(&tap, "clock: tsc_hz=%llu against=%s",
		    (unsigned long long)hz, clock_source());
	for (unsigned i = 0; i < n_opt_errors; i++)
		tap_comment(&tap, "error: option %s", opt_errors[i]);
	if (lost_opt_errors)
		tap_comment(&tap, "error: %u more option errors not shown",
			    lost_opt_errors);
	if (*console_serial_refused())
		tap_comment(&tap, "error: %s", console_serial_refused());
}

/* The plan and summary.  Syncing first surfaces a log-file failure, so
 * the summary can carry it (only a failure while writing these last two
 * lines misses it; the error line then comes after them). */
static void finish_tap(void)
{
	const char *flushes = console_flush_tally();

	/* Before the last flush, which it does not count: the matrix checks
	 * the policy's bounds on it (docs/reliability.md). */
	if (flushes)
		tap_comment(&tap, "log-file: %s", flushes);
	console_sync();
	if (console_file_error())
		tap_summary_field(&tap, "logfile_error", console_file_error());
	tap_finish(&tap);
}

/* A fault outside any test: report it and end the run as broken. */
static void harness_fault(const struct fault *f)
{
	static int faulted;
	char why[200];

	/* A fault while cleaning up after one: report nothing more (the log
	 * has its Bail out! and summary), just leave. */
	if (faulted++) {
		leave(2, &plat, opts.exit);
		for (;;)
			__asm__ volatile("cli; hlt");
	}
	fmt_snprintf(why, sizeof(why), "unexpected %s (vector %u) outside a "
		     "test at rip=0x%llx error=0x%llx",
		     trap_vector_name(f->vector), f->vector,
		     (unsigned long long)f->rip, (unsigned long long)f->error);
	tap_bail_out(&tap, why);
	finish_tap();
	console_close();
	watchdog_restore();
	if (!leave_ends_machine(&plat, opts.exit))
		bench_release();
	ring3_teardown();
	apic_restore();
	trap_restore();
	leave(2, &plat, opts.exit);
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* The time limits' NMI watchdog (arch/x86/watchdog.h); the header says
 * which timer it uses or why there is none. */
static void start_watchdog(const struct firmware *fw)
{
	struct acpi_timers t;
	const char *why = acpi_timers(acpi_rsdp(), &t);

	if (why && !fw->owns_isa_timers)
		watchdog_unavailable(why);
	else
		(void)watchdog_init(&t, why, fw->owns_isa_timers);
}

/* The runner's sync: at once, or at the log file's rate. */
static void sync_log(int urgent)
{
	if (urgent)
		console_sync();
	else
		console_sync_soon();
}

static void run_suite(const struct firmware *fw)
{
	struct runner_opts ro = {
		.globs = opts.tests,
		.verbose = opts.verbose,
		.sync = sync_log,
		.timeout_s = opts.timeout_s,
		.run_timeout_s = opts.run_timeout_s,
		.firmware_watchdog = fw->watchdog,
	};

	runner_run(&tap, &ro);
	if (fw->watchdog)
		fw->watchdog(0);
}


int session_run(const struct firmware *fw)
{
	const struct cpu_info *ci;
	int verdict;

	console_open(&opts);
	tap_init(&tap, console_emit, NULL);
	platform_detect(&plat);
	trap_set_fatal(harness_fault);
	trap_install();
	(void)apic_init();	/* the apic tests say why if unusable */
	start_watchdog(fw);
	fw->mp_init();		/* the smp tests say why if no sibling */
	/* Without ring 3 the CPL 3 tests fail; the header says why. */
	(void)ring3_setup(mem_alloc_page, &ring3_why);
	bench_init(&bench_mem);
	harness_set_tsc_hz(clock_tsc_hz);
	ci = cpu_detect();
	write_header(ci, fw->name);
	console_sync();		/* the header survives a hang in test 1 */
	run_suite(fw);
	watchdog_restore();
	if (!leave_ends_machine(&plat, opts.exit))
		bench_release();
	ring3_teardown();
	apic_restore();
	trap_restore();
	finish_tap();
	verdict = tap_verdict(&tap);
	console_close();
	leave(verdict, &plat, opts.exit);
	return verdict;
}
