/*
 * file_callbacks.c — AudioFileOpenWithCallbacks, run by FileCallbacksTests.swift:
 *   file_callbacks FILE
 * The file is loaded into memory and opened through a read and a size callback, as programs
 * that keep audio in memory or in an archive do; everything read through it must equal what
 * AudioFileOpenURL reads from the path. Then the misuse codes, and a read callback's error.
 * Prints "N passed, N failed".
 */
#include <AudioToolbox/AudioToolbox.h>

static int passed, failed;
#define EXPECT(cond, ...) do { if (cond) passed++; else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

typedef struct Memory {
    const UInt8 *bytes;
    SInt64 size;
    SInt64 failAfter; /* a read reaching past this offset fails; -1: never */
    int reads;
} Memory;

static OSStatus readMemory(void *inClientData, SInt64 inPosition, UInt32 requestCount, void *buffer, UInt32 *actualCount) {
    Memory *m = (Memory *)inClientData;
    m->reads += 1;
    if (m->failAfter >= 0 && inPosition + (SInt64)requestCount > m->failAfter) return 'nope';
    if (inPosition >= m->size) { *actualCount = 0; return noErr; }
    SInt64 n = m->size - inPosition < (SInt64)requestCount ? m->size - inPosition : (SInt64)requestCount;
    memcpy(buffer, m->bytes + inPosition, (size_t)n);
    *actualCount = (UInt32)n;
    return noErr;
}

static SInt64 sizeOfMemory(void *inClientData) { return ((Memory *)inClientData)->size; }

/* Callbacks of a program that passes NULL client data and keeps its data in a global. */
static Memory global;
static int nullClients;
static OSStatus readGlobal(void *inClientData, SInt64 inPosition, UInt32 requestCount, void *buffer, UInt32 *actualCount) {
    if (inClientData == NULL) nullClients += 1;
    return readMemory(&global, inPosition, requestCount, buffer, actualCount);
}
static SInt64 sizeOfGlobal(void *inClientData) {
    if (inClientData == NULL) nullClients += 1;
    return global.size;
}

static OSStatus writeNothing(void *inClientData, SInt64 inPosition, UInt32 requestCount, const void *buffer, UInt32 *actualCount) {
    (void)inClientData; (void)inPosition; (void)requestCount; (void)buffer; *actualCount = 0;
    return noErr;
}
static OSStatus setSizeNothing(void *inClientData, SInt64 inSize) { (void)inClientData; (void)inSize; return noErr; }

