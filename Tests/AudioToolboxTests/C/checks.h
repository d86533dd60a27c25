/*
 * What api_checks.c and file_checks.c share: the pass and fail counts, the EXPECT macros, and
 * helpers to open a fixture, describe 16-bit PCM and ignore a queue's callbacks.
 */
#ifndef API_CHECKS_H
#define API_CHECKS_H

#include <AudioToolbox/AudioToolbox.h>

extern int passed, failed;

#define EXPECT(cond, ...) do { if (cond) passed++; else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)
#define EXPECT_STATUS(call, expected) do { OSStatus s_ = (call); EXPECT(s_ == (OSStatus)(expected), "%s = %d, expected %s = %d", #call, (int)s_, #expected, (int)(expected)); } while (0)

/* Opens a fixture for reading; exits when it cannot. */
AudioFileID openFile(const char *path);
/* Interleaved 16-bit signed linear PCM. */
AudioStreamBasicDescription pcm(Float64 rate, UInt32 channels);
/* An output callback that does nothing. */
void ignoreOutput(void *ud, AudioQueueRef q, AudioQueueBufferRef b);

#endif
