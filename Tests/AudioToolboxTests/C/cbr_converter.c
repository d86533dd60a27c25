/*
 * A converter in the style of "Learning Core Audio"'s CAConverter: reads a file as 16-bit
 * signed integer PCM (ExtAudioFileRead with a client format) and writes it to a new file with
 * AudioFileWritePackets, passing, as the book's converter does, the packet count where the
 * byte count belongs. On a Mac constant-size packets are measured by the packet count (the
 * byte count is not used), so the whole of the audio is written.
 *
 *   cbr_converter IN OUT.aiff|OUT.caf|OUT.wav
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(OSStatus status, const char *what) {
    if (status == noErr) return;
    fprintf(stderr, "error: %s (%d)\n", what, (int)status);
    exit(1);
}

static CFURLRef url(const char *path) {
    return CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)path, (CFIndex)strlen(path), false);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: cbr_converter IN OUT\n");
        return 2;
    }
    CFURLRef inURL = url(argv[1]), outURL = url(argv[2]);
    ExtAudioFileRef in;
    check(ExtAudioFileOpenURL(inURL, &in), "ExtAudioFileOpenURL");
    AudioStreamBasicDescription source;
    UInt32 size = sizeof source;
    check(ExtAudioFileGetProperty(in, kExtAudioFileProperty_FileDataFormat, &size, &source), "file data format");

    const char *dot = strrchr(argv[2], '.');
    AudioFileTypeID type = kAudioFileAIFFType;
    if (dot && strcmp(dot, ".caf") == 0) type = kAudioFileCAFType;
    if (dot && strcmp(dot, ".wav") == 0) type = kAudioFileWAVEType;
    AudioStreamBasicDescription pcm = {0};
    pcm.mSampleRate = source.mSampleRate;
    pcm.mFormatID = kAudioFormatLinearPCM;
    pcm.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked |
                       (type == kAudioFileAIFFType ? kAudioFormatFlagIsBigEndian : 0);
    pcm.mBitsPerChannel = 16;
    pcm.mChannelsPerFrame = source.mChannelsPerFrame;
    pcm.mBytesPerFrame = pcm.mBytesPerPacket = 2 * pcm.mChannelsPerFrame;
    pcm.mFramesPerPacket = 1;
    check(ExtAudioFileSetProperty(in, kExtAudioFileProperty_ClientDataFormat, sizeof pcm, &pcm), "client data format");

    AudioFileID out;
    check(AudioFileCreateWithURL(outURL, type, &pcm, kAudioFileFlags_EraseFile, &out), "AudioFileCreateWithURL");
    CFRelease(inURL);
    CFRelease(outURL);

    UInt32 bufferBytes = 32768;
    char *data = malloc(bufferBytes);
    SInt64 outputPacketPosition = 0;
    for (;;) {
        AudioBufferList list;
        list.mNumberBuffers = 1;
        list.mBuffers[0].mNumberChannels = pcm.mChannelsPerFrame;
        list.mBuffers[0].mDataByteSize = bufferBytes;
        list.mBuffers[0].mData = data;
        UInt32 ioOutputDataPackets = bufferBytes / pcm.mBytesPerPacket;
        check(ExtAudioFileRead(in, &ioOutputDataPackets, &list), "ExtAudioFileRead");
        if (ioOutputDataPackets == 0) break;
        /* The book's call: the packet count passed as inNumBytes. */
        check(AudioFileWritePackets(out, false, ioOutputDataPackets, NULL, outputPacketPosition, &ioOutputDataPackets, data),
              "AudioFileWritePackets");
        outputPacketPosition += ioOutputDataPackets;
    }
    free(data);
    check(AudioFileClose(out), "AudioFileClose");
    check(ExtAudioFileDispose(in), "ExtAudioFileDispose");
    printf("packets=%lld\n", (long long)outputPacketPosition);
    return 0;
}
