/*
 * <libkern/OSAtomic.h> — Apple's atomic operations as static inline functions over the compilers'
 * __atomic builtins (GCC and Clang, C and C++): OSAtomicAdd32/64, OSAtomicIncrement32/64,
 * OSAtomicDecrement32/64, OSAtomicOr32, OSAtomicAnd32, OSAtomicXor32 (and their …Orig forms, which
 * return the value before), OSAtomicCompareAndSwap32/64/Int/Long/Ptr, OSAtomicTestAndSet and
 * OSAtomicTestAndClear (bit 0 the high bit of the first byte, as Apple numbers them), each with a
 * …Barrier form; OSMemoryBarrier; and OSSpinLock (a spin lock that yields the processor while it
 * waits). The forms without Barrier are relaxed atomics, the Barrier forms sequentially
 * consistent. Apple marks these deprecated (since macOS 10.12) in favour of <stdatomic.h>; here
 * they carry no deprecation attribute. The lock-free queues (OSAtomicEnqueue, OSAtomicFifo…)
 * are not provided.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef _OSATOMIC_H_
#define _OSATOMIC_H_

#include <stddef.h>
#include <stdint.h>
#include <sched.h>
#if !defined(__cplusplus)
    #include <stdbool.h>
#endif

#if defined(__cplusplus)
extern "C" {
#endif

typedef int64_t __attribute__((__aligned__((sizeof(int64_t))))) OSAtomic_int64_aligned64_t;

#define __OSATOMIC_RELAXED __ATOMIC_RELAXED
#define __OSATOMIC_BARRIER __ATOMIC_SEQ_CST

/* Arithmetic: the new value. */
static __inline__ int32_t OSAtomicAdd32(int32_t __theAmount, volatile int32_t *__theValue) {
    return __atomic_add_fetch(__theValue, __theAmount, __OSATOMIC_RELAXED);
}
static __inline__ int32_t OSAtomicAdd32Barrier(int32_t __theAmount, volatile int32_t *__theValue) {
    return __atomic_add_fetch(__theValue, __theAmount, __OSATOMIC_BARRIER);
}
static __inline__ int32_t OSAtomicIncrement32(volatile int32_t *__theValue) { return OSAtomicAdd32(1, __theValue); }
static __inline__ int32_t OSAtomicIncrement32Barrier(volatile int32_t *__theValue) { return OSAtomicAdd32Barrier(1, __theValue); }
static __inline__ int32_t OSAtomicDecrement32(volatile int32_t *__theValue) { return OSAtomicAdd32(-1, __theValue); }
static __inline__ int32_t OSAtomicDecrement32Barrier(volatile int32_t *__theValue) { return OSAtomicAdd32Barrier(-1, __theValue); }

static __inline__ int64_t OSAtomicAdd64(int64_t __theAmount, volatile OSAtomic_int64_aligned64_t *__theValue) {
    return __atomic_add_fetch(__theValue, __theAmount, __OSATOMIC_RELAXED);
}
static __inline__ int64_t OSAtomicAdd64Barrier(int64_t __theAmount, volatile OSAtomic_int64_aligned64_t *__theValue) {
    return __atomic_add_fetch(__theValue, __theAmount, __OSATOMIC_BARRIER);
}
static __inline__ int64_t OSAtomicIncrement64(volatile OSAtomic_int64_aligned64_t *__theValue) { return OSAtomicAdd64(1, __theValue); }
static __inline__ int64_t OSAtomicIncrement64Barrier(volatile OSAtomic_int64_aligned64_t *__theValue) { return OSAtomicAdd64Barrier(1, __theValue); }
static __inline__ int64_t OSAtomicDecrement64(volatile OSAtomic_int64_aligned64_t *__theValue) { return OSAtomicAdd64(-1, __theValue); }
static __inline__ int64_t OSAtomicDecrement64Barrier(volatile OSAtomic_int64_aligned64_t *__theValue) { return OSAtomicAdd64Barrier(-1, __theValue); }

