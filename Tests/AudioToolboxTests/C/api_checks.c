/*
 * Checks of the C API's behaviour, run by APITests.swift:
 *   api_checks errors FIXTURES_DIR SCRATCH_DIR   result codes of misuse, per function
 *   api_checks runloop FILE                      callbacks and listeners on the run loop's thread
 *   api_checks ownthread FILE                    callbacks on the queue's own thread
 *   api_checks churn N FILE                      N queues created, used and disposed of
 * Every check prints a line when it fails; the last line says how many passed and failed.
 * The expected codes are Apple's, from the headers' documentation of each call.
 */
#define _DEFAULT_SOURCE 1
#include "checks.h"
#include <malloc.h>
#include <pthread.h>
#include <unistd.h>

int passed, failed;

/* file_checks.c: Audio File Services' codes and leniency, and the main run loop. */
void fileErrors(const char *fixtures, const char *scratch);
static pthread_t mainThread;
static int onMainThread(void) { return pthread_equal(pthread_self(), mainThread); }

/* format_checks.c: Audio Format Services and the converter properties of queues. */
void formatErrors(int *passed, int *failed);

/* cf_misuse.c: the CoreFoundation subset, info dictionaries and global info. */
void cfMisuse(const char *fixtures, int *passed, int *failed);
/* hal_checks.c: the HAL subset's and Audio Hardware Services' misuse codes. */
void halErrors(int *passed, int *failed);
/* converter_checks.c: Audio Converter Services' and ExtAudioFile writing's misuse codes. */
void converterErrors(const char *scratch);
/* tap_checks.c: the processing taps' misuse codes. */
void tapErrors(void);


AudioFileID openFile(const char *path) {
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    AudioFileID file = NULL;
    OSStatus status = AudioFileOpenURL(url, kAudioFileReadPermission, 0, &file);
    CFRelease(url);
    if (status != noErr) { printf("cannot open %s: %d\n", path, (int)status); exit(2); }
    return file;
}

AudioStreamBasicDescription pcm(Float64 rate, UInt32 channels) {
    AudioStreamBasicDescription f = {0};
    f.mSampleRate = rate;
    f.mFormatID = kAudioFormatLinearPCM;
    f.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
    f.mBytesPerPacket = f.mBytesPerFrame = 2 * channels;
    f.mFramesPerPacket = 1;
    f.mChannelsPerFrame = channels;
    f.mBitsPerChannel = 16;
    return f;
}

void ignoreOutput(void *ud, AudioQueueRef q, AudioQueueBufferRef b) { (void)ud; (void)q; (void)b; }
static void ignoreInput(void *ud, AudioQueueRef q, AudioQueueBufferRef b, const AudioTimeStamp *t, UInt32 n,
                        const AudioStreamPacketDescription *d) { (void)ud; (void)q; (void)b; (void)t; (void)n; (void)d; }
static void ignoreListener(void *ud, AudioQueueRef q, AudioQueuePropertyID id) { (void)ud; (void)q; (void)id; }

