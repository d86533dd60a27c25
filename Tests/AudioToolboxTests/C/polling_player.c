/*
 * A player in the style of "Learning Core Audio"'s CAPlayer: the queue is made with a NULL run
 * loop (callbacks on the queue's own thread), the callback reads packets with
 * AudioFileReadPacketData and stops the queue (not immediately) at the end of the file, and
 * main polls the run loop a quarter second at a time until the callback says it is done, then
 * runs it two more seconds for the last buffers to play before stopping and disposing.
 *
 *   polling_player FILE
 *
 * On a Mac the HAL's source keeps the main run loop waiting its time, so the polling costs no
 * CPU. The last line gives the CPU time the process used and the audio's duration.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define BUFFER_COUNT 3

typedef struct {
    AudioFileID file;
    SInt64 packetPosition;
    UInt32 packetsToRead;
    AudioStreamPacketDescription *packetDescs;
    Boolean isDone;
} Player;

static void check(OSStatus status, const char *what) {
    if (status == noErr) return;
    fprintf(stderr, "error: %s (%d)\n", what, (int)status);
    exit(1);
}

static void outputCallback(void *userData, AudioQueueRef queue, AudioQueueBufferRef buffer) {
    Player *player = userData;
    if (player->isDone) return;
    UInt32 bytes = buffer->mAudioDataBytesCapacity;
    UInt32 packets = player->packetsToRead;
    check(AudioFileReadPacketData(player->file, false, &bytes, player->packetDescs, player->packetPosition, &packets,
                                  buffer->mAudioData),
          "AudioFileReadPacketData");
    if (packets > 0) {
        buffer->mAudioDataByteSize = bytes;
        AudioQueueEnqueueBuffer(queue, buffer, player->packetDescs ? packets : 0, player->packetDescs);
        player->packetPosition += packets;
    } else {
        check(AudioQueueStop(queue, false), "AudioQueueStop");
        player->isDone = true;
    }
}

/* The book's CalculateBytesForTime: a buffer of about half a second, in whole packets. */
static void bufferSize(AudioFileID file, AudioStreamBasicDescription format, Float64 seconds, UInt32 *bytes, UInt32 *packets) {
    UInt32 maxPacketSize, size = sizeof maxPacketSize;
    check(AudioFileGetProperty(file, kAudioFilePropertyPacketSizeUpperBound, &size, &maxPacketSize), "packet size upper bound");
    const UInt32 maxBufferSize = 0x10000, minBufferSize = 0x4000;
    if (format.mFramesPerPacket)
        *bytes = (UInt32)(format.mSampleRate / format.mFramesPerPacket * seconds) * maxPacketSize;
    else
        *bytes = maxBufferSize > maxPacketSize ? maxBufferSize : maxPacketSize;
    if (*bytes > maxBufferSize && *bytes > maxPacketSize) *bytes = maxBufferSize;
    else if (*bytes < minBufferSize) *bytes = minBufferSize;
    *packets = *bytes / maxPacketSize;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: polling_player FILE\n");
        return 2;
    }
    Player player = {0};
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)argv[1], (CFIndex)strlen(argv[1]), false);
    check(AudioFileOpenURL(url, kAudioFileReadPermission, 0, &player.file), "AudioFileOpenURL");
    CFRelease(url);
    AudioStreamBasicDescription format;
    UInt32 size = sizeof format;
    check(AudioFileGetProperty(player.file, kAudioFilePropertyDataFormat, &size, &format), "data format");
    SInt64 packetCount = 0;
    size = sizeof packetCount;
    check(AudioFileGetProperty(player.file, kAudioFilePropertyAudioDataPacketCount, &size, &packetCount), "packet count");
    AudioQueueRef queue;
    check(AudioQueueNewOutput(&format, outputCallback, &player, NULL, NULL, 0, &queue), "AudioQueueNewOutput");

    UInt32 bytes;
    bufferSize(player.file, format, 0.5, &bytes, &player.packetsToRead);
    Boolean vbr = format.mBytesPerPacket == 0 || format.mFramesPerPacket == 0;
    player.packetDescs = vbr ? malloc(sizeof(AudioStreamPacketDescription) * player.packetsToRead) : NULL;

    AudioQueueBufferRef buffers[BUFFER_COUNT];
    for (int i = 0; i < BUFFER_COUNT; i++) {
        check(AudioQueueAllocateBuffer(queue, bytes, &buffers[i]), "AudioQueueAllocateBuffer");
        outputCallback(&player, queue, buffers[i]);
        if (player.isDone) break;
    }
    check(AudioQueueStart(queue, NULL), "AudioQueueStart");
    int polls = 0;
    do {
        CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.25, false);
        polls++;
    } while (!player.isDone);
    CFRunLoopRunInMode(kCFRunLoopDefaultMode, 2, false);
    player.isDone = true;
    check(AudioQueueStop(queue, true), "AudioQueueStop");
    check(AudioQueueDispose(queue, true), "AudioQueueDispose");
    AudioFileClose(player.file);
    free(player.packetDescs);

    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double cpu = (double)usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + (double)usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
    double duration = format.mFramesPerPacket ? (double)packetCount * format.mFramesPerPacket / format.mSampleRate : 0;
    printf("polls=%d cpu_seconds=%.3f audio_seconds=%.3f\n", polls, cpu, duration);
    return 0;
}
