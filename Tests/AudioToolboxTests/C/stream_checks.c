/*
 * Audio File Stream Services through the C API, run by StreamAPITests.swift:
 *   stream_checks FILE PIECE   parses FILE in PIECE-byte pieces with AudioFileStreamParseBytes
 *                              and compares every packet (bytes, sizes, frames) and the
 *                              properties with what AudioFileOpenURL/AudioFileReadPacketData give
 *   stream_checks errors FILE  result codes of misuse
 * Every check prints a line when it fails; the last line says how many passed and failed.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

#define EXPECT(cond, ...) do { if (cond) passed++; else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)
#define EXPECT_STATUS(call, expected) do { OSStatus s_ = (call); EXPECT(s_ == (OSStatus)(expected), "%s = %d, expected %s = %d", #call, (int)s_, #expected, (int)(expected)); } while (0)

/* What the stream delivered: packet bytes back to back, and each packet's size and frames. */
typedef struct {
    AudioFileStreamID stream;
    unsigned char *data;
    size_t used, capacity;
    UInt32 *sizes, *frames;
    size_t count, slots;
    AudioFileStreamPropertyID order[32];
    int properties;
    int readyCalls;
    UInt32 bytesPerPacket;
} Collected;

static void onProperty(void *ud, AudioFileStreamID stream, AudioFileStreamPropertyID id, AudioFileStreamPropertyFlags *flags) {
    Collected *c = ud;
    EXPECT(stream == c->stream, "listener gets its own stream");
    EXPECT(*flags & kAudioFileStreamPropertyFlag_PropertyIsCached, "property is cached");
    if (c->properties < 32) c->order[c->properties++] = id;
    if (id == kAudioFileStreamProperty_DataFormat) {
        AudioStreamBasicDescription f;
        UInt32 size = sizeof f;
        EXPECT_STATUS(AudioFileStreamGetProperty(stream, id, &size, &f), noErr);
        c->bytesPerPacket = f.mBytesPerPacket;
    }
    if (id == kAudioFileStreamProperty_ReadyToProducePackets) {
        UInt32 ready = 0, size = sizeof ready;
        EXPECT_STATUS(AudioFileStreamGetProperty(stream, id, &size, &ready), noErr);
        EXPECT(ready == 1, "ready is 1 when announced");
        c->readyCalls++;
    }
}

static void append(Collected *c, const void *bytes, UInt32 size, UInt32 frames) {
    if (c->used + size > c->capacity) {
        c->capacity = (c->used + size) * 2;
        c->data = realloc(c->data, c->capacity);
    }
    if (c->count == c->slots) {
        c->slots = c->slots ? c->slots * 2 : 256;
        c->sizes = realloc(c->sizes, c->slots * sizeof *c->sizes);
        c->frames = realloc(c->frames, c->slots * sizeof *c->frames);
    }
    memcpy(c->data + c->used, bytes, size);
    c->used += size;
    c->sizes[c->count] = size;
    c->frames[c->count++] = frames;
}

static void onPackets(void *ud, UInt32 bytes, UInt32 packets, const void *data, AudioStreamPacketDescription *descriptions) {
    Collected *c = ud;
    if (descriptions) {
        for (UInt32 i = 0; i < packets; i++) {
            EXPECT(descriptions[i].mStartOffset >= 0 && descriptions[i].mStartOffset + descriptions[i].mDataByteSize <= bytes,
                   "description %u inside the bytes", (unsigned)i);
            append(c, (const char *)data + descriptions[i].mStartOffset, descriptions[i].mDataByteSize,
                   descriptions[i].mVariableFramesInPacket);
        }
    } else {
        EXPECT(c->bytesPerPacket > 0 && bytes == packets * c->bytesPerPacket, "constant-size packets");
        for (UInt32 i = 0; i < packets && c->bytesPerPacket > 0; i++)
            append(c, (const char *)data + i * c->bytesPerPacket, c->bytesPerPacket, 0);
    }
}

static unsigned char *readAll(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) { printf("cannot open %s\n", path); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)n + 1);
    if (fread(bytes, 1, (size_t)n, f) != (size_t)n) { printf("short read\n"); exit(2); }
    fclose(f);
    *size = (size_t)n;
    return bytes;
}

static AudioFileID openFile(const char *path) {
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
    AudioFileID file = NULL;
    OSStatus status = AudioFileOpenURL(url, kAudioFileReadPermission, 0, &file);
    CFRelease(url);
    if (status != noErr) { printf("cannot open %s: %d\n", path, (int)status); exit(2); }
    return file;
}

