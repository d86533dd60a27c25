/*
 * A file converter written the way Learning Core Audio's chapter 6 writes one: an AudioFile
 * read packet by packet in the converter's input callback, AudioConverterFillComplexBuffer
 * pulling it through an AudioConverter into interleaved 16-bit PCM, written raw.
 *
 *   converter_file IN OUT.raw [RATE [CHANNELS]]
 *
 * RATE and CHANNELS default to the input's. Prints "frames N" with the frames written.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CheckError(call, what) do { OSStatus e_ = (call); if (e_ != noErr) { fprintf(stderr, "error: %s (%d)\n", what, (int)e_); exit(1); } } while (0)

typedef struct MyAudioConverterSettings {
    AudioStreamBasicDescription inputFormat;
    AudioStreamBasicDescription outputFormat;
    AudioFileID inputFile;
    FILE *outputFile;
    UInt64 inputFilePacketIndex;
    UInt64 inputFilePacketCount;
    UInt32 inputFilePacketMaxSize;
    AudioStreamPacketDescription *inputFilePacketDescriptions;
    void *sourceBuffer;
} MyAudioConverterSettings;

static OSStatus AudioConverterCallback(AudioConverterRef inAudioConverter, UInt32 *ioDataPacketCount,
                                       AudioBufferList *ioData, AudioStreamPacketDescription **outDataPacketDescription,
                                       void *inUserData) {
    (void)inAudioConverter;
    MyAudioConverterSettings *settings = (MyAudioConverterSettings *)inUserData;
    ioData->mBuffers[0].mData = NULL;
    ioData->mBuffers[0].mDataByteSize = 0;
    if (settings->inputFilePacketIndex + *ioDataPacketCount > settings->inputFilePacketCount)
        *ioDataPacketCount = (UInt32)(settings->inputFilePacketCount - settings->inputFilePacketIndex);
    if (*ioDataPacketCount > 8192) *ioDataPacketCount = 8192; /* the descriptions' room */
    if (*ioDataPacketCount == 0) return noErr;
    if (settings->sourceBuffer != NULL) {
        free(settings->sourceBuffer);
        settings->sourceBuffer = NULL;
    }
    UInt32 outByteCount = *ioDataPacketCount * settings->inputFilePacketMaxSize;
    settings->sourceBuffer = calloc(1, outByteCount);
    OSStatus result = AudioFileReadPacketData(settings->inputFile, true, &outByteCount,
                                              settings->inputFilePacketDescriptions,
                                              (SInt64)settings->inputFilePacketIndex, ioDataPacketCount,
                                              settings->sourceBuffer);
    if (result == kAudioFileEndOfFileError && *ioDataPacketCount) result = noErr;
    else if (result != noErr) return result;
    settings->inputFilePacketIndex += *ioDataPacketCount;
    ioData->mBuffers[0].mData = settings->sourceBuffer;
    ioData->mBuffers[0].mDataByteSize = outByteCount;
    if (outDataPacketDescription) *outDataPacketDescription = settings->inputFilePacketDescriptions;
    return result;
}

