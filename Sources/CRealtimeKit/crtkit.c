#define _GNU_SOURCE
#include "crtkit.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The part of libdbus-1's ABI used here (dbus/dbus-*.h, unchanged since 1.0). */
typedef uint32_t dbus_bool_t;
typedef struct DBusConnection DBusConnection;
typedef struct DBusMessage DBusMessage;
typedef struct {
    const char *name;
    const char *message;
    unsigned int dummy1 : 1, dummy2 : 1, dummy3 : 1, dummy4 : 1, dummy5 : 1;
    void *padding1;
} DBusError;
/* DBusMessageIter is 72 bytes on LP64 targets; the library only writes its own size. */
typedef union {
    char bytes[256];
    void *align;
} DBusMessageIter;
enum { BUS_SYSTEM = 1 };
enum { TYPE_INVALID = 0, TYPE_INT32 = 'i', TYPE_UINT32 = 'u', TYPE_INT64 = 'x', TYPE_UINT64 = 't', TYPE_STRING = 's', TYPE_VARIANT = 'v' };

static struct {
    dbus_bool_t (*threads_init_default)(void);
    void (*error_init)(DBusError *);
    void (*error_free)(DBusError *);
    DBusConnection *(*bus_get_private)(int, DBusError *);
    DBusConnection *(*connection_open_private)(const char *, DBusError *);
    dbus_bool_t (*bus_register)(DBusConnection *, DBusError *);
    void (*connection_set_exit_on_disconnect)(DBusConnection *, dbus_bool_t);
    void (*connection_close)(DBusConnection *);
    void (*connection_unref)(DBusConnection *);
    DBusMessage *(*message_new_method_call)(const char *, const char *, const char *, const char *);
    dbus_bool_t (*message_append_args)(DBusMessage *, int, ...);
    DBusMessage *(*connection_send_with_reply_and_block)(DBusConnection *, DBusMessage *, int, DBusError *);
    void (*message_unref)(DBusMessage *);
    dbus_bool_t (*message_iter_init)(DBusMessage *, DBusMessageIter *);
    int (*message_iter_get_arg_type)(DBusMessageIter *);
    void (*message_iter_recurse)(DBusMessageIter *, DBusMessageIter *);
    void (*message_iter_get_basic)(DBusMessageIter *, void *);
} dbus;
static int loaded;
static char load_error[256];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static const char library_name[] = "libdbus-1.so.3";
static const char service[] = "org.freedesktop.RealtimeKit1";
static const char object[] = "/org/freedesktop/RealtimeKit1";
/* rtkit answers at once; a bus that does not answer in this long is taken as absent. */
static const int timeout_ms = 2000;

static void load(void) {
    void *library = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : library_name);
        return;
    }
    int missing = 0;