static void compare(const char *path, size_t piece) {
    size_t size;
    unsigned char *bytes = readAll(path, &size);
    Collected c = {0};
    EXPECT_STATUS(AudioFileStreamOpen(&c, onProperty, onPackets, 0, &c.stream), noErr);
    for (size_t offset = 0; offset < size; offset += piece) {
        UInt32 n = (UInt32)(size - offset < piece ? size - offset : piece);
        OSStatus s = AudioFileStreamParseBytes(c.stream, n, bytes + offset, 0);
        if (s != noErr) { EXPECT(0, "AudioFileStreamParseBytes at %zu = %d", offset, (int)s); break; }
    }
    EXPECT_STATUS(AudioFileStreamParseBytes(c.stream, 0, NULL, 0), noErr);
    EXPECT(c.readyCalls == 1, "ready announced once (%d)", c.readyCalls);
    EXPECT(c.properties >= 4 && c.order[0] == kAudioFileStreamProperty_FileFormat && c.order[1] == kAudioFileStreamProperty_DataFormat
           && c.order[c.properties - 1] == kAudioFileStreamProperty_ReadyToProducePackets, "property order");

    AudioFileID file = openFile(path);
    UInt64 packetCount = 0;
    UInt32 propertySize = sizeof packetCount;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyAudioDataPacketCount, &propertySize, &packetCount), noErr);
    UInt32 maxPacket = 0;
    propertySize = sizeof maxPacket;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyMaximumPacketSize, &propertySize, &maxPacket), noErr);
    EXPECT(c.count == packetCount, "%zu packets streamed, AudioFile has %llu", c.count, (unsigned long long)packetCount);

    /* Every packet through AudioFileReadPacketData, one call per 64 packets. */
    UInt32 batch = 64;
    unsigned char *buffer = malloc((size_t)maxPacket * batch + 1);
    AudioStreamPacketDescription *descriptions = malloc(sizeof *descriptions * batch);
    size_t streamed = 0, mismatches = 0;
    for (SInt64 start = 0; start < (SInt64)packetCount;) {
        UInt32 ioBytes = maxPacket * batch, ioPackets = batch;
        EXPECT_STATUS(AudioFileReadPacketData(file, false, &ioBytes, descriptions, start, &ioPackets, buffer), noErr);
        if (ioPackets == 0) break;
        UInt32 offset = 0;
        for (UInt32 i = 0; i < ioPackets && (size_t)(start + i) < c.count; i++) {
            UInt32 psize = descriptions[i].mDataByteSize ? descriptions[i].mDataByteSize : ioBytes / ioPackets;
            UInt32 at = descriptions[i].mDataByteSize ? (UInt32)descriptions[i].mStartOffset : offset;
            size_t k = (size_t)start + i;
            if (c.sizes[k] != psize || memcmp(c.data + streamed, buffer + at, psize) != 0) mismatches++;
            if (descriptions[i].mDataByteSize && descriptions[i].mVariableFramesInPacket && c.frames[k] != descriptions[i].mVariableFramesInPacket) mismatches++;
            streamed += c.sizes[k];
            offset += psize;
        }
        start += ioPackets;
    }
    EXPECT(mismatches == 0, "%zu packets differ from AudioFileReadPacketData's", mismatches);

    SInt64 fileOffset = 0, streamOffset = -1;
    propertySize = sizeof fileOffset;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyDataOffset, &propertySize, &fileOffset), noErr);
    propertySize = sizeof streamOffset;
    EXPECT_STATUS(AudioFileStreamGetProperty(c.stream, kAudioFileStreamProperty_DataOffset, &propertySize, &streamOffset), noErr);
    EXPECT(fileOffset == streamOffset, "data offset %lld vs %lld", (long long)streamOffset, (long long)fileOffset);

    AudioStreamBasicDescription a, b;
    propertySize = sizeof a;
    EXPECT_STATUS(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &propertySize, &a), noErr);
    propertySize = sizeof b;
    EXPECT_STATUS(AudioFileStreamGetProperty(c.stream, kAudioFileStreamProperty_DataFormat, &propertySize, &b), noErr);
    EXPECT(a.mFormatID == b.mFormatID && a.mSampleRate == b.mSampleRate && a.mFramesPerPacket == b.mFramesPerPacket
           && a.mBytesPerPacket == b.mBytesPerPacket, "data format");

    /* A seek to the middle: the offset is from the data offset; estimated only without a table. */
    SInt64 byteOffset = -1;
    AudioFileStreamSeekFlags seekFlags = 0;
    EXPECT_STATUS(AudioFileStreamSeek(c.stream, (SInt64)packetCount / 2, &byteOffset, &seekFlags), noErr);
    EXPECT(byteOffset >= 0 && byteOffset < (SInt64)size, "seek offset %lld", (long long)byteOffset);
    AudioFramePacketTranslation t = {0};
    t.mPacket = 10;
    propertySize = sizeof t;
    OSStatus s = AudioFileStreamGetProperty(c.stream, kAudioFileStreamProperty_PacketToFrame, &propertySize, &t);
    EXPECT(s == noErr ? t.mFrame == 10 * (SInt64)(b.mFramesPerPacket ? b.mFramesPerPacket : 1) || b.mFramesPerPacket == 0 : 1, "packet to frame");

    EXPECT_STATUS(AudioFileStreamClose(c.stream), noErr);
    AudioFileClose(file);
    free(buffer);
    free(descriptions);
    free(c.data);
    free(c.sizes);
    free(c.frames);
    free(bytes);
}

