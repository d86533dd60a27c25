/*
 * HE-AAC through the C API the way a Mac program reads it: the file's data format, its format
 * list (QA1639: the richest format first), its packet table, then ExtAudioFile's length and a
 * read to the end in 16-bit PCM at the file's rate and at 48 kHz.
 *
 *   he_aac_duration FILE EXPECTED_VALID_FRAMES EXPECTED_RATE
 *
 * Prints one line per check and "N passed, M failed".
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;
#define CHECK(cond, ...) do { if (cond) passed++; else { failed++; printf("FAIL line %d: ", __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

static SInt64 ReadAll(ExtAudioFileRef file, Float64 rate, UInt32 channels)
{
    AudioStreamBasicDescription client = {0};
    client.mSampleRate = rate;
    client.mFormatID = kAudioFormatLinearPCM;
    client.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
    client.mBitsPerChannel = 16;
    client.mChannelsPerFrame = channels;
    client.mFramesPerPacket = 1;
    client.mBytesPerFrame = client.mBytesPerPacket = 2 * channels;
    OSStatus err = ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof(client), &client);
    CHECK(err == noErr, "ClientDataFormat at %.0f Hz: %d", rate, (int)err);
    err = ExtAudioFileSeek(file, 0);
    CHECK(err == noErr, "ExtAudioFileSeek: %d", (int)err);
    SInt16 samples[4096 * 2];
    SInt64 total = 0;
    for (;;) {
        AudioBufferList list;
        list.mNumberBuffers = 1;
        list.mBuffers[0].mNumberChannels = channels;
        list.mBuffers[0].mDataByteSize = sizeof(samples);
        list.mBuffers[0].mData = samples;
        UInt32 frames = sizeof(samples) / client.mBytesPerFrame;
        err = ExtAudioFileRead(file, &frames, &list);
        if (err != noErr) { CHECK(0, "ExtAudioFileRead: %d", (int)err); break; }
        if (frames == 0) break;
        total += frames;
    }
    return total;
}

int main(int argc, char *argv[])
{
    if (argc != 4) { fprintf(stderr, "usage: %s FILE VALID_FRAMES RATE\n", argv[0]); return 2; }
    const SInt64 expectedValid = atoll(argv[2]);
    const Float64 expectedRate = atof(argv[3]);
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)argv[1], (CFIndex)strlen(argv[1]), false);

    AudioFileID audioFile;
    OSStatus err = AudioFileOpenURL(url, kAudioFileReadPermission, 0, &audioFile);
    CHECK(err == noErr, "AudioFileOpenURL: %d", (int)err);
    if (err) return 1;
    AudioStreamBasicDescription format;
    UInt32 size = sizeof(format);
    err = AudioFileGetProperty(audioFile, kAudioFilePropertyDataFormat, &size, &format);
    CHECK(err == noErr && format.mFormatID == kAudioFormatMPEG4AAC_HE && format.mSampleRate == expectedRate
          && format.mFramesPerPacket == 2048, "data format '%4.4s' %.0f Hz, %u frames per packet",
          (char *)&format.mFormatID, format.mSampleRate, (unsigned)format.mFramesPerPacket);

    /* QA1639: size the list, read it, take the richest item the decoder can play. */
    UInt32 listSize = 0;
    err = AudioFileGetPropertyInfo(audioFile, kAudioFilePropertyFormatList, &listSize, NULL);
    CHECK(err == noErr && listSize == 2 * sizeof(AudioFormatListItem), "format list of %u bytes: %d", (unsigned)listSize, (int)err);
    AudioFormatListItem *items = (AudioFormatListItem *)malloc(listSize);
    err = AudioFileGetProperty(audioFile, kAudioFilePropertyFormatList, &listSize, items);
    UInt32 count = listSize / sizeof(AudioFormatListItem);
    CHECK(err == noErr && count == 2, "format list: %d, %u items", (int)err, (unsigned)count);
    if (count == 2) {
        CHECK(items[0].mASBD.mFormatID == kAudioFormatMPEG4AAC_HE && items[0].mASBD.mSampleRate == expectedRate,
              "first item '%4.4s' at %.0f Hz", (char *)&items[0].mASBD.mFormatID, items[0].mASBD.mSampleRate);
        CHECK(items[1].mASBD.mFormatID == kAudioFormatMPEG4AAC && items[1].mASBD.mSampleRate == expectedRate / 2
              && items[1].mASBD.mFramesPerPacket == 1024, "second item '%4.4s' at %.0f Hz",
              (char *)&items[1].mASBD.mFormatID, items[1].mASBD.mSampleRate);
        UInt32 playable = 0;
        size = sizeof(playable);
        err = AudioFormatGetProperty(kAudioFormatProperty_FirstPlayableFormatFromList, listSize, items, &size, &playable);
        CHECK(err == noErr && playable == 0, "first playable item %u: %d", (unsigned)playable, (int)err);
    }
    /* A list asked for with room for one item gets the richest. */
    AudioFormatListItem one;
    size = sizeof(one);
    err = AudioFileGetProperty(audioFile, kAudioFilePropertyFormatList, &size, &one);
    CHECK(err == noErr && size == sizeof(one) && one.mASBD.mFormatID == kAudioFormatMPEG4AAC_HE, "one item: %d", (int)err);
    free(items);

    AudioFilePacketTableInfo table;
    size = sizeof(table);
    err = AudioFileGetProperty(audioFile, kAudioFilePropertyPacketTableInfo, &size, &table);
    CHECK(err == noErr && table.mNumberValidFrames == expectedValid && table.mPrimingFrames == 4224,
          "packet table: %lld valid, %d priming, %d remainder", (long long)table.mNumberValidFrames,
          (int)table.mPrimingFrames, (int)table.mRemainderFrames);
    Float64 duration = 0;
    size = sizeof(duration);
    err = AudioFileGetProperty(audioFile, kAudioFilePropertyEstimatedDuration, &size, &duration);
    CHECK(err == noErr && duration > expectedValid / expectedRate - 0.001 && duration < expectedValid / expectedRate + 0.001,
          "estimated duration %.4f s", duration);
    AudioFileClose(audioFile);

    ExtAudioFileRef ext;
    err = ExtAudioFileOpenURL(url, &ext);
    CHECK(err == noErr, "ExtAudioFileOpenURL: %d", (int)err);
    if (err) return 1;
    SInt64 length = 0;
    size = sizeof(length);
    err = ExtAudioFileGetProperty(ext, kExtAudioFileProperty_FileLengthFrames, &size, &length);
    CHECK(err == noErr && length == expectedValid, "FileLengthFrames %lld", (long long)length);
    SInt64 frames = ReadAll(ext, expectedRate, 1);
    CHECK(frames == expectedValid, "read %lld frames at the file's rate", (long long)frames);
    SInt64 resampled = ReadAll(ext, 48000, 2);
    SInt64 expected48 = (SInt64)(expectedValid * 48000.0 / expectedRate + 0.5);
    CHECK(resampled == expected48, "read %lld frames at 48 kHz, %lld expected", (long long)resampled, (long long)expected48);
    ExtAudioFileDispose(ext);
    CFRelease(url);

    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
