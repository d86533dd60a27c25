/*
 * CFAvailability.h — the enumeration macros of Apple's CoreFoundation: CF_ENUM, CF_CLOSED_ENUM
 * and CF_OPTIONS, expanded as Apple's header expands them, so that every enumeration type has
 * Apple's width in C and C++ (with GCC and Clang) and Swift imports CF_ENUM types as enums and
 * CF_OPTIONS types as option sets, as on a Mac. The availability macros are empty.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __COREFOUNDATION_CFAVAILABILITY__
#define __COREFOUNDATION_CFAVAILABILITY__ 1

/* <TargetConditionals.h> is in the directory that `audiotoolbox-config --cflags` adds for C and
   C++ programs only (Swift's Foundation decides on its own platform with it). */
#if defined(__has_include)
    #if __has_include(<TargetConditionals.h>)
        #include <TargetConditionals.h>
    #endif
#endif

/* As Apple's header: compilers without these (GCC before 14) answer 0. */
#ifndef __has_feature
    #define __has_feature(x) 0
#endif
#ifndef __has_attribute
    #define __has_attribute(x) 0
#endif
#ifndef __has_extension
    #define __has_extension(x) 0
#endif

/* Availability: this library implements one version of the API; nothing is marked. */
#define CF_AVAILABLE(_mac, _ios)
#define CF_AVAILABLE_MAC(_mac)
#define CF_AVAILABLE_IOS(_ios)
#define CF_DEPRECATED(_macIntro, _macDep, _iosIntro, _iosDep, ...)
#define CF_DEPRECATED_MAC(_macIntro, _macDep, ...)
#define CF_DEPRECATED_IOS(_iosIntro, _iosDep, ...)
#define CF_ENUM_AVAILABLE(_mac, _ios)
#define CF_ENUM_AVAILABLE_MAC(_mac)
#define CF_ENUM_AVAILABLE_IOS(_ios)
#define CF_ENUM_DEPRECATED(_macIntro, _macDep, _iosIntro, _iosDep, ...)
#define CF_ENUM_DEPRECATED_MAC(_macIntro, _macDep, ...)
#define CF_ENUM_DEPRECATED_IOS(_iosIntro, _iosDep, ...)
#ifndef API_AVAILABLE
    #define API_AVAILABLE(...)
    #define API_DEPRECATED(...)
    #define API_DEPRECATED_WITH_REPLACEMENT(...)
    #define API_UNAVAILABLE(...)
#endif

/* Enumerations and options. */
#if __has_attribute(enum_extensibility)
    #define __CF_ENUM_ATTRIBUTES __attribute__((enum_extensibility(open)))
    #define __CF_CLOSED_ENUM_ATTRIBUTES __attribute__((enum_extensibility(closed)))
    #define __CF_OPTIONS_ATTRIBUTES __attribute__((flag_enum, enum_extensibility(open)))
#else
    #define __CF_ENUM_ATTRIBUTES
    #define __CF_CLOSED_ENUM_ATTRIBUTES
    #define __CF_OPTIONS_ATTRIBUTES
#endif

/* In C++ a CF_OPTIONS type is the integer type itself (so `0` and `a | b` are values of it);
   Clang keeps it from Swift, which imports the enumeration under the name instead. */
#if __has_attribute(availability)
    #define __CF_OPTIONS_SWIFT_UNAVAILABLE __attribute__((availability(swift, unavailable)))
#else
    #define __CF_OPTIONS_SWIFT_UNAVAILABLE
#endif

/* Enumerations with a fixed underlying type are an extension of C before C23, and enumerators
   beyond int's range (0x80000000 flags, 0xFFFFFFFF labels) one of ISO C: what Apple's API is
   written with. `__extension__` keeps -pedantic from warning of them in the declarations
   themselves, as it would not of a Mac's system headers. */
#if defined(__GNUC__) || defined(__clang__)
    #define __CF_EXTENSION __extension__
#else
    #define __CF_EXTENSION
#endif

#define __CF_ENUM_GET_MACRO(_1, _2, NAME, ...) NAME
#if (defined(__cplusplus) && __cplusplus >= 201103L && (__has_extension(cxx_strong_enums) || __has_feature(objc_fixed_enum))) \
    || (!defined(__cplusplus) && (__has_feature(objc_fixed_enum) || __has_extension(cxx_fixed_enum)))
    #define __CF_ENUM_FIXED_IS_AVAILABLE 1
#else
    #define __CF_ENUM_FIXED_IS_AVAILABLE 0
#endif

#if __CF_ENUM_FIXED_IS_AVAILABLE
    #define __CF_NAMED_ENUM(_type, _name) int __CF_ENUM_##_name; __CF_EXTENSION enum __CF_ENUM_ATTRIBUTES _name : _type; typedef enum _name _name; __CF_EXTENSION enum _name : _type
    #define __CF_ANON_ENUM(_type) __CF_EXTENSION enum __CF_ENUM_ATTRIBUTES : _type
    #define CF_CLOSED_ENUM(_type, _name) int __CF_ENUM_##_name; __CF_EXTENSION enum __CF_CLOSED_ENUM_ATTRIBUTES _name : _type; typedef enum _name _name; __CF_EXTENSION enum _name : _type
    #if defined(__cplusplus)
        #define CF_OPTIONS(_type, _name) __CF_OPTIONS_SWIFT_UNAVAILABLE _type _name; enum __CF_OPTIONS_ATTRIBUTES : _name
    #else
        #define CF_OPTIONS(_type, _name) int __CF_OPTIONS_##_name; __CF_EXTENSION enum __CF_OPTIONS_ATTRIBUTES _name : _type; typedef enum _name _name; __CF_EXTENSION enum _name : _type
    #endif
#else
    /* No fixed underlying types (C with GCC, C++03): the type is the integer type, the
       enumeration unnamed. */
    #define __CF_NAMED_ENUM(_type, _name) _type _name; __CF_EXTENSION enum
    #define __CF_ANON_ENUM(_type) __CF_EXTENSION enum
    #define CF_CLOSED_ENUM(_type, _name) _type _name; __CF_EXTENSION enum
    #define CF_OPTIONS(_type, _name) _type _name; __CF_EXTENSION enum
#endif

/* CF_ENUM(_type) { ... }; or typedef CF_ENUM(_type, _name) { ... }; */
#define CF_ENUM(...) __CF_ENUM_GET_MACRO(__VA_ARGS__, __CF_NAMED_ENUM, __CF_ANON_ENUM, )(__VA_ARGS__)

#if __has_attribute(swift_wrapper)
    #define CF_TYPED_ENUM __attribute__((swift_wrapper(enum)))
    #define CF_TYPED_EXTENSIBLE_ENUM __attribute__((swift_wrapper(struct)))
#else
    #define CF_TYPED_ENUM
    #define CF_TYPED_EXTENSIBLE_ENUM
#endif
#define CF_STRING_ENUM CF_TYPED_ENUM
#define CF_EXTENSIBLE_STRING_ENUM CF_TYPED_EXTENSIBLE_ENUM

#if __has_feature(attribute_availability_swift)
    #define CF_SWIFT_UNAVAILABLE(_msg) __attribute__((availability(swift, unavailable, message = _msg)))
#else
    #define CF_SWIFT_UNAVAILABLE(_msg)
#endif

#endif /* __COREFOUNDATION_CFAVAILABILITY__ */