static void queueErrors(void) {
    AudioStreamBasicDescription f = pcm(44100, 2);
    AudioQueueRef q = NULL, in = NULL, other = NULL;
    EXPECT_STATUS(AudioQueueNewOutput(NULL, ignoreOutput, NULL, NULL, NULL, 0, &q), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueNewOutput(&f, NULL, NULL, NULL, NULL, 0, &q), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueNewOutput(&f, ignoreOutput, NULL, NULL, NULL, 0, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueNewOutput(&f, ignoreOutput, NULL, NULL, NULL, 1, &q), kAudio_ParamError);
    AudioStreamBasicDescription qdesign = f;
    qdesign.mFormatID = kAudioFormatQDesign;
    qdesign.mBytesPerPacket = 0;
    qdesign.mFramesPerPacket = 0;
    EXPECT_STATUS(AudioQueueNewOutput(&qdesign, ignoreOutput, NULL, NULL, NULL, 0, &q), kAudioQueueErr_CodecNotFound);
    EXPECT_STATUS(AudioQueueNewOutput(&f, ignoreOutput, NULL, NULL, NULL, 0, &q), noErr);
    EXPECT_STATUS(AudioQueueNewOutput(&f, ignoreOutput, NULL, NULL, NULL, 0, &other), noErr);
    EXPECT_STATUS(AudioQueueNewInput(&f, ignoreInput, NULL, NULL, NULL, 0, &in), noErr);
    EXPECT(q != other, "two queues have the same handle");

    AudioQueueBufferRef b = NULL, b2 = NULL, foreign = NULL, ib = NULL;
    EXPECT_STATUS(AudioQueueAllocateBuffer(q, 4096, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueAllocateBuffer(q, 4096, &b), noErr);
    EXPECT_STATUS(AudioQueueAllocateBufferWithPacketDescriptions(q, 4096, 16, &b2), noErr);
    EXPECT(b && b->mAudioDataBytesCapacity == 4096 && b->mAudioData != NULL && b->mAudioDataByteSize == 0,
           "a new buffer's fields");
    EXPECT(b2 && b2->mPacketDescriptionCapacity == 16 && b2->mPacketDescriptions != NULL, "descriptions of a buffer");
    EXPECT_STATUS(AudioQueueAllocateBuffer(other, 4096, &foreign), noErr);
    EXPECT_STATUS(AudioQueueAllocateBuffer(in, 4096, &ib), noErr);
    memset(b->mAudioData, 0, 4096);
    b->mAudioDataByteSize = 4096;
    foreign->mAudioDataByteSize = 4096;
    EXPECT_STATUS(AudioQueueEnqueueBuffer(q, foreign, 0, NULL), kAudioQueueErr_InvalidBuffer);
    EXPECT_STATUS(AudioQueueEnqueueBuffer(q, NULL, 0, NULL), kAudioQueueErr_InvalidBuffer);
    b2->mAudioDataByteSize = 0;
    EXPECT_STATUS(AudioQueueEnqueueBuffer(q, b2, 0, NULL), kAudioQueueErr_BufferEmpty);
    /* Constant-size packets need no descriptions: a count without them (programs pass the byte
       count there) is ignored, as a Mac does. */
    EXPECT_STATUS(AudioQueueEnqueueBuffer(q, b, 4096, NULL), noErr);
    EXPECT_STATUS(AudioQueueEnqueueBuffer(q, b, 0, NULL), kAudioQueueErr_BufferEnqueuedTwice);
    {
        /* Variable-size packets cannot be played without their descriptions. */
        AudioStreamBasicDescription aac = {44100, kAudioFormatMPEG4AAC, 0, 0, 1024, 0, 2, 0, 0};
        AudioQueueRef vbr = NULL;
        AudioQueueBufferRef vb = NULL;
        EXPECT_STATUS(AudioQueueNewOutput(&aac, ignoreOutput, NULL, NULL, NULL, 0, &vbr), noErr);
        if (vbr) {
            EXPECT_STATUS(AudioQueueAllocateBuffer(vbr, 4096, &vb), noErr);
            vb->mAudioDataByteSize = 100;
            EXPECT_STATUS(AudioQueueEnqueueBuffer(vbr, vb, 2, NULL), kAudio_ParamError);
            AudioQueueDispose(vbr, true);
        }
    }
    /* Linear PCM described anyway (as streaming players do with what a parser gave them): the
       descriptions are not needed and not used. */
    AudioQueueBufferRef described = NULL;
    EXPECT_STATUS(AudioQueueAllocateBuffer(q, 4096, &described), noErr);
    memset(described->mAudioData, 0, 4096);
    described->mAudioDataByteSize = 4096;
    AudioStreamPacketDescription frames[1024];
    for (int i = 0; i < 1024; i++) frames[i] = (AudioStreamPacketDescription){(SInt64)i * 4, 0, 4};
    EXPECT_STATUS(AudioQueueEnqueueBuffer(q, described, 1024, frames), noErr);
    EXPECT_STATUS(AudioQueueFreeBuffer(q, b), kAudioQueueErr_BufferInQueue);
    EXPECT_STATUS(AudioQueueFreeBuffer(q, foreign), kAudioQueueErr_InvalidBuffer);

    /* Output-only calls on an input queue. */
    EXPECT_STATUS(AudioQueueEnqueueBufferWithParameters(in, ib, 0, NULL, 0, 0, 0, NULL, NULL, NULL),
                  kAudioQueueErr_InvalidQueueType);
    EXPECT_STATUS(AudioQueuePrime(in, 0, NULL), kAudioQueueErr_InvalidQueueType);
    EXPECT_STATUS(AudioQueueSetOfflineRenderFormat(in, &f, NULL), kAudioQueueErr_InvalidQueueType);

    /* Parameters. */
    AudioQueueParameterValue v = 0;
    EXPECT_STATUS(AudioQueueSetParameter(q, kAudioQueueParam_Volume, 0.5f), noErr);
    EXPECT_STATUS(AudioQueueGetParameter(q, kAudioQueueParam_Volume, &v), noErr);
    EXPECT(v == 0.5f, "volume read back %f", (double)v);
    EXPECT_STATUS(AudioQueueGetParameter(q, kAudioQueueParam_Volume, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueSetParameter(q, 999, 1), kAudioQueueErr_InvalidParameter);
    EXPECT_STATUS(AudioQueueGetParameter(q, kAudioQueueParam_PlayRate, &v), noErr);
    EXPECT(v == 1, "PlayRate defaults to 1, not %f", (double)v);
    EXPECT_STATUS(AudioQueueGetParameter(q, kAudioQueueParam_Pitch, &v), noErr);
    EXPECT(v == 0, "Pitch defaults to 0, not %f", (double)v);
    AudioQueueParameterEvent unknownEvent = {999, 1};
    b2->mAudioDataByteSize = 4096;
    EXPECT_STATUS(AudioQueueEnqueueBufferWithParameters(q, b2, 0, NULL, 0, 0, 1, &unknownEvent, NULL, NULL),
                  kAudioQueueErr_InvalidParameter);
    AudioQueueParameterEvent fastEvent = {kAudioQueueParam_PlayRate, 2.5f};
    EXPECT_STATUS(AudioQueueEnqueueBufferWithParameters(q, b2, 0, NULL, 0, 0, 1, &fastEvent, NULL, NULL),
                  kAudioQueueErr_InvalidParameter);
    b2->mAudioDataByteSize = 0;

    /* Time and pitch: rate and pitch are stored with the unit off; out of range is refused. */
    EXPECT_STATUS(AudioQueueSetParameter(q, kAudioQueueParam_PlayRate, 1.5f), noErr);
    EXPECT_STATUS(AudioQueueGetParameter(q, kAudioQueueParam_PlayRate, &v), noErr);
    EXPECT(v == 1.5f, "PlayRate read back %f", (double)v);
    EXPECT_STATUS(AudioQueueSetParameter(q, kAudioQueueParam_PlayRate, 2.01f), kAudioQueueErr_InvalidParameter);
    EXPECT_STATUS(AudioQueueSetParameter(q, kAudioQueueParam_PlayRate, 0.49f), kAudioQueueErr_InvalidParameter);
    EXPECT_STATUS(AudioQueueSetParameter(q, kAudioQueueParam_Pitch, -1200), noErr);
    EXPECT_STATUS(AudioQueueGetParameter(q, kAudioQueueParam_Pitch, &v), noErr);
    EXPECT(v == -1200, "Pitch read back %f", (double)v);
    EXPECT_STATUS(AudioQueueSetParameter(q, kAudioQueueParam_Pitch, 2401), kAudioQueueErr_InvalidParameter);
    EXPECT_STATUS(AudioQueueSetParameter(q, kAudioQueueParam_PlayRate, 1), noErr);
    EXPECT_STATUS(AudioQueueSetParameter(q, kAudioQueueParam_Pitch, 0), noErr);
    UInt32 tp = 7, tpSize = sizeof tp;
    EXPECT_STATUS(AudioQueueGetProperty(q, kAudioQueueProperty_EnableTimePitch, &tp, &tpSize), noErr);
    EXPECT(tp == 0 && tpSize == 4, "EnableTimePitch defaults to 0, not %u", tp);
    EXPECT_STATUS(AudioQueueGetPropertySize(q, kAudioQueueProperty_TimePitchAlgorithm, &tpSize), noErr);
    EXPECT(tpSize == 4, "TimePitchAlgorithm is a UInt32 (%u bytes)", tpSize);
    EXPECT_STATUS(AudioQueueGetProperty(q, kAudioQueueProperty_TimePitchAlgorithm, &tp, &tpSize), noErr);
    EXPECT(tp == kAudioQueueTimePitchAlgorithm_Spectral, "the default algorithm is Spectral, not %08x", tp);
    tp = 0x78787878;
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_TimePitchAlgorithm, &tp, 4), kAudioQueueErr_InvalidPropertyValue);
    tp = kAudioQueueTimePitchAlgorithm_TimeDomain;
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_TimePitchAlgorithm, &tp, 2), kAudioQueueErr_InvalidPropertySize);
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_TimePitchAlgorithm, &tp, 4), noErr);
    tpSize = sizeof tp;
    EXPECT_STATUS(AudioQueueGetProperty(q, kAudioQueueProperty_TimePitchAlgorithm, &tp, &tpSize), noErr);
    EXPECT(tp == kAudioQueueTimePitchAlgorithm_TimeDomain, "algorithm read back %08x", tp);
    tp = 1;
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_EnableTimePitch, &tp, 8), kAudioQueueErr_InvalidPropertySize);
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_EnableTimePitch, &tp, 4), noErr);
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_TimePitchBypass, &tp, 4), noErr);
    tp = 0;
    tpSize = sizeof tp;
    EXPECT_STATUS(AudioQueueGetProperty(q, kAudioQueueProperty_TimePitchBypass, &tp, &tpSize), noErr);
    EXPECT(tp == 1, "TimePitchBypass read back %u", tp);
    EXPECT_STATUS(AudioQueueGetProperty(q, kAudioQueueProperty_EnableTimePitch, &tp, &tpSize), noErr);
    EXPECT(tp == 1, "EnableTimePitch read back %u", tp);
    tp = 0;
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_TimePitchBypass, &tp, 4), noErr);
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_EnableTimePitch, &tp, 4), noErr);
    /* An input queue has no time/pitch unit. */
    EXPECT_STATUS(AudioQueueGetPropertySize(in, kAudioQueueProperty_EnableTimePitch, &tpSize), kAudioQueueErr_InvalidProperty);
    EXPECT_STATUS(AudioQueueGetProperty(in, kAudioQueueProperty_TimePitchAlgorithm, &tp, &tpSize), kAudioQueueErr_InvalidProperty);
    EXPECT_STATUS(AudioQueueSetProperty(in, kAudioQueueProperty_TimePitchBypass, &tp, 4), kAudioQueueErr_InvalidProperty);

    /* Properties. */
    UInt32 size = 0, running = 7;
    EXPECT_STATUS(AudioQueueGetPropertySize(q, kAudioQueueProperty_StreamDescription, &size), noErr);
    EXPECT(size == sizeof(AudioStreamBasicDescription), "stream description size %u", size);
    AudioStreamBasicDescription back;
    size = sizeof back;
    EXPECT_STATUS(AudioQueueGetProperty(q, kAudioQueueProperty_StreamDescription, &back, &size), noErr);
    EXPECT(back.mSampleRate == 44100 && back.mChannelsPerFrame == 2 && back.mBytesPerFrame == 4, "stream description");
    size = 4;
    EXPECT_STATUS(AudioQueueGetProperty(q, kAudioQueueProperty_StreamDescription, &back, &size), kAudioQueueErr_InvalidPropertySize);
    size = sizeof running;
    EXPECT_STATUS(AudioQueueGetProperty(q, kAudioQueueProperty_IsRunning, &running, &size), noErr);
    EXPECT(running == 0 && size == 4, "IsRunning of a new queue is %u", running);
    EXPECT_STATUS(AudioQueueGetProperty(q, 0x7a7a7a7a, &running, &size), kAudioQueueErr_InvalidProperty);
    EXPECT_STATUS(AudioQueueGetPropertySize(q, 0x7a7a7a7a, &size), kAudioQueueErr_InvalidProperty);
    EXPECT_STATUS(AudioQueueGetProperty(q, kAudioQueueProperty_IsRunning, NULL, &size), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_IsRunning, &running, 4), kAudioQueueErr_InvalidProperty);
    UInt32 on = 1;
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_EnableLevelMetering, &on, 2), kAudioQueueErr_InvalidPropertySize);
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_EnableLevelMetering, &on, 4), noErr);
    CFStringRef device = CFSTR("null");
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_CurrentDevice, &device, 4), kAudioQueueErr_InvalidPropertySize);
    EXPECT_STATUS(AudioQueueGetPropertySize(q, kAudioQueueProperty_CurrentDevice, &size), noErr);
    EXPECT(size == sizeof(CFStringRef), "CurrentDevice is a CFStringRef (%u bytes)", size);
    /* Channel assignments: one 16-byte element per queue channel, one device, channels from
       1 and none twice; write-only. */
    AudioQueueChannelAssignment assign[3] = {{CFSTR("null:null"), 2}, {CFSTR("null:null"), 1}, {CFSTR("null:null"), 3}};
    EXPECT(sizeof(AudioQueueChannelAssignment) == 16, "AudioQueueChannelAssignment is %zu bytes", sizeof(AudioQueueChannelAssignment));
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_ChannelAssignments, assign, 15), kAudioQueueErr_InvalidPropertySize);
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_ChannelAssignments, assign, 16), kAudioQueueErr_InvalidPropertySize);
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_ChannelAssignments, assign, 48), kAudioQueueErr_InvalidPropertySize);
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_ChannelAssignments, NULL, 32), kAudio_ParamError);
    AudioQueueChannelAssignment bad[2] = {{CFSTR("null:null"), 0}, {CFSTR("null:null"), 1}};
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_ChannelAssignments, bad, sizeof bad), kAudioQueueErr_InvalidPropertyValue);
    bad[0].mChannelNumber = 1;
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_ChannelAssignments, bad, sizeof bad), kAudioQueueErr_InvalidPropertyValue);
    bad[0].mChannelNumber = 2;
    bad[1].mDeviceUID = CFSTR("file:/tmp/other.wav");
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_ChannelAssignments, bad, sizeof bad), kAudioQueueErr_InvalidPropertyValue);
    memset(&bad[1].mDeviceUID, 0, sizeof bad[1].mDeviceUID);
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_ChannelAssignments, bad, sizeof bad), kAudioQueueErr_InvalidPropertyValue);
    bad[0].mDeviceUID = CFSTR("nosuch:device");
    bad[1].mDeviceUID = CFSTR("nosuch:device");
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_ChannelAssignments, bad, sizeof bad), kAudioQueueErr_InvalidDevice);
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_ChannelAssignments, assign, 32), noErr);
    EXPECT_STATUS(AudioQueueSetProperty(in, kAudioQueueProperty_ChannelAssignments, assign, 32), noErr);
    EXPECT_STATUS(AudioQueueGetPropertySize(q, kAudioQueueProperty_ChannelAssignments, &size), kAudioQueueErr_InvalidProperty);
    size = sizeof assign;
    EXPECT_STATUS(AudioQueueGetProperty(q, kAudioQueueProperty_ChannelAssignments, assign, &size), kAudioQueueErr_InvalidProperty);
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_ChannelAssignments, NULL, 0), noErr);
    EXPECT_STATUS(AudioQueueSetProperty(in, kAudioQueueProperty_ChannelAssignments, NULL, 0), noErr);
    EXPECT_STATUS(AudioQueueAddPropertyListener(q, kAudioQueueProperty_IsRunning, NULL, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueAddPropertyListener(q, 0x7a7a7a7a, ignoreListener, NULL), kAudioQueueErr_InvalidProperty);
    EXPECT_STATUS(AudioQueueRemovePropertyListener(q, 0x7a7a7a7a, ignoreListener, NULL), kAudioQueueErr_InvalidProperty);
    EXPECT_STATUS(AudioQueueAddPropertyListener(q, kAudioQueueProperty_IsRunning, ignoreListener, NULL), noErr);
    EXPECT_STATUS(AudioQueueRemovePropertyListener(q, kAudioQueueProperty_IsRunning, ignoreListener, NULL), noErr);

    /* Time and offline render. */
    AudioQueueTimelineRef timeline = NULL, otherTimeline = NULL;
    EXPECT_STATUS(AudioQueueCreateTimeline(q, &timeline), noErr);
    EXPECT_STATUS(AudioQueueCreateTimeline(other, &otherTimeline), noErr);
    EXPECT_STATUS(AudioQueueDisposeTimeline(q, otherTimeline), kAudio_ParamError);
    AudioTimeStamp now;
    EXPECT_STATUS(AudioQueueDeviceGetCurrentTime(q, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueDeviceGetCurrentTime(q, &now), noErr);
    EXPECT((now.mFlags & kAudioTimeStampHostTimeValid) != 0, "a stopped queue's device time has a host time");
    AudioTimeStamp zero = {0};
    zero.mFlags = kAudioTimeStampSampleTimeValid;
    EXPECT_STATUS(AudioQueueOfflineRender(q, &zero, b2, 16), kAudioQueueErr_InvalidOfflineMode);
    EXPECT_STATUS(AudioQueueDisposeTimeline(q, timeline), noErr);
    EXPECT_STATUS(AudioQueueDisposeTimeline(q, timeline), kAudio_ParamError);

    /* Control in the wrong state. */
    EXPECT_STATUS(AudioQueuePause(q), noErr);
    EXPECT_STATUS(AudioQueueReset(q), noErr);
    EXPECT_STATUS(AudioQueueFlush(q), noErr);

    /* After disposal every call says the queue is gone, and nothing crashes. */
    EXPECT_STATUS(AudioQueueDispose(q, true), noErr);
    EXPECT_STATUS(AudioQueueDispose(q, true), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueStart(q, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueAllocateBuffer(q, 16, &b), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueEnqueueBuffer(q, foreign, 0, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueGetPropertySize(q, kAudioQueueProperty_IsRunning, &size), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueStop(NULL, true), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueDispose(other, true), noErr);
    EXPECT_STATUS(AudioQueueDispose(in, false), noErr);
}

/* Playing a PCM file through the null device, with callbacks where the run loop says. */
typedef struct {
    AudioFileID file;
    SInt64 packet;
    pthread_t expectedThread;
    int checkThread;
    int callbacks, wrongThread, listenerCalls, listenerWrongThread, done;
    UInt32 lastRunning;
} Player;

static void playerCallback(void *ud, AudioQueueRef q, AudioQueueBufferRef b) {
    Player *p = ud;
    p->callbacks++;
    if (p->checkThread && !pthread_equal(pthread_self(), p->expectedThread)) p->wrongThread++;
    if (p->done) return;
    UInt32 bytes = b->mAudioDataBytesCapacity, count = b->mAudioDataBytesCapacity / 4;
    AudioFileReadPacketData(p->file, false, &bytes, NULL, p->packet, &count, b->mAudioData);
    if (count == 0) {
        p->done = 1;
        AudioQueueStop(q, false);
        return;
    }
    b->mAudioDataByteSize = bytes;
    AudioQueueEnqueueBuffer(q, b, 0, NULL);
    p->packet += count;
}

static void runningListener(void *ud, AudioQueueRef q, AudioQueuePropertyID id) {
    Player *p = ud;
    p->listenerCalls++;
    if (p->checkThread && !pthread_equal(pthread_self(), p->expectedThread)) p->listenerWrongThread++;
    UInt32 size = sizeof p->lastRunning;
    AudioQueueGetProperty(q, id, &p->lastRunning, &size);
}

static void play(const char *path, int onRunLoop) {
    Player p = {0};
    p.file = openFile(path);
    AudioStreamBasicDescription f;
    UInt32 size = sizeof f;
    AudioFileGetProperty(p.file, kAudioFilePropertyDataFormat, &size, &f);
    p.expectedThread = pthread_self();
    p.checkThread = onRunLoop;
    AudioQueueRef q;
    EXPECT_STATUS(AudioQueueNewOutput(&f, playerCallback, &p, onRunLoop ? CFRunLoopGetCurrent() : NULL,
                                      kCFRunLoopCommonModes, 0, &q), noErr);
    EXPECT_STATUS(AudioQueueAddPropertyListener(q, kAudioQueueProperty_IsRunning, runningListener, &p), noErr);
    AudioQueueBufferRef buffers[3];
    for (int i = 0; i < 3; i++) {
        AudioQueueAllocateBuffer(q, 8192, &buffers[i]);
        playerCallback(&p, q, buffers[i]);
    }
    int primed = p.callbacks;
    EXPECT_STATUS(AudioQueueStart(q, NULL), noErr);
    if (onRunLoop) {
        /* Nothing is delivered while the thread does not run its loop. */
        usleep(300000);
        EXPECT(p.callbacks == primed, "%d callbacks ran while the run loop was not running", p.callbacks - primed);
        int rounds = 0;
        while (!(p.done && p.lastRunning == 0 && p.listenerCalls >= 2) && rounds++ < 100)
            CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.25, false);
        EXPECT(CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.05, true) != kCFRunLoopRunFinished,
               "a run loop with a queue attached does not finish");
    } else {
        for (int rounds = 0; !(p.done && p.lastRunning == 0 && p.listenerCalls >= 2) && rounds < 100; rounds++) usleep(50000);
        EXPECT(p.callbacks > primed, "callbacks on the queue's own thread");
    }
    EXPECT(p.done, "the whole file played");
    EXPECT(p.wrongThread == 0, "%d callbacks ran on another thread than the run loop's", p.wrongThread);
    EXPECT(p.listenerCalls >= 2 && p.lastRunning == 0, "IsRunning listener: %d calls, last value %u", p.listenerCalls, p.lastRunning);
    EXPECT(p.listenerWrongThread == 0, "%d listener calls on another thread", p.listenerWrongThread);
    EXPECT_STATUS(AudioQueueDispose(q, true), noErr);
    /* Another thread's loop has sources only while queues are attached; the main thread's
       keeps the audio system's. */
    if (onRunLoop)
        EXPECT(CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.05, false) ==
                   (onMainThread() ? kCFRunLoopRunTimedOut : kCFRunLoopRunFinished),
               "a run loop whose queue was disposed of: %s", onMainThread() ? "main waits" : "another thread's finishes");
    AudioFileClose(p.file);
}

