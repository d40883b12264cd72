/* logfile: the log file on the boot volume (see logfile.h). */
#include "logfile.h"
#include "efi.h"
#include "../efi_status.h"
#include "../logname.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

static EFI_GUID file_info_guid = EFI_FILE_INFO_ID;

static struct {
	EFI_FILE_HANDLE dir;		/* \pmu-harness: see flush_in_order() */
	EFI_FILE_HANDLE file;		/* NULL when none, or after a failure */
	char name[LOGNAME_MAX];
	char state[200];		/* the header's logfile="..." */
	UINT64 written;			/* bytes of whole lines written */
	UINT64 flushed;			/* of those, durable at the last sync */
	char failure[LOGFILE_FAILURE_MAX];	/* the first, "" while none */
} lf;

/* The firmware clock for the log's name (UEFI spec 2.10, 8.3 GetTime). */
static void read_clock(struct logname_time *lt)
{
	EFI_TIME t;

	memset(lt, 0, sizeof(*lt));
	if (efi.rt->GetTime(&t, NULL) != EFI_SUCCESS)
		return;
	*lt = (struct logname_time){
		.valid = 1, .year = t.Year, .month = t.Month, .day = t.Day,
		.hour = t.Hour, .minute = t.Minute, .second = t.Second,
	};
}

static void to_wide(CHAR16 *dst, unsigned size, const char *src)
{
	unsigned i;

	for (i = 0; src[i] && i + 1 < size; i++)
		dst[i] = (CHAR16)(unsigned char)src[i];
	dst[i] = 0;
}

/* EFI_FILE_INFO of an open handle (UEFI spec 2.10, 13.5 File Protocol:
 * EFI_FILE_PROTOCOL.GetInfo(), EFI_FILE_INFO): room for names up to 64
 * characters. */
static EFI_STATUS file_info(EFI_FILE_HANDLE f, EFI_FILE_INFO **info)
{
	static UINT64 buf[(__builtin_offsetof(EFI_FILE_INFO, FileName) +
			   65 * sizeof(CHAR16)) / 8 + 1];
	UINTN size = sizeof(buf);
	EFI_STATUS st = f->GetInfo(f, &file_info_guid, &size, buf);

	*info = (EFI_FILE_INFO *)buf;
	return st;
}

/* The state of a step that failed: a write-protected volume has its own
 * words, anything else says what failed and the status. */
static enum logfile_state open_failed(char *detail, unsigned size,
				      const char *what, EFI_STATUS st)
{
	char name[40];

	if (st == EFI_WRITE_PROTECTED)
		return LOGFILE_READ_ONLY;
	efi_status_format(name, sizeof(name), st);
	fmt_snprintf(detail, size, "%s (%s)", what, name);
	return LOGFILE_FAILED;
}

static int is_directory(EFI_FILE_HANDLE f)
{
	EFI_FILE_INFO *info;

	return file_info(f, &info) != EFI_SUCCESS ||
	       (info->Attribute & EFI_FILE_DIRECTORY);
}

/* A \pmu-harness that is a file opens like a directory would (FatPkg opens
 * the existing entry whatever the attributes asked for), so the handle's
 * attributes decide; a read-only file refuses the write open, so a read
 * open is tried before calling that a failure. */
static enum logfile_state open_log_dir(char *detail, unsigned size)
{
	EFI_FILE_HANDLE f;
	EFI_STATUS st;

	st = efi.root->Open(efi.root, &lf.dir, L"\\pmu-harness",
			    EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE |
			    EFI_FILE_MODE_CREATE, EFI_FILE_DIRECTORY);
	if (st == EFI_SUCCESS) {
		if (is_directory(lf.dir))
			return LOGFILE_OPEN;
		lf.dir->Close(lf.dir);
		lf.dir = NULL;
		return LOGFILE_NOT_DIR;
	}
	lf.dir = NULL;
	if (st != EFI_WRITE_PROTECTED &&
	    efi.root->Open(efi.root, &f, L"\\pmu-harness", EFI_FILE_MODE_READ,
			   0) == EFI_SUCCESS) {
		int dir = is_directory(f);

		f->Close(f);
		if (!dir)
			return LOGFILE_NOT_DIR;
	}
	return open_failed(detail, size, "cannot open \\pmu-harness", st);
}

static EFI_STATUS probe_status;

/* logname_choose()'s probe: a name is taken when it opens. */
static int name_taken(void *ctx, const char *name)
{
	EFI_FILE_HANDLE dir = ctx, f;
	CHAR16 wname[LOGNAME_MAX];

	to_wide(wname, LOGNAME_MAX, name);
	probe_status = dir->Open(dir, &f, wname, EFI_FILE_MODE_READ, 0);
	if (probe_status == EFI_SUCCESS) {
		f->Close(f);
		return 1;
	}
	return probe_status == EFI_NOT_FOUND ? 0 : -1;
}

static enum logfile_state create_log_file(char *detail, unsigned size,
					  unsigned *taken)
{
	struct logname_time lt;
	enum logfile_state state;
	CHAR16 wname[LOGNAME_MAX];
	char what[80];
	EFI_STATUS st;

	read_clock(&lt);
	state = logname_choose(&lt, name_taken, lf.dir, lf.name,
			       sizeof(lf.name), taken);
	fmt_snprintf(what, sizeof(what), "cannot %s \\pmu-harness\\%s",
		     state == LOGFILE_FAILED ? "check" : "create", lf.name);
	if (state == LOGFILE_FAILED)
		return open_failed(detail, size, what, probe_status);
	if (state != LOGFILE_OPEN)
		return state;
	to_wide(wname, LOGNAME_MAX, lf.name);
	st = lf.dir->Open(lf.dir, &lf.file, wname, EFI_FILE_MODE_READ |
			  EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0);
	if (st == EFI_SUCCESS)
		return LOGFILE_OPEN;
	lf.file = NULL;
	return open_failed(detail, size, what, st);
}

