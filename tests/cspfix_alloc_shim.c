/*
 * cspfix load test: count a process's live heap blocks and bytes (LD_PRELOAD)
 * Copyright (c) 2026 the cspfix developers
 *
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

/*
 * Preloaded into ffmpeg by tools/load-test.sh.  Every malloc, calloc,
 * realloc, reallocarray, free, posix_memalign, aligned_alloc, memalign and
 * valloc of the process (av_malloc is posix_memalign in FFmpeg's usual
 * configurations; av_free is free) goes through the wrappers below, which call
 * glibc's own allocator (__libc_*) and keep two atomic counters: live blocks
 * and live bytes (malloc_usable_size of each block, the same at allocation
 * and at free).  A thread writes them every CSPFIX_ALLOC_PERIOD_MS (default
 * 250) to the file named by CSPFIX_ALLOC_STATS, as one line
 *     <live blocks> <live bytes> <allocations so far> <injected leaks>
 * (written to a temporary file and renamed, so a reader never sees half a line).
 *
 * CSPFIX_LOAD_INJECT_LEAK=N (N > 0): a deliberate leak to prove the load test
 * can fail.  Each block of N bytes or more (N = 1: 256 KiB or more) that is
 * freed by another thread than the one that allocated it leaves behind one
 * malloc(64) that is never freed.  In the load test's pipeline such blocks are
 * the rawvideo demuxer's packets: allocated by the demuxer thread, their
 * buffer becomes the decoded frame's and is freed by the filter thread, once
 * per frame (the packets of the reads that hit the end of the looped file are
 * freed by the demuxer thread itself; cspfix's output frames come from a
 * buffer pool).  So this is one small leaked block per frame, which the test
 * must catch; the fourth number of the stats line counts them.
 *
 * Linux/glibc only (the __libc_* entry points); built as a shared object by
 * tests/tests.mk (load-shim).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *ptr, size_t size);
void *__libc_memalign(size_t align, size_t size);
void  __libc_free(void *ptr);

#define EXPORT __attribute__((visibility("default")))

static atomic_llong live_blocks, live_bytes, n_allocs, n_injected;
static size_t inject_min;            /* 0: no injected leak */
static char stats_path[512];
static long period_ms = 250;

static void count_alloc(void *p)
{
    if (!p)
        return;
    atomic_fetch_add_explicit(&live_blocks, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&live_bytes, (long long)malloc_usable_size(p), memory_order_relaxed);
    atomic_fetch_add_explicit(&n_allocs, 1, memory_order_relaxed);
}

static void count_free(void *p)
{
    if (!p)
        return;
    atomic_fetch_sub_explicit(&live_blocks, 1, memory_order_relaxed);
    atomic_fetch_sub_explicit(&live_bytes, (long long)malloc_usable_size(p), memory_order_relaxed);
}

/* the large blocks alive (address and allocating thread), for the injected leak */
#define BIG_MAX 1024
static struct { void *p; pid_t tid; } big[BIG_MAX];
static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;

static void big_alloc(void *p, size_t size)
{
    if (!inject_min || size < inject_min)
        return;
    pthread_mutex_lock(&big_lock);
    for (int i = 0; i < BIG_MAX; i++)
        if (!big[i].p) {
            big[i].p   = p;
            big[i].tid = gettid();
            break;
        }
    pthread_mutex_unlock(&big_lock);
}

/* p is freed: if it is a large block allocated by another thread, leak one
 * small block; with leak = 0 (p moved by realloc) only forget it */
static void big_release(void *p, int leak);

static void big_free(void *p)
{
    big_release(p, 1);
}

static void big_release(void *p, int leak_it)
{
    pid_t tid = -1;

    if (!inject_min || !p || malloc_usable_size(p) < inject_min)
        return;
    pthread_mutex_lock(&big_lock);
    for (int i = 0; i < BIG_MAX; i++)
        if (big[i].p == p) {
            tid       = big[i].tid;
            big[i].p  = NULL;
            break;
        }
    pthread_mutex_unlock(&big_lock);
    if (leak_it && tid >= 0 && tid != gettid()) {
        void *leak = __libc_malloc(64);
        if (leak) {
            memset(leak, 0x5a, 64);
            count_alloc(leak);
            atomic_fetch_add_explicit(&n_injected, 1, memory_order_relaxed);
        }
    }
}

