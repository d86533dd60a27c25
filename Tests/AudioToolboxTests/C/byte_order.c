/*
 * byte_order.c — CFByteOrder.h's functions against byte orders worked out by hand: each value's
 * bytes in memory after a conversion to big- or little-endian order, and IEEE 754's big-endian
 * bytes of 1.0f (3F 80 00 00) and -2.5 (C0 04 00 00 00 00 00 00). Compiled as C and as C++;
 * prints one line per mismatch and "ok" when there is none.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <CoreFoundation/CoreFoundation.h>

static int failures = 0;

static void expectBytes(const char *what, const void *value, const unsigned char *bytes, size_t count) {
    if (memcmp(value, bytes, count) != 0) {
        printf("FAIL %s\n", what);
        failures += 1;
    }
}

static void expect(const char *what, unsigned long long actual, unsigned long long expected) {
    if (actual != expected) {
        printf("FAIL %s: %llx, expected %llx\n", what, actual, expected);
        failures += 1;
    }
}

int main(void) {
    static const unsigned char big16[] = {0x12, 0x34};
    static const unsigned char big32[] = {0x12, 0x34, 0x56, 0x78};
    static const unsigned char big64[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
    static const unsigned char little16[] = {0x34, 0x12};
    static const unsigned char little32[] = {0x78, 0x56, 0x34, 0x12};
    static const unsigned char little64[] = {0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01};
    static const unsigned char oneFloat[] = {0x3F, 0x80, 0x00, 0x00};
    static const unsigned char minusTwoAndAHalf[] = {0xC0, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    const unsigned char hostOne[] = {1, 0};
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;
    CFSwappedFloat32 f32;
    CFSwappedFloat64 f64;
    unsigned short one = 1;

    expect("CFByteOrderGetCurrent", (unsigned long long)CFByteOrderGetCurrent(),
           memcmp(&one, hostOne, 2) == 0 ? CFByteOrderLittleEndian : CFByteOrderBigEndian);
    expect("CFSwapInt16", CFSwapInt16(0x1234), 0x3412);
    expect("CFSwapInt32", CFSwapInt32(0x12345678), 0x78563412);
    expect("CFSwapInt64", CFSwapInt64(0x0102030405060708ULL), 0x0807060504030201ULL);

    v16 = CFSwapInt16HostToBig(0x1234);
    expectBytes("CFSwapInt16HostToBig", &v16, big16, 2);
    v32 = CFSwapInt32HostToBig(0x12345678);
    expectBytes("CFSwapInt32HostToBig", &v32, big32, 4);
    v64 = CFSwapInt64HostToBig(0x0102030405060708ULL);
    expectBytes("CFSwapInt64HostToBig", &v64, big64, 8);
    v16 = CFSwapInt16HostToLittle(0x1234);
    expectBytes("CFSwapInt16HostToLittle", &v16, little16, 2);
    v32 = CFSwapInt32HostToLittle(0x12345678);
    expectBytes("CFSwapInt32HostToLittle", &v32, little32, 4);
    v64 = CFSwapInt64HostToLittle(0x0102030405060708ULL);
    expectBytes("CFSwapInt64HostToLittle", &v64, little64, 8);

    memcpy(&v16, big16, 2);
    expect("CFSwapInt16BigToHost", CFSwapInt16BigToHost(v16), 0x1234);
    memcpy(&v32, big32, 4);
    expect("CFSwapInt32BigToHost", CFSwapInt32BigToHost(v32), 0x12345678);
    memcpy(&v64, big64, 8);
    expect("CFSwapInt64BigToHost", CFSwapInt64BigToHost(v64), 0x0102030405060708ULL);
    memcpy(&v16, little16, 2);
    expect("CFSwapInt16LittleToHost", CFSwapInt16LittleToHost(v16), 0x1234);
    memcpy(&v32, little32, 4);
    expect("CFSwapInt32LittleToHost", CFSwapInt32LittleToHost(v32), 0x12345678);
    memcpy(&v64, little64, 8);
    expect("CFSwapInt64LittleToHost", CFSwapInt64LittleToHost(v64), 0x0102030405060708ULL);

    f32 = CFConvertFloat32HostToSwapped(1.0f);
    expectBytes("CFConvertFloat32HostToSwapped", &f32.v, oneFloat, 4);
    expect("CFConvertFloat32SwappedToHost", CFConvertFloat32SwappedToHost(f32) == 1.0f, 1);
    f32 = CFConvertFloatHostToSwapped(1.0f);
    expectBytes("CFConvertFloatHostToSwapped", &f32.v, oneFloat, 4);
    expect("CFConvertFloatSwappedToHost", CFConvertFloatSwappedToHost(f32) == 1.0f, 1);
    f64 = CFConvertFloat64HostToSwapped(-2.5);
    expectBytes("CFConvertFloat64HostToSwapped", &f64.v, minusTwoAndAHalf, 8);
    expect("CFConvertFloat64SwappedToHost", CFConvertFloat64SwappedToHost(f64) == -2.5, 1);
    f64 = CFConvertDoubleHostToSwapped(-2.5);
    expectBytes("CFConvertDoubleHostToSwapped", &f64.v, minusTwoAndAHalf, 8);
    memcpy(&f64.v, minusTwoAndAHalf, 8);
    expect("CFConvertDoubleSwappedToHost", CFConvertDoubleSwappedToHost(f64) == -2.5, 1);

    if (failures == 0) printf("ok\n");
    return failures == 0 ? 0 : 1;
}
