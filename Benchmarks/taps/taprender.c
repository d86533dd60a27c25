/*
 * taprender FILE ROUNDS [SECONDS]: the CPU a processing tap adds to an output queue. Each round renders
 * FILE offline, as fast as it goes, three times — with no tap, with a no-op tap (PreEffects:
 * AudioQueueProcessingTapGetSourceAudio into the queue's own buffers, output in place, all
 * frames returned) and with a no-op siphon (PostEffects) — each on a fresh queue, the modes
 * interleaved so that the machine's drift falls on all three alike. The guide's callback reads
 * packets (three 64 KiB buffers), renders are 4096 frames of 32-bit float.
 *
 * With SECONDS the queue plays instead, in real time on the default output (the run script
 * picks the null device), for SECONDS, and is then stopped: a playing queue's CPU.
 *
 * The CPU time of each render (getrusage, user + system, the whole process: the render thread
 * and the callback thread included) is printed one line per render:
 *   MODE ROUND SECONDS FRAMES CHECKSUM
 * The checksums of the three modes must agree (a no-op tap changes nothing).
 */
#define _POSIX_C_SOURCE 200809L
#include <AudioToolbox/AudioToolbox.h>
#include <sys/resource.h>
#include <time.h>

/* Seconds to play live; 0 renders offline. */
static double liveSeconds = 0;

typedef struct {
    AudioFileID file;
    SInt64 packet;
    UInt32 packetsPerBuffer;
    AudioStreamPacketDescription *descriptions;
    int done;
} State;

static void callback(void *userData, AudioQueueRef queue, AudioQueueBufferRef buffer) {
    State *s = userData;
    if (s->done) return;
    UInt32 bytes = buffer->mAudioDataBytesCapacity, packets = s->packetsPerBuffer;
    AudioFileReadPacketData(s->file, false, &bytes, s->descriptions, s->packet, &packets, buffer->mAudioData);
    if (packets == 0) {
        s->done = 1;
        AudioQueueStop(queue, false);
        return;
    }
    buffer->mAudioDataByteSize = bytes;
    AudioQueueEnqueueBuffer(queue, buffer, s->descriptions ? packets : 0, s->descriptions);
    s->packet += packets;
}

/* The no-op tap: the source, in place. */
static void noopTap(void *inClientData, AudioQueueProcessingTapRef inAQTap, UInt32 inNumberFrames, AudioTimeStamp *ioTimeStamp,
                    AudioQueueProcessingTapFlags *ioFlags, UInt32 *outNumberFrames, AudioBufferList *ioData) {
    (void)inClientData;
    AudioQueueProcessingTapGetSourceAudio(inAQTap, inNumberFrames, ioTimeStamp, ioFlags, outNumberFrames, ioData);
}

/* The no-op siphon: looks at nothing. */
static void noopSiphon(void *inClientData, AudioQueueProcessingTapRef inAQTap, UInt32 inNumberFrames, AudioTimeStamp *ioTimeStamp,
                       AudioQueueProcessingTapFlags *ioFlags, UInt32 *outNumberFrames, AudioBufferList *ioData) {
    (void)inClientData; (void)inAQTap; (void)inNumberFrames; (void)ioTimeStamp; (void)ioFlags; (void)outNumberFrames; (void)ioData;
}

