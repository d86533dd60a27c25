/*
 * Audio File Services' result codes for misuse, the leniency a Mac shows in reading and writing
 * packets, and the main run loop once audio is in use; part of api_checks (its "errors" mode
 * calls fileErrors).
 */
#define _DEFAULT_SOURCE 1
#include "checks.h"
#include <math.h>
#include <pthread.h>
#include <unistd.h>

/* Stops the main run loop after 0.2 s. */
static volatile int mainLoopStopped;
static void *stopMainLoopSoon(void *arg) {
    (void)arg;
    usleep(200000);
    mainLoopStopped = 1;
    CFRunLoopStop(CFRunLoopGetMain());
    return NULL;
}

static OSStatus cbRead(void *c, SInt64 pos, UInt32 n, void *buf, UInt32 *actual) { (void)c; (void)pos; (void)n; (void)buf; *actual = 0; return noErr; }
static OSStatus cbWrite(void *c, SInt64 pos, UInt32 n, const void *buf, UInt32 *actual) { (void)c; (void)pos; (void)buf; *actual = n; return noErr; }
static SInt64 cbGetSize(void *c) { (void)c; return 0; }
static OSStatus cbSetSize(void *c, SInt64 size) { (void)c; (void)size; return noErr; }

/* AudioFileInitializeWithCallbacks: every callback, the format and the result pointer are
   needed (kAudio_ParamError, as Apple's); unknown types and formats a type cannot hold get the
   codes AudioFileCreateWithURL gives. */
