/*
 * book_recorder.c — a recorder in the style of the command-line recorder of a well-known Core
 * Audio book: it asks the HAL for the default input device's sample rate, lets
 * AudioFormatGetProperty(kAudioFormatProperty_FormatInfo) complete a partly filled format, reads
 * the queue's converter for the full output format, its maximum packet size and its magic
 * cookie, and writes packets from the input callback with AudioFileWritePackets until <return>.
 *
 *   book_recorder OUT.caf [aac|lpcm|ima4|ulaw|alaw]
 */
#include <AudioToolbox/AudioToolbox.h>

#define kNumberRecordBuffers 3

typedef struct MyRecorder {
    AudioFileID recordFile;
    SInt64 recordPacket;
    Boolean running;
} MyRecorder;

static void CheckError(OSStatus error, const char *operation) {
    if (error == noErr) return;
    char errorString[20];
    *(UInt32 *)(errorString + 1) = CFSwapInt32HostToBig(error);
    if (isprint(errorString[1]) && isprint(errorString[2]) && isprint(errorString[3]) && isprint(errorString[4])) {
        errorString[0] = errorString[5] = '\'';
        errorString[6] = '\0';
    } else {
        sprintf(errorString, "%d", (int)error);
    }
    fprintf(stderr, "Error: %s (%s)\n", operation, errorString);
    exit(1);
}

static OSStatus MyGetDefaultInputDeviceSampleRate(Float64 *outSampleRate) {
    OSStatus error;
    AudioDeviceID deviceID = 0;
    AudioObjectPropertyAddress propertyAddress;
    UInt32 propertySize;

    propertyAddress.mSelector = kAudioHardwarePropertyDefaultInputDevice;
    propertyAddress.mScope = kAudioObjectPropertyScopeGlobal;
    propertyAddress.mElement = 0;
    propertySize = sizeof(AudioDeviceID);
    error = AudioHardwareServiceGetPropertyData(kAudioObjectSystemObject, &propertyAddress, 0, NULL, &propertySize, &deviceID);
    if (error) return error;

    propertyAddress.mSelector = kAudioDevicePropertyNominalSampleRate;
    propertyAddress.mScope = kAudioObjectPropertyScopeGlobal;
    propertyAddress.mElement = 0;
    propertySize = sizeof(Float64);
    error = AudioHardwareServiceGetPropertyData(deviceID, &propertyAddress, 0, NULL, &propertySize, outSampleRate);
    return error;
}

static void MyCopyEncoderCookieToFile(AudioQueueRef queue, AudioFileID theFile) {
    OSStatus error;
    UInt32 propertySize;
    error = AudioQueueGetPropertySize(queue, kAudioConverterCompressionMagicCookie, &propertySize);
    if (error == noErr && propertySize > 0) {
        Byte *magicCookie = (Byte *)malloc(propertySize);
        CheckError(AudioQueueGetProperty(queue, kAudioQueueProperty_MagicCookie, magicCookie, &propertySize),
                   "Couldn't get audio queue's magic cookie");
        CheckError(AudioFileSetProperty(theFile, kAudioFilePropertyMagicCookieData, propertySize, magicCookie),
                   "Couldn't set audio file's magic cookie");
        free(magicCookie);
    }
}

static int MyComputeRecordBufferSize(const AudioStreamBasicDescription *format, AudioQueueRef queue, float seconds) {
    int packets, frames, bytes;
    frames = (int)ceil(seconds * format->mSampleRate);
    if (format->mBytesPerFrame > 0) {
        bytes = frames * format->mBytesPerFrame;
    } else {
        UInt32 maxPacketSize;
        if (format->mBytesPerPacket > 0) {
            maxPacketSize = format->mBytesPerPacket;
        } else {
            UInt32 propertySize = sizeof(maxPacketSize);
            CheckError(AudioQueueGetProperty(queue, kAudioConverterPropertyMaximumOutputPacketSize, &maxPacketSize, &propertySize),
                       "Couldn't get queue's maximum output packet size");
        }
        if (format->mFramesPerPacket > 0)
            packets = frames / format->mFramesPerPacket;
        else
            packets = frames;
        if (packets == 0) packets = 1;
        bytes = packets * maxPacketSize;
    }
    return bytes;
}

