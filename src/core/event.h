/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event bus between the machine and the debugger.
 *
 * Devices and CPUs declare typed events (a name and named fields) and publish
 * them; the debugger, counters, tracer, pcap writer and TUI subscribe.  An
 * event source with no subscriber costs one pointer test at the publishing
 * site (EVENT_EMIT below). */
#ifndef XBOW_EVENT_H
#define XBOW_EVENT_H

#include "core/common.h"
#include "core/strbuf.h"

enum evf_fmt {
    EVF_HEX,  /* 0x1f */
    EVF_DEC,  /* 31 */
    EVF_ENUM, /* index into `names` */
    EVF_BOOL,
    EVF_FLAGS /* bit i set prints names[i] */
};

struct event;
struct strbuf;

typedef struct event_field {
    const char *name;
    enum evf_fmt fmt;
    const char *const *names; /* for EVF_ENUM / EVF_FLAGS, NULL-terminated */
    /* optional custom formatter (register names and the like) */
    void (*format)(const struct event *ev, uint64_t v, strbuf *out);
} event_field;

/* Declared once per event kind, statically, by a device or the CPU. */
typedef struct event_decl {
    const char *name; /* "tx.desc-fetch", relative to the publisher */
    const char *desc;
    const event_field *fields;
    unsigned nfields;
} event_decl;

#define EVENT_MAX_FIELDS 12

struct event_src;

typedef struct event {
    const struct event_src *src;
    uint64_t time; /* virtual time (ticks) */
    int initiator; /* who caused it (bus initiator id), -1 if none */
    unsigned nvals;
    const uint64_t *vals;
} event;

typedef void (*event_fn)(void *ctx, const event *ev);

typedef struct event_sub {
    event_fn fn;
    void *ctx;
    int id;
    bool dead;
    struct event_sub *next;
} event_sub;

struct event_bus;

/* One publishing point: a declared event of a device instance. */
typedef struct event_src {
    char name[64]; /* "hamachi0.tx.desc-fetch" */
    const event_decl *decl;
    void *owner; /* the device or CPU */
    event_sub *subs;
    struct event_bus *bus;
} event_src;

typedef struct event_bus {
    event_src **srcs;
    unsigned nsrcs, cap;
    const uint64_t *now; /* virtual clock for time stamps */
    int next_id;
    int dispatching;
    bool need_sweep;
} event_bus;

void event_bus_init(event_bus *eb, const uint64_t *now);
void event_bus_free(event_bus *eb);
/* Register a source named "<prefix>.<decl->name>" (or decl->name when
 * prefix is NULL or empty). */
event_src *event_src_add(event_bus *eb, const char *prefix, const event_decl *decl, void *owner);
event_src *event_find(event_bus *eb, const char *name);
/* Subscribe to one source; returns a subscription id (> 0). */
int event_subscribe(event_src *src, event_fn fn, void *ctx);
/* Subscribe to every source whose name matches a glob pattern ("hamachi0.*",
 * "*.irq.raise").  Returns the subscription id shared by all, 0 if none matched. */
int event_subscribe_glob(event_bus *eb, const char *pattern, event_fn fn, void *ctx);
void event_unsubscribe(event_bus *eb, int id);
int event_field_index(const event_src *src, const char *field);

void event_dispatch(event_src *src, int initiator, const uint64_t *vals, unsigned n);
/* "name field=value field=value" */
void event_format(const event *ev, strbuf *out);

static inline bool event_armed(const event_src *src) { return src && src->subs; }

/* Publish an event: the value list is only built when someone listens. */
#define EVENT_EMIT(src, initiator, ...)                                           \
    do {                                                                          \
        event_src *ev_src_ = (src);                                               \
        if (unlikely(ev_src_ && ev_src_->subs)) {                                 \
            const uint64_t ev_vals_[] = {__VA_ARGS__};                            \
            event_dispatch(ev_src_, (initiator), ev_vals_, ARRAY_SIZE(ev_vals_)); \
        }                                                                         \
    } while (0)

bool glob_match(const char *pattern, const char *s);

#endif