/* Opens \pmu-harness\<name>.log, or says in lf.state why there is none. */
void logfile_open(void)
{
	enum logfile_state state = LOGFILE_NO_VOLUME;
	char detail[160] = "";
	unsigned taken = 0;

	memset(&lf, 0, sizeof(lf));
	if (efi.root)
		state = open_log_dir(detail, sizeof(detail));
	if (state == LOGFILE_OPEN)
		state = create_log_file(detail, sizeof(detail), &taken);
	if (state != LOGFILE_OPEN && lf.dir) {
		lf.dir->Close(lf.dir);
		lf.dir = NULL;
	}
	logfile_describe(lf.state, sizeof(lf.state), state, lf.name, taken,
			 detail);
}

const char *logfile_state_text(void)
{
	return lf.state;
}

/*
 * Makes what was written durable, file data before file size.  The UEFI
 * spec (2.10, 13.5, EFI_FILE_PROTOCOL.Flush()) promises only that a Flush
 * writes "all modified data associated with a file"; it says nothing of
 * the order.
 * OVMF's FAT driver (FatPkg) writes the directory entry (size) and the
 * data pages of its cache in disk order, so the size could land first and
 * a kill in between leave NULs at the end.  Flushing the directory handle
 * first writes the volume's dirty cache (our data) but not our entry;
 * the file's own Flush then writes the entry, with data already on disk.
 * docs/reliability.md, "The log file", has the details.
 */
static EFI_STATUS flush_in_order(const char **what)
{
	EFI_STATUS st = lf.dir->Flush(lf.dir);

	if (st != EFI_SUCCESS) {
		*what = "flush of \\pmu-harness failed";
		return st;
	}
	st = lf.file->Flush(lf.file);
	if (st != EFI_SUCCESS)
		*what = "flush failed";
	return st;
}

/* Cuts the file back to the whole lines written (UEFI spec 2.10, 13.5,
 * EFI_FILE_PROTOCOL.SetInfo() with EFI_FILE_INFO: a smaller FileSize
 * truncates). */
static EFI_STATUS cut_to_whole_lines(void)
{
	EFI_FILE_INFO *info;
	EFI_STATUS st = file_info(lf.file, &info);

	if (st != EFI_SUCCESS || info->FileSize == lf.written)
		return st;
	info->FileSize = lf.written;
	return lf.file->SetInfo(lf.file, &file_info_guid, info->Size, info);
}

/* After a failure: keep the whole lines, make them durable and stop
 * writing.  Returns the bytes the file keeps: every whole line written
 * when the cut and the flush worked, else what the last good sync made
 * durable. */
static UINT64 give_up_file(void)
{
	const char *what;
	int ok = cut_to_whole_lines() == EFI_SUCCESS &&
		 flush_in_order(&what) == EFI_SUCCESS;

	lf.file->Close(lf.file);
	lf.dir->Close(lf.dir);
	lf.file = NULL;
	lf.dir = NULL;
	return ok ? lf.written : lf.flushed;
}

/* The first failure ends the file; its text waits in lf.failure for the
 * caller to say (logfile.h). */
static void file_failed(const char *what, EFI_STATUS st)
{
	char name[40];
	UINT64 kept = give_up_file();

	efi_status_format(name, sizeof(name), st);
	fmt_snprintf(lf.failure, sizeof(lf.failure),
		     "%s (%s), %llu bytes kept in \\pmu-harness\\%s", what,
		     name, (unsigned long long)kept, lf.name);
}

/* One Write at the end of the file; a short or failed one ends the file. */
static int file_put(const char *p, unsigned n)
{
	UINTN len = n;
	EFI_STATUS st = lf.file->Write(lf.file, &len, (void *)p);
	char what[80];

	if (st == EFI_SUCCESS && len == n)
		return 0;
	if (st == EFI_SUCCESS)
		fmt_snprintf(what, sizeof(what), "short write, %u of %u bytes",
			     (unsigned)len, n);
	else
		fmt_snprintf(what, sizeof(what), "write of %u bytes failed",
			     n);
	file_failed(what, st);
	return -1;
}

/* A line and its LF in one Write where it fits: the file grows by whole
 * lines, and a failure is cut back to the last one. */
static void write_file(const char *s, unsigned n)
{
	static char buf[1024];

	if (n + 1 <= sizeof(buf)) {
		memcpy(buf, s, n);
		buf[n] = '\n';
		if (file_put(buf, n + 1))
			return;
	} else if (file_put(s, n) || file_put("\n", 1)) {
		return;
	}
	lf.written += n + 1;
}

void logfile_line(const char *s, unsigned n)
{
	if (lf.file)
		write_file(s, n);
}

void logfile_sync(void)
{
	const char *what;
	EFI_STATUS st;

	if (!lf.file)
		return;
	st = flush_in_order(&what);
	if (st == EFI_SUCCESS)
		lf.flushed = lf.written;
	else
		file_failed(what, st);
}

const char *logfile_failure(void)
{
	return lf.failure[0] ? lf.failure : NULL;
}

void logfile_close(void)
{
	if (!lf.file)
		return;
	lf.file->Close(lf.file);
	lf.dir->Close(lf.dir);
	lf.file = NULL;
	lf.dir = NULL;
}