/* Bitwise: the new value, or (…Orig) the value before. */
static __inline__ int32_t OSAtomicOr32(uint32_t __theMask, volatile uint32_t *__theValue) {
    return (int32_t)__atomic_or_fetch(__theValue, __theMask, __OSATOMIC_RELAXED);
}
static __inline__ int32_t OSAtomicOr32Barrier(uint32_t __theMask, volatile uint32_t *__theValue) {
    return (int32_t)__atomic_or_fetch(__theValue, __theMask, __OSATOMIC_BARRIER);
}
static __inline__ int32_t OSAtomicOr32Orig(uint32_t __theMask, volatile uint32_t *__theValue) {
    return (int32_t)__atomic_fetch_or(__theValue, __theMask, __OSATOMIC_RELAXED);
}
static __inline__ int32_t OSAtomicOr32OrigBarrier(uint32_t __theMask, volatile uint32_t *__theValue) {
    return (int32_t)__atomic_fetch_or(__theValue, __theMask, __OSATOMIC_BARRIER);
}
static __inline__ int32_t OSAtomicAnd32(uint32_t __theMask, volatile uint32_t *__theValue) {
    return (int32_t)__atomic_and_fetch(__theValue, __theMask, __OSATOMIC_RELAXED);
}
static __inline__ int32_t OSAtomicAnd32Barrier(uint32_t __theMask, volatile uint32_t *__theValue) {
    return (int32_t)__atomic_and_fetch(__theValue, __theMask, __OSATOMIC_BARRIER);
}
static __inline__ int32_t OSAtomicAnd32Orig(uint32_t __theMask, volatile uint32_t *__theValue) {
    return (int32_t)__atomic_fetch_and(__theValue, __theMask, __OSATOMIC_RELAXED);
}
static __inline__ int32_t OSAtomicAnd32OrigBarrier(uint32_t __theMask, volatile uint32_t *__theValue) {
    return (int32_t)__atomic_fetch_and(__theValue, __theMask, __OSATOMIC_BARRIER);
}
static __inline__ int32_t OSAtomicXor32(uint32_t __theMask, volatile uint32_t *__theValue) {
    return (int32_t)__atomic_xor_fetch(__theValue, __theMask, __OSATOMIC_RELAXED);
}
static __inline__ int32_t OSAtomicXor32Barrier(uint32_t __theMask, volatile uint32_t *__theValue) {
    return (int32_t)__atomic_xor_fetch(__theValue, __theMask, __OSATOMIC_BARRIER);
}
static __inline__ int32_t OSAtomicXor32Orig(uint32_t __theMask, volatile uint32_t *__theValue) {
    return (int32_t)__atomic_fetch_xor(__theValue, __theMask, __OSATOMIC_RELAXED);
}
static __inline__ int32_t OSAtomicXor32OrigBarrier(uint32_t __theMask, volatile uint32_t *__theValue) {
    return (int32_t)__atomic_fetch_xor(__theValue, __theMask, __OSATOMIC_BARRIER);
}

/* Compare and swap: true when *__theValue was __oldValue and is now __newValue. */
#define __OSATOMIC_CAS(__theValue, __oldValue, __newValue, __order) \
    __atomic_compare_exchange_n((__theValue), &(__oldValue), (__newValue), 0, (__order), __ATOMIC_RELAXED)
