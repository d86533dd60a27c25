/*
 * FLAC written through the C API as Mac programs write it, run by FLACWritingCTests.swift:
 *
 *   flac_writer ext OUT TYPE BITS FRAMES
 *       ExtAudioFileCreateWithURL (TYPE flac, caff or m4af) of kAudioFormatFLAC with the source
 *       depth in mFormatFlags (kAppleLosslessFormatFlag_16BitSourceData or _24BitSourceData),
 *       stereo 44.1 kHz, written from interleaved packed signed BITS-bit client frames in
 *       uneven chunks; the compression level through kExtAudioFileProperty_AudioConverter's
 *       kAudioConverterCodecQuality; the client bytes go to OUT.raw as the reference
 *   flac_writer packets OUT.flac FRAMES
 *       AudioConverterNew (16-bit PCM to FLAC) and AudioConverterFillComplexBuffer make the
 *       packets, AudioFileCreateWithURL (kAudioFileFLACType) + AudioFileWritePackets write them,
 *       the converter's kAudioConverterCompressionMagicCookie set on the file before the first
 *       packet and again at the end; reference in OUT.raw
 *   flac_writer misuse DIR
 *       the result codes of what cannot be written
 * Prints "frames N" or the codes; exits 1 with a message on any error.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call) do { OSStatus e_ = (call); if (e_ != noErr) { fprintf(stderr, "error: %s = %d\n", #call, (int)e_); exit(1); } } while (0)

static CFURLRef url(const char *path) {
    return CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)path, (CFIndex)strlen(path), false);
}

static AudioStreamBasicDescription pcm(UInt32 bits) {
    AudioStreamBasicDescription f;
    memset(&f, 0, sizeof f);
    f.mSampleRate = 44100;
    f.mFormatID = kAudioFormatLinearPCM;
    f.mFormatFlags = kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked;
    f.mChannelsPerFrame = 2;
    f.mBitsPerChannel = bits;
    f.mFramesPerPacket = 1;
    f.mBytesPerFrame = f.mBytesPerPacket = 2 * (bits / 8);
    return f;
}

static AudioStreamBasicDescription flac(UInt32 bits) {
    AudioStreamBasicDescription f;
    memset(&f, 0, sizeof f);
    f.mSampleRate = 44100;
    f.mFormatID = kAudioFormatFLAC;
    f.mFormatFlags = bits == 24 ? kAppleLosslessFormatFlag_24BitSourceData : kAppleLosslessFormatFlag_16BitSourceData;
    f.mChannelsPerFrame = 2;
    return f;
}

/* Frame i, channel c: a tone and a little deterministic noise, as BITS-bit samples in `out`. */
static void frame(long i, UInt32 bits, unsigned char *out) {
    static unsigned long seed = 12345;
    for (int c = 0; c < 2; c++) {
        seed = seed * 1103515245UL + 12345UL;
        double x = 0.5 * sin(2 * 3.14159265358979323846 * (c ? 660.0 : 440.0) * (double)i / 44100.0)
                 + ((double)((seed >> 16) & 0x3FF) / 1024.0 - 0.5) * 0.01;
        long v = (long)(x * (double)(1L << (bits - 1)));
        for (UInt32 b = 0; b < bits / 8; b++) *out++ = (unsigned char)((unsigned long)v >> (8 * b));
    }
}