/* Every packet of `file`, read 100 at a time, into one allocation; its byte count. */
static UInt8 *readAll(AudioFileID file, UInt32 *outBytes, UInt64 *outPackets) {
    UInt32 maxPacket = 0, size = sizeof maxPacket;
    AudioFileGetProperty(file, kAudioFilePropertyPacketSizeUpperBound, &size, &maxPacket);
    size_t capacity = 1 << 20, used = 0;
    UInt8 *all = (UInt8 *)malloc(capacity);
    SInt64 packet = 0;
    AudioStreamPacketDescription descriptions[100];
    while (1) {
        UInt32 packets = 100, bytes = 100 * maxPacket;
        if (used + bytes > capacity) { capacity = (used + bytes) * 2; all = (UInt8 *)realloc(all, capacity); }
        OSStatus status = AudioFileReadPacketData(file, false, &bytes, descriptions, packet, &packets, all + used);
        if ((status != noErr && status != kAudioFileEndOfFileError) || packets == 0) break;
        used += bytes;
        packet += packets;
    }
    *outBytes = (UInt32)used;
    *outPackets = (UInt64)packet;
    return all;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: file_callbacks FILE\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 2; }
    fseek(f, 0, SEEK_END);
    long length = ftell(f);
    fseek(f, 0, SEEK_SET);
    UInt8 *bytes = (UInt8 *)malloc((size_t)length);
    if (fread(bytes, 1, (size_t)length, f) != (size_t)length) { perror("fread"); return 2; }
    fclose(f);

    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)argv[1], (CFIndex)strlen(argv[1]), false);
    AudioFileID byPath = NULL, byCallbacks = NULL;
    EXPECT(AudioFileOpenURL(url, kAudioFileReadPermission, 0, &byPath) == noErr, "AudioFileOpenURL");
    CFRelease(url);
    Memory memory = {bytes, (SInt64)length, -1, 0};
    OSStatus status = AudioFileOpenWithCallbacks(&memory, readMemory, NULL, sizeOfMemory, NULL, 0, &byCallbacks);
    EXPECT(status == noErr && byCallbacks != NULL, "AudioFileOpenWithCallbacks = %d", (int)status);
    EXPECT(memory.reads > 0, "the read callback was never called");
    if (!byPath || !byCallbacks) { printf("%d passed, %d failed\n", passed, failed); return 1; }

    AudioStreamBasicDescription a, b;
    UInt32 size = sizeof a;
    AudioFileGetProperty(byPath, kAudioFilePropertyDataFormat, &size, &a);
    size = sizeof b;
    AudioFileGetProperty(byCallbacks, kAudioFilePropertyDataFormat, &size, &b);
    EXPECT(memcmp(&a, &b, sizeof a) == 0, "the data formats differ");
    UInt32 typeA = 0, typeB = 0;
    size = sizeof typeA;
    AudioFileGetProperty(byPath, kAudioFilePropertyFileFormat, &size, &typeA);
    size = sizeof typeB;
    AudioFileGetProperty(byCallbacks, kAudioFilePropertyFileFormat, &size, &typeB);
    EXPECT(typeA == typeB && typeA != 0, "file types %08x and %08x", (unsigned)typeA, (unsigned)typeB);

    UInt32 bytesA = 0, bytesB = 0;
    UInt64 packetsA = 0, packetsB = 0;
    UInt8 *allA = readAll(byPath, &bytesA, &packetsA);
    UInt8 *allB = readAll(byCallbacks, &bytesB, &packetsB);
    EXPECT(packetsA > 0 && packetsA == packetsB, "%llu packets by path, %llu through callbacks",
           (unsigned long long)packetsA, (unsigned long long)packetsB);
    EXPECT(bytesA == bytesB && memcmp(allA, allB, bytesA) == 0, "the packets' bytes differ (%u and %u bytes)",
           (unsigned)bytesA, (unsigned)bytesB);
    free(allA);
    free(allB);
    EXPECT(AudioFileClose(byCallbacks) == noErr, "AudioFileClose");
    AudioFileClose(byPath);

    /* A read callback's error ends the call that needed the bytes with its code. */
    memory.failAfter = length / 2;
    memory.reads = 0;
    AudioFileID failing = NULL;
    status = AudioFileOpenWithCallbacks(&memory, readMemory, NULL, sizeOfMemory, NULL, 0, &failing);
    if (status == noErr) {
        UInt32 all = 0;
        UInt64 packets = 0;
        free(readAll(failing, &all, &packets));
        UInt32 count = (UInt32)length, got = count;
        UInt8 *buffer = (UInt8 *)malloc(count);
        status = AudioFileReadBytes(failing, false, 0, &got, buffer);
        free(buffer);
        EXPECT(status == 'nope', "AudioFileReadBytes past the failing offset = %d, expected the callback's 'nope'", (int)status);
        AudioFileClose(failing);
    } else {
        EXPECT(status == 'nope', "opening with a failing callback = %d, expected the callback's 'nope'", (int)status);
    }

    /* Misuse. */
    memory.failAfter = -1;
    AudioFileID none = NULL;
    EXPECT(AudioFileOpenWithCallbacks(&memory, NULL, NULL, sizeOfMemory, NULL, 0, &none) == kAudio_ParamError, "no read callback");
    EXPECT(AudioFileOpenWithCallbacks(&memory, readMemory, NULL, NULL, NULL, 0, &none) == kAudio_ParamError, "no size callback");
    EXPECT(AudioFileOpenWithCallbacks(&memory, readMemory, NULL, sizeOfMemory, NULL, 0, NULL) == kAudio_ParamError, "no result pointer");
    /* All four callbacks, as programs pass them to read: the data reads as before. Writing is
       refused (a CAF file takes packets, but not raw bytes of variable-size packets, and this
       write callback takes nothing). */
    AudioFileID readWrite = NULL;
    EXPECT(AudioFileOpenWithCallbacks(&memory, readMemory, writeNothing, sizeOfMemory, setSizeNothing, 0, &readWrite) == noErr &&
               readWrite != NULL, "opening with write callbacks too");
    if (readWrite) {
        UInt32 one = 1;
        UInt8 byte = 0;
        status = AudioFileWriteBytes(readWrite, false, 0, &one, &byte);
        EXPECT(status == kAudioFilePermissionsError || status == kAudioFileOperationNotSupportedError,
               "writing data opened for reading (%d)", (int)status);
        AudioFileClose(readWrite);
    }
    Memory empty = {bytes, 0, -1, 0};
    status = AudioFileOpenWithCallbacks(&empty, readMemory, NULL, sizeOfMemory, NULL, 0, &none);
    EXPECT(status != noErr && none == NULL, "empty data opened (%d)", (int)status);
    Memory garbage = {(const UInt8 *)"this is not audio data at all, not at all", 41, -1, 0};
    status = AudioFileOpenWithCallbacks(&garbage, readMemory, NULL, sizeOfMemory, NULL, 0, &none);
    EXPECT(status != noErr && none == NULL, "text opened as audio (%d)", (int)status);
    AudioStreamBasicDescription format = a;
    /* A write callback that takes no bytes cannot hold a file: creation fails. */
    status = AudioFileInitializeWithCallbacks(&memory, readMemory, writeNothing, sizeOfMemory, setSizeNothing, kAudioFileCAFType,
                                              &format, 0, &none);
    EXPECT(status != noErr && none == NULL, "AudioFileInitializeWithCallbacks into a write callback that takes nothing (%d)", (int)status);
    EXPECT(AudioFileInitializeWithCallbacks(&memory, readMemory, writeNothing, sizeOfMemory, setSizeNothing, kAudioFileCAFType,
                                            NULL, 0, &none) == kAudio_ParamError,
           "AudioFileInitializeWithCallbacks without a format");

    /* NULL client data reaches the callbacks as NULL. */
    global = memory;
    AudioFileID fromGlobal = NULL;
    EXPECT(AudioFileOpenWithCallbacks(NULL, readGlobal, NULL, sizeOfGlobal, NULL, 0, &fromGlobal) == noErr && nullClients >= 2,
           "opening with NULL client data (%d calls saw NULL)", nullClients);
    if (fromGlobal) AudioFileClose(fromGlobal);
    free(bytes);

    /* Reading files does not start the audio system: with no queue made and no HAL call, the
       main run loop has no source, and a run finishes at once. */
    EXPECT(CFRunLoopRunInMode(kCFRunLoopDefaultMode, 5, false) == kCFRunLoopRunFinished,
           "the main run loop waited in a program that only read files");
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
