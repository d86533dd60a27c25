/*
 * dispatch_queue.c — libdispatch as Mac audio code uses it beside AudioToolbox: a serial queue
 * the render side hands work to, a group waited on, a semaphore. Compiled with
 * `audiotoolbox-config --cflags --libs` and nothing else; prints "ok".
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <dispatch/dispatch.h>
#include <stdio.h>

typedef struct Work {
    int done;
    dispatch_semaphore_t ready;
} Work;

static void step(void *context) {
    Work *work = (Work *)context;
    work->done++;
    dispatch_semaphore_signal(work->ready);
}

int main(void) {
    Work work;
    int i, waited = 0;
    dispatch_queue_t queue = dispatch_queue_create("org.example.audio.work", DISPATCH_QUEUE_SERIAL);
    dispatch_group_t group = dispatch_group_create();
    work.done = 0;
    work.ready = dispatch_semaphore_create(0);
    for (i = 0; i < 3; i++) dispatch_group_async_f(group, queue, &work, step);
    dispatch_group_wait(group, dispatch_time(0, (int64_t)5 * 1000 * 1000 * 1000));
    for (i = 0; i < 3; i++) waited += dispatch_semaphore_wait(work.ready, dispatch_time(0, 0)) == 0;
    dispatch_sync_f(queue, &work, step);
    dispatch_release(group);
    dispatch_release(work.ready);
    dispatch_release(queue);
    if (work.done != 4 || waited != 3) {
        printf("done %d waited %d\n", work.done, waited);
        return 1;
    }
    printf("ok\n");
    return 0;
}