static __inline__ bool OSAtomicCompareAndSwap32(int32_t __oldValue, int32_t __newValue, volatile int32_t *__theValue) {
    return __OSATOMIC_CAS(__theValue, __oldValue, __newValue, __OSATOMIC_RELAXED);
}
static __inline__ bool OSAtomicCompareAndSwap32Barrier(int32_t __oldValue, int32_t __newValue, volatile int32_t *__theValue) {
    return __OSATOMIC_CAS(__theValue, __oldValue, __newValue, __OSATOMIC_BARRIER);
}
static __inline__ bool OSAtomicCompareAndSwap64(int64_t __oldValue, int64_t __newValue, volatile OSAtomic_int64_aligned64_t *__theValue) {
    return __OSATOMIC_CAS(__theValue, __oldValue, __newValue, __OSATOMIC_RELAXED);
}
static __inline__ bool OSAtomicCompareAndSwap64Barrier(int64_t __oldValue, int64_t __newValue, volatile OSAtomic_int64_aligned64_t *__theValue) {
    return __OSATOMIC_CAS(__theValue, __oldValue, __newValue, __OSATOMIC_BARRIER);
}
static __inline__ bool OSAtomicCompareAndSwapInt(int __oldValue, int __newValue, volatile int *__theValue) {
    return __OSATOMIC_CAS(__theValue, __oldValue, __newValue, __OSATOMIC_RELAXED);
}
static __inline__ bool OSAtomicCompareAndSwapIntBarrier(int __oldValue, int __newValue, volatile int *__theValue) {
    return __OSATOMIC_CAS(__theValue, __oldValue, __newValue, __OSATOMIC_BARRIER);
}
static __inline__ bool OSAtomicCompareAndSwapLong(long __oldValue, long __newValue, volatile long *__theValue) {
    return __OSATOMIC_CAS(__theValue, __oldValue, __newValue, __OSATOMIC_RELAXED);
}
static __inline__ bool OSAtomicCompareAndSwapLongBarrier(long __oldValue, long __newValue, volatile long *__theValue) {
    return __OSATOMIC_CAS(__theValue, __oldValue, __newValue, __OSATOMIC_BARRIER);
}
static __inline__ bool OSAtomicCompareAndSwapPtr(void *__oldValue, void *__newValue, void *volatile *__theValue) {
    return __OSATOMIC_CAS(__theValue, __oldValue, __newValue, __OSATOMIC_RELAXED);
}
static __inline__ bool OSAtomicCompareAndSwapPtrBarrier(void *__oldValue, void *__newValue, void *volatile *__theValue) {
    return __OSATOMIC_CAS(__theValue, __oldValue, __newValue, __OSATOMIC_BARRIER);
}

/* Bit __n of the bytes at __theAddress (bit 0 is 0x80 of the first byte): set or clear it; its
   value before. */
static __inline__ bool __OSAtomicTestAndModify(uint32_t __n, volatile void *__theAddress, int __set, int __order) {
    volatile unsigned char *__byte = (volatile unsigned char *)__theAddress + (__n >> 3);
    unsigned char __mask = (unsigned char)(0x80u >> (__n & 7));
    unsigned char __before = __set ? __atomic_fetch_or(__byte, __mask, __order) : __atomic_fetch_and(__byte, (unsigned char)~__mask, __order);
    return (__before & __mask) != 0;
}
static __inline__ bool OSAtomicTestAndSet(uint32_t __n, volatile void *__theAddress) {
    return __OSAtomicTestAndModify(__n, __theAddress, 1, __OSATOMIC_RELAXED);
}
static __inline__ bool OSAtomicTestAndSetBarrier(uint32_t __n, volatile void *__theAddress) {
    return __OSAtomicTestAndModify(__n, __theAddress, 1, __OSATOMIC_BARRIER);
}
static __inline__ bool OSAtomicTestAndClear(uint32_t __n, volatile void *__theAddress) {
    return __OSAtomicTestAndModify(__n, __theAddress, 0, __OSATOMIC_RELAXED);
}
static __inline__ bool OSAtomicTestAndClearBarrier(uint32_t __n, volatile void *__theAddress) {
    return __OSAtomicTestAndModify(__n, __theAddress, 0, __OSATOMIC_BARRIER);
}

/* A full memory barrier. */
static __inline__ void OSMemoryBarrier(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

/* A spin lock: 0 when free. */
typedef int32_t OSSpinLock;
#define OS_SPINLOCK_INIT 0

static __inline__ bool OSSpinLockTry(volatile OSSpinLock *__lock) {
    int32_t __free = 0;
    return __atomic_compare_exchange_n(__lock, &__free, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}
static __inline__ void OSSpinLockLock(volatile OSSpinLock *__lock) {
    while (!OSSpinLockTry(__lock)) {
        while (__atomic_load_n(__lock, __ATOMIC_RELAXED) != 0) sched_yield();
    }
}
static __inline__ void OSSpinLockUnlock(volatile OSSpinLock *__lock) { __atomic_store_n(__lock, 0, __ATOMIC_RELEASE); }

#undef __OSATOMIC_CAS

#if defined(__cplusplus)
}
#endif

#endif /* _OSATOMIC_H_ */
