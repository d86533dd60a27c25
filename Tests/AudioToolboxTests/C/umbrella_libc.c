/*
 * umbrella_libc.c — a program that includes only <AudioToolbox/AudioToolbox.h> and uses what
 * a Mac's <CoreFoundation/CoreFoundation.h> brings in with it: isprint, bool, errno, va_list,
 * time, INT_MAX, PRIu32, assert, setjmp, signal names, FLT_MAX, setlocale, ssize_t, TRUE/FALSE,
 * fsRdPerm, paramErr. Compiled as C and as C++; prints "ok".
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AudioToolbox/AudioToolbox.h>

static int sum(int count, ...) {
    va_list args;
    int total = 0;
    int i;
    va_start(args, count);
    for (i = 0; i < count; i++) total += va_arg(args, int);
    va_end(args);
    return total;
}

int main(void) {
    char line[64];
    bool printable = isprint('A') && !isprint('\n');
    time_t now = time(NULL);
    jmp_buf jump;
    ssize_t signedSize = -1;
    UInt32 value = 4000000000U;
    errno = 0;
    assert(printable);
    if (setjmp(jump) != 0) return 3;
    snprintf(line, sizeof line, "%" PRIu32, value);
    if (!printable || now == (time_t)-1 || sum(3, 1, 2, 3) != 6 || INT_MAX != 2147483647 || errno != 0
        || strcmp(line, "4000000000") != 0 || SIGINT != 2 || FLT_MAX <= 0 || signedSize >= 0
        || setlocale(LC_ALL, NULL) == NULL || TRUE != 1 || FALSE != 0 || fsRdPerm != 1 || paramErr != -50
        || fabs(-1.5) != 1.5 || CHAR_BIT != 8 || offsetof(AudioStreamBasicDescription, mFormatID) != 8) {
        printf("wrong\n");
        return 1;
    }
    printf("ok\n");
    return 0;
}