static int ext(const char *path, const char *type, UInt32 bits, long frames) {
    AudioFileTypeID fileType = !strcmp(type, "flac") ? kAudioFileFLACType : !strcmp(type, "caff") ? kAudioFileCAFType : kAudioFileM4AType;
    AudioStreamBasicDescription format = flac(bits), client = pcm(bits);
    ExtAudioFileRef file;
    CFURLRef u = url(path);
    CHECK(ExtAudioFileCreateWithURL(u, fileType, &format, NULL, kAudioFileFlags_EraseFile, &file));
    CFRelease(u);
    CHECK(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof client, &client));
    AudioConverterRef converter;
    UInt32 size = sizeof converter;
    CHECK(ExtAudioFileGetProperty(file, kExtAudioFileProperty_AudioConverter, &size, &converter));
    UInt32 quality = kAudioConverterQuality_Max;
    CHECK(AudioConverterSetProperty(converter, kAudioConverterCodecQuality, sizeof quality, &quality));
    CFArrayRef config = NULL;
    CHECK(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ConverterConfig, sizeof config, &config));
    AudioStreamBasicDescription written;
    size = sizeof written;
    CHECK(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &written));
    printf("format flags %u frames/packet %u\n", (unsigned)written.mFormatFlags, (unsigned)written.mFramesPerPacket);
    char refPath[4096];
    snprintf(refPath, sizeof refPath, "%s.raw", path);
    FILE *ref = fopen(refPath, "wb");
    if (!ref) { perror(refPath); return 1; }
    unsigned char buffer[3000 * 2 * 3];
    long done = 0;
    int chunk = 0;
    while (done < frames) {
        UInt32 n = (UInt32)(1000 + (chunk++ % 3) * 1000);
        if (n > frames - done) n = (UInt32)(frames - done);
        for (UInt32 i = 0; i < n; i++) frame(done + (long)i, bits, buffer + i * client.mBytesPerFrame);
        fwrite(buffer, client.mBytesPerFrame, n, ref);
        AudioBufferList list;
        list.mNumberBuffers = 1;
        list.mBuffers[0].mNumberChannels = 2;
        list.mBuffers[0].mDataByteSize = n * client.mBytesPerFrame;
        list.mBuffers[0].mData = buffer;
        CHECK(ExtAudioFileWrite(file, n, &list));
        done += n;
    }
    fclose(ref);
    CHECK(ExtAudioFileDispose(file));
    printf("frames %ld\n", done);
    return 0;
}

struct Source {
    long frames, done;
    FILE *ref;
    unsigned char buffer[4096 * 4];
};

static OSStatus provide(AudioConverterRef converter, UInt32 *packets, AudioBufferList *data,
                        AudioStreamPacketDescription **descriptions, void *user) {
    (void)converter; (void)descriptions;
    struct Source *s = user;
    UInt32 n = *packets > 4096 ? 4096 : *packets;
    if (n > s->frames - s->done) n = (UInt32)(s->frames - s->done);
    for (UInt32 i = 0; i < n; i++) frame(s->done + (long)i, 16, s->buffer + 4 * i);
    fwrite(s->buffer, 4, n, s->ref);
    s->done += n;
    data->mBuffers[0].mData = s->buffer;
    data->mBuffers[0].mDataByteSize = 4 * n;
    *packets = n;
    return noErr;
}

static void setCookie(AudioConverterRef converter, AudioFileID file) {
    UInt32 size = 0;
    CHECK(AudioConverterGetPropertyInfo(converter, kAudioConverterCompressionMagicCookie, &size, NULL));
    void *cookie = malloc(size);
    CHECK(AudioConverterGetProperty(converter, kAudioConverterCompressionMagicCookie, &size, cookie));
    CHECK(AudioFileSetProperty(file, kAudioFilePropertyMagicCookieData, size, cookie));
    free(cookie);
}

