/*
 * Opus written through the C API as Mac programs write it, run by OpusWritingCTests.swift:
 *
 *   opus_writer OUT TYPE APPLICATION FRAMES
 *       ExtAudioFileCreateWithURL (TYPE 'OggS', caff or m4af) of kAudioFormatOpus, stereo
 *       48 kHz, from 16-bit stereo client frames at 44.1 kHz (the converter resamples), the bit
 *       rate (64 kb/s) and APPLICATION (voip, audio or lowdelay: this package's
 *       kAudioConverterOpusApplication) set on kExtAudioFileProperty_AudioConverter; prints the
 *       file's format, the application read back and "frames N".
 * Exits 1 with a message on any error.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call) do { OSStatus e_ = (call); if (e_ != noErr) { fprintf(stderr, "error: %s = %d\n", #call, (int)e_); exit(1); } } while (0)

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: opus_writer OUT TYPE APPLICATION FRAMES\n"); return 2; }
    const char *path = argv[1], *type = argv[2], *app = argv[3];
    long frames = atol(argv[4]);
    AudioFileTypeID fileType = !strcmp(type, "caff") ? kAudioFileCAFType : !strcmp(type, "m4af") ? kAudioFileM4AType : 0x4F676753;
    UInt32 application = !strcmp(app, "voip") ? kAudioConverterOpusApplication_VoIP
        : !strcmp(app, "lowdelay") ? kAudioConverterOpusApplication_RestrictedLowDelay : kAudioConverterOpusApplication_Audio;

    AudioStreamBasicDescription format;
    memset(&format, 0, sizeof format);
    format.mSampleRate = 48000;
    format.mFormatID = kAudioFormatOpus;
    format.mChannelsPerFrame = 2;
    AudioStreamBasicDescription client;
    memset(&client, 0, sizeof client);
    client.mSampleRate = 44100;
    client.mFormatID = kAudioFormatLinearPCM;
    client.mFormatFlags = kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked;
    client.mChannelsPerFrame = 2;
    client.mBitsPerChannel = 16;
    client.mFramesPerPacket = 1;
    client.mBytesPerFrame = client.mBytesPerPacket = 4;

    CFURLRef url = CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)path, (CFIndex)strlen(path), false);
    ExtAudioFileRef file;
    CHECK(ExtAudioFileCreateWithURL(url, fileType, &format, NULL, kAudioFileFlags_EraseFile, &file));
    CFRelease(url);
    CHECK(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof client, &client));
    AudioConverterRef converter;
    UInt32 size = sizeof converter;
    CHECK(ExtAudioFileGetProperty(file, kExtAudioFileProperty_AudioConverter, &size, &converter));
    UInt32 bitRate = 64000;
    CHECK(AudioConverterSetProperty(converter, kAudioConverterEncodeBitRate, sizeof bitRate, &bitRate));
    CHECK(AudioConverterSetProperty(converter, kAudioConverterOpusApplication, sizeof application, &application));
    CFArrayRef config = NULL;
    CHECK(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ConverterConfig, sizeof config, &config));
    UInt32 readBack = 0;
    size = sizeof readBack;
    CHECK(AudioConverterGetProperty(converter, kAudioConverterOpusApplication, &size, &readBack));
    UInt32 bad = 12345;
    OSStatus refused = AudioConverterSetProperty(converter, kAudioConverterOpusApplication, sizeof bad, &bad);
    AudioStreamBasicDescription written;
    size = sizeof written;
    CHECK(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &written));
    printf("rate %.0f frames/packet %u application %u refused %d\n", written.mSampleRate, (unsigned)written.mFramesPerPacket,
           (unsigned)readBack, (int)refused);

    short buffer[3000 * 2];
    long done = 0;
    int chunk = 0;
    while (done < frames) {
        UInt32 n = (UInt32)(700 + (chunk++ % 4) * 700);
        if (n > frames - done) n = (UInt32)(frames - done);
        for (UInt32 i = 0; i < n; i++) {
            double t = (double)(done + (long)i) / 44100.0;
            buffer[2 * i] = (short)(8000 * sin(2 * 3.14159265358979323846 * 440 * t));
            buffer[2 * i + 1] = (short)(8000 * sin(2 * 3.14159265358979323846 * 660 * t));
        }
        AudioBufferList list;
        list.mNumberBuffers = 1;
        list.mBuffers[0].mNumberChannels = 2;
        list.mBuffers[0].mDataByteSize = n * 4;
        list.mBuffers[0].mData = buffer;
        CHECK(ExtAudioFileWrite(file, n, &list));
        done += n;
    }
    CHECK(ExtAudioFileDispose(file));
    printf("frames %ld\n", done);
    return 0;
}