EXPORT void *malloc(size_t size)
{
    void *p = __libc_malloc(size);
    count_alloc(p);
    if (p)
        big_alloc(p, size);
    return p;
}

EXPORT void *calloc(size_t n, size_t size)
{
    void *p = __libc_calloc(n, size);
    count_alloc(p);
    if (p && size && n <= SIZE_MAX / size)
        big_alloc(p, n * size);
    return p;
}

EXPORT void free(void *ptr)
{
    big_free(ptr);
    count_free(ptr);
    __libc_free(ptr);
}

EXPORT void *realloc(void *ptr, size_t size)
{
    size_t old = ptr ? malloc_usable_size(ptr) : 0;
    void *p;

    if (ptr && !size) {           /* glibc: realloc(p, 0) frees p */
        big_free(ptr);
        count_free(ptr);
        return __libc_realloc(ptr, 0);
    }
    if (ptr)
        big_release(ptr, 0);      /* re-registered below if still large */
    p = __libc_realloc(ptr, size);
    if (!p) {
        if (ptr)
            big_alloc(ptr, old);  /* ptr is untouched */
        return NULL;
    }
    if (!ptr) {
        count_alloc(p);
    } else {
        atomic_fetch_add_explicit(&live_bytes, (long long)malloc_usable_size(p) - (long long)old,
                                  memory_order_relaxed);
    }
    big_alloc(p, size);
    return p;
}

EXPORT void *reallocarray(void *ptr, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(ptr, n * size);
}

EXPORT void *memalign(size_t align, size_t size)
{
    void *p = __libc_memalign(align, size);
    count_alloc(p);
    if (p)
        big_alloc(p, size);
    return p;
}

EXPORT void *aligned_alloc(size_t align, size_t size)
{
    return memalign(align, size);
}

EXPORT int posix_memalign(void **out, size_t align, size_t size)
{
    void *p;

    if (!align || (align & (align - 1)) || align % sizeof(void *))
        return EINVAL;
    p = memalign(align, size);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

EXPORT void *valloc(size_t size)
{
    return memalign(sysconf(_SC_PAGESIZE), size);
}

static void write_stats(void)
{
    char tmp[600], line[128];
    int fd, len;

    snprintf(tmp, sizeof(tmp), "%s.tmp", stats_path);
    len = snprintf(line, sizeof(line), "%lld %lld %lld %lld\n",
                   (long long)atomic_load(&live_blocks), (long long)atomic_load(&live_bytes),
                   (long long)atomic_load(&n_allocs), (long long)atomic_load(&n_injected));
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return;
    if (write(fd, line, len) == len) {
        close(fd);
        rename(tmp, stats_path);
    } else {
        close(fd);
    }
}

static void *stats_thread(void *arg)
{
    (void)arg;
    struct timespec ts = { period_ms / 1000, (period_ms % 1000) * 1000000L };

    for (;;) {
        write_stats();
        nanosleep(&ts, NULL);
    }
    return NULL;
}

__attribute__((constructor)) static void shim_init(void)
{
    const char *path = getenv("CSPFIX_ALLOC_STATS");
    const char *inj  = getenv("CSPFIX_LOAD_INJECT_LEAK");
    const char *per  = getenv("CSPFIX_ALLOC_PERIOD_MS");
    pthread_attr_t attr;
    pthread_t tid;

    if (inj && atol(inj) > 0)
        inject_min = atol(inj) == 1 ? 256 << 10 : (size_t)atol(inj);
    if (per && atol(per) > 0)
        period_ms = atol(per);
    if (!path || !*path || strlen(path) >= sizeof(stats_path))
        return;
    strcpy(stats_path, path);
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_create(&tid, &attr, stats_thread, NULL);
    pthread_attr_destroy(&attr);
}

__attribute__((destructor)) static void shim_fini(void)
{
    if (stats_path[0])
        write_stats();
}
