/*
 * file_writing.c — AudioFileInitializeWithCallbacks, run by FileCallbacksTests.swift:
 *   file_writing AACFIXTURE OUTDIR
 * Writes files into memory through a program's write, size and set-size callbacks: a CAF and a
 * WAVE of 16-bit PCM, and an MPEG-4 ('m4af') and an ADTS file of the AAC packets of AACFIXTURE
 * (with 2112 priming frames where the container keeps them). Each is re-opened from memory with
 * AudioFileOpenWithCallbacks and read back: format, packet count and packets must be what was
 * written. The memory of the AAC files is saved in OUTDIR (callbacks.m4a, callbacks.aac), and
 * the same packets are written with AudioFileCreateWithURL to url.m4a and url.aac, for
 * ffprobe and ffmpeg. The CAF file is then opened with write callbacks and takes 1000 more
 * packets; the WAVE and AIFF files open for reading only. Prints "N passed, N failed".
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;
#define EXPECT(cond, ...) do { if (cond) passed++; else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

typedef struct Memory {
    UInt8 *bytes;
    SInt64 size, capacity;
    int setSizes;
} Memory;

static OSStatus readMemory(void *inClientData, SInt64 inPosition, UInt32 requestCount, void *buffer, UInt32 *actualCount) {
    Memory *m = (Memory *)inClientData;
    if (inPosition >= m->size) { *actualCount = 0; return noErr; }
    SInt64 n = m->size - inPosition < (SInt64)requestCount ? m->size - inPosition : (SInt64)requestCount;
    memcpy(buffer, m->bytes + inPosition, (size_t)n);
    *actualCount = (UInt32)n;
    return noErr;
}

static OSStatus setSizeMemory(void *inClientData, SInt64 inSize) {
    Memory *m = (Memory *)inClientData;
    m->setSizes += 1;
    if (inSize > m->capacity) {
        SInt64 capacity = inSize * 2 + 4096;
        UInt8 *grown = (UInt8 *)realloc(m->bytes, (size_t)capacity);
        if (!grown) return kAudioFileUnspecifiedError;
        m->bytes = grown;
        m->capacity = capacity;
    }
    if (inSize > m->size) memset(m->bytes + m->size, 0, (size_t)(inSize - m->size));
    m->size = inSize;
    return noErr;
}

static OSStatus writeMemory(void *inClientData, SInt64 inPosition, UInt32 requestCount, const void *buffer, UInt32 *actualCount) {
    Memory *m = (Memory *)inClientData;
    SInt64 end = inPosition + (SInt64)requestCount;
    if (end > m->size) {
        OSStatus s = setSizeMemory(m, end);
        m->setSizes -= 1;
        if (s != noErr) return s;
    }
    memcpy(m->bytes + inPosition, buffer, requestCount);
    *actualCount = requestCount;
    return noErr;
}

static SInt64 sizeOfMemory(void *inClientData) { return ((Memory *)inClientData)->size; }

static void save(const Memory *m, const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    EXPECT(f && fwrite(m->bytes, 1, (size_t)m->size, f) == (size_t)m->size, "saving %s", path);
    if (f) fclose(f);
}

/* Every packet of `file` (at most `max`), into `data` and `descriptions`; the packet count. */
static UInt32 readPackets(AudioFileID file, UInt8 *data, UInt32 capacity, AudioStreamPacketDescription *descriptions, UInt32 max) {
    UInt32 bytes = capacity, packets = max;
    OSStatus s = AudioFileReadPacketData(file, false, &bytes, descriptions, 0, &packets, data);
    EXPECT(s == noErr || s == kAudioFileEndOfFileError, "AudioFileReadPacketData = %d", (int)s);
    return packets;
}

