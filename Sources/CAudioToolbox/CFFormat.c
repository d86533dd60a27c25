/*
 * CFStringCreateWithFormat, which is variadic and so written in C: printf's conversions, and
 * `%@` for a CF object (a string's text, another object's CFCopyDescription).
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stdarg.h>
#include <stddef.h>
#include <wchar.h>

/* In CFStringExtras.swift: a new string with the text `%@` inserts for `cf`. */
extern CFStringRef __ATCFFormatObject(CFTypeRef cf);

struct Buffer {
    char *bytes;
    size_t length, capacity;
    int failed;
};

static void append(struct Buffer *b, const char *text, size_t n) {
    if (b->failed) return;
    if (b->length + n + 1 > b->capacity) {
        size_t capacity = (b->length + n + 1) * 2;
        char *grown = realloc(b->bytes, capacity);
        if (!grown) { b->failed = 1; return; }
        b->bytes = grown;
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->length, text, n);
    b->length += n;
    b->bytes[b->length] = 0;
}

/* Formats one conversion `spec` (with '*' already replaced) with the argument `ap` gives. */
#define APPEND_ONE(type)                                                  \
    do {                                                                  \
        type value = va_arg(*ap, type);                                   \
        int n = snprintf(NULL, 0, spec, value);                           \
        if (n < 0) { b->failed = 1; return; }                             \
        char *text = malloc((size_t)n + 1);                               \
        if (!text) { b->failed = 1; return; }                             \
        snprintf(text, (size_t)n + 1, spec, value);                       \
        append(b, text, (size_t)n);                                       \
        free(text);                                                       \
    } while (0)

static void convert(struct Buffer *b, const char *spec, const char *length, char conversion, va_list *ap) {
    switch (conversion) {
    case 'd': case 'i': case 'c':
        if (!strcmp(length, "hh") || !strcmp(length, "h") || !*length) APPEND_ONE(int);
        else if (!strcmp(length, "l")) APPEND_ONE(long);
        else if (!strcmp(length, "ll") || !strcmp(length, "q")) APPEND_ONE(long long);
        else if (!strcmp(length, "z") || !strcmp(length, "t")) APPEND_ONE(ptrdiff_t);
        else APPEND_ONE(intmax_t);
        break;
    case 'u': case 'o': case 'x': case 'X':
        if (!strcmp(length, "hh") || !strcmp(length, "h") || !*length) APPEND_ONE(unsigned int);
        else if (!strcmp(length, "l")) APPEND_ONE(unsigned long);
        else if (!strcmp(length, "ll") || !strcmp(length, "q")) APPEND_ONE(unsigned long long);
        else if (!strcmp(length, "z") || !strcmp(length, "t")) APPEND_ONE(size_t);
        else APPEND_ONE(uintmax_t);
        break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
        /* glibc's printf reads a long double for L, ll and q (the spec is passed on as given). */
        if (!strcmp(length, "L") || !strcmp(length, "ll") || !strcmp(length, "q")) APPEND_ONE(long double);
        else APPEND_ONE(double);
        break;
    case 's':
        /* %ls (wide strings) is not supported: its argument is not a char string. */
        if (*length) { b->failed = 1; break; }
        APPEND_ONE(const char *);
        break;
    case 'p': APPEND_ONE(void *); break;
    default: b->failed = 1; break;
    }
}

CFStringRef ATCFStringCreateWithFormat(CFAllocatorRef alloc, CFTypeRef formatOptions, CFStringRef format, ...) {
    (void)alloc;
    (void)formatOptions;
    const char *f = format ? ATCFStringGetCStringPtr(format, kCFStringEncodingUTF8) : NULL;
    if (!f) return NULL;
    struct Buffer b = {NULL, 0, 0, 0};
    append(&b, "", 0);
    va_list ap;
    va_start(ap, format);
    while (*f && !b.failed) {
        const char *percent = strchr(f, '%');
        if (!percent) { append(&b, f, strlen(f)); break; }
        append(&b, f, (size_t)(percent - f));
        const char *p = percent + 1;
        if (*p == '%') { append(&b, "%", 1); f = p + 1; continue; }
        /* Flags, width and precision; '*' takes an int argument. */
        char spec[64] = "%";
        size_t s = 1;
        while (*p && strchr("-+ #0'", *p) && s < 40) spec[s++] = *p++;
        for (int part = 0; part < 2 && !b.failed; part++) {
            if (part == 1) {
                if (*p != '.') break;
                spec[s++] = *p++;
            }
            if (*p == '*') {
                s += (size_t)snprintf(spec + s, sizeof spec - s, "%d", va_arg(ap, int));
                p++;
            } else {
                while (*p >= '0' && *p <= '9' && s < 56) spec[s++] = *p++;
            }
        }
        char length[3] = "";
        size_t l = 0;
        while (*p && strchr("hlLqjzt", *p) && l < 2) length[l++] = *p++;
        length[l] = 0;
        char conversion = *p;
        if (!conversion || s + l + 2 > sizeof spec) { b.failed = 1; break; }
        f = p + 1;
        if (conversion == '@') {
            CFStringRef text = __ATCFFormatObject(va_arg(ap, CFTypeRef));
            const char *t = text ? ATCFStringGetCStringPtr(text, kCFStringEncodingUTF8) : NULL;
            if (t) append(&b, t, strlen(t));
            if (text) ATCFRelease(text);
            continue;
        }
        memcpy(spec + s, length, l);
        spec[s + l] = conversion;
        spec[s + l + 1] = 0;
        convert(&b, spec, length, conversion, &ap);
    }
    va_end(ap);
    CFStringRef result = b.failed ? NULL : ATCFStringCreateWithCString(NULL, b.bytes, kCFStringEncodingUTF8);
    free(b.bytes);
    return result;
}