static long Convert(MyAudioConverterSettings *mySettings) {
    AudioConverterRef audioConverter;
    CheckError(AudioConverterNew(&mySettings->inputFormat, &mySettings->outputFormat, &audioConverter), "AudioConverterNew failed");

    /* Magic cookie, as the book's later chapters pass one on. */
    UInt32 cookieSize = 0;
    if (AudioFileGetPropertyInfo(mySettings->inputFile, kAudioFilePropertyMagicCookieData, &cookieSize, NULL) == noErr && cookieSize > 0) {
        void *cookie = malloc(cookieSize);
        CheckError(AudioFileGetProperty(mySettings->inputFile, kAudioFilePropertyMagicCookieData, &cookieSize, cookie), "cookie");
        CheckError(AudioConverterSetProperty(audioConverter, kAudioConverterDecompressionMagicCookie, cookieSize, cookie), "set cookie");
        free(cookie);
    }

    UInt32 outputBufferSize = 32 * 1024;
    UInt32 sizePerPacket = mySettings->inputFormat.mBytesPerPacket;
    if (sizePerPacket == 0) {
        UInt32 size = sizeof(sizePerPacket);
        CheckError(AudioConverterGetProperty(audioConverter, kAudioConverterPropertyMaximumOutputPacketSize, &size, &sizePerPacket),
                   "Couldn't get kAudioConverterPropertyMaximumOutputPacketSize");
        if (sizePerPacket > outputBufferSize) outputBufferSize = sizePerPacket;
    }
    UInt32 size = sizeof(mySettings->inputFilePacketMaxSize);
    CheckError(AudioFileGetProperty(mySettings->inputFile, kAudioFilePropertyPacketSizeUpperBound, &size,
                                    &mySettings->inputFilePacketMaxSize), "packet size upper bound");
    mySettings->inputFilePacketDescriptions = (AudioStreamPacketDescription *)malloc(sizeof(AudioStreamPacketDescription) * 8192);

    UInt8 *outputBuffer = (UInt8 *)malloc(sizeof(UInt8) * outputBufferSize);
    long frames = 0;
    while (1) {
        AudioBufferList convertedData;
        convertedData.mNumberBuffers = 1;
        convertedData.mBuffers[0].mNumberChannels = mySettings->outputFormat.mChannelsPerFrame;
        convertedData.mBuffers[0].mDataByteSize = outputBufferSize;
        convertedData.mBuffers[0].mData = outputBuffer;

        UInt32 ioOutputDataPackets = outputBufferSize / mySettings->outputFormat.mBytesPerPacket;
        OSStatus error = AudioConverterFillComplexBuffer(audioConverter, AudioConverterCallback, mySettings,
                                                         &ioOutputDataPackets, &convertedData, NULL);
        if (error || !ioOutputDataPackets) {
            CheckError(error, "AudioConverterFillComplexBuffer");
            break;
        }
        if (convertedData.mBuffers[0].mDataByteSize != ioOutputDataPackets * mySettings->outputFormat.mBytesPerPacket) {
            fprintf(stderr, "error: %u bytes for %u packets\n", (unsigned)convertedData.mBuffers[0].mDataByteSize, (unsigned)ioOutputDataPackets);
            exit(1);
        }
        fwrite(convertedData.mBuffers[0].mData, 1, convertedData.mBuffers[0].mDataByteSize, mySettings->outputFile);
        frames += ioOutputDataPackets;
    }
    AudioConverterDispose(audioConverter);
    free(outputBuffer);
    return frames;
}

int main(int argc, const char *argv[]) {
    if (argc < 3) {
        fprintf(stderr, "usage: converter_file IN OUT.raw [RATE [CHANNELS]]\n");
        return 2;
    }
    MyAudioConverterSettings audioConverterSettings = {0};
    CFURLRef inputFileURL = CFURLCreateFromFileSystemRepresentation(kCFAllocatorDefault, (const UInt8 *)argv[1], (CFIndex)strlen(argv[1]), false);
    CheckError(AudioFileOpenURL(inputFileURL, kAudioFileReadPermission, 0, &audioConverterSettings.inputFile), "AudioFileOpenURL failed");
    CFRelease(inputFileURL);
    UInt32 propSize = sizeof(audioConverterSettings.inputFormat);
    CheckError(AudioFileGetProperty(audioConverterSettings.inputFile, kAudioFilePropertyDataFormat, &propSize,
                                    &audioConverterSettings.inputFormat), "couldn't get file's data format");
    propSize = sizeof(audioConverterSettings.inputFilePacketCount);
    CheckError(AudioFileGetProperty(audioConverterSettings.inputFile, kAudioFilePropertyAudioDataPacketCount, &propSize,
                                    &audioConverterSettings.inputFilePacketCount), "couldn't get file's packet count");

    audioConverterSettings.outputFormat.mSampleRate = argc > 3 ? atof(argv[3]) : audioConverterSettings.inputFormat.mSampleRate;
    audioConverterSettings.outputFormat.mFormatID = kAudioFormatLinearPCM;
    audioConverterSettings.outputFormat.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
    audioConverterSettings.outputFormat.mChannelsPerFrame = argc > 4 ? (UInt32)atoi(argv[4]) : audioConverterSettings.inputFormat.mChannelsPerFrame;
    audioConverterSettings.outputFormat.mBytesPerPacket = 2 * audioConverterSettings.outputFormat.mChannelsPerFrame;
    audioConverterSettings.outputFormat.mFramesPerPacket = 1;
    audioConverterSettings.outputFormat.mBytesPerFrame = 2 * audioConverterSettings.outputFormat.mChannelsPerFrame;
    audioConverterSettings.outputFormat.mBitsPerChannel = 16;

    audioConverterSettings.outputFile = fopen(argv[2], "wb");
    if (!audioConverterSettings.outputFile) { perror(argv[2]); return 1; }
    long frames = Convert(&audioConverterSettings);
    fclose(audioConverterSettings.outputFile);
    AudioFileClose(audioConverterSettings.inputFile);
    free(audioConverterSettings.sourceBuffer);
    free(audioConverterSettings.inputFilePacketDescriptions);
    printf("frames %ld\n", frames);
    return 0;
}