/* Buffers freed, listeners removed and queues disposed of while their calls wait on the run
   loop: nothing is delivered for what the program let go of, and an asynchronous disposal
   delivers the last calls, the IsRunning listener's among them. */
typedef struct {
    AudioQueueBufferRef freed[3];
    int freedSeen, calls, listener, removedListener;
} Lifetime;

static void lifetimeCallback(void *ud, AudioQueueRef q, AudioQueueBufferRef b) {
    Lifetime *l = ud;
    (void)q;
    l->calls++;
    for (int i = 0; i < 3; i++) if (b == l->freed[i]) l->freedSeen++;
}

static void lifetimeListener(void *ud, AudioQueueRef q, AudioQueuePropertyID id) {
    (void)q; (void)id;
    ((Lifetime *)ud)->listener++;
}

static void removedListener(void *ud, AudioQueueRef q, AudioQueuePropertyID id) {
    (void)q; (void)id;
    ((Lifetime *)ud)->removedListener++;
}

static void lifetimes(void) {
    AudioStreamBasicDescription f = pcm(44100, 2);
    Lifetime l = {0};
    AudioQueueRef q;
    EXPECT_STATUS(AudioQueueNewOutput(&f, lifetimeCallback, &l, CFRunLoopGetCurrent(), NULL, 0, &q), noErr);
    AudioQueueAddPropertyListener(q, kAudioQueueProperty_IsRunning, removedListener, &l);
    for (int i = 0; i < 3; i++) {
        AudioQueueAllocateBuffer(q, 8820, &l.freed[i]);
        memset(l.freed[i]->mAudioData, 0, 8820);
        l.freed[i]->mAudioDataByteSize = 8820;
        AudioQueueEnqueueBuffer(q, l.freed[i], 0, NULL);
    }
    EXPECT_STATUS(AudioQueueStart(q, NULL), noErr);
    usleep(100000);
    /* The stop hands every buffer back: their callbacks wait on the run loop. */
    EXPECT_STATUS(AudioQueueStop(q, true), noErr);
    EXPECT_STATUS(AudioQueueRemovePropertyListener(q, kAudioQueueProperty_IsRunning, removedListener, &l), noErr);
    for (int i = 0; i < 3; i++) EXPECT_STATUS(AudioQueueFreeBuffer(q, l.freed[i]), noErr);
    CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.2, false);
    EXPECT(l.freedSeen == 0, "%d callbacks delivered freed buffers", l.freedSeen);
    EXPECT(l.removedListener == 0, "a removed listener was called %d times", l.removedListener);

    /* An asynchronous disposal plays what is enqueued and calls back, IsRunning included. */
    Lifetime m = {0};
    AudioQueueRef r;
    EXPECT_STATUS(AudioQueueNewOutput(&f, lifetimeCallback, &m, CFRunLoopGetCurrent(), NULL, 0, &r), noErr);
    AudioQueueAddPropertyListener(r, kAudioQueueProperty_IsRunning, lifetimeListener, &m);
    AudioQueueBufferRef b;
    AudioQueueAllocateBuffer(r, 17640, &b);
    memset(b->mAudioData, 0, 17640);
    b->mAudioDataByteSize = 17640;
    AudioQueueEnqueueBuffer(r, b, 0, NULL);
    EXPECT_STATUS(AudioQueueStart(r, NULL), noErr);
    for (int i = 0; i < 20 && m.listener < 1; i++) CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.05, false);
    EXPECT_STATUS(AudioQueueDispose(r, false), noErr);
    UInt32 running = 1, size = sizeof running;
    EXPECT_STATUS(AudioQueueDispose(r, true), kAudioQueueErr_DisposalPending);
    for (int i = 0; i < 100 && (m.calls < 1 || m.listener < 2); i++) CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.05, false);
    EXPECT(m.calls == 1, "the asynchronous disposal's buffer came back %d times", m.calls);
    EXPECT(m.listener == 2, "IsRunning listener called %d times (start and stop)", m.listener);
    /* The handle goes right after the last listener call: the run loop runs what follows it
       (at most two seconds here, for a machine busy enough to hold the release back). */
    for (int i = 0; i < 40 && AudioQueueGetProperty(r, kAudioQueueProperty_IsRunning, &running, &size) == noErr; i++)
        CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.05, true);
    EXPECT_STATUS(AudioQueueGetProperty(r, kAudioQueueProperty_IsRunning, &running, &size), kAudio_ParamError);
    EXPECT_STATUS(AudioQueueDispose(q, true), noErr);
}