static int packets(const char *path, long frames) {
    AudioStreamBasicDescription in = pcm(16), out = flac(16);
    AudioConverterRef converter;
    CHECK(AudioConverterNew(&in, &out, &converter));
    UInt32 size = sizeof out;
    CHECK(AudioConverterGetProperty(converter, kAudioConverterCurrentOutputStreamDescription, &size, &out));
    UInt32 maxPacket = 0;
    size = sizeof maxPacket;
    CHECK(AudioConverterGetProperty(converter, kAudioConverterPropertyMaximumOutputPacketSize, &size, &maxPacket));
    AudioFileID file;
    CFURLRef u = url(path);
    CHECK(AudioFileCreateWithURL(u, kAudioFileFLACType, &out, kAudioFileFlags_EraseFile, &file));
    CFRelease(u);
    setCookie(converter, file);
    char refPath[4096];
    snprintf(refPath, sizeof refPath, "%s.raw", path);
    struct Source *source = calloc(1, sizeof *source);
    source->frames = frames;
    source->ref = fopen(refPath, "wb");
    if (!source->ref) { perror(refPath); return 1; }
    enum { perFill = 4 };
    void *bytes = malloc(perFill * maxPacket);
    AudioStreamPacketDescription descriptions[perFill];
    SInt64 packet = 0;
    for (;;) {
        UInt32 count = perFill;
        AudioBufferList list;
        list.mNumberBuffers = 1;
        list.mBuffers[0].mNumberChannels = 2;
        list.mBuffers[0].mDataByteSize = perFill * maxPacket;
        list.mBuffers[0].mData = bytes;
        CHECK(AudioConverterFillComplexBuffer(converter, provide, source, &count, &list, descriptions));
        if (count == 0) break;
        UInt32 n = count;
        CHECK(AudioFileWritePackets(file, false, list.mBuffers[0].mDataByteSize, descriptions, packet, &n, bytes));
        packet += n;
    }
    /* The final STREAMINFO (frame sizes, sample count, MD5) and the last packet's remainder. */
    setCookie(converter, file);
    AudioConverterPrimeInfo prime;
    size = sizeof prime;
    CHECK(AudioConverterGetProperty(converter, kAudioConverterPrimeInfo, &size, &prime));
    AudioFilePacketTableInfo table;
    table.mPrimingFrames = (SInt32)prime.leadingFrames;
    table.mRemainderFrames = (SInt32)prime.trailingFrames;
    table.mNumberValidFrames = packet * 4096 - prime.leadingFrames - prime.trailingFrames;
    CHECK(AudioFileSetProperty(file, kAudioFilePropertyPacketTableInfo, sizeof table, &table));
    CHECK(AudioFileClose(file));
    CHECK(AudioConverterDispose(converter));
    fclose(source->ref);
    printf("packets %lld frames %ld\n", (long long)packet, source->done);
    free(bytes);
    free(source);
    return 0;
}

static int misuse(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/misuse.flac", dir);
    CFURLRef u = url(path);
    AudioStreamBasicDescription f = flac(16), p = pcm(16);
    ExtAudioFileRef ext;
    AudioFileID file;
    f.mChannelsPerFrame = 9;
    printf("ext 9 channels %d\n", (int)ExtAudioFileCreateWithURL(u, kAudioFileFLACType, &f, NULL, kAudioFileFlags_EraseFile, &ext));
    f.mChannelsPerFrame = 2;
    f.mSampleRate = 700000;
    printf("ext 700 kHz %d\n", (int)ExtAudioFileCreateWithURL(u, kAudioFileFLACType, &f, NULL, kAudioFileFlags_EraseFile, &ext));
    printf("file pcm %d\n", (int)AudioFileCreateWithURL(u, kAudioFileFLACType, &p, kAudioFileFlags_EraseFile, &file));
    f = flac(16);
    printf("ext wave %d\n", (int)ExtAudioFileCreateWithURL(u, kAudioFileWAVEType, &f, NULL, kAudioFileFlags_EraseFile, &ext));
    AudioConverterRef converter;
    f.mChannelsPerFrame = 0;
    printf("converter 0 channels %d\n", (int)AudioConverterNew(&p, &f, &converter));
    f = flac(16);
    f.mFramesPerPacket = 4096;
    CHECK(AudioFileCreateWithURL(u, kAudioFileFLACType, &f, kAudioFileFlags_EraseFile, &file));
    unsigned char junk[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    printf("cookie junk %d\n", (int)AudioFileSetProperty(file, kAudioFilePropertyMagicCookieData, sizeof junk, junk));
    UInt32 n = 1;
    printf("packets without descriptions %d\n", (int)AudioFileWritePackets(file, false, sizeof junk, NULL, 0, &n, junk));
    CHECK(AudioFileClose(file));
    CFRelease(u);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 6 && !strcmp(argv[1], "ext")) return ext(argv[2], argv[3], (UInt32)atoi(argv[4]), atol(argv[5]));
    if (argc == 4 && !strcmp(argv[1], "packets")) return packets(argv[2], atol(argv[3]));
    if (argc == 3 && !strcmp(argv[1], "misuse")) return misuse(argv[2]);
    fprintf(stderr, "usage: flac_writer ext OUT TYPE BITS FRAMES | packets OUT.flac FRAMES | misuse DIR\n");
    return 1;
}