static void ignoreProperty(void *ud, AudioFileStreamID s, AudioFileStreamPropertyID id, AudioFileStreamPropertyFlags *f) { (void)ud; (void)s; (void)id; (void)f; }
static void ignorePackets(void *ud, UInt32 b, UInt32 n, const void *d, AudioStreamPacketDescription *p) { (void)ud; (void)b; (void)n; (void)d; (void)p; }

static void errors(const char *path) {
    AudioFileStreamID s = NULL;
    EXPECT_STATUS(AudioFileStreamOpen(NULL, NULL, ignorePackets, 0, &s), kAudio_ParamError);
    EXPECT_STATUS(AudioFileStreamOpen(NULL, ignoreProperty, ignorePackets, 0, &s), noErr);
    UInt32 size = 0;
    Boolean writable = true;
    UInt32 ready = 7;
    size = sizeof ready;
    EXPECT_STATUS(AudioFileStreamGetProperty(s, kAudioFileStreamProperty_ReadyToProducePackets, &size, &ready), noErr);
    EXPECT(ready == 0, "not ready before any bytes");
    AudioStreamBasicDescription f;
    size = sizeof f;
    EXPECT_STATUS(AudioFileStreamGetProperty(s, kAudioFileStreamProperty_DataFormat, &size, &f), kAudioFileStreamError_ValueUnknown);
    SInt64 offset;
    AudioFileStreamSeekFlags flags;
    EXPECT_STATUS(AudioFileStreamSeek(s, 0, &offset, &flags), kAudioFileStreamError_DataUnavailable);
    size_t n;
    unsigned char *bytes = readAll(path, &n);
    EXPECT_STATUS(AudioFileStreamParseBytes(s, 10, NULL, 0), kAudio_ParamError);
    EXPECT_STATUS(AudioFileStreamParseBytes(s, (UInt32)n, bytes, 0), noErr);
    EXPECT_STATUS(AudioFileStreamGetPropertyInfo(s, kAudioFileStreamProperty_DataFormat, &size, &writable), noErr);
    EXPECT(size == sizeof(AudioStreamBasicDescription) && !writable, "data format info: %u bytes", (unsigned)size);
    size = 4;
    EXPECT_STATUS(AudioFileStreamGetProperty(s, kAudioFileStreamProperty_DataFormat, &size, &f), kAudioFileStreamError_BadPropertySize);
    EXPECT_STATUS(AudioFileStreamGetPropertyInfo(s, 0x7a7a7a7a, &size, NULL), kAudioFileStreamError_UnsupportedProperty);
    EXPECT_STATUS(AudioFileStreamSetProperty(s, kAudioFileStreamProperty_DataFormat, sizeof f, &f), kAudioFileStreamError_IllegalOperation);
    EXPECT_STATUS(AudioFileStreamSetProperty(s, 0x7a7a7a7a, 4, &size), kAudioFileStreamError_UnsupportedProperty);
    EXPECT_STATUS(AudioFileStreamSeek(s, -1, &offset, &flags), kAudioFileStreamError_InvalidPacketOffset);
    EXPECT_STATUS(AudioFileStreamClose(s), noErr);
    EXPECT_STATUS(AudioFileStreamParseBytes(s, (UInt32)n, bytes, 0), kAudioFileStreamError_IllegalOperation);
    EXPECT_STATUS(AudioFileStreamClose(s), kAudioFileStreamError_IllegalOperation);
    free(bytes);

    /* A WAVE file whose 'fmt ' chunk is too short to describe anything, and one whose data
       comes before its format: result codes, not crashes. */
    unsigned char junk[256];
    memset(junk, 0xFF, sizeof junk);
    memcpy(junk, "RIFF\xff\xff\xff\xffWAVEfmt \x02\x00\x00\x00\x01\x00" "data\x10\x00\x00\x00", 30);
    EXPECT_STATUS(AudioFileStreamOpen(NULL, ignoreProperty, ignorePackets, 0, &s), noErr);
    OSStatus status = AudioFileStreamParseBytes(s, sizeof junk, junk, 0);
    EXPECT(status == kAudioFileStreamError_InvalidFile, "damaged WAVE: %d", (int)status);
    EXPECT_STATUS(AudioFileStreamParseBytes(s, sizeof junk, junk, 0), kAudioFileStreamError_InvalidFile);
    EXPECT_STATUS(AudioFileStreamClose(s), noErr);
    memcpy(junk, "RIFF\xff\xff\xff\xffWAVEdata\x10\x00\x00\x00", 20);
    EXPECT_STATUS(AudioFileStreamOpen(NULL, ignoreProperty, ignorePackets, 0, &s), noErr);
    EXPECT_STATUS(AudioFileStreamParseBytes(s, sizeof junk, junk, 0), kAudioFileStreamError_NotOptimized);
    EXPECT_STATUS(AudioFileStreamClose(s), noErr);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc != 3) {
        fprintf(stderr, "usage: stream_checks FILE PIECE | errors FILE\n");
        return 2;
    }
    if (strcmp(argv[1], "errors") == 0) {
        errors(argv[2]);
    } else {
        compare(argv[1], (size_t)atoi(argv[2]));
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