#define FIND(field, symbol) \
    if (!(*(void **)&dbus.field = dlsym(library, #symbol)) && !missing) { \
        missing = 1; \
        snprintf(load_error, sizeof load_error, "%s has no %s", library_name, #symbol); \
    }
    FIND(threads_init_default, dbus_threads_init_default)
    FIND(error_init, dbus_error_init)
    FIND(error_free, dbus_error_free)
    FIND(bus_get_private, dbus_bus_get_private)
    FIND(connection_open_private, dbus_connection_open_private)
    FIND(bus_register, dbus_bus_register)
    FIND(connection_set_exit_on_disconnect, dbus_connection_set_exit_on_disconnect)
    FIND(connection_close, dbus_connection_close)
    FIND(connection_unref, dbus_connection_unref)
    FIND(message_new_method_call, dbus_message_new_method_call)
    FIND(message_append_args, dbus_message_append_args)
    FIND(connection_send_with_reply_and_block, dbus_connection_send_with_reply_and_block)
    FIND(message_unref, dbus_message_unref)
    FIND(message_iter_init, dbus_message_iter_init)
    FIND(message_iter_get_arg_type, dbus_message_iter_get_arg_type)
    FIND(message_iter_recurse, dbus_message_iter_recurse)
    FIND(message_iter_get_basic, dbus_message_iter_get_basic)
#undef FIND
    if (missing) {
        dlclose(library);
        return;
    }
    dbus.threads_init_default();
    loaded = 1;
}

uint64_t crtkit_thread_id(void) { return (uint64_t)syscall(SYS_gettid); }

void crtkit_name_thread(const char *name) {
    char shown[16];
    snprintf(shown, sizeof shown, "%s", name);
    pthread_setname_np(pthread_self(), shown);
}

int crtkit_load(void) {
    pthread_once(&load_once, load);
    return loaded;
}

static int fail(char *error, size_t size, const char *format, ...) {
    if (size > 0) {
        va_list args;
        va_start(args, format);
        vsnprintf(error, size, format, args);
        va_end(args);
    }
    return -1;
}

static int fail_with(DBusError *e, char *error, size_t size, const char *what) {
    fail(error, size, "%s: %s", what, e->message ? e->message : (e->name ? e->name : "failed"));
    dbus.error_free(e);
    return -1;
}

/* A private connection to `bus` (NULL: the system bus) that does not end the process when
 * the bus goes away. */
static DBusConnection *connect_bus(const char *bus, char *error, size_t size) {
    if (!crtkit_load()) {
        fail(error, size, "%s", load_error);
        return NULL;
    }
    DBusError e;
    dbus.error_init(&e);
    DBusConnection *c;
    if (bus) {
        c = dbus.connection_open_private(bus, &e);
        if (c && !dbus.bus_register(c, &e)) {
            dbus.connection_close(c);
            dbus.connection_unref(c);
            c = NULL;
        }
    } else {
        c = dbus.bus_get_private(BUS_SYSTEM, &e);
    }
    if (!c) {
        fail_with(&e, error, size, "no bus");
        return NULL;
    }
    dbus.connection_set_exit_on_disconnect(c, 0);
    return c;
}

static void disconnect(DBusConnection *c) {
    dbus.connection_close(c);
    dbus.connection_unref(c);
}

/* Sends `m` (and drops it); the reply, or NULL with the error in `error`. */
static DBusMessage *call(DBusConnection *c, DBusMessage *m, const char *what, char *error, size_t size) {
    DBusError e;
    dbus.error_init(&e);
    DBusMessage *reply = dbus.connection_send_with_reply_and_block(c, m, timeout_ms, &e);
    dbus.message_unref(m);
    if (!reply) fail_with(&e, error, size, what);
    return reply;
}

/* rtkit's integer property `name` (Int32 or Int64). */
static int get_property(DBusConnection *c, const char *name, int64_t *value, char *error, size_t size) {
    DBusMessage *m = dbus.message_new_method_call(service, object, "org.freedesktop.DBus.Properties", "Get");
    if (!m) return fail(error, size, "out of memory");
    const char *interface = service;
    if (!dbus.message_append_args(m, TYPE_STRING, &interface, TYPE_STRING, &name, TYPE_INVALID)) {
        dbus.message_unref(m);
        return fail(error, size, "out of memory");
    }
    DBusMessage *reply = call(c, m, name, error, size);
    if (!reply) return -1;
    DBusMessageIter top, variant;
    int status = -1;
    if (dbus.message_iter_init(reply, &top) && dbus.message_iter_get_arg_type(&top) == TYPE_VARIANT) {
        dbus.message_iter_recurse(&top, &variant);
        int type = dbus.message_iter_get_arg_type(&variant);
        if (type == TYPE_INT32) {
            int32_t v;
            dbus.message_iter_get_basic(&variant, &v);
            *value = v;
            status = 0;
        } else if (type == TYPE_INT64) {
            int64_t v;
            dbus.message_iter_get_basic(&variant, &v);
            *value = v;
            status = 0;
        }
    }
    dbus.message_unref(reply);
    return status == 0 ? 0 : fail(error, size, "%s: not an integer", name);
}

static int get_limits(DBusConnection *c, crtkit_limits *limits, char *error, size_t size) {
    int64_t priority, nice, rttime;
    if (get_property(c, "MaxRealtimePriority", &priority, error, size) ||
        get_property(c, "MinNiceLevel", &nice, error, size) || get_property(c, "RTTimeUSecMax", &rttime, error, size))
        return -1;
    limits->max_realtime_priority = (int32_t)priority;
    limits->min_nice_level = (int32_t)nice;
    limits->rttime_usec_max = rttime;
    return 0;
}

int crtkit_make_realtime(const char *bus, uint64_t tid, int32_t priority, int32_t *granted, crtkit_limits *limits,
                         char *error, size_t size) {
    DBusConnection *c = connect_bus(bus, error, size);
    if (!c) return -1;
    int status = -1;
    if (get_limits(c, limits, error, size)) goto done;
    if (priority > limits->max_realtime_priority) priority = limits->max_realtime_priority;
    if (priority < 1) {
        fail(error, size, "rtkit grants no real-time priority");
        goto done;
    }
    struct rlimit rl;
    if (limits->rttime_usec_max > 0 && getrlimit(RLIMIT_RTTIME, &rl) == 0 &&
        (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > (rlim_t)limits->rttime_usec_max)) {
        rl.rlim_cur = rl.rlim_max = (rlim_t)limits->rttime_usec_max;
        if (setrlimit(RLIMIT_RTTIME, &rl) != 0) {
            fail(error, size, "cannot set RLIMIT_RTTIME to %lld us", (long long)limits->rttime_usec_max);
            goto done;
        }
    }
    DBusMessage *m = dbus.message_new_method_call(service, object, service, "MakeThreadRealtime");
    uint32_t p = (uint32_t)priority;
    if (!m || !dbus.message_append_args(m, TYPE_UINT64, &tid, TYPE_UINT32, &p, TYPE_INVALID)) {
        if (m) dbus.message_unref(m);
        fail(error, size, "out of memory");
        goto done;
    }
    DBusMessage *reply = call(c, m, "MakeThreadRealtime", error, size);
    if (!reply) goto done;
    dbus.message_unref(reply);
    *granted = priority;
    status = 0;
done:
    disconnect(c);
    return status;
}

int crtkit_make_high_priority(const char *bus, uint64_t tid, int32_t nice, int32_t *granted, char *error, size_t size) {
    DBusConnection *c = connect_bus(bus, error, size);
    if (!c) return -1;
    int status = -1;
    crtkit_limits limits;
    if (get_limits(c, &limits, error, size)) goto done;
    if (nice < limits.min_nice_level) nice = limits.min_nice_level;
    DBusMessage *m = dbus.message_new_method_call(service, object, service, "MakeThreadHighPriority");
    if (!m || !dbus.message_append_args(m, TYPE_UINT64, &tid, TYPE_INT32, &nice, TYPE_INVALID)) {
        if (m) dbus.message_unref(m);
        fail(error, size, "out of memory");
        goto done;
    }
    DBusMessage *reply = call(c, m, "MakeThreadHighPriority", error, size);
    if (!reply) goto done;
    dbus.message_unref(reply);
    *granted = nice;
    status = 0;
done:
    disconnect(c);
    return status;
}
