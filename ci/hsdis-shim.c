/*
 * ci/hsdis-shim.c: a small disassembler plugin for HotSpot's PrintAssembly (JDK 9 and later),
 * written for this project on top of the Capstone library (Debian: libcapstone-dev).
 *
 * HotSpot loads `hsdis-<arch>.so` from the JDK's lib directory, next to libjvm.so, or from
 * LD_LIBRARY_PATH, looks up the symbol `decode_instructions_virtual` and calls it once per code
 * range it wants printed. The plugin decodes the bytes in `buffer` (which belong at the virtual
 * address `start_va`) and, for every instruction:
 *   - calls event_callback(event_stream, "insn", pc) before printing it, so HotSpot can print
 *     the address, the block comments and the oop maps that belong before that pc;
 *   - prints the instruction through printf_callback(printf_stream, ...);
 *   - calls event_callback(event_stream, "/insn", next_pc) after it;
 *   - prints a newline when `newline` is non-zero.
 * It returns the address after the last decoded instruction.
 *
 * Options (from -XX:PrintAssemblyOptions=...): `intel` selects Intel syntax, `att` (the default)
 * AT&T syntax, as binutils' hsdis does; any other option is reported and ignored.
 *
 * Build: ci/hsdis (cc -shared -fPIC ci/hsdis-shim.c -lcapstone -o hsdis-amd64.so).
 * Use:   LD_LIBRARY_PATH=<dir of the .so> java -XX:+UnlockDiagnosticVMOptions \
 *            -XX:CompileCommand=print,some.Class::method ...
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <capstone/capstone.h>

typedef void *(*hsdis_event_fn)(void *stream, const char *event, void *arg);
typedef int (*hsdis_printf_fn)(void *stream, const char *format, ...);

#if defined(__x86_64__)
#define SHIM_ARCH CS_ARCH_X86
#define SHIM_MODE CS_MODE_64
#elif defined(__aarch64__)
#define SHIM_ARCH CS_ARCH_ARM64
#define SHIM_MODE CS_MODE_ARM
#else
#error "ci/hsdis-shim.c supports x86_64 and aarch64"
#endif

static void *ignore_event(void *stream, const char *event, void *arg) {
    (void)stream;
    (void)event;
    (void)arg;
    return NULL;
}

static int print_to_stdout(void *stream, const char *format, ...) {
    (void)stream;
    va_list args;
    va_start(args, format);
    int written = vprintf(format, args);
    va_end(args);
    return written;
}

/* Is the option word starting at `word` (ending at `end`) equal to `name`? */
static int option_is(const char *word, const char *end, const char *name) {
    size_t len = (size_t)(end - word);
    return len == strlen(name) && strncmp(word, name, len) == 0;
}

/* Reads the comma-separated options; returns 1 when Intel syntax was asked for. */
static int wants_intel_syntax(const char *options, hsdis_printf_fn out, void *stream) {
    int intel = 0;
    const char *word = options == NULL ? "" : options;
    while (*word != '\0') {
        const char *end = strchr(word, ',');
        if (end == NULL) {
            end = word + strlen(word);
        }
        if (option_is(word, end, "intel")) {
            intel = 1;
        } else if (option_is(word, end, "att")) {
            intel = 0;
        } else if (end > word) {
            out(stream, "hsdis-shim: unknown PrintAssemblyOptions word '%.*s' ignored\n",
                (int)(end - word), word);
        }
        word = *end == ',' ? end + 1 : end;
    }
    return intel;
}

void *decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va, unsigned char *buffer,
                                  uintptr_t length, hsdis_event_fn event_callback,
                                  void *event_stream, hsdis_printf_fn printf_callback,
                                  void *printf_stream, const char *options, int newline) {
    if (event_callback == NULL) {
        event_callback = ignore_event;
    }
    if (printf_callback == NULL) {
        printf_callback = print_to_stdout;
    }
    if (end_va > start_va && end_va - start_va < length) {
        length = end_va - start_va;
    }

    csh handle;
    if (cs_open(SHIM_ARCH, SHIM_MODE, &handle) != CS_ERR_OK) {
        printf_callback(printf_stream, "hsdis-shim: capstone could not be opened\n");
        return (void *)start_va;
    }
#if defined(__x86_64__)
    cs_option(handle, CS_OPT_SYNTAX,
              wants_intel_syntax(options, printf_callback, printf_stream) ? CS_OPT_SYNTAX_INTEL
                                                                          : CS_OPT_SYNTAX_ATT);
#else
    (void)wants_intel_syntax(options, printf_callback, printf_stream);
#endif
    /* Bytes that are not an instruction (constants, padding) print as .byte and decoding goes
     * on after them, rather than stopping at the first one. */
    cs_option(handle, CS_OPT_SKIPDATA, CS_OPT_ON);

    cs_insn *insn = cs_malloc(handle);
    const uint8_t *code = buffer;
    size_t left = (size_t)length;
    uint64_t pc = (uint64_t)start_va;
    while (left > 0 && cs_disasm_iter(handle, &code, &left, &pc, insn)) {
        event_callback(event_stream, "insn", (void *)(uintptr_t)insn->address);
        printf_callback(printf_stream, "%-8s %s", insn->mnemonic, insn->op_str);
        event_callback(event_stream, "/insn", (void *)(uintptr_t)(insn->address + insn->size));
        if (newline) {
            printf_callback(printf_stream, "\n");
        }
    }
    cs_free(insn, 1);
    cs_close(&handle);
    return (void *)(uintptr_t)pc;
}

/* The pre-JDK-9 entry point: the code to decode is in this process, at its own address. */
void *decode_instructions(void *start_pv, void *end_pv, hsdis_event_fn event_callback,
                          void *event_stream, hsdis_printf_fn printf_callback,
                          void *printf_stream, const char *options) {
    uintptr_t start = (uintptr_t)start_pv;
    uintptr_t end = (uintptr_t)end_pv;
    return decode_instructions_virtual(start, end, (unsigned char *)start_pv, end - start,
                                       event_callback, event_stream, printf_callback,
                                       printf_stream, options, 1);
}
