/*
 * A recorder as Mac programs write one (the shape of "Learning Core Audio"'s CARecorder), run by
 * RecorderTests.swift:
 *   converter_recorder FORMAT OUT.caf SECONDS     FORMAT: lpcm, ima4, ulaw or alaw; 2 channels, 44.1 kHz
 * It fills only the format ID, rate and channel count (and for linear PCM the sample layout),
 * completes the description with kAudioFormatProperty_FormatInfo, makes an input queue, asks
 * the queue's converter for the full output format, sizes its buffers from it (the maximum
 * output packet size when packets vary), copies the encoder's cookie to the file before and
 * after recording, and writes what the queue captures to a CAF file. It prints what it found:
 *   info ID FRAMES_PER_PACKET BYTES_PER_PACKET BYTES_PER_FRAME BITS      after FormatInfo
 *   output ...                                                          the converter's output
 *   input ...                                                           the converter's input
 *   name TEXT                                                           kAudioFormatProperty_FormatName
 *   maxpacket N, buffer N, cookie STATUS SIZE, packets N
 * The rate is 44100 Hz: the book's MyGetDefaultInputDeviceSampleRate asks the HAL, which is
 * not part of this library.
 */
#define _DEFAULT_SOURCE 1
#include <AudioToolbox/AudioToolbox.h>
#include <math.h>
#include <unistd.h>

typedef struct {
    AudioFileID file;
    SInt64 packet;
    volatile int running;
} Recorder;

static void check(OSStatus status, const char *what) {
    if (status == noErr) return;
    printf("error: %s (%d)\n", what, (int)status);
    exit(1);
}

static void printFormat(const char *label, const AudioStreamBasicDescription *f) {
    printf("%s %08x %u %u %u %u %u %.0f\n", label, (unsigned)f->mFormatID, (unsigned)f->mFramesPerPacket,
           (unsigned)f->mBytesPerPacket, (unsigned)f->mBytesPerFrame, (unsigned)f->mBitsPerChannel,
           (unsigned)f->mChannelsPerFrame, f->mSampleRate);
}

/* The encoder's magic cookie, if it has one, into the file. */
static void copyEncoderCookieToFile(AudioQueueRef queue, AudioFileID file) {
    UInt32 size = 0;
    OSStatus status = AudioQueueGetPropertySize(queue, kAudioConverterCompressionMagicCookie, &size);
    printf("cookie %d %u\n", (int)status, (unsigned)size);
    if (status != noErr || size == 0) return;
    void *cookie = malloc(size);
    check(AudioQueueGetProperty(queue, kAudioConverterCompressionMagicCookie, cookie, &size), "get the encoder's cookie");
    check(AudioFileSetProperty(file, kAudioFilePropertyMagicCookieData, size, cookie), "set the file's cookie");
    free(cookie);
}

/* Bytes for `seconds` of audio: frames × bytes per frame, or packets × the largest packet. */
static UInt32 computeRecordBufferSize(const AudioStreamBasicDescription *format, AudioQueueRef queue, double seconds) {
    UInt32 frames = (UInt32)ceil(seconds * format->mSampleRate);
    if (format->mBytesPerFrame > 0) return frames * format->mBytesPerFrame;
    UInt32 maxPacketSize = format->mBytesPerPacket;
    if (maxPacketSize == 0) {
        UInt32 size = sizeof(maxPacketSize);
        check(AudioQueueGetProperty(queue, kAudioConverterPropertyMaximumOutputPacketSize, &maxPacketSize, &size),
              "get the queue's maximum output packet size");
    }
    UInt32 packets = format->mFramesPerPacket > 0 ? frames / format->mFramesPerPacket : frames;
    return (packets > 0 ? packets : 1) * maxPacketSize;
}

