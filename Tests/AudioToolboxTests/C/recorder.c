/*
 * A recorder in the style of "Learning Core Audio"'s CARecorder: an input queue (made with a
 * NULL run loop) whose callback writes each buffer to a file with AudioFileWritePackets and
 * re-enqueues it; main records for the seconds asked, waiting on the main run loop, then stops
 * and closes the file.
 *
 *   recorder OUT.caf|OUT.aiff SECONDS RATE CHANNELS
 *
 * It records 16-bit signed integer PCM from the default input device (with the file backend,
 * AUDIOQUEUE_INPUT_DEVICE names the WAVE file it "records").
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUFFER_COUNT 3

typedef struct {
    AudioFileID file;
    SInt64 packet;
    Boolean running;
} Recorder;

static void check(OSStatus status, const char *what) {
    if (status == noErr) return;
    fprintf(stderr, "error: %s (%d)\n", what, (int)status);
    exit(1);
}

static void inputCallback(void *userData, AudioQueueRef queue, AudioQueueBufferRef buffer, const AudioTimeStamp *start,
                          UInt32 packets, const AudioStreamPacketDescription *descriptions) {
    (void)start;
    Recorder *recorder = userData;
    if (packets > 0) {
        check(AudioFileWritePackets(recorder->file, false, buffer->mAudioDataByteSize, descriptions, recorder->packet, &packets,
                                    buffer->mAudioData),
              "AudioFileWritePackets");
        recorder->packet += packets;
    }
    if (recorder->running) AudioQueueEnqueueBuffer(queue, buffer, 0, NULL);
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: recorder OUT SECONDS RATE CHANNELS\n");
        return 2;
    }
    const char *dot = strrchr(argv[1], '.');
    AudioFileTypeID type = dot && strcmp(dot, ".aiff") == 0 ? kAudioFileAIFFType : kAudioFileCAFType;
    AudioStreamBasicDescription format = {0};
    format.mSampleRate = atof(argv[3]);
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked |
                          (type == kAudioFileAIFFType ? kAudioFormatFlagIsBigEndian : 0);
    format.mChannelsPerFrame = (UInt32)atoi(argv[4]);
    format.mBitsPerChannel = 16;
    format.mBytesPerFrame = format.mBytesPerPacket = 2 * format.mChannelsPerFrame;
    format.mFramesPerPacket = 1;

    Recorder recorder = {0};
    AudioQueueRef queue;
    check(AudioQueueNewInput(&format, inputCallback, &recorder, NULL, NULL, 0, &queue), "AudioQueueNewInput");
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)argv[1], (CFIndex)strlen(argv[1]), false);
    check(AudioFileCreateWithURL(url, type, &format, kAudioFileFlags_EraseFile, &recorder.file), "AudioFileCreateWithURL");
    CFRelease(url);

    UInt32 bytes = (UInt32)(format.mSampleRate * 0.1) * format.mBytesPerFrame;
    for (int i = 0; i < BUFFER_COUNT; i++) {
        AudioQueueBufferRef buffer;
        check(AudioQueueAllocateBuffer(queue, bytes, &buffer), "AudioQueueAllocateBuffer");
        check(AudioQueueEnqueueBuffer(queue, buffer, 0, NULL), "AudioQueueEnqueueBuffer");
    }
    recorder.running = true;
    check(AudioQueueStart(queue, NULL), "AudioQueueStart");
    CFRunLoopRunInMode(kCFRunLoopDefaultMode, atof(argv[2]), false);
    recorder.running = false;
    check(AudioQueueStop(queue, true), "AudioQueueStop");
    check(AudioQueueDispose(queue, true), "AudioQueueDispose");
    check(AudioFileClose(recorder.file), "AudioFileClose");
    printf("packets=%lld\n", (long long)recorder.packet);
    return 0;
}