/* Another thread's run loop: callbacks run there, not on the main thread. */
static void *loopThread(void *arg) {
    play(arg, 1);
    return NULL;
}

static void churnRound(int n, AudioFileID file, const AudioStreamBasicDescription *fmt);

/* glibc's count of the heap in use once the queues' threads have ended: read every 50 ms until
   two reads agree within 64 KiB (at most 3 s). */
static size_t settledHeap(void) {
    usleep(200000);
    size_t last = mallinfo2().uordblks;
    for (int i = 0; i < 60; i++) {
        usleep(50000);
        size_t now = mallinfo2().uordblks;
        size_t change = now > last ? now - last : last - now;
        last = now;
        if (change < 65536) break;
    }
    return last;
}

/* N queues made and disposed of: ASan's leak check sees what is lost; the heap in use after
   them (glibc's count, without ASan) shows what is kept by tables that should have let go. */
static void churn(int n, const char *path) {
    AudioFileID file = openFile(path);
    AudioStreamBasicDescription f;
    UInt32 size = sizeof f;
    AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &f);
    churnRound(50, file, &f);
    size_t before = settledHeap();
    churnRound(n, file, &f);
    size_t after = settledHeap();
    long growth = (long)after - (long)before;
    printf("heap in use: %zu bytes before, %zu after %d queues (%+ld)\n", before, after, n, growth);
    /* Each queue holds two 4 KiB buffers and its objects: one kept per round would add 8 KiB
       or more per queue. What threads still ending and allocator caches hold swings by up to
       about 4 MiB between runs, so the bound is a third of the smallest leak: 3,000 queues
       (the test's count) give 8 MiB, twice that swing. */
    long bound = (long)n * 8192 / 3;
    EXPECT(growth < bound, "the heap grew by %ld bytes over %d queues (bound %ld)", growth, n, bound);
    AudioFileClose(file);
}