static void inputCallback(void *userData, AudioQueueRef queue, AudioQueueBufferRef buffer, const AudioTimeStamp *start,
                          UInt32 packets, const AudioStreamPacketDescription *descriptions) {
    (void)start;
    Recorder *recorder = userData;
    if (packets > 0) {
        check(AudioFileWritePackets(recorder->file, false, buffer->mAudioDataByteSize, descriptions, recorder->packet,
                                    &packets, buffer->mAudioData), "write packets");
        recorder->packet += packets;
    }
    if (recorder->running) check(AudioQueueEnqueueBuffer(queue, buffer, 0, NULL), "enqueue a buffer");
}

int main(int argc, char **argv) {
    if (argc != 4) { printf("usage: recorder lpcm|ima4|ulaw|alaw OUT.caf SECONDS\n"); return 2; }
    AudioStreamBasicDescription format = {0};
    if (strcmp(argv[1], "lpcm") == 0) {
        format.mFormatID = kAudioFormatLinearPCM;
        format.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
        format.mBitsPerChannel = 16;
    } else if (strcmp(argv[1], "ima4") == 0) {
        format.mFormatID = kAudioFormatAppleIMA4;
    } else if (strcmp(argv[1], "ulaw") == 0) {
        format.mFormatID = kAudioFormatULaw;
    } else if (strcmp(argv[1], "alaw") == 0) {
        format.mFormatID = kAudioFormatALaw;
    } else {
        printf("unknown format %s\n", argv[1]);
        return 2;
    }
    format.mSampleRate = 44100;
    format.mChannelsPerFrame = 2;

    UInt32 size = sizeof(format);
    check(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &size, &format), "complete the format");
    printFormat("info", &format);

    CFStringRef name = NULL;
    size = sizeof(name);
    check(AudioFormatGetProperty(kAudioFormatProperty_FormatName, sizeof(format), &format, &size, &name), "name the format");
    char text[256];
    printf("name %s\n", CFStringGetCString(name, text, sizeof(text), kCFStringEncodingUTF8) ? text : "?");
    CFRelease(name);

    Recorder recorder = {0};
    AudioQueueRef queue = NULL;
    check(AudioQueueNewInput(&format, inputCallback, &recorder, NULL, NULL, 0, &queue), "make the input queue");

    size = sizeof(format);
    check(AudioQueueGetProperty(queue, kAudioConverterCurrentOutputStreamDescription, &format, &size), "get the queue's format");
    printFormat("output", &format);
    AudioStreamBasicDescription input = {0};
    size = sizeof(input);
    check(AudioQueueGetProperty(queue, kAudioConverterCurrentInputStreamDescription, &input, &size), "get the converter's input");
    printFormat("input", &input);
    UInt32 maxPacket = 0;
    size = sizeof(maxPacket);
    check(AudioQueueGetProperty(queue, kAudioConverterPropertyMaximumOutputPacketSize, &maxPacket, &size), "get the maximum packet size");
    printf("maxpacket %u\n", (unsigned)maxPacket);

    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)argv[2], (CFIndex)strlen(argv[2]), false);
    check(AudioFileCreateWithURL(url, kAudioFileCAFType, &format, kAudioFileFlags_EraseFile, &recorder.file), "create the file");
    CFRelease(url);
    copyEncoderCookieToFile(queue, recorder.file);

    UInt32 bufferSize = computeRecordBufferSize(&format, queue, 0.5);
    printf("buffer %u\n", (unsigned)bufferSize);
    for (int i = 0; i < 3; i++) {
        AudioQueueBufferRef buffer;
        check(AudioQueueAllocateBuffer(queue, bufferSize, &buffer), "allocate a buffer");
        check(AudioQueueEnqueueBuffer(queue, buffer, 0, NULL), "enqueue a buffer");
    }
    recorder.running = 1;
    check(AudioQueueStart(queue, NULL), "start the queue");
    usleep((useconds_t)(atof(argv[3]) * 1e6));
    recorder.running = 0;
    check(AudioQueueStop(queue, true), "stop the queue");
    copyEncoderCookieToFile(queue, recorder.file);
    check(AudioQueueDispose(queue, true), "dispose of the queue");
    check(AudioFileClose(recorder.file), "close the file");
    printf("packets %lld\n", (long long)recorder.packet);
    return 0;
}
