/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/event.h"

#include <stdio.h>
#include <stdlib.h>

void event_bus_init(event_bus *eb, const uint64_t *now)
{
    memset(eb, 0, sizeof *eb);
    eb->now = now;
    eb->next_id = 1;
}

static void free_subs(event_sub *s)
{
    while (s) {
        event_sub *n = s->next;
        free(s);
        s = n;
    }
}

void event_bus_free(event_bus *eb)
{
    for (unsigned i = 0; i < eb->nsrcs; i++) {
        free_subs(eb->srcs[i]->subs);
        free(eb->srcs[i]);
    }
    free(eb->srcs);
    memset(eb, 0, sizeof *eb);
}

event_src *event_src_add(event_bus *eb, const char *prefix, const event_decl *decl, void *owner)
{
    if (eb->nsrcs == eb->cap) {
        unsigned cap = eb->cap ? eb->cap * 2 : 64;
        eb->srcs = xrealloc(eb->srcs, cap * sizeof *eb->srcs);
        eb->cap = cap;
    }
    event_src *s = xcalloc(1, sizeof *s);
    if (prefix && *prefix)
        snprintf(s->name, sizeof s->name, "%s.%s", prefix, decl->name);
    else
        snprintf(s->name, sizeof s->name, "%s", decl->name);
    s->decl = decl;
    s->owner = owner;
    s->bus = eb;
    eb->srcs[eb->nsrcs++] = s;
    return s;
}

event_src *event_find(event_bus *eb, const char *name)
{
    for (unsigned i = 0; i < eb->nsrcs; i++)
        if (strcmp(eb->srcs[i]->name, name) == 0)
            return eb->srcs[i];
    return NULL;
}

static int subscribe_id(event_src *src, event_fn fn, void *ctx, int id)
{
    event_sub *s = xcalloc(1, sizeof *s);
    s->fn = fn;
    s->ctx = ctx;
    s->id = id;
    /* Append so that subscribers run in subscription order. */
    event_sub **pp = &src->subs;
    while (*pp)
        pp = &(*pp)->next;
    *pp = s;
    return id;
}

int event_subscribe(event_src *src, event_fn fn, void *ctx)
{
    return subscribe_id(src, fn, ctx, src->bus->next_id++);
}

int event_subscribe_glob(event_bus *eb, const char *pattern, event_fn fn, void *ctx)
{
    int id = eb->next_id, n = 0;
    for (unsigned i = 0; i < eb->nsrcs; i++)
        if (glob_match(pattern, eb->srcs[i]->name) && subscribe_id(eb->srcs[i], fn, ctx, id))
            n++;
    if (!n)
        return 0;
    eb->next_id++;
    return id;
}

static void sweep(event_bus *eb)
{
    for (unsigned i = 0; i < eb->nsrcs; i++) {
        event_sub **pp = &eb->srcs[i]->subs;
        while (*pp) {
            if ((*pp)->dead) {
                event_sub *d = *pp;
                *pp = d->next;
                free(d);
            } else {
                pp = &(*pp)->next;
            }
        }
    }
    eb->need_sweep = false;
}

void event_unsubscribe(event_bus *eb, int id)
{
    for (unsigned i = 0; i < eb->nsrcs; i++)
        for (event_sub *s = eb->srcs[i]->subs; s; s = s->next)
            if (s->id == id)
                s->dead = true;
    if (eb->dispatching)
        eb->need_sweep = true;
    else
        sweep(eb);
}

int event_field_index(const event_src *src, const char *field)
{
    for (unsigned i = 0; i < src->decl->nfields; i++)
        if (strcmp(src->decl->fields[i].name, field) == 0)
            return (int)i;
    return -1;
}

void event_dispatch(event_src *src, int initiator, const uint64_t *vals, unsigned n)
{
    event_bus *eb = src->bus;
    event ev = {.src = src,
                .time = eb->now ? *eb->now : 0,
                .initiator = initiator,
                .nvals = n,
                .vals = vals};
    eb->dispatching++;
    for (event_sub *s = src->subs; s; s = s->next)
        if (!s->dead)
            s->fn(s->ctx, &ev);
    if (--eb->dispatching == 0 && eb->need_sweep)
        sweep(eb);
}

static void format_value(const event_field *f, uint64_t v, strbuf *out)
{
    switch (f->fmt) {
    case EVF_DEC: sb_printf(out, "%llu", (unsigned long long)v); break;
    case EVF_BOOL: sb_puts(out, v ? "1" : "0"); break;
    case EVF_ENUM: {
        unsigned i = 0;
        while (f->names && f->names[i] && i < v)
            i++;
        if (f->names && f->names[i] && i == v)
            sb_puts(out, f->names[i]);
        else
            sb_printf(out, "%llu", (unsigned long long)v);
        break;
    }
    case EVF_FLAGS: {
        sb_printf(out, "0x%llx", (unsigned long long)v);
        if (f->names && v) {
            sb_putc(out, '<');
            bool first = true;
            for (unsigned i = 0; f->names[i] && i < 64; i++) {
                if (v & (1ull << i) && f->names[i][0]) {
                    sb_printf(out, "%s%s", first ? "" : ",", f->names[i]);
                    first = false;
                }
            }
            sb_putc(out, '>');
        }
        break;
    }
    default: sb_printf(out, "0x%llx", (unsigned long long)v);
    }
}

void event_format(const event *ev, strbuf *out)
{
    sb_puts(out, ev->src->name);
    const event_decl *d = ev->src->decl;
    for (unsigned i = 0; i < ev->nvals && i < d->nfields; i++) {
        sb_printf(out, " %s=", d->fields[i].name);
        if (d->fields[i].format)
            d->fields[i].format(ev, ev->vals[i], out);
        else
            format_value(&d->fields[i], ev->vals[i], out);
    }
}

bool glob_match(const char *p, const char *s)
{
    if (*p == 0)
        return *s == 0;
    if (*p == '*') {
        for (const char *t = s;; t++) {
            if (glob_match(p + 1, t))
                return true;
            if (!*t)
                return false;
        }
    }
    if (*s && (*p == '?' || *p == *s))
        return glob_match(p + 1, s + 1);
    return false;
}