static void MyAQInputCallback(void *inUserData, AudioQueueRef inQueue, AudioQueueBufferRef inBuffer,
                              const AudioTimeStamp *inStartTime, UInt32 inNumPackets,
                              const AudioStreamPacketDescription *inPacketDesc) {
    MyRecorder *recorder = (MyRecorder *)inUserData;
    (void)inStartTime;
    if (inNumPackets > 0) {
        CheckError(AudioFileWritePackets(recorder->recordFile, FALSE, inBuffer->mAudioDataByteSize, inPacketDesc,
                                         recorder->recordPacket, &inNumPackets, inBuffer->mAudioData),
                   "AudioFileWritePackets failed");
        recorder->recordPacket += inNumPackets;
    }
    if (recorder->running)
        CheckError(AudioQueueEnqueueBuffer(inQueue, inBuffer, 0, NULL), "AudioQueueEnqueueBuffer failed");
}

int main(int argc, const char *argv[]) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s OUT.caf [aac|lpcm|ima4|ulaw|alaw]\n", argv[0]);
        return 2;
    }
    const char *codec = argc > 2 ? argv[2] : "ima4";
    MyRecorder recorder = {0};
    AudioStreamBasicDescription recordFormat;
    memset(&recordFormat, 0, sizeof(recordFormat));

    if (strcmp(codec, "lpcm") == 0) {
        recordFormat.mFormatID = kAudioFormatLinearPCM;
        recordFormat.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
        recordFormat.mBitsPerChannel = 16;
    } else if (strcmp(codec, "ulaw") == 0) {
        recordFormat.mFormatID = kAudioFormatULaw;
    } else if (strcmp(codec, "alaw") == 0) {
        recordFormat.mFormatID = kAudioFormatALaw;
    } else if (strcmp(codec, "aac") == 0) {
        recordFormat.mFormatID = kAudioFormatMPEG4AAC;
    } else {
        recordFormat.mFormatID = kAudioFormatAppleIMA4;
    }
    recordFormat.mChannelsPerFrame = 2;
    CheckError(MyGetDefaultInputDeviceSampleRate(&recordFormat.mSampleRate), "MyGetDefaultInputDeviceSampleRate failed");
    printf("input device sample rate %.0f\n", recordFormat.mSampleRate);

    UInt32 propSize = sizeof(recordFormat);
    CheckError(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, NULL, &propSize, &recordFormat),
               "AudioFormatGetProperty failed");

    AudioQueueRef queue = {0};
    CheckError(AudioQueueNewInput(&recordFormat, MyAQInputCallback, &recorder, NULL, NULL, 0, &queue),
               "AudioQueueNewInput failed");

    UInt32 size = sizeof(recordFormat);
    CheckError(AudioQueueGetProperty(queue, kAudioConverterCurrentOutputStreamDescription, &recordFormat, &size),
               "Couldn't get queue's format");
    printf("format %4.4s, %u bytes per packet, %u frames per packet\n", (char *)&recordFormat.mFormatID,
           (unsigned)recordFormat.mBytesPerPacket, (unsigned)recordFormat.mFramesPerPacket);

    CFStringRef path = CFStringCreateWithCString(kCFAllocatorDefault, argv[1], kCFStringEncodingUTF8);
    CFURLRef myFileURL = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, path, kCFURLPOSIXPathStyle, false);
    CFRelease(path);
    CheckError(AudioFileCreateWithURL(myFileURL, kAudioFileCAFType, &recordFormat, kAudioFileFlags_EraseFile, &recorder.recordFile),
               "AudioFileCreateWithURL failed");
    CFRelease(myFileURL);

    MyCopyEncoderCookieToFile(queue, recorder.recordFile);

    int bufferByteSize = MyComputeRecordBufferSize(&recordFormat, queue, 0.5);
    int bufferIndex;
    for (bufferIndex = 0; bufferIndex < kNumberRecordBuffers; ++bufferIndex) {
        AudioQueueBufferRef buffer;
        CheckError(AudioQueueAllocateBuffer(queue, (UInt32)bufferByteSize, &buffer), "AudioQueueAllocateBuffer failed");
        CheckError(AudioQueueEnqueueBuffer(queue, buffer, 0, NULL), "AudioQueueEnqueueBuffer failed");
    }

    recorder.running = TRUE;
    CheckError(AudioQueueStart(queue, NULL), "AudioQueueStart failed");

    printf("Recording, press <return> to stop:\n");
    fflush(stdout);
    getchar();

    printf("* recording done *\n");
    recorder.running = FALSE;
    CheckError(AudioQueueStop(queue, TRUE), "AudioQueueStop failed");

    MyCopyEncoderCookieToFile(queue, recorder.recordFile);

    AudioQueueDispose(queue, TRUE);
    AudioFileClose(recorder.recordFile);
    printf("%lld packets\n", (long long)recorder.recordPacket);
    return 0;
}
