/*
 * host_time.c — <CoreAudio/HostTime.h> and <mach/mach_time.h>, run by HostTimeTests.swift:
 * the host clock is CLOCK_MONOTONIC in nanoseconds, the conversions are the identity, and the
 * mHostTime of a queue's time stamps is on that clock. Prints "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L
#include <AudioToolbox/AudioToolbox.h>
#include <CoreAudio/HostTime.h>
#include <mach/mach_time.h>
#include <time.h>

static int passed, failed;
#define EXPECT(cond, ...) do { if (cond) passed++; else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

static UInt64 monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (UInt64)ts.tv_sec * 1000000000ULL + (UInt64)ts.tv_nsec;
}

static void silence(void *ud, AudioQueueRef q, AudioQueueBufferRef b) {
    (void)ud;
    memset(b->mAudioData, 0, b->mAudioDataBytesCapacity);
    b->mAudioDataByteSize = b->mAudioDataBytesCapacity;
    AudioQueueEnqueueBuffer(q, b, 0, NULL);
}

int main(void) {
    UInt64 before = monotonic();
    UInt64 host = AudioGetCurrentHostTime();
    UInt64 mach = mach_absolute_time();
    UInt64 after = monotonic();
    EXPECT(before <= host && host <= mach && mach <= after, "host %llu, mach %llu not within [%llu, %llu]",
           (unsigned long long)host, (unsigned long long)mach, (unsigned long long)before, (unsigned long long)after);
    EXPECT(AudioGetHostClockFrequency() == 1e9, "frequency %f", AudioGetHostClockFrequency());
    EXPECT(AudioGetHostClockMinimumTimeDelta() == 1, "minimum delta %u", (unsigned)AudioGetHostClockMinimumTimeDelta());
    EXPECT(AudioConvertHostTimeToNanos(123456789ULL) == 123456789ULL, "host time to nanos");
    EXPECT(AudioConvertNanosToHostTime(987654321ULL) == 987654321ULL, "nanos to host time");

    mach_timebase_info_data_t timebase = {0, 0};
    EXPECT(mach_timebase_info(&timebase) == KERN_SUCCESS && timebase.numer == 1 && timebase.denom == 1,
           "timebase %u/%u", (unsigned)timebase.numer, (unsigned)timebase.denom);
    EXPECT(mach_timebase_info(NULL) == KERN_SUCCESS, "timebase of NULL");
    EXPECT(sizeof(mach_timebase_info_data_t) == 8, "sizeof(mach_timebase_info_data_t) = %zu", sizeof(mach_timebase_info_data_t));
    EXPECT(mach_continuous_time() >= mach, "continuous time went back");

    /* A playing queue's time stamp: its host time is a reading of the same clock. */
    AudioStreamBasicDescription f;
    memset(&f, 0, sizeof f);
    f.mSampleRate = 44100;
    f.mFormatID = kAudioFormatLinearPCM;
    f.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
    f.mBytesPerPacket = f.mBytesPerFrame = 4;
    f.mFramesPerPacket = 1;
    f.mChannelsPerFrame = 2;
    f.mBitsPerChannel = 16;
    AudioQueueRef queue = NULL;
    OSStatus status = AudioQueueNewOutput(&f, silence, NULL, NULL, NULL, 0, &queue);
    EXPECT(status == noErr, "AudioQueueNewOutput: %d", (int)status);
    if (status == noErr) {
        for (int i = 0; i < 3; i++) {
            AudioQueueBufferRef b;
            AudioQueueAllocateBuffer(queue, 4 * 2048, &b);
            silence(NULL, queue, b);
        }
        AudioQueueStart(queue, NULL);
        struct timespec pause = {0, 300 * 1000 * 1000};
        nanosleep(&pause, NULL);
        AudioTimeStamp stamp;
        memset(&stamp, 0, sizeof stamp);
        UInt64 low = mach_absolute_time();
        status = AudioQueueDeviceGetCurrentTime(queue, &stamp);
        UInt64 high = mach_absolute_time();
        EXPECT(status == noErr, "AudioQueueDeviceGetCurrentTime: %d", (int)status);
        EXPECT((stamp.mFlags & kAudioTimeStampHostTimeValid) && stamp.mHostTime + 1000000000ULL >= low &&
                   stamp.mHostTime <= high + 1000000000ULL,
               "device time's host time %llu is not within a second of mach_absolute_time [%llu, %llu]",
               (unsigned long long)stamp.mHostTime, (unsigned long long)low, (unsigned long long)high);
        AudioQueueDispose(queue, true);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