static double cpuSeconds(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/* Renders the whole file with `tap` (0 none, 1 no-op tap, 2 no-op siphon); the frames and a
   checksum. */
static long long renderFile(const char *path, int tap, double *checksum) {
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    State s = {0};
    if (AudioFileOpenURL(url, kAudioFileReadPermission, 0, &s.file) != noErr) { fprintf(stderr, "cannot open %s\n", path); exit(1); }
    CFRelease(url);
    AudioStreamBasicDescription format;
    UInt32 size = sizeof format;
    AudioFileGetProperty(s.file, kAudioFilePropertyDataFormat, &size, &format);
    UInt32 maxPacket = 0;
    size = sizeof maxPacket;
    AudioFileGetProperty(s.file, kAudioFilePropertyPacketSizeUpperBound, &size, &maxPacket);
    const UInt32 bufferBytes = 65536;
    s.packetsPerBuffer = bufferBytes / (maxPacket ? maxPacket : 1);
    if (format.mBytesPerPacket == 0) s.descriptions = malloc(s.packetsPerBuffer * sizeof *s.descriptions);
    AudioQueueRef queue;
    if (AudioQueueNewOutput(&format, callback, &s, NULL, NULL, 0, &queue) != noErr) { fprintf(stderr, "no queue\n"); exit(1); }
    if (AudioFileGetPropertyInfo(s.file, kAudioFilePropertyMagicCookieData, &size, NULL) == noErr && size > 0) {
        void *cookie = malloc(size);
        AudioFileGetProperty(s.file, kAudioFilePropertyMagicCookieData, &size, cookie);
        AudioQueueSetProperty(queue, kAudioQueueProperty_MagicCookie, cookie, size);
        free(cookie);
    }
    AudioStreamBasicDescription out = {0};
    out.mSampleRate = format.mSampleRate;
    out.mFormatID = kAudioFormatLinearPCM;
    out.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked;
    out.mChannelsPerFrame = format.mChannelsPerFrame;
    out.mBitsPerChannel = 32;
    out.mBytesPerFrame = out.mBytesPerPacket = 4 * format.mChannelsPerFrame;
    out.mFramesPerPacket = 1;
    if (liveSeconds == 0) AudioQueueSetOfflineRenderFormat(queue, &out, NULL);
    if (tap) {
        UInt32 maxFrames;
        AudioStreamBasicDescription processing;
        AudioQueueProcessingTapRef ref;
        OSStatus status = tap == 1
            ? AudioQueueProcessingTapNew(queue, noopTap, NULL, kAudioQueueProcessingTap_PreEffects, &maxFrames, &processing, &ref)
            : AudioQueueProcessingTapNew(queue, noopSiphon, NULL, kAudioQueueProcessingTap_PostEffects | kAudioQueueProcessingTap_Siphon,
                                         &maxFrames, &processing, &ref);
        if (status != noErr) { fprintf(stderr, "AudioQueueProcessingTapNew: %d\n", (int)status); exit(1); }
    }
    for (int i = 0; i < 3; i++) {
        AudioQueueBufferRef buffer;
        AudioQueueAllocateBuffer(queue, bufferBytes, &buffer);
        callback(&s, queue, buffer);
    }
    AudioQueueStart(queue, NULL);
    long long frames = 0;
    *checksum = 0;
    if (liveSeconds > 0) {
        struct timespec t = {(time_t)liveSeconds, (long)((liveSeconds - (double)(time_t)liveSeconds) * 1e9)};
        nanosleep(&t, NULL);
        AudioTimeStamp now = {0};
        AudioQueueGetCurrentTime(queue, NULL, &now, NULL);
        frames = (long long)now.mSampleTime;
        AudioQueueStop(queue, true);
        AudioQueueDispose(queue, true);
        AudioFileClose(s.file);
        free(s.descriptions);
        return frames;
    }
    AudioQueueBufferRef rendered;
    AudioQueueAllocateBuffer(queue, 4096 * out.mBytesPerFrame, &rendered);
    AudioTimeStamp time = {0};
    time.mFlags = kAudioTimeStampSampleTimeValid;
    for (;;) {
        if (AudioQueueOfflineRender(queue, &time, rendered, 4096) != noErr) break;
        UInt32 n = rendered->mAudioDataByteSize / out.mBytesPerFrame;
        const float *samples = rendered->mAudioData;
        for (UInt32 i = 0; i < n * out.mChannelsPerFrame; i += 64) *checksum += samples[i];
        frames += n;
        time.mSampleTime += n;
        if (n < 4096) break;
    }
    AudioQueueDispose(queue, true);
    AudioFileClose(s.file);
    free(s.descriptions);
    return frames;
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) { fprintf(stderr, "usage: taprender FILE ROUNDS [SECONDS]\n"); return 2; }
    int rounds = atoi(argv[2]);
    if (argc == 4) liveSeconds = atof(argv[3]);
    static const char *names[] = {"none", "tap", "siphon"};
    double checksum;
    if (liveSeconds == 0) renderFile(argv[1], 1, &checksum); /* warm-up */
    for (int round = 0; round < rounds; round++) {
        for (int k = 0; k < 3; k++) {
            int mode = (round + k) % 3; /* a different mode first in each round */
            double before = cpuSeconds();
            long long frames = renderFile(argv[1], mode, &checksum);
            double cpu = cpuSeconds() - before;
            printf("%s %d %.4f %lld %.6f\n", names[mode], round, cpu, frames, checksum);
        }
    }
    return 0;
}