static void callbackErrors(void) {
    AudioStreamBasicDescription f = pcm(44100, 2);
    AudioFileID file = NULL;
    EXPECT_STATUS(AudioFileInitializeWithCallbacks(NULL, NULL, cbWrite, cbGetSize, cbSetSize, kAudioFileCAFType, &f, 0, &file), kAudio_ParamError);
    EXPECT_STATUS(AudioFileInitializeWithCallbacks(NULL, cbRead, NULL, cbGetSize, cbSetSize, kAudioFileCAFType, &f, 0, &file), kAudio_ParamError);
    EXPECT_STATUS(AudioFileInitializeWithCallbacks(NULL, cbRead, cbWrite, NULL, cbSetSize, kAudioFileCAFType, &f, 0, &file), kAudio_ParamError);
    EXPECT_STATUS(AudioFileInitializeWithCallbacks(NULL, cbRead, cbWrite, cbGetSize, NULL, kAudioFileCAFType, &f, 0, &file), kAudio_ParamError);
    EXPECT_STATUS(AudioFileInitializeWithCallbacks(NULL, cbRead, cbWrite, cbGetSize, cbSetSize, kAudioFileCAFType, NULL, 0, &file), kAudio_ParamError);
    EXPECT_STATUS(AudioFileInitializeWithCallbacks(NULL, cbRead, cbWrite, cbGetSize, cbSetSize, kAudioFileCAFType, &f, 0, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioFileInitializeWithCallbacks(NULL, cbRead, cbWrite, cbGetSize, cbSetSize, kAudioFileMP3Type, &f, 0, &file),
                  kAudioFileUnsupportedFileTypeError);
    EXPECT_STATUS(AudioFileInitializeWithCallbacks(NULL, cbRead, cbWrite, cbGetSize, cbSetSize, kAudioFileM4AType, &f, 0, &file),
                  kAudioFileUnsupportedDataFormatError);
    EXPECT_STATUS(AudioFileInitializeWithCallbacks(NULL, cbRead, cbWrite, cbGetSize, cbSetSize, kAudioFileAAC_ADTSType, &f, 0, &file),
                  kAudioFileUnsupportedDataFormatError);
    EXPECT_STATUS(AudioFileOpenWithCallbacks(NULL, NULL, cbWrite, cbGetSize, cbSetSize, 0, &file), kAudio_ParamError);
    EXPECT_STATUS(AudioFileOpenWithCallbacks(NULL, cbRead, cbWrite, NULL, cbSetSize, 0, &file), kAudio_ParamError);
    EXPECT_STATUS(AudioFileOpenWithCallbacks(NULL, cbRead, cbWrite, cbGetSize, cbSetSize, 0, NULL), kAudio_ParamError);
    /* AAC into an MPEG-4 file: a cookie that is not an AudioSpecificConfig nor an ES_Descriptor is refused. */
    AudioStreamBasicDescription aac = {44100, kAudioFormatMPEG4AAC, 0, 0, 1024, 0, 2, 0, 0};
    EXPECT_STATUS(AudioFileInitializeWithCallbacks(NULL, cbRead, cbWrite, cbGetSize, cbSetSize, kAudioFileM4AType, &aac, 0, &file), noErr);
    UInt8 bad[2] = {0xFF, 0xFF};
    EXPECT_STATUS(AudioFileSetProperty(file, kAudioFilePropertyMagicCookieData, sizeof bad, bad), kAudio_ParamError);
    AudioFilePacketTableInfo info = {1000, 2112, 0};
    EXPECT_STATUS(AudioFileSetProperty(file, kAudioFilePropertyPacketTableInfo, sizeof info, &info), kAudio_ParamError);
    EXPECT_STATUS(AudioFileClose(file), noErr);
    EXPECT_STATUS(AudioFileInitializeWithCallbacks(NULL, cbRead, cbWrite, cbGetSize, cbSetSize, kAudioFileAAC_ADTSType, &aac, 0, &file), noErr);
    EXPECT_STATUS(AudioFileSetProperty(file, kAudioFilePropertyPacketTableInfo, sizeof info, &info), kAudioFileUnsupportedPropertyError);
    EXPECT_STATUS(AudioFileClose(file), noErr);
}

void fileErrors(const char *fixtures, const char *scratch) {
    callbackErrors();
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
    /* The format list of a format with one layer: one item, the data format; room for less
       than one item is a size error; it cannot be set. */
    AudioFormatListItem item;
    EXPECT_STATUS(AudioFileGetPropertyInfo(file, kAudioFilePropertyFormatList, &size, &writable), noErr);
    EXPECT(size == sizeof item && writable == 0, "format list info: %u bytes, writable %u", size, writable);
    size = sizeof item - 1;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyFormatList, &size, &item), kAudioFileBadPropertySizeError);
    size = sizeof item;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyFormatList, NULL, &item), kAudio_ParamError);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyFormatList, &size, NULL), kAudio_ParamError);
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyFormatList, &size, &item), noErr);
    EXPECT(size == sizeof item && item.mASBD.mFormatID == kAudioFormatLinearPCM && item.mASBD.mSampleRate == 44100
           && item.mChannelLayoutTag == kAudioChannelLayoutTag_Stereo, "format list item");
    EXPECT_STATUS(AudioFileSetProperty(file, kAudioFilePropertyFormatList, sizeof item, &item), kAudioFilePermissionsError);
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
    /* Opened for writing and closed unchanged, the file is left as it was. */
    EXPECT_STATUS(AudioFileOpenURL(out, kAudioFileReadWritePermission, 0, &again), noErr);
    EXPECT_STATUS(AudioFileClose(again), noErr);
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
    /* Opened for writing again, the CAF file takes more packets after its last one. */
    EXPECT_STATUS(AudioFileOpenURL(out, kAudioFileReadWritePermission, 0, &again), noErr);
    count = 20;
    EXPECT_STATUS(AudioFileWritePackets(again, false, 80, NULL, 780, &count, samples), noErr);
    count = 1;
    EXPECT_STATUS(AudioFileWritePackets(again, false, 4, NULL, 900, &count, samples), kAudioFileInvalidPacketOffsetError);
    size = sizeof packets;
    EXPECT_STATUS(AudioFileGetProperty(again, kAudioFilePropertyAudioDataPacketCount, &size, &packets), noErr);
    EXPECT(packets == 800, "after appending, %llu packets", (unsigned long long)packets);
    bytes = sizeof readBack; count = 10;
    EXPECT_STATUS(AudioFileReadPacketData(again, false, &bytes, NULL, 0, &count, readBack), noErr);
    EXPECT(count == 10 && memcmp(samples, readBack, 20) == 0, "the packets already there read back");
    EXPECT_STATUS(AudioFileClose(again), noErr);
    CFRelease(out);
    reread = openFile(path);
    size = sizeof packets;
    EXPECT_STATUS(AudioFileGetProperty(reread, kAudioFilePropertyAudioDataPacketCount, &size, &packets), noErr);
    EXPECT(packets == 800, "the appended file holds %llu packets", (unsigned long long)packets);
    bytes = sizeof readBack; count = 20;
    EXPECT_STATUS(AudioFileReadPacketData(reread, false, &bytes, NULL, 780, &count, readBack), noErr);
    EXPECT(count == 20 && memcmp(samples, readBack, 40) == 0, "the appended samples read back");
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

