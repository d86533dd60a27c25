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
#include <AudioToolbox/AudioToolbox.h>
#include <malloc.h>
#include <pthread.h>
#include <unistd.h>

static int passed, failed;
static pthread_t mainThread;
static int onMainThread(void) { return pthread_equal(pthread_self(), mainThread); }

/* format_checks.c: Audio Format Services and the converter properties of queues. */
void formatErrors(int *passed, int *failed);

/* cf_misuse.c: the CoreFoundation subset, info dictionaries and global info. */
void cfMisuse(const char *fixtures, int *passed, int *failed);
/* hal_checks.c: the HAL subset's and Audio Hardware Services' misuse codes. */
void halErrors(int *passed, int *failed);

#define EXPECT(cond, ...) do { if (cond) passed++; else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)
#define EXPECT_STATUS(call, expected) do { OSStatus s_ = (call); EXPECT(s_ == (OSStatus)(expected), "%s = %d, expected %s = %d", #call, (int)s_, #expected, (int)(expected)); } while (0)

static AudioFileID openFile(const char *path) {
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    AudioFileID file = NULL;
    OSStatus status = AudioFileOpenURL(url, kAudioFileReadPermission, 0, &file);
    CFRelease(url);
    if (status != noErr) { printf("cannot open %s: %d\n", path, (int)status); exit(2); }
    return file;
}

