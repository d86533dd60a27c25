/*
 * CFByteOrder.h — the host's byte order and conversions between it and big- and little-endian
 * integers and floating-point numbers, with Apple's names and semantics, as inline functions
 * (nothing is exported from the library for them). "Swapped" floating-point values are
 * big-endian, as on a Mac.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __COREFOUNDATION_CFBYTEORDER__
#define __COREFOUNDATION_CFBYTEORDER__ 1

#include <CoreFoundation/CFBase.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    #define __CF_BIG_ENDIAN__ 1
    #define __CF_LITTLE_ENDIAN__ 0
#else
    #define __CF_BIG_ENDIAN__ 0
    #define __CF_LITTLE_ENDIAN__ 1
#endif

CF_EXTERN_C_BEGIN

/** A byte order: one of CFByteOrderUnknown, CFByteOrderLittleEndian, CFByteOrderBigEndian. */
typedef CFIndex CFByteOrder;
enum __CFByteOrder {
    CFByteOrderUnknown,
    CFByteOrderLittleEndian,
    CFByteOrderBigEndian
};

/** A 32-bit floating-point number's bits in big-endian order. */
typedef struct {
    uint32_t v;
} CFSwappedFloat32;

/** A 64-bit floating-point number's bits in big-endian order. */
typedef struct {
    uint64_t v;
} CFSwappedFloat64;

/** The host's byte order. */
CF_INLINE CFByteOrder CFByteOrderGetCurrent(void) {
    return __CF_BIG_ENDIAN__ ? (CFByteOrder)CFByteOrderBigEndian : (CFByteOrder)CFByteOrderLittleEndian;
}

/** The value with its two bytes exchanged. */
CF_INLINE uint16_t CFSwapInt16(uint16_t arg) { return (uint16_t)__builtin_bswap16(arg); }
/** The value with its four bytes in reverse order. */
CF_INLINE uint32_t CFSwapInt32(uint32_t arg) { return (uint32_t)__builtin_bswap32(arg); }
/** The value with its eight bytes in reverse order. */
CF_INLINE uint64_t CFSwapInt64(uint64_t arg) { return (uint64_t)__builtin_bswap64(arg); }

#if __CF_BIG_ENDIAN__
    #define __CF_SWAP_BIG(bits, arg) (arg)
    #define __CF_SWAP_LITTLE(bits, arg) CFSwapInt##bits(arg)
#else
    #define __CF_SWAP_BIG(bits, arg) CFSwapInt##bits(arg)
    #define __CF_SWAP_LITTLE(bits, arg) (arg)
#endif

/** A big-endian value in host order. */
CF_INLINE uint16_t CFSwapInt16BigToHost(uint16_t arg) { return __CF_SWAP_BIG(16, arg); }
CF_INLINE uint32_t CFSwapInt32BigToHost(uint32_t arg) { return __CF_SWAP_BIG(32, arg); }
CF_INLINE uint64_t CFSwapInt64BigToHost(uint64_t arg) { return __CF_SWAP_BIG(64, arg); }
/** A host-order value in big-endian order. */
CF_INLINE uint16_t CFSwapInt16HostToBig(uint16_t arg) { return __CF_SWAP_BIG(16, arg); }
CF_INLINE uint32_t CFSwapInt32HostToBig(uint32_t arg) { return __CF_SWAP_BIG(32, arg); }
CF_INLINE uint64_t CFSwapInt64HostToBig(uint64_t arg) { return __CF_SWAP_BIG(64, arg); }
/** A little-endian value in host order. */
CF_INLINE uint16_t CFSwapInt16LittleToHost(uint16_t arg) { return __CF_SWAP_LITTLE(16, arg); }
CF_INLINE uint32_t CFSwapInt32LittleToHost(uint32_t arg) { return __CF_SWAP_LITTLE(32, arg); }
CF_INLINE uint64_t CFSwapInt64LittleToHost(uint64_t arg) { return __CF_SWAP_LITTLE(64, arg); }
/** A host-order value in little-endian order. */
CF_INLINE uint16_t CFSwapInt16HostToLittle(uint16_t arg) { return __CF_SWAP_LITTLE(16, arg); }
CF_INLINE uint32_t CFSwapInt32HostToLittle(uint32_t arg) { return __CF_SWAP_LITTLE(32, arg); }
CF_INLINE uint64_t CFSwapInt64HostToLittle(uint64_t arg) { return __CF_SWAP_LITTLE(64, arg); }

/** A Float32's bits in big-endian order. */
CF_INLINE CFSwappedFloat32 CFConvertFloat32HostToSwapped(Float32 arg) {
    CFSwappedFloat32 result;
    memcpy(&result.v, &arg, sizeof result.v);
    result.v = CFSwapInt32HostToBig(result.v);
    return result;
}
/** The Float32 whose bits, in big-endian order, are `arg`. */
CF_INLINE Float32 CFConvertFloat32SwappedToHost(CFSwappedFloat32 arg) {
    Float32 result;
    arg.v = CFSwapInt32BigToHost(arg.v);
    memcpy(&result, &arg.v, sizeof result);
    return result;
}
/** A Float64's bits in big-endian order. */
CF_INLINE CFSwappedFloat64 CFConvertFloat64HostToSwapped(Float64 arg) {
    CFSwappedFloat64 result;
    memcpy(&result.v, &arg, sizeof result.v);
    result.v = CFSwapInt64HostToBig(result.v);
    return result;
}
/** The Float64 whose bits, in big-endian order, are `arg`. */
CF_INLINE Float64 CFConvertFloat64SwappedToHost(CFSwappedFloat64 arg) {
    Float64 result;
    arg.v = CFSwapInt64BigToHost(arg.v);
    memcpy(&result, &arg.v, sizeof result);
    return result;
}
/** As CFConvertFloat32HostToSwapped, for a float. */
CF_INLINE CFSwappedFloat32 CFConvertFloatHostToSwapped(float arg) { return CFConvertFloat32HostToSwapped(arg); }
/** As CFConvertFloat32SwappedToHost, giving a float. */
CF_INLINE float CFConvertFloatSwappedToHost(CFSwappedFloat32 arg) { return CFConvertFloat32SwappedToHost(arg); }
/** As CFConvertFloat64HostToSwapped, for a double. */
CF_INLINE CFSwappedFloat64 CFConvertDoubleHostToSwapped(double arg) { return CFConvertFloat64HostToSwapped(arg); }
/** As CFConvertFloat64SwappedToHost, giving a double. */
CF_INLINE double CFConvertDoubleSwappedToHost(CFSwappedFloat64 arg) { return CFConvertFloat64SwappedToHost(arg); }

#undef __CF_SWAP_BIG
#undef __CF_SWAP_LITTLE

CF_EXTERN_C_END

#endif /* __COREFOUNDATION_CFBYTEORDER__ */