/* 16-bit stereo PCM into `type` through callbacks, then read back. */
static void pcmRoundTrip(AudioFileTypeID type, const char *name) {
    Memory m = {NULL, 0, 0, 0};
    setSizeMemory(&m, 100); /* storage that held something: Initialize empties it */
    m.setSizes = 0;
    AudioFormatFlags flags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
    if (type == kAudioFileAIFFType) flags |= kAudioFormatFlagIsBigEndian; /* else AIFF-C's 'sowt' */
    AudioStreamBasicDescription f = {44100, kAudioFormatLinearPCM, flags, 4, 1, 4, 2, 16, 0};
    AudioFileID file = NULL;
    OSStatus s = AudioFileInitializeWithCallbacks(&m, readMemory, writeMemory, sizeOfMemory, setSizeMemory, type, &f, 0, &file);
    EXPECT(s == noErr && file, "%s: AudioFileInitializeWithCallbacks = %d", name, (int)s);
    if (!file) return;
    EXPECT(m.setSizes >= 1, "%s: the storage was not emptied first", name);
    enum { frames = 10000 };
    static SInt16 samples[frames * 2];
    for (int i = 0; i < frames * 2; i++) samples[i] = (SInt16)(i * 37 - 20000);
    UInt32 packets = frames;
    s = AudioFileWritePackets(file, false, sizeof samples, NULL, 0, &packets, samples);
    EXPECT(s == noErr && packets == frames, "%s: AudioFileWritePackets = %d, %u packets", name, (int)s, (unsigned)packets);
    EXPECT(AudioFileClose(file) == noErr, "%s: AudioFileClose", name);

    AudioFileID back = NULL;
    s = AudioFileOpenWithCallbacks(&m, readMemory, NULL, sizeOfMemory, NULL, 0, &back);
    EXPECT(s == noErr && back, "%s: re-opening = %d", name, (int)s);
    if (!back) { free(m.bytes); return; }
    AudioFileTypeID got = 0;
    UInt32 size = sizeof got;
    AudioFileGetProperty(back, kAudioFilePropertyFileFormat, &size, &got);
    EXPECT(got == type, "%s: re-opened as '%c%c%c%c'", name, (int)(got >> 24), (int)(got >> 16 & 255), (int)(got >> 8 & 255), (int)(got & 255));
    UInt64 count = 0;
    size = sizeof count;
    AudioFileGetProperty(back, kAudioFilePropertyAudioDataPacketCount, &size, &count);
    EXPECT(count == frames, "%s: %llu packets", name, (unsigned long long)count);
    static SInt16 read[frames * 2];
    UInt32 bytes = sizeof read, n = frames;
    s = AudioFileReadPacketData(back, false, &bytes, NULL, 0, &n, read);
    EXPECT((s == noErr || s == kAudioFileEndOfFileError) && n == frames && memcmp(read, samples, sizeof samples) == 0,
           "%s: the samples read back differ (%d, %u packets)", name, (int)s, (unsigned)n);
    AudioFileClose(back);

    /* Opened with write and set-size callbacks: a CAF file takes more packets after its last;
       other files open for reading only. */
    AudioFileID more = NULL;
    s = AudioFileOpenWithCallbacks(&m, readMemory, writeMemory, sizeOfMemory, setSizeMemory, 0, &more);
    EXPECT(s == noErr && more, "%s: re-opening for writing = %d", name, (int)s);
    if (more) {
        UInt32 n = 1000;
        s = AudioFileWritePackets(more, false, 4000, NULL, frames, &n, samples);
        EXPECT(type == kAudioFileCAFType ? s == noErr && n == 1000 : s == kAudioFilePermissionsError,
               "%s: appending = %d (%u packets)", name, (int)s, (unsigned)n);
        AudioFileClose(more);
    }
    UInt32 expected = type == kAudioFileCAFType ? frames + 1000 : frames;
    s = AudioFileOpenWithCallbacks(&m, readMemory, NULL, sizeOfMemory, NULL, 0, &back);
    EXPECT(s == noErr && back, "%s: re-opening after appending = %d", name, (int)s);
    if (back) {
        size = sizeof count;
        AudioFileGetProperty(back, kAudioFilePropertyAudioDataPacketCount, &size, &count);
        EXPECT(count == expected, "%s: %llu packets after appending", name, (unsigned long long)count);
        bytes = 4000;
        n = 1000;
        s = AudioFileReadPacketData(back, false, &bytes, NULL, frames, &n, read);
        EXPECT(type != kAudioFileCAFType || ((s == noErr || s == kAudioFileEndOfFileError) && n == 1000 && memcmp(read, samples, 4000) == 0),
               "%s: the appended samples read back (%d, %u packets)", name, (int)s, (unsigned)n);
        AudioFileClose(back);
    }
    free(m.bytes);
}

