/*
 * abi_check_cf.h — the part of abi_check.c for <MacTypes.h>, <CoreServices/CoreServices.h> and
 * the CoreFoundation headers: type widths, struct layouts and constants, from Apple's SDK
 * (MacOSX10.15.sdk: MacTypes.h, MacErrors.h, Files.h, CFBase.h, CFByteOrder.h, CFString.h,
 * CFURL.h). Included by abi_check.c, whose check macros it uses.
 *
 * swift-audio-queue. Apache License 2.0.
 */

static void checkMacTypesAndCoreFoundation(void) {
    /* MacTypes.h (LP64). */
    WIDTH(Fixed, 4);
    WIDTH(Fract, 4);
    WIDTH(UnsignedFixed, 4);
    WIDTH(ShortFixed, 2);
    WIDTH(Ptr, 8);
    WIDTH(Handle, 8);
    WIDTH(Size, 8);
    SIGNEDNESS(Size, 1);
    WIDTH(ByteCount, 8);
    SIGNEDNESS(ByteCount, 0);
    WIDTH(ByteOffset, 8);
    WIDTH(ItemCount, 8);
    WIDTH(OptionBits, 4);
    WIDTH(Duration, 4);
    WIDTH(ResType, 4);
    WIDTH(Byte, 1);
    WIDTH(SignedByte, 1);
    SIGNEDNESS(SignedByte, 1);
    WIDTH(UniChar, 2);
    SIGNEDNESS(UniChar, 0);
    WIDTH(UTF32Char, 4);
    WIDTH(UTF8Char, 1);
    WIDTH(UniCharCount, 8);
    WIDTH(Str255, 256);
    WIDTH(Str63, 64);
    WIDTH(Str32, 33);
    WIDTH(Str31, 32);
    WIDTH(Str15, 16);
    WIDTH(StringPtr, 8);
    WIDTH(ConstStr255Param, 8);
    WIDTH(ProcPtr, 8);
    CONST_S32(noErr, 0);
    CONST_U32(kNilOptions, 0);
    CONST_U32(kVariableLengthArray, 1);
    CONST_U32(kUnknownType, 0x3F3F3F3F); /* '????' */
    CONST_S32(TRUE, 1);
    CONST_S32(FALSE, 0);

    /* MacErrors.h, Files.h. */
    CONST_S32(paramErr, -50);
    CONST_S32(fsCurPerm, 0);
    CONST_S32(fsRdPerm, 1);
    CONST_S32(fsWrPerm, 2);
    CONST_S32(fsRdWrPerm, 3);
    CONST_S32(fsRdWrShPerm, 4);

    /* CFBase.h. */
    WIDTH(CFTypeID, 8);
    SIGNEDNESS(CFTypeID, 0);
    WIDTH(CFComparisonResult, 8); /* CF_ENUM(CFIndex, CFComparisonResult) */
    STRUCT(CFRange, 16, 8);
    FIELD(CFRange, location, 0, 8);
    FIELD(CFRange, length, 8, 8);
    CONST_S64(kCFCompareLessThan, -1);
    CONST_S64(kCFCompareEqualTo, 0);
    CONST_S64(kCFCompareGreaterThan, 1);

    /* CFByteOrder.h. */
    WIDTH(CFByteOrder, 8);
    STRUCT(CFSwappedFloat32, 4, 4);
    STRUCT(CFSwappedFloat64, 8, 8);
    CONST_S64(CFByteOrderUnknown, 0);
    CONST_S64(CFByteOrderLittleEndian, 1);
    CONST_S64(CFByteOrderBigEndian, 2);

    /* CFString.h: CF_ENUM(CFStringEncoding, CFStringBuiltInEncodings). */
    WIDTH(CFStringBuiltInEncodings, 4);
    CONST_U32(kCFStringEncodingMacRoman, 0);
    CONST_U32(kCFStringEncodingWindowsLatin1, 0x0500);
    CONST_U32(kCFStringEncodingISOLatin1, 0x0201);
    CONST_U32(kCFStringEncodingNextStepLatin, 0x0B01);
    CONST_U32(kCFStringEncodingASCII, 0x0600);
    CONST_U32(kCFStringEncodingUnicode, 0x0100);
    CONST_U32(kCFStringEncodingNonLossyASCII, 0x0BFF);
    CONST_U32(kCFStringEncodingUTF16, 0x0100);
    CONST_U32(kCFStringEncodingUTF16BE, 0x10000100);
    CONST_U32(kCFStringEncodingUTF16LE, 0x14000100);
    CONST_U32(kCFStringEncodingUTF32, 0x0c000100);
    CONST_U32(kCFStringEncodingUTF32BE, 0x18000100);
    CONST_U32(kCFStringEncodingUTF32LE, 0x1c000100);

    /* CFURL.h, CFRunLoop.h. */
    CONST_S64(kCFURLHFSPathStyle, 1);
    CONST_S32(kCFRunLoopRunStopped, 2);
    CONST_S32(kCFRunLoopRunTimedOut, 3);
}
