/*
 * book_format_tester.c — the stream format tester of a well-known Core Audio book, in C: asks
 * Audio File Services which stream descriptions a file type can hold for a format ID, and
 * prints each one's format ID, flags and bits per channel.
 *
 *   book_format_tester TYPE FORMAT     (four-character codes: AIFF lpcm, WAVE lpcm, caff ima4, …)
 */
#include <AudioToolbox/AudioToolbox.h>

static UInt32 FourCC(const char *text) {
    UInt32 code = 0;
    for (int i = 0; i < 4; i++) code = (code << 8) | (UInt8)(text[i] ? text[i] : ' ');
    return code;
}

int main(int argc, const char *argv[]) {
    if (argc < 3 || strlen(argv[1]) != 4 || strlen(argv[2]) != 4) {
        fprintf(stderr, "usage: %s TYPE FORMAT\n", argv[0]);
        return 2;
    }
    AudioFileTypeAndFormatID fileTypeAndFormat;
    fileTypeAndFormat.mFileType = FourCC(argv[1]);
    fileTypeAndFormat.mFormatID = FourCC(argv[2]);

    OSStatus audioErr = noErr;
    UInt32 infoSize = 0;
    audioErr = AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat,
                                          sizeof(fileTypeAndFormat), &fileTypeAndFormat, &infoSize);
    if (audioErr != noErr) {
        UInt32 err4cc = CFSwapInt32HostToBig((UInt32)audioErr);
        printf("audioErr = %4.4s\n", (char *)&err4cc);
        return 1;
    }
    assert(audioErr == noErr);

    AudioStreamBasicDescription *asbds = (AudioStreamBasicDescription *)malloc(infoSize);
    audioErr = AudioFileGetGlobalInfo(kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat, sizeof(fileTypeAndFormat),
                                      &fileTypeAndFormat, &infoSize, asbds);
    assert(audioErr == noErr);

    int asbdCount = (int)(infoSize / sizeof(AudioStreamBasicDescription));
    for (int i = 0; i < asbdCount; i++) {
        UInt32 format4cc = CFSwapInt32HostToBig(asbds[i].mFormatID);
        printf("%d: mFormatId: %4.4s, mFormatFlags: %d, mBitsPerChannel: %d\n", i, (char *)&format4cc,
               (int)asbds[i].mFormatFlags, (int)asbds[i].mBitsPerChannel);
    }
    free(asbds);
    return 0;
}
