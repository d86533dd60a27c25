/*
 * book_ext_converter.c — a converter in the style of the ExtAudioFile converter of a
 * well-known Core Audio book: ExtAudioFile reads any file as 16-bit big-endian stereo PCM, and
 * the program writes what it reads into an AIFF file with AudioFileWritePackets, passing the
 * frame count where the byte count goes, as the book does (for constant-size packets the
 * packet count decides what is written).
 *
 *   book_ext_converter IN OUT.aif
 */
#include <AudioToolbox/AudioToolbox.h>

typedef struct MyAudioConverterSettings {
    AudioStreamBasicDescription outputFormat;
    ExtAudioFileRef inputFile;
    AudioFileID outputFile;
} MyAudioConverterSettings;

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

static void Convert(MyAudioConverterSettings *mySettings) {
    UInt32 outputBufferSize = 32 * 1024;
    UInt32 sizePerPacket = mySettings->outputFormat.mBytesPerPacket;
    UInt32 packetsPerBuffer = outputBufferSize / sizePerPacket;

    UInt8 *outputBuffer = (UInt8 *)malloc(sizeof(UInt8) * outputBufferSize);
    UInt32 outputFilePacketPosition = 0;
    while (1) {
        AudioBufferList convertedData;
        convertedData.mNumberBuffers = 1;
        convertedData.mBuffers[0].mNumberChannels = mySettings->outputFormat.mChannelsPerFrame;
        convertedData.mBuffers[0].mDataByteSize = outputBufferSize;
        convertedData.mBuffers[0].mData = outputBuffer;

        UInt32 frameCount = packetsPerBuffer;
        CheckError(ExtAudioFileRead(mySettings->inputFile, &frameCount, &convertedData), "Couldn't read from input file");
        if (frameCount == 0) {
            printf("done reading from file\n");
            return;
        }
        CheckError(AudioFileWritePackets(mySettings->outputFile, FALSE, frameCount, NULL,
                                         outputFilePacketPosition / mySettings->outputFormat.mBytesPerPacket, &frameCount,
                                         convertedData.mBuffers[0].mData),
                   "Couldn't write packets to file");
        outputFilePacketPosition += (frameCount * mySettings->outputFormat.mBytesPerPacket);
    }
}

int main(int argc, const char *argv[]) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s IN OUT.aif\n", argv[0]);
        return 2;
    }
    MyAudioConverterSettings audioConverterSettings = {0};

    CFStringRef inPath = CFStringCreateWithCString(kCFAllocatorDefault, argv[1], kCFStringEncodingUTF8);
    CFURLRef inputFileURL = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, inPath, kCFURLPOSIXPathStyle, false);
    CheckError(ExtAudioFileOpenURL(inputFileURL, &audioConverterSettings.inputFile), "ExtAudioFileOpenURL failed");
    CFRelease(inputFileURL);
    CFRelease(inPath);

    audioConverterSettings.outputFormat.mSampleRate = 44100.0;
    audioConverterSettings.outputFormat.mFormatID = kAudioFormatLinearPCM;
    audioConverterSettings.outputFormat.mFormatFlags = kAudioFormatFlagIsBigEndian | kAudioFormatFlagIsSignedInteger |
                                                       kAudioFormatFlagIsPacked;
    audioConverterSettings.outputFormat.mBytesPerPacket = 4;
    audioConverterSettings.outputFormat.mFramesPerPacket = 1;
    audioConverterSettings.outputFormat.mBytesPerFrame = 4;
    audioConverterSettings.outputFormat.mChannelsPerFrame = 2;
    audioConverterSettings.outputFormat.mBitsPerChannel = 16;

    CFStringRef outPath = CFStringCreateWithCString(kCFAllocatorDefault, argv[2], kCFStringEncodingUTF8);
    CFURLRef outputFileURL = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, outPath, kCFURLPOSIXPathStyle, false);
    CheckError(AudioFileCreateWithURL(outputFileURL, kAudioFileAIFFType, &audioConverterSettings.outputFormat,
                                      kAudioFileFlags_EraseFile, &audioConverterSettings.outputFile),
               "AudioFileCreateWithURL failed");
    CFRelease(outputFileURL);
    CFRelease(outPath);

    CheckError(ExtAudioFileSetProperty(audioConverterSettings.inputFile, kExtAudioFileProperty_ClientDataFormat,
                                       sizeof(AudioStreamBasicDescription), &audioConverterSettings.outputFormat),
               "Couldn't set client data format on input ext file");

    fprintf(stdout, "Converting...\n");
    Convert(&audioConverterSettings);

    ExtAudioFileDispose(audioConverterSettings.inputFile);
    AudioFileClose(audioConverterSettings.outputFile);
    return 0;
}