/* The AAC packets of `source` into `type` through callbacks and through a URL; read back. */
static void aacRoundTrip(AudioFileID source, AudioFileTypeID type, const char *dir, const char *name) {
    enum { maxPackets = 4096 };
    static UInt8 data[1 << 22], back[1 << 22];
    static AudioStreamPacketDescription d[maxPackets], dBack[maxPackets];
    UInt32 packets = readPackets(source, data, sizeof data, d, maxPackets);
    AudioStreamBasicDescription f;
    UInt32 size = sizeof f;
    AudioFileGetProperty(source, kAudioFilePropertyDataFormat, &size, &f);
    UInt32 cookieSize = 0;
    AudioFileGetPropertyInfo(source, kAudioFilePropertyMagicCookieData, &cookieSize, NULL);
    UInt8 *cookie = (UInt8 *)malloc(cookieSize ? cookieSize : 1);
    AudioFileGetProperty(source, kAudioFilePropertyMagicCookieData, &cookieSize, cookie);
    UInt32 bytes = (UInt32)(d[packets - 1].mStartOffset + d[packets - 1].mDataByteSize);
    SInt64 total = (SInt64)packets * 1024;
    AudioFilePacketTableInfo info = {total - 2112 - 100, 2112, 100};

    Memory m = {NULL, 0, 0, 0};
    AudioFileID files[2] = {NULL, NULL};
    OSStatus s = AudioFileInitializeWithCallbacks(&m, readMemory, writeMemory, sizeOfMemory, setSizeMemory, type, &f, 0, &files[0]);
    EXPECT(s == noErr, "%s: AudioFileInitializeWithCallbacks = %d", name, (int)s);
    char path[4096];
    snprintf(path, sizeof path, "%s/url.%s", dir, type == kAudioFileM4AType ? "m4a" : "aac");
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    s = AudioFileCreateWithURL(url, type, &f, kAudioFileFlags_EraseFile, &files[1]);
    EXPECT(s == noErr, "%s: AudioFileCreateWithURL = %d", name, (int)s);
    CFRelease(url);
    for (int i = 0; i < 2; i++) {
        if (!files[i]) continue;
        EXPECT(AudioFileSetProperty(files[i], kAudioFilePropertyMagicCookieData, cookieSize, cookie) == noErr, "%s: cookie", name);
        UInt32 n = packets;
        s = AudioFileWritePackets(files[i], false, bytes, d, 0, &n, data);
        EXPECT(s == noErr && n == packets, "%s: AudioFileWritePackets = %d", name, (int)s);
        s = AudioFileSetProperty(files[i], kAudioFilePropertyPacketTableInfo, sizeof info, &info);
        EXPECT(s == (type == kAudioFileM4AType ? noErr : kAudioFileUnsupportedPropertyError), "%s: packet table info = %d", name, (int)s);
        EXPECT(AudioFileClose(files[i]) == noErr, "%s: AudioFileClose", name);
    }
    free(cookie);
    save(&m, dir, type == kAudioFileM4AType ? "callbacks.m4a" : "callbacks.aac");

    AudioFileID reread = NULL;
    s = AudioFileOpenWithCallbacks(&m, readMemory, NULL, sizeOfMemory, NULL, 0, &reread);
    EXPECT(s == noErr && reread, "%s: re-opening = %d", name, (int)s);
    if (reread) {
        UInt32 n = readPackets(reread, back, sizeof back, dBack, maxPackets);
        int same = n == packets;
        for (UInt32 i = 0; same && i < n; i++)
            same = dBack[i].mDataByteSize == d[i].mDataByteSize
                   && memcmp(back + dBack[i].mStartOffset, data + d[i].mStartOffset, d[i].mDataByteSize) == 0;
        EXPECT(same, "%s: %u packets read back, %u written, or they differ", name, (unsigned)n, (unsigned)packets);
        AudioFilePacketTableInfo got = {0, 0, 0};
        size = sizeof got;
        s = AudioFileGetProperty(reread, kAudioFilePropertyPacketTableInfo, &size, &got);
        if (type == kAudioFileM4AType)
            EXPECT(s == noErr && got.mPrimingFrames == 2112 && got.mRemainderFrames == 100 && got.mNumberValidFrames == info.mNumberValidFrames,
                   "%s: packet table info read back (%d): %lld %d %d", name, (int)s, (long long)got.mNumberValidFrames,
                   (int)got.mPrimingFrames, (int)got.mRemainderFrames);
        AudioFileClose(reread);
    }
    free(m.bytes);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: file_writing AACFIXTURE OUTDIR\n");
        return 2;
    }
    pcmRoundTrip(kAudioFileCAFType, "CAF");
    pcmRoundTrip(kAudioFileWAVEType, "WAVE");
    pcmRoundTrip(kAudioFileAIFFType, "AIFF");
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)argv[1], (CFIndex)strlen(argv[1]), false);
    AudioFileID source = NULL;
    EXPECT(AudioFileOpenURL(url, kAudioFileReadPermission, 0, &source) == noErr, "opening %s", argv[1]);
    CFRelease(url);
    if (source) {
        aacRoundTrip(source, kAudioFileM4AType, argv[2], "M4A");
        aacRoundTrip(source, kAudioFileAAC_ADTSType, argv[2], "ADTS");
        AudioFileClose(source);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
