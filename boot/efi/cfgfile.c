/* cfgfile: \pmu-harness.cfg from the boot volume (see cfgfile.h). */
#include "../cfgfile.h"
#include "../cfgtext.h"
#include "efi.h"
#include "../../lib/fmt.h"

/* The file's bytes, one past the limit to tell a file over it even when
 * its size is unknown, then its text: pool memory, given back once the
 * options are applied (the image carries no 160 KiB of zeros). */
#define RAW_SIZE (CFG_LIMIT + 1)
#define BUF_SIZE (RAW_SIZE + CFG_TEXT_MAX)

/* The file's size: SetPosition(0xFFFFFFFFFFFFFFFF) moves to the end of the
 * file (UEFI 2.10 section 13.5, EFI_FILE_PROTOCOL.SetPosition()), and
 * GetPosition() then gives the size.  0 when the driver does not say. */
static UINT64 file_size(EFI_FILE_HANDLE f)
{
	UINT64 size = 0;

	if (f->SetPosition(f, ~(UINT64)0) != EFI_SUCCESS ||
	    f->GetPosition(f, &size) != EFI_SUCCESS)
		size = 0;
	if (f->SetPosition(f, 0) != EFI_SUCCESS)
		size = 0;
	return size;
}

/* Reads until the buffer is full or Read() returns no bytes, the end of
 * the file (EFI_FILE_PROTOCOL.Read()): a driver may return fewer bytes
 * than asked before the end. */
static EFI_STATUS read_all(EFI_FILE_HANDLE f, unsigned char *buf,
			   UINTN size, UINTN *got)
{
	*got = 0;
	while (*got < size) {
		UINTN len = size - *got;
		EFI_STATUS st = f->Read(f, &len, buf + *got);

		if (st != EFI_SUCCESS)
			return st;
		if (!len)
			break;
		*got += len;
	}
	return EFI_SUCCESS;
}

__attribute__((format(printf, 3, 4)))
static void say(opt_error_fn err, void *ctx, const char *fmt, ...)
{
	char msg[OPT_ERROR_MAX], line[OPT_ERROR_MAX];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fmt_snprintf(line, sizeof(line), "%s: %s", CFG_SOURCE, msg);
	if (err)
		err(ctx, line);
}

static void apply_file(EFI_FILE_HANDLE f, unsigned char *raw, char *text,
		       struct options *o, opt_error_fn err, void *ctx)
{
	UINT64 size = file_size(f);
	EFI_STATUS st;
	UINTN got;

	st = read_all(f, raw, RAW_SIZE, &got);
	if (st != EFI_SUCCESS) {
		say(err, ctx, "read failed after %lu bytes (status 0x%lx); "
		    "nothing from it applied, and no test runs",
		    (unsigned long)got, (unsigned long)st);
		options_reject_source(o);
		return;
	}
	if (cfg_decode(raw, got, size > got ? (size_t)size : got, text,
		       CFG_TEXT_MAX, CFG_SOURCE, err, ctx) == 0)
		options_parse(o, text, CFG_SOURCE, err, ctx);
	else
		options_reject_source(o);
}

void cfgfile_apply(struct options *o, opt_error_fn err, void *ctx)
{
	EFI_FILE_HANDLE f;
	EFI_STATUS st;
	unsigned char *buf;

	if (!efi.root)
		return;
	st = efi.root->Open(efi.root, &f, L"\\pmu-harness.cfg",
			    EFI_FILE_MODE_READ, 0);
	if (st == EFI_NOT_FOUND)
		return;
	if (st != EFI_SUCCESS) {
		say(err, ctx, "cannot open (status 0x%lx); nothing from it "
		    "applied, and no test runs", (unsigned long)st);
		options_reject_source(o);
		return;
	}
	st = efi.bs->AllocatePool(EfiLoaderData, BUF_SIZE, (void **)&buf);
	if (st != EFI_SUCCESS) {
		say(err, ctx, "no memory to read it (%u bytes, status 0x%lx); "
		    "nothing from it applied, and no test runs",
		    (unsigned)BUF_SIZE, (unsigned long)st);
		options_reject_source(o);
	} else {
		apply_file(f, buf, (char *)buf + RAW_SIZE, o, err, ctx);
		efi.bs->FreePool(buf);
	}
	f->Close(f);
}