static AudioStreamBasicDescription pcm(Float64 rate, UInt32 channels) {
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

static void ignoreOutput(void *ud, AudioQueueRef q, AudioQueueBufferRef b) { (void)ud; (void)q; (void)b; }
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
    EXPECT_STATUS(AudioQueueEnqueueBuffer(q, b, 2, NULL), kAudio_ParamError);
    b2->mAudioDataByteSize = 0;
    EXPECT_STATUS(AudioQueueEnqueueBuffer(q, b2, 0, NULL), kAudioQueueErr_BufferEmpty);
    EXPECT_STATUS(AudioQueueEnqueueBuffer(q, b, 0, NULL), noErr);
    EXPECT_STATUS(AudioQueueEnqueueBuffer(q, b, 0, NULL), kAudioQueueErr_BufferEnqueuedTwice);
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
    EXPECT_STATUS(AudioQueueGetParameter(q, kAudioQueueParam_PlayRate, &v), kAudioQueueErr_InvalidParameter);
    AudioQueueParameterEvent unknownEvent = {999, 1};
    b2->mAudioDataByteSize = 4096;
    EXPECT_STATUS(AudioQueueEnqueueBufferWithParameters(q, b2, 0, NULL, 0, 0, 1, &unknownEvent, NULL, NULL),
                  kAudioQueueErr_InvalidParameter);
    b2->mAudioDataByteSize = 0;

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

/* Stops the main run loop after 0.2 s. */
static volatile int mainLoopStopped;
static void *stopMainLoopSoon(void *arg) {
    (void)arg;
    usleep(200000);
    mainLoopStopped = 1;
    CFRunLoopStop(CFRunLoopGetMain());
    return NULL;
}

static void fileErrors(const char *fixtures, const char *scratch) {
    char path[4096];
    snprintf(path, sizeof path, "%s/does-not-exist.caf", scratch);
    CFURLRef missing = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    AudioFileID file = NULL;
    EXPECT_STATUS(AudioFileOpenURL(missing, kAudioFileReadPermission, 0, &file), kAudioFileFileNotFoundError);
    EXPECT_STATUS(AudioFileOpenURL(NULL, kAudioFileReadPermission, 0, &file), kAudio_ParamError);
    CFRelease(missing);

    snprintf(path, sizeof path, "%s/wav-pcm_s16le-2ch-44100.wav", fixtures);
    file = openFile(path);
    UInt32 size = 0, writable = 9;
    AudioStreamBasicDescription f;
    EXPECT_STATUS(AudioFileGetPropertyInfo(file, kAudioFilePropertyDataFormat, &size, &writable), noErr);
    EXPECT(size == sizeof f && writable == 0, "data format info: %u bytes, writable %u", size, writable);
    size = sizeof f - 1;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &f), kAudioFileBadPropertySizeError);
    size = sizeof f;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &f), noErr);
    EXPECT(f.mFormatID == kAudioFormatLinearPCM && f.mChannelsPerFrame == 2 && f.mSampleRate == 44100, "data format");
    EXPECT_STATUS(AudioFileGetProperty(file, 0x7a7a7a7a, &size, &f), kAudioFileUnsupportedPropertyError);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, NULL, &f), kAudio_ParamError);
    UInt64 packets = 0;
    size = sizeof packets;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyAudioDataPacketCount, &size, &packets), noErr);
    EXPECT(packets > 0, "packet count");
    EXPECT_STATUS(AudioFileSetProperty(file, kAudioFilePropertyDataFormat, sizeof f, &f), kAudioFilePermissionsError);
    EXPECT_STATUS(AudioFileSetProperty(file, 0x7a7a7a7a, 4, &size), kAudioFileUnsupportedPropertyError);
    char buffer[4096];
    UInt32 bytes = sizeof buffer, count = 16;
    EXPECT_STATUS(AudioFileReadPacketData(file, false, NULL, NULL, 0, &count, buffer), kAudio_ParamError);
    EXPECT_STATUS(AudioFileReadPacketData(file, false, &bytes, NULL, -1, &count, buffer), kAudioFileInvalidPacketOffsetError);
    bytes = 2; count = 16;
    EXPECT_STATUS(AudioFileReadPacketData(file, false, &bytes, NULL, 0, &count, buffer), kAudioFileBadPropertySizeError);
    bytes = sizeof buffer; count = 16;
    EXPECT_STATUS(AudioFileReadPacketData(file, false, &bytes, NULL, (SInt64)packets, &count, buffer), noErr);
    EXPECT(count == 0 && bytes == 0, "reading at the end gives no packets (%u, %u bytes)", count, bytes);
    bytes = sizeof buffer; count = 16;
    EXPECT_STATUS(AudioFileReadPacketData(file, false, &bytes, NULL, 0, &count, buffer), noErr);
    EXPECT(count == 16 && bytes == 64, "16 packets of 4 bytes: %u packets, %u bytes", count, bytes);
    /* Constant-size packets: as many as ioNumBytes holds, ioNumBytes then what they take. */
    bytes = 10; count = 16;
    EXPECT_STATUS(AudioFileReadPacketData(file, false, &bytes, NULL, 0, &count, buffer), noErr);
    EXPECT(count == 2 && bytes == 8, "10 bytes of room: %u packets, %u bytes", count, bytes);
    /* AudioFileReadPackets: ioNumBytes is only an output (the buffer holds the packets asked for). */
    bytes = 7; count = 16;
    EXPECT_STATUS(AudioFileReadPackets(file, false, &bytes, NULL, 0, &count, buffer), noErr);
    EXPECT(count == 16 && bytes == 64, "ReadPackets ignores ioNumBytes on entry: %u packets, %u bytes", count, bytes);
    /* AudioFileReadBytes across the end of the data: the bytes there, and end of file. */
    UInt64 dataBytes = 0;
    size = sizeof dataBytes;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyAudioDataByteCount, &size, &dataBytes), noErr);
    bytes = 100;
    EXPECT_STATUS(AudioFileReadBytes(file, false, (SInt64)dataBytes - 10, &bytes, buffer), kAudioFileEndOfFileError);
    EXPECT(bytes == 10, "the last 10 bytes read: %u", bytes);
    AudioFramePacketTranslation t = {0};
    t.mFrame = 1000;
    size = sizeof t;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyFrameToPacket, &size, &t), noErr);
    EXPECT(t.mPacket == 1000 && t.mFrameOffsetInPacket == 0, "frame to packet");
    count = 1;
    EXPECT_STATUS(AudioFileWritePackets(file, false, 4, NULL, 0, &count, buffer), kAudioFilePermissionsError);
    {
        /* Packets of 64 frames: hostile translations are errors, not traps. */
        char ima[4096];
        snprintf(ima, sizeof ima, "%s/caf-adpcm_ima_qt-1ch-22050.caf", fixtures);
        AudioFileID imaFile = openFile(ima);
        AudioFramePacketTranslation h = {0};
        size = sizeof h;
        h.mFrame = -1;
        EXPECT_STATUS(AudioFileGetProperty(imaFile, kAudioFilePropertyFrameToPacket, &size, &h), kAudioFilePositionError);
        h.mPacket = INT64_MAX / 2;
        EXPECT_STATUS(AudioFileGetProperty(imaFile, kAudioFilePropertyPacketToFrame, &size, &h), kAudioFileInvalidPacketOffsetError);
        h.mFrame = 130;
        EXPECT_STATUS(AudioFileGetProperty(imaFile, kAudioFilePropertyFrameToPacket, &size, &h), noErr);
        EXPECT(h.mPacket == 2 && h.mFrameOffsetInPacket == 2, "frame 130 is packet 2 + 2 (%lld + %u)", (long long)h.mPacket, h.mFrameOffsetInPacket);
        AudioFileClose(imaFile);
    }
    bytes = 4;
    EXPECT_STATUS(AudioFileReadBytes(file, false, 0, &bytes, buffer), noErr);
    EXPECT(bytes == 4, "read 4 bytes");
    EXPECT_STATUS(AudioFileClose(file), noErr);
    EXPECT_STATUS(AudioFileClose(file), kAudioFileNotOpenError);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &f), kAudioFileNotOpenError);
    bytes = sizeof buffer; count = 1;
    EXPECT_STATUS(AudioFileReadPacketData(file, false, &bytes, NULL, 0, &count, buffer), kAudioFileNotOpenError);

    /* Writing. */
    snprintf(path, sizeof path, "%s/written.caf", scratch);
    CFURLRef out = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    AudioStreamBasicDescription w = pcm(48000, 1);
    AudioFileID writer = NULL;
    EXPECT_STATUS(AudioFileCreateWithURL(out, kAudioFileCAFType, NULL, kAudioFileFlags_EraseFile, &writer), kAudio_ParamError);
    EXPECT_STATUS(AudioFileCreateWithURL(out, kAudioFileCAFType, &w, kAudioFileFlags_EraseFile, &writer), noErr);
    SInt16 samples[480];
    for (int i = 0; i < 480; i++) samples[i] = (SInt16)(i * 50);
    count = 480;
    EXPECT_STATUS(AudioFileWritePackets(writer, false, sizeof samples, NULL, 0, &count, samples), noErr);
    EXPECT(count == 480, "wrote %u packets", count);
    /* Constant-size packets are measured by their count, as Apple's writer does: inNumBytes is
       not looked at (programs pass the frame count there, or 0, or the buffer's capacity). */
    count = 100;
    EXPECT_STATUS(AudioFileWritePackets(writer, false, 100, NULL, 480, &count, samples), noErr);
    EXPECT(count == 100, "a frame count as inNumBytes: wrote %u packets", count);
    count = 100;
    EXPECT_STATUS(AudioFileWritePackets(writer, false, 0, NULL, 580, &count, samples), noErr);
    EXPECT(count == 100, "inNumBytes 0: wrote %u packets", count);
    count = 100;
    EXPECT_STATUS(AudioFileWritePackets(writer, false, 1u << 30, NULL, 680, &count, samples), noErr);
    EXPECT(count == 100, "inNumBytes larger than the packets: wrote %u packets", count);
    count = 1;
    EXPECT_STATUS(AudioFileWritePackets(writer, false, 2, NULL, 1000, &count, samples), kAudioFileInvalidPacketOffsetError);
    AudioFilePacketTableInfo info = {470, 5, 5};
    EXPECT_STATUS(AudioFileSetProperty(writer, kAudioFilePropertyPacketTableInfo, 8, &info), kAudioFileBadPropertySizeError);
    EXPECT_STATUS(AudioFileGetPropertyInfo(writer, kAudioFilePropertyMagicCookieData, NULL, &writable), noErr);
    EXPECT(writable == 1, "a writer's cookie is writable");
    EXPECT_STATUS(AudioFileClose(writer), noErr);
    AudioFileID again = NULL;
    EXPECT_STATUS(AudioFileCreateWithURL(out, kAudioFileCAFType, &w, 0, &again), -48);
    EXPECT_STATUS(AudioFileOpenURL(out, kAudioFileReadWritePermission, 0, &again), kAudioFileOperationNotSupportedError);
    CFRelease(out);
    AudioFileID reread = openFile(path);
    size = sizeof packets;
    EXPECT_STATUS(AudioFileGetProperty(reread, kAudioFilePropertyAudioDataPacketCount, &size, &packets), noErr);
    EXPECT(packets == 780, "the written file holds %llu packets", (unsigned long long)packets);
    SInt16 readBack[780];
    bytes = sizeof readBack; count = 780;
    EXPECT_STATUS(AudioFileReadPacketData(reread, false, &bytes, NULL, 0, &count, readBack), noErr);
    EXPECT(count == 780 && memcmp(samples, readBack, sizeof samples) == 0 && memcmp(samples, readBack + 480, 200) == 0 &&
               memcmp(samples, readBack + 580, 200) == 0 && memcmp(samples, readBack + 680, 200) == 0,
           "the samples read back");
    AudioFileClose(reread);

    /* Variable-size packets need their descriptions: Apple's writers refuse without them. */
    snprintf(path, sizeof path, "%s/written-aac.caf", scratch);
    out = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    AudioStreamBasicDescription encoded = {0};
    encoded.mFormatID = kAudioFormatMPEG4AAC;
    encoded.mSampleRate = 44100;
    encoded.mChannelsPerFrame = 2;
    encoded.mFramesPerPacket = 1024;
    EXPECT_STATUS(AudioFileCreateWithURL(out, kAudioFileCAFType, &encoded, kAudioFileFlags_EraseFile, &writer), noErr);
    CFRelease(out);
    count = 2;
    EXPECT_STATUS(AudioFileWritePackets(writer, false, 200, NULL, 0, &count, samples), kAudioFileInvalidPacketOffsetError);
    EXPECT(count == 0, "no packets written without descriptions: %u", count);
    AudioFileClose(writer);

    /* ExtAudioFile. */
    snprintf(path, sizeof path, "%s/wav-pcm_s16le-2ch-44100.wav", fixtures);
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    ExtAudioFileRef ext = NULL;
    EXPECT_STATUS(ExtAudioFileOpenURL(url, &ext), noErr);
    CFRelease(url);
    AudioStreamBasicDescription aac = {0};
    aac.mFormatID = kAudioFormatMPEG4AAC;
    aac.mSampleRate = 44100;
    aac.mChannelsPerFrame = 2;
    aac.mFramesPerPacket = 1024;
    EXPECT_STATUS(ExtAudioFileSetProperty(ext, kExtAudioFileProperty_ClientDataFormat, sizeof aac, &aac), kExtAudioFileError_NonPCMClientFormat);
    EXPECT_STATUS(ExtAudioFileSetProperty(ext, kExtAudioFileProperty_ClientDataFormat, 8, &aac), kExtAudioFileError_InvalidPropertySize);
    EXPECT_STATUS(ExtAudioFileGetPropertyInfo(ext, 0x7a7a7a7a, &size, NULL), kExtAudioFileError_InvalidProperty);
    SInt64 frames = 0, position = -1;
    size = sizeof frames;
    EXPECT_STATUS(ExtAudioFileGetProperty(ext, kExtAudioFileProperty_FileLengthFrames, &size, &frames), noErr);
    EXPECT_STATUS(ExtAudioFileSeek(ext, frames + 1), kExtAudioFileError_InvalidSeek);
    EXPECT_STATUS(ExtAudioFileSeek(ext, 100), noErr);
    EXPECT_STATUS(ExtAudioFileTell(ext, &position), noErr);
    EXPECT(position == 100, "tell after seek: %lld", (long long)position);
    AudioFileID inner = NULL;
    size = sizeof inner;
    EXPECT_STATUS(ExtAudioFileGetProperty(ext, kExtAudioFileProperty_AudioFile, &size, &inner), noErr);
    size = sizeof f;
    EXPECT_STATUS(AudioFileGetProperty(inner, kAudioFilePropertyDataFormat, &size, &f), noErr);
    /* ExtAudioFileRead reads ioNumberFrames frames, or what the buffer holds if that is less,
       and says in mDataByteSize how many bytes it filled. */
    AudioStreamBasicDescription client = pcm(44100, 2);
    EXPECT_STATUS(ExtAudioFileSetProperty(ext, kExtAudioFileProperty_ClientDataFormat, sizeof client, &client), noErr);
    SInt16 frameData[2 * 256];
    AudioBufferList list = {1, {{2, sizeof frameData, frameData}}};
    UInt32 frameCount = 100;
    EXPECT_STATUS(ExtAudioFileRead(ext, &frameCount, &list), noErr);
    EXPECT(frameCount == 100 && list.mBuffers[0].mDataByteSize == 400,
           "a buffer larger than the frames asked for: %u frames, %u bytes", frameCount, list.mBuffers[0].mDataByteSize);
    list.mBuffers[0].mDataByteSize = 41;
    frameCount = 100;
    EXPECT_STATUS(ExtAudioFileRead(ext, &frameCount, &list), noErr);
    EXPECT(frameCount == 10 && list.mBuffers[0].mDataByteSize == 40,
           "a buffer smaller than the frames asked for: %u frames, %u bytes", frameCount, list.mBuffers[0].mDataByteSize);
    EXPECT_STATUS(ExtAudioFileDispose(ext), noErr);
    EXPECT_STATUS(ExtAudioFileDispose(ext), kAudio_ParamError);
    EXPECT_STATUS(AudioFileGetProperty(inner, kAudioFilePropertyDataFormat, &size, &f), kAudioFileNotOpenError);

    /* CoreFoundation subset. */
    CFStringRef s = CFStringCreateWithCString(NULL, "héllo", kCFStringEncodingUTF8);
    char text[16];
    EXPECT(s != NULL && CFStringGetLength(s) == 5, "string length");
    EXPECT(CFStringGetCString(s, text, sizeof text, kCFStringEncodingUTF8) && strcmp(text, "héllo") == 0, "string round trip");
    EXPECT(!CFStringGetCString(s, text, 3, kCFStringEncodingUTF8), "a C string that does not fit");
    EXPECT(!CFStringGetCString(s, text, sizeof text, kCFStringEncodingASCII), "not ASCII");
    EXPECT(CFGetRetainCount(s) == 1, "retain count 1");
    CFRetain(s);
    EXPECT(CFGetRetainCount(s) == 2, "retain count 2");
    CFRelease(s);
    CFRelease(s);
    EXPECT(CFSTR("mode") == CFSTR("mode"), "CFSTR gives one object per text");
    CFURLRef u = CFURLCreateWithFileSystemPath(NULL, CFSTR("/tmp/x.caf"), kCFURLPOSIXPathStyle, false);
    UInt8 pathBack[64];
    EXPECT(u && CFURLGetFileSystemRepresentation(u, true, pathBack, sizeof pathBack) && strcmp((char *)pathBack, "/tmp/x.caf") == 0,
           "URL path round trip");
    CFRelease(u);
    /* As on a Mac (since 10.6), a process that has used audio has the HAL's source on the main
       run loop, in the default and common modes: runs there wait their time. A run in another
       mode has no source and finishes at once. */
    EXPECT(CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.01, false) == kCFRunLoopRunTimedOut,
           "the main run loop of a process using audio waits its time");
    EXPECT(CFRunLoopRunInMode(kCFRunLoopCommonModes, 0.01, false) == kCFRunLoopRunTimedOut,
           "the main run loop waits in the common modes");
    EXPECT(CFRunLoopRunInMode(CFSTR("custom.mode"), 0.01, false) == kCFRunLoopRunFinished,
           "a run in a mode with no source finishes at once");
    /* CFRunLoopRun on the main thread then runs until it is stopped. */
    pthread_t stopper;
    pthread_create(&stopper, NULL, stopMainLoopSoon, NULL);
    CFRunLoopRun();
    pthread_join(stopper, NULL);
    EXPECT(mainLoopStopped, "CFRunLoopRun returned before CFRunLoopStop");
    AudioQueueRef attached;
    AudioStreamBasicDescription any = pcm(8000, 1);
    AudioQueueNewOutput(&any, ignoreOutput, NULL, CFRunLoopGetCurrent(), NULL, 0, &attached);
    EXPECT(CFRunLoopRunInMode(kCFRunLoopDefaultMode, NAN, false) == kCFRunLoopRunTimedOut &&
           CFRunLoopRunInMode(kCFRunLoopDefaultMode, -INFINITY, false) == kCFRunLoopRunTimedOut,
           "NaN and negative intervals return at once");
    AudioQueueDispose(attached, true);
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