static void churnRound(int n, AudioFileID file, const AudioStreamBasicDescription *fmt) {
    AudioStreamBasicDescription f = *fmt;
    AudioStreamBasicDescription out = f;
    out.mFormatID = kAudioFormatLinearPCM;
    out.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked;
    out.mBitsPerChannel = 32;
    out.mBytesPerFrame = out.mBytesPerPacket = 4 * f.mChannelsPerFrame;
    out.mFramesPerPacket = 1;
    for (int i = 0; i < n; i++) {
        AudioQueueRef q;
        if (AudioQueueNewOutput(&f, ignoreOutput, NULL, (i & 1) ? CFRunLoopGetCurrent() : NULL, NULL, 0, &q) != noErr) {
            failed++;
            printf("FAIL queue %d\n", i);
            break;
        }
        AudioQueueBufferRef b, o;
        AudioQueueAllocateBuffer(q, 4096, &b);
        AudioQueueAllocateBuffer(q, 4096, &o);
        UInt32 bytes = 4096, count = 4096 / f.mBytesPerPacket;
        AudioFileReadPacketData(file, false, &bytes, NULL, 0, &count, b->mAudioData);
        b->mAudioDataByteSize = bytes;
        AudioQueueSetOfflineRenderFormat(q, &out, NULL);
        AudioQueueEnqueueBuffer(q, b, 0, NULL);
        AudioQueueAddPropertyListener(q, kAudioQueueProperty_IsRunning, ignoreListener, NULL);
        AudioQueueTimelineRef t;
        AudioQueueCreateTimeline(q, &t);
        AudioQueueStart(q, NULL);
        AudioTimeStamp ts = {0};
        ts.mFlags = kAudioTimeStampSampleTimeValid;
        AudioQueueOfflineRender(q, &ts, o, 256);
        if (i % 3 == 0) AudioQueueDisposeTimeline(q, t);
        if (AudioQueueDispose(q, true) != noErr) failed++; else passed++;
        CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0, false);
    }
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    mainThread = pthread_self();
    if (argc < 3) {
        fprintf(stderr, "usage: api_checks errors FIXTURES SCRATCH | runloop FILE | ownthread FILE | churn N FILE\n");
        return 2;
    }
    if (strcmp(argv[1], "errors") == 0 && argc == 4) {
        queueErrors();
        fileErrors(argv[2], argv[3]);
        formatErrors(&passed, &failed);
        cfMisuse(argv[2], &passed, &failed);
        halErrors(&passed, &failed);
        converterErrors(argv[3]);
        tapErrors();
    } else if (strcmp(argv[1], "runloop") == 0) {
        play(argv[2], 1);
        lifetimes();
        pthread_t thread;
        pthread_create(&thread, NULL, loopThread, argv[2]);
        pthread_join(thread, NULL);
    } else if (strcmp(argv[1], "ownthread") == 0) {
        play(argv[2], 0);
    } else if (strcmp(argv[1], "churn") == 0 && argc == 4) {
        churn(atoi(argv[2]), argv[3]);
    } else {
        return 2;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
